import type * as Flexible from 'rate-limiter-flexible';

/**
 * The limiter classes Rowspace uses, each from its own file: the package's index loads every
 * store it supports (MongoDB, MySQL, Etcd, DynamoDB…), which slows start-up for nothing.
 */
export const RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof Flexible.RateLimiterMemory;
export const RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis') as typeof Flexible.RateLimiterRedis;
export const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes') as typeof Flexible.RateLimiterRes;
export type RateLimiterAbstract = Flexible.RateLimiterAbstract;

/**
 * A counter every instance shares: in Redis when it is configured, else in this process's
 * memory. `insurance`: while Redis is unreachable each instance counts on its own instead of
 * failing (for limits that must not refuse everyone when Redis is down).
 */
export function sharedLimiter(
  redis: { enabled: boolean; client: unknown },
  options: { keyPrefix: string; points: number; duration: number },
  { insurance = false }: { insurance?: boolean } = {},
): RateLimiterAbstract {
  if (!redis.enabled) return new RateLimiterMemory(options);
  return new RateLimiterRedis({ ...options, storeClient: redis.client, ...(insurance ? { insuranceLimiter: new RateLimiterMemory(options) } : {}) });
}
