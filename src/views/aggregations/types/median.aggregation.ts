import { Injectable } from '@nestjs/common';
import { AggregationQuery, NUMERIC_TYPES, toFloat, toNumber, ViewAggregationType } from '../aggregation-type';

/**
 * `median`: PostgreSQL's `percentile_cont(0.5)`: the middle value, or the mean of the two
 * middle ones, read from the ordered values (SQLite has no percentile function).
 */
@Injectable()
export class MedianAggregationType implements ViewAggregationType {
  readonly type = 'median';
  readonly compatibleFieldTypes = NUMERIC_TYPES;

  async compute(query: AggregationQuery): Promise<unknown> {
    const notNull = (_sql: unknown, value: string) => `${value} IS NOT NULL`;
    const [counted] = await query.rows({ select: () => 'COUNT(*) AS "v"', condition: notNull });
    const n = Number(counted.v);
    if (!n) return null;
    const take = n % 2 ? 1 : 2;
    const skip = Math.floor((n - 1) / 2);
    const rows = await query.rows({ select: (_sql, value) => `${value} AS "v"`, condition: notNull, tail: (_sql, value) => `ORDER BY ${value} ASC LIMIT ${take} OFFSET ${skip}` });
    const values = rows.map((row) => toNumber(row.v) as number);
    return toFloat(values.reduce((a, b) => a + b, 0) / values.length);
  }
}
