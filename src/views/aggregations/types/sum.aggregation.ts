import { Injectable } from '@nestjs/common';
import type { AggregationQuery, ViewAggregationType } from '../aggregation-type';

/** `sum`: the total of the values (null without any). */
@Injectable()
export class SumAggregationType implements ViewAggregationType {
  readonly type = 'sum';
  readonly compatibleFieldTypes = ['number', 'rating', 'duration'];

  async compute(query: AggregationQuery): Promise<unknown> {
    const [row] = await query.rows({ select: (_sql, value) => `SUM(${value}) AS "v"` });
    return query.format(row.v);
  }
}
