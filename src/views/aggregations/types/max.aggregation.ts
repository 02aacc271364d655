import { Injectable } from '@nestjs/common';
import { MinAggregationType } from './min.aggregation';

/** `max`: the largest value (numbers, durations, dates). */
@Injectable()
export class MaxAggregationType extends MinAggregationType {
  readonly type: string = 'max';
  protected readonly fn: string = 'MAX';
}
