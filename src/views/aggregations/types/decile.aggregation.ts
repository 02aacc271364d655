import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, NUMERIC_TYPES, ViewAggregationType } from '../aggregation-type';
import { percentiles } from './median.aggregation';

/** `decile`: the nine deciles, `percentile_cont` at 0.1 … 0.9 (nulls without values). */
@Injectable()
export class DecileAggregationType implements ViewAggregationType {
  readonly type = 'decile';
  readonly compatibleFieldTypes = NUMERIC_TYPES;
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    return percentiles(query, [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => d / 10));
  }
}
