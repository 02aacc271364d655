import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, numericAggregate, ViewAggregationType } from '../aggregation-type';

/** `sum`: the total of the values (null without any; NaN with a NaN). */
@Injectable()
export class SumAggregationType implements ViewAggregationType {
  readonly type = 'sum';
  readonly compatibleFieldTypes = ['number', 'rating', 'duration'];
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: (sql, value) => `${numericAggregate(sql, value, `SUM(${value})`)} AS "v"` });
    return query.format(row.v);
  }
}
