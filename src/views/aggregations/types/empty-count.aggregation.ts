import { Injectable } from '@nestjs/common';
import { AggregationQuery, COUNTABLE_FORMULA_TYPES, COUNTABLE_TYPES, ViewAggregationType } from '../aggregation-type';

/** `empty_count`: rows whose cell is empty (a relation without rows counts as empty). */
@Injectable()
export class EmptyCountAggregationType implements ViewAggregationType {
  readonly type: string = 'empty_count';
  readonly compatibleFieldTypes = COUNTABLE_TYPES;
  readonly compatibleFormulaTypes = COUNTABLE_FORMULA_TYPES;

  protected condition(query: AggregationQuery, sql: Parameters<AggregationQuery['empty']>[0]): string {
    return query.empty(sql);
  }

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: () => 'COUNT(*) AS "v"', condition: (sql) => this.condition(query, sql) });
    return Number(row.v);
  }
}
