import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_FORMULA_TYPES, NUMERIC_TYPES, toFloat, toNumber, ViewAggregationType } from '../aggregation-type';

/**
 * PostgreSQL's `percentile_cont(fraction)` of the non-null values, read from the ordered values
 * (SQLite has no percentile function): the value at `fraction × (n − 1)`, interpolated between
 * its two neighbours. Null without values.
 */
export async function percentiles(query: AggregationQuery, fractions: number[]): Promise<(number | null)[]> {
  const notNull = (_sql: unknown, value: string) => `${value} IS NOT NULL`;
  const [counted] = await query.rows({ select: () => 'COUNT(*) AS "v"', condition: notNull });
  const n = Number(counted.v);
  const result: (number | null)[] = [];
  for (const fraction of fractions) {
    if (!n) {
      result.push(null);
      continue;
    }
    const position = fraction * (n - 1);
    const lower = Math.floor(position);
    const take = Math.ceil(position) > lower ? 2 : 1;
    const rows = await query.rows({ select: (_sql, value) => `${value} AS "v"`, condition: notNull, tail: (_sql, value) => `ORDER BY ${value} ASC LIMIT ${take} OFFSET ${lower}` });
    const [low, high] = rows.map((row) => toNumber(row.v) as number);
    result.push(toFloat(take === 1 ? low : low + (position - lower) * (high - low)));
  }
  return result;
}

/** `median`: `percentile_cont(0.5)`, the middle value or the mean of the two middle ones. */
@Injectable()
export class MedianAggregationType implements ViewAggregationType {
  readonly type = 'median';
  readonly compatibleFieldTypes = NUMERIC_TYPES;
  readonly compatibleFormulaTypes = NUMERIC_FORMULA_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    return (await percentiles(query, [0.5]))[0];
  }
}
