import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, NUMERIC_TYPES, numericAggregate, toFloat, toNumber, ViewAggregationType } from '../aggregation-type';

/**
 * The population variance of the non-null values (Django's `Variance`) in two passes, the mean
 * and then the mean squared deviation from it, so SQLite (no VAR_POP) answers as PostgreSQL;
 * a NaN value makes the mean, and so the variance, NaN (PostgreSQL's numeric var_pop).
 */
export async function populationVariance(query: AggregationQuery): Promise<number | null> {
  const notNull = (_sql: unknown, value: string) => `${value} IS NOT NULL`;
  const [mean] = await query.rows({ select: (sql, value) => `${numericAggregate(sql, value, `AVG(${value})`)} AS "v"`, condition: notNull });
  const average = toNumber(mean.v);
  if (average === null || Number.isNaN(average)) return average;
  const [row] = await query.rows({
    select: (sql, value) => {
      const m = sql.param(average);
      const n = sql.param(average);
      return `AVG((${value} - ${m}) * (${value} - ${n})) AS "v"`;
    },
    condition: notNull,
  });
  return toFloat(row.v);
}

/** `variance`: the population variance. */
@Injectable()
export class VarianceAggregationType implements ViewAggregationType {
  readonly type = 'variance';
  readonly compatibleFieldTypes = NUMERIC_TYPES;
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    return populationVariance(query);
  }
}
