import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, NUMERIC_TYPES, toFloat, ViewAggregationType } from '../aggregation-type';
import { populationVariance } from './variance.aggregation';

/** `std_dev`: the population standard deviation (Django's `StdDev`), the root of the variance. */
@Injectable()
export class StdDevAggregationType implements ViewAggregationType {
  readonly type = 'std_dev';
  readonly compatibleFieldTypes = NUMERIC_TYPES;
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    const variance = await populationVariance(query);
    return variance === null ? null : toFloat(Math.sqrt(variance));
  }
}
