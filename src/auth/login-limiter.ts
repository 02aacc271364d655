import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { ApiError } from '../core/errors/api-error';
import { RedisService } from '../core/redis/redis.service';

/**
 * Limits failed sign-ins per e-mail and per IP address within a window (spec decision 8).
 * Only failures count: successful logins are never limited, since automation clients log in
 * at every step. Counters live in Redis when several instances share it, else in memory.
 */
@Injectable()
export class LoginLimiter {
  private readonly memory = new Map<string, { count: number; expiresAt: number }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  private keys(email: string, ip: string): [string, number][] {
    return [
      [`${this.config.redisChannelPrefix}:login-failures:email:${email}`, this.config.loginMaxFailuresPerEmail],
      [`${this.config.redisChannelPrefix}:login-failures:ip:${ip}`, this.config.loginMaxFailuresPerIp],
    ];
  }

  /** 429 `ERROR_TOO_MANY_LOGIN_ATTEMPTS` when either counter is at its limit. */
  async check(email: string, ip: string): Promise<void> {
    for (const [key, limit] of this.keys(email, ip)) {
      if ((await this.count(key)) >= limit) {
        throw new ApiError(
          'ERROR_TOO_MANY_LOGIN_ATTEMPTS',
          429,
          'Too many failed login attempts. Please try again later.',
        );
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const window = this.config.loginFailureWindowSeconds;
    for (const [key] of this.keys(email, ip)) {
      if (this.redis.enabled) {
        const count = await this.redis.client.incr(key);
        if (count === 1) await this.redis.client.expire(key, window);
      } else {
        const now = Date.now();
        const entry = this.memory.get(key);
        if (!entry || entry.expiresAt <= now) this.memory.set(key, { count: 1, expiresAt: now + window * 1000 });
        else entry.count += 1;
      }
    }
  }

  /** A successful login forgets the e-mail's failures (the IP counter stays: it guards every account). */
  async recordSuccess(email: string): Promise<void> {
    const [[key]] = this.keys(email, '');
    if (this.redis.enabled) await this.redis.client.del(key);
    else this.memory.delete(key);
  }

  private async count(key: string): Promise<number> {
    if (this.redis.enabled) return Number((await this.redis.client.get(key)) ?? 0);
    const entry = this.memory.get(key);
    if (!entry) return 0;
    if (entry.expiresAt <= Date.now()) {
      this.memory.delete(key);
      return 0;
    }
    return entry.count;
  }
}
