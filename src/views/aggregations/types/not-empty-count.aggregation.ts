import { Injectable } from '@nestjs/common';
import type { AggregationQuery } from '../aggregation-type';
import { EmptyCountAggregationType } from './empty-count.aggregation';

/** `not_empty_count`: rows whose cell has a value. */
@Injectable()
export class NotEmptyCountAggregationType extends EmptyCountAggregationType {
  readonly type: string = 'not_empty_count';

  protected condition(query: AggregationQuery, sql: Parameters<AggregationQuery['empty']>[0]): string {
    return `NOT (${query.empty(sql)})`;
  }
}
