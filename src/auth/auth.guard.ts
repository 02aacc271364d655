import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestContext } from '../core/context/request-context';
import { Errors, PlainHttpError } from '../core/errors/api-error';
import { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { authenticationOf } from './decorators';
import { TokenService } from './token.service';

/** Whether a token issued at `iat` (seconds) predates the user's last password change. */
export function issuedBeforePasswordChange(user: UserEntity, iat: number): boolean {
  return user.passwordChangedAt != null && iat * 1000 < user.passwordChangedAt.getTime();
}

/**
 * Authenticates `Authorization: JWT <access token>` on every route declaring the JWT scheme
 * (see `Authentication`; routes declaring none are public),
 * with Baserow's 401 bodies, and records the acting user and `WebSocketId` for events.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UserRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const schemes = authenticationOf(this.reflector, context.getHandler(), context.getClass());
    const req = context.switchToHttp().getRequest<Request & { user?: UserEntity }>();
    const webSocketId = (req.headers['websocketid'] as string | undefined) ?? null;
    RequestContext.setActor(null, webSocketId);
    if (!schemes.length) return true;
    const header = req.headers.authorization;
    const parts = header?.trim().split(/\s+/) ?? [];
    if (!header || parts[0] !== 'JWT' || !schemes.includes('JWT')) throw Errors.notAuthenticated();
    if (parts.length !== 2) {
      throw new PlainHttpError(401, { detail: 'Authorization header must contain two space-delimited values' }, { 'WWW-Authenticate': 'JWT realm="api"' });
    }
    const claims = this.tokens.verify(parts[1], 'access');
    if (!claims) throw Errors.invalidAccessToken();
    const user = await this.users.findById(claims.user_id);
    if (!user || !user.isActive || issuedBeforePasswordChange(user, claims.iat)) throw Errors.invalidAccessToken();
    req.user = user;
    RequestContext.setActor(user.id, webSocketId);
    return true;
  }
}
