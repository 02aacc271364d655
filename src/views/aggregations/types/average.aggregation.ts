import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, NUMERIC_TYPES, numericAggregate, toFloat, ViewAggregationType } from '../aggregation-type';

/** `average`: the mean of the non-empty values (NaN with a NaN). */
@Injectable()
export class AverageAggregationType implements ViewAggregationType {
  readonly type = 'average';
  readonly compatibleFieldTypes = NUMERIC_TYPES;
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: (sql, value) => `${numericAggregate(sql, value, `AVG(${value})`)} AS "v"`, condition: (sql) => `NOT (${query.empty(sql)})` });
    return toFloat(row.v);
  }
}
