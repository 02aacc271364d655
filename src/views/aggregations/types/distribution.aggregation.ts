import { Injectable } from '@nestjs/common';
import type { AggregationQuery, ViewAggregationType } from '../aggregation-type';

/**
 * `distribution`: the ten most frequent values with their counts, `[[value, count], …]`, by
 * count then value (a single select by its option's value, collaborators by first name).
 */
@Injectable()
export class DistributionAggregationType implements ViewAggregationType {
  readonly type = 'distribution';
  readonly compatibleFieldTypes = [
    'text', 'long_text', 'url', 'number', 'rating', 'date', 'last_modified', 'last_modified_by', 'created_on', 'created_by', 'email', 'phone_number',
    'single_select', 'duration', 'boolean',
  ];
  readonly compatibleFormulaTypes = ['boolean', 'char', 'date', 'number', 'text'];

  async compute(query: AggregationQuery): Promise<unknown> {
    const rows = await query.rows({
      grouping: true,
      select: (_sql, value) => `${value} AS "v", COUNT(*) AS "c"`,
      tail: (_sql, value) => `GROUP BY ${value} ORDER BY "c" DESC, "v" ASC NULLS LAST LIMIT 10`,
    });
    const result: [unknown, number][] = [];
    for (const row of rows) result.push([await query.format(row.v), Number(row.c)]);
    return result;
  }
}
