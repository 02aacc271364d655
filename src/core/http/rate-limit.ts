import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, RequestHandler } from 'express';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RequestContext } from '../context/request-context';
import { PlainHttpError } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';

/** Health checks are polled by load balancers and orchestrators: never limited. */
const EXEMPT = /^\/(api\/)?_health(\/|$)/;

/**
 * The general request limit: per client address (every request, before anything else runs)
 * and per authenticated user (a guard after authentication), over a fixed window. Counted in
 * Redis when REDIS_URL is set, so every instance shares the budget; in memory otherwise.
 */
@Injectable()
export class RequestRateLimiter implements CanActivate {
  private readonly perIp: RateLimiterAbstract | null;
  private readonly perUser: RateLimiterAbstract | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {
    this.perIp = this.limiter('ip', config.rateLimitRequestsPerIp);
    this.perUser = this.limiter('user', config.rateLimitRequestsPerUser);
  }

  /** The per-address limit, as the first middleware after the in-flight tracking. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      if (!this.perIp || EXEMPT.test(req.path)) return next();
      this.consume(this.perIp, clientAddress(req)).then(
        () => next(),
        (error: unknown) => next(error),
      );
    };
  }

  /** The per-user limit, once the auth guard has named the user. */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { userId } = RequestContext.current();
    if (!this.perUser || userId === null || context.getType() !== 'http') return true;
    if (!EXEMPT.test(context.switchToHttp().getRequest<Request>().path)) await this.consume(this.perUser, String(userId));
    return true;
  }

  private limiter(kind: string, points: number): RateLimiterAbstract | null {
    if (points === 0) return null;
    const options = { points, duration: this.config.rateLimitWindowSeconds, keyPrefix: `${this.config.redisChannelPrefix}:rate:${kind}` };
    if (!this.redis.enabled) return new RateLimiterMemory(options);
    // When Redis is unreachable, each instance keeps counting on its own rather than refusing everyone.
    return new RateLimiterRedis({ ...options, storeClient: this.redis.client, insuranceLimiter: new RateLimiterMemory(options) });
  }

  private async consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new PlainHttpError(
        429,
        { error: 'ERROR_TOO_MANY_REQUESTS', detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` },
        { 'Retry-After': String(seconds) },
      );
    }
  }
}

function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
