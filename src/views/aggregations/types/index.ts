import type { ViewAggregationType } from '../aggregation-type';
import { AverageAggregationType } from './average.aggregation';
import { CountAggregationType } from './count.aggregation';
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

/**
 * Every raw view aggregation type Baserow 1.35.3 registers, by the views module. Its `range`
 * (min and max) is defined there but never registered: `type=range` is a type that does not exist.
 */
export const VIEW_AGGREGATION_TYPES: (new (...args: never[]) => ViewAggregationType)[] = [
  CountAggregationType,
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
