import type { ViewAggregationType } from '../aggregation-type';
import { AverageAggregationType } from './average.aggregation';
import { DecileAggregationType } from './decile.aggregation';
import { DistributionAggregationType } from './distribution.aggregation';
import { EmptyCountAggregationType } from './empty-count.aggregation';
import { MaxAggregationType } from './max.aggregation';
import { MedianAggregationType } from './median.aggregation';
import { MinAggregationType } from './min.aggregation';
import { NotEmptyCountAggregationType } from './not-empty-count.aggregation';
import { StdDevAggregationType } from './std-dev.aggregation';
import { SumAggregationType } from './sum.aggregation';
import { UniqueCountAggregationType } from './unique-count.aggregation';
import { VarianceAggregationType } from './variance.aggregation';

/** Every raw view aggregation type, registered by the views module. */
export const VIEW_AGGREGATION_TYPES: (new (...args: never[]) => ViewAggregationType)[] = [
  EmptyCountAggregationType,
  NotEmptyCountAggregationType,
  UniqueCountAggregationType,
  MinAggregationType,
  MaxAggregationType,
  SumAggregationType,
  AverageAggregationType,
  MedianAggregationType,
  DecileAggregationType,
  StdDevAggregationType,
  VarianceAggregationType,
  DistributionAggregationType,
];
