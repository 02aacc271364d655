import type { IncomingMessage } from 'node:http';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, RequestHandler } from 'express';
import { authenticationOf } from '../../auth/decorators';
import { RateLimiterAbstract, RateLimiterRes, sharedLimiter } from './rate-limiters';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RequestContext } from '../context/request-context';
import { PlainHttpError } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';

/** Health checks are polled by load balancers and orchestrators: never limited. */
const EXEMPT = /^\/(api\/)?_health(\/|$)/;

/**
 * The general request limit: per client address (every request, before anything else runs)
 * and per authenticated user (a guard after authentication), over a fixed window. Anonymous
 * traffic of shared views (requests without credentials on routes that accept a view's token,
 * anonymous sockets and the pages they add) also counts against its own, smaller budget per
 * client address, so a flood on a shared view is refused long before members' requests are.
 * Counted in Redis when REDIS_URL is set, so every instance shares the budget; in memory otherwise.
 */
@Injectable()
export class RequestRateLimiter implements CanActivate {
  private readonly perIp: RateLimiterAbstract | null;
  private readonly perUser: RateLimiterAbstract | null;
  private readonly anonymous: RateLimiterAbstract | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly reflector: Reflector,
  ) {
    this.perIp = this.limiter('ip', config.rateLimitRequestsPerIp);
    this.perUser = this.limiter('user', config.rateLimitRequestsPerUser);
    this.anonymous = this.limiter('anonymous', config.rateLimitAnonymousRequestsPerIp);
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

  /** Once the auth guard has named the user: the per-user limit, or an anonymous request's on a shared view route. */
  // Not async: without a limit to consume, Nest goes on at once after a guard that answers a boolean
  // (an error thrown here is a rejection of Nest's guard check, as an async one's was).
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (EXEMPT.test(req.path)) return true;
    const { userId } = RequestContext.current();
    if (userId !== null) {
      if (this.perUser) return this.consume(this.perUser, String(userId)).then(() => true);
    } else if (this.anonymous && authenticationOf(this.reflector, context.getHandler(), context.getClass()).includes('PublicView')) {
      return this.consume(this.anonymous, clientAddress(req)).then(() => true);
    }
    return true;
  }

  /** Whether an anonymous socket of this client address may connect or add a page (each counts as a request). */
  async allowsAnonymousSocket(address: string): Promise<boolean> {
    if (!this.anonymous) return true;
    try {
      await this.consume(this.anonymous, address);
      return true;
    } catch (error) {
      if (error instanceof PlainHttpError) return false;
      throw error;
    }
  }

  private limiter(kind: string, points: number): RateLimiterAbstract | null {
    if (points === 0) return null;
    const options = { points, duration: this.config.rateLimitWindowSeconds, keyPrefix: `${this.config.redisChannelPrefix}:rate:${kind}` };
    // When Redis is unreachable, each instance keeps counting on its own rather than refusing everyone.
    return sharedLimiter(this.redis, options, { insurance: true });
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

/**
 * The client address of a WebSocket upgrade, as Express's `req.ip` reads it with the same
 * `trust proxy` function (`app.get('trust proxy fn')`): from the socket's peer back along
 * X-Forwarded-For, the first address not trusted (proxy-addr's rule).
 */
export function upgradeClientAddress(request: IncomingMessage, trust: ((address: string, hop: number) => boolean) | undefined): string {
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const addresses = [request.socket.remoteAddress ?? 'unknown', ...forwarded];
  for (let hop = 0; hop < addresses.length - 1; hop++) if (!trust?.(addresses[hop], hop)) return addresses[hop];
  return addresses[addresses.length - 1];
}
