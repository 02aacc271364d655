import { Injectable } from '@nestjs/common';
import { AggregationQuery, COUNTABLE_FORMULA_TYPES, COUNTABLE_TYPES, ViewAggregationType } from '../aggregation-type';

/**
 * `count`: the rows of the selection, whatever the field's cells hold (Baserow's
 * `CountViewAggregationType`, on the fields `empty_count` applies to). Only the single-field
 * endpoint answers it: a grid footer cannot name it (`allowed_in_view = False`).
 */
@Injectable()
export class CountAggregationType implements ViewAggregationType {
  readonly type = 'count';
  readonly compatibleFieldTypes = COUNTABLE_TYPES;
  readonly compatibleFormulaTypes = COUNTABLE_FORMULA_TYPES;
  readonly allowedInView = false;

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: () => 'COUNT(*) AS "v"' });
    return Number(row.v);
  }
}
