import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterAbstract, sharedLimiter } from '../core/http/rate-limiters';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { ApiError } from '../core/errors/api-error';
import { RedisService } from '../core/redis/redis.service';

interface Counter {
  limiter: RateLimiterAbstract;
  key(email: string, ip: string): string;
}

/**
 * Limits failed sign-ins (spec decision 8) per (address, e-mail), per e-mail and, with a
 * high ceiling, per address: guessing one account is stopped early, while one address
 * shared by many users (NAT, a proxy) is not locked out by one attacker's failures.
 * Only failures count: automation clients log in at every step. Counters live in Redis
 * when it is configured, so every instance sees the same counts; else in memory.
 */
@Injectable()
export class LoginLimiter {
  private counters: Counter[] | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  private get all(): Counter[] {
    if (this.counters) return this.counters;
    const { redisChannelPrefix: prefix, loginFailureWindowSeconds: duration } = this.config;
    const limiter = (name: string, points: number) => {
      return sharedLimiter(this.redis, { keyPrefix: `${prefix}:login-failures:${name}`, points, duration });
    };
    this.counters = [
      { limiter: limiter('ip-email', this.config.loginMaxFailuresPerIpAndEmail), key: (email, ip) => `${ip} ${email}` },
      { limiter: limiter('email', this.config.loginMaxFailuresPerEmail), key: (email) => email },
      { limiter: limiter('ip', this.config.loginMaxFailuresPerIp), key: (_email, ip) => ip },
    ];
    return this.counters;
  }

  /** 429 `ERROR_TOO_MANY_LOGIN_ATTEMPTS` when any counter is at its limit (checked before the password). */
  async check(email: string, ip: string): Promise<void> {
    for (const { limiter, key } of this.all) {
      const state = await limiter.get(key(email, ip));
      if (state && state.consumedPoints >= limiter.points) {
        throw new ApiError('ERROR_TOO_MANY_LOGIN_ATTEMPTS', 429, 'Too many failed login attempts. Please try again later.');
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await Promise.all(this.all.map(({ limiter, key }) => limiter.penalty(key(email, ip), 1)));
  }

  /** A successful sign-in forgets its e-mail's failures; the address ceiling stays (it guards every account). */
  async recordSuccess(email: string, ip: string): Promise<void> {
    const [ipEmail, perEmail] = this.all;
    await Promise.all([ipEmail.limiter.delete(ipEmail.key(email, ip)), perEmail.limiter.delete(perEmail.key(email, ip))]);
  }
}
