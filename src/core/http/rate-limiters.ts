import type * as Flexible from 'rate-limiter-flexible';

/**
 * The limiter classes Rowspace uses, each from its own file: the package's index loads every
 * store it supports (MongoDB, MySQL, Etcd, DynamoDB…), which slows start-up for nothing.
 */
export const RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof Flexible.RateLimiterMemory;
export const RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis') as typeof Flexible.RateLimiterRedis;
export const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes') as typeof Flexible.RateLimiterRes;
export type RateLimiterAbstract = Flexible.RateLimiterAbstract;
