import { Injectable } from '@nestjs/common';
import type { AggregationQuery, ViewAggregationType } from '../aggregation-type';

/** `unique_count`: distinct non-null values (a single select counts its options, collaborators their users). */
@Injectable()
export class UniqueCountAggregationType implements ViewAggregationType {
  readonly type = 'unique_count';
  readonly compatibleFieldTypes = [
    'text', 'long_text', 'url', 'number', 'rating', 'date', 'last_modified', 'last_modified_by', 'created_on', 'created_by', 'email', 'phone_number',
    'single_select', 'duration',
  ];
  readonly compatibleFormulaTypes = ['text', 'char', 'number', 'date'];

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: (_sql, value) => `COUNT(DISTINCT ${value}) AS "v"` });
    return Number(row.v);
  }
}
