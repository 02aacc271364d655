import { Injectable } from '@nestjs/common';
import type { AggregationQuery, ViewAggregationType } from '../aggregation-type';

/** `min`: the smallest value (numbers, durations, dates). */
@Injectable()
export class MinAggregationType implements ViewAggregationType {
  readonly type: string = 'min';
  readonly compatibleFieldTypes = ['date', 'number', 'rating', 'last_modified', 'created_on', 'autonumber', 'duration'];
  readonly compatibleFormulaTypes = ['number', 'date'];
  protected readonly fn: string = 'MIN';

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: (_sql, value) => `${this.fn}(${value}) AS "v"` });
    return query.format(row.v);
  }
}
