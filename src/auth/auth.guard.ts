import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Caches, MetadataCache } from '../core/cache/caches';
import { RequestContext } from '../core/context/request-context';
import { Errors, PlainHttpError } from '../core/errors/api-error';
import { AuthenticatedToken, TokenAuthenticator } from '../tokens/token-authenticator';
import { TokenAuthenticationFailure } from '../tokens/tokens.errors';
import { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { AUTH_SCHEMES, AuthScheme, authenticationOf, OPTIONAL_USER, tokenOperationsOf } from './decorators';
import { TokenService } from './token.service';

/** Whether a token issued at `iat` (seconds) predates the user's last password change. */
export function issuedBeforePasswordChange(user: UserEntity, iat: number): boolean {
  return user.passwordChangedAt != null && iat * 1000 < user.passwordChangedAt.getTime();
}

type AuthRequest = Request & { user?: UserEntity; databaseToken?: AuthenticatedToken; publicViewToken?: string | null };
const JWT_CHALLENGE = { 'WWW-Authenticate': 'JWT realm="api"' };

/**
 * The one authentication guard. A route declares the schemes it accepts (`Authentication`;
 * none: public) and the guard runs the strategy the `Authorization` keyword names:
 * `JWT <access token>` (the user) or `Token <key>` (a database token: its owner acts, within
 * the token's grants for the operations the route declares with `TokenOperations`).
 * A scheme the route does not accept is not recognised, as in Baserow: not authenticated.
 * `PublicView` routes (shared views) are open: without an `Authorization` header the request
 * is anonymous, and the view's password token is taken from `Baserow-View-Authorization`.
 * Records the acting user and `WebSocketId` for events.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** Users by id, as a JWT names them (a metadata cache: a changed or deleted user is seen at once). */
  private readonly userCache: MetadataCache<number, UserEntity | null>;

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UserRepository,
    private readonly databaseTokens: TokenAuthenticator,
    caches: Caches,
  ) {
    this.userCache = caches.metadata<number, UserEntity | null>('jwt-users');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const schemes = authenticationOf(this.reflector, context.getHandler(), context.getClass());
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const webSocketId = (req.headers['websocketid'] as string | undefined) ?? null;
    RequestContext.setActor(null, webSocketId);
    const header = req.headers.authorization;
    const parts = header?.trim().split(/\s+/) ?? [];
    if (!schemes.length) {
      // Another keyword is not a credential DRF's JWT authentication reads: anonymous.
      if (parts[0] === 'JWT' && this.reflector.get<boolean>(OPTIONAL_USER, context.getHandler())) await this.authenticateJwt(req, parts, webSocketId);
      return true;
    }
    if (schemes.includes('PublicView')) {
      req.publicViewToken = publicViewToken(req.headers[AUTH_SCHEMES.PublicView.header.toLowerCase()]);
      // Anything but a JWT is not a credential here (Baserow's only authentication class): anonymous.
      if (!header || parts[0] !== 'JWT') return true;
    }
    // Baserow's token-only views have no challenge header, so DRF answers their failures with 403.
    const tokenOnly = !schemes.includes('JWT');
    if (header && parts[0].toLowerCase() === 'token' && schemes.includes('Token')) {
      const token = await this.authenticateToken(parts, tokenOnly);
      req.user = token.user;
      req.databaseToken = token;
      RequestContext.setActor(token.user.id, webSocketId);
      RequestContext.setTableGrant(token.grants.grant(tokenOperationsOf(this.reflector, context.getHandler(), context.getClass())));
      return true;
    }
    if (!header || parts[0] !== 'JWT' || !schemes.includes('JWT')) throw this.notAuthenticated(schemes);
    await this.authenticateJwt(req, parts, webSocketId);
    return true;
  }

  private async authenticateJwt(req: AuthRequest, parts: string[], webSocketId: string | null): Promise<void> {
    if (parts.length !== 2) {
      throw new PlainHttpError(401, { detail: 'Authorization header must contain two space-delimited values' }, JWT_CHALLENGE);
    }
    const claims = this.tokens.verify(parts[1], 'access');
    if (!claims) throw Errors.invalidAccessToken();
    const user = await this.userCache.get(claims.user_id, () => this.users.findById(claims.user_id));
    if (!user || !user.isActive || issuedBeforePasswordChange(user, claims.iat)) throw Errors.invalidAccessToken();
    req.user = user;
    RequestContext.setActor(user.id, webSocketId);
    const session = undoSessionOf(req.headers);
    RequestContext.setUndoSession(session.clientSessionId, session.actionGroupId);
  }

  private async authenticateToken(parts: string[], tokenOnly: boolean): Promise<AuthenticatedToken> {
    try {
      return await this.databaseTokens.authenticate(parts);
    } catch (error) {
      if (!(error instanceof TokenAuthenticationFailure)) throw error;
      const body = { detail: error.detail, error: error.code };
      throw tokenOnly ? new PlainHttpError(403, body) : new PlainHttpError(401, body, JWT_CHALLENGE);
    }
  }

  private notAuthenticated(schemes: readonly AuthScheme[]): PlainHttpError {
    if (schemes.includes('JWT')) return Errors.notAuthenticated();
    return new PlainHttpError(403, { detail: 'Authentication credentials were not provided.' });
  }
}

/** Baserow's MAX_CLIENT_SESSION_ID_LENGTH. */
const MAX_CLIENT_SESSION_ID_LENGTH = 256;
const CLIENT_SESSION_ID = /^[0-9a-zA-Z-]+$/;

/**
 * The undo headers of a JWT request (Baserow's `api/sessions.py`): `ClientSessionId` (1 to 256
 * letters, digits or `-`) and `ClientUndoRedoActionGroupId` (a UUID in any of Python's accepted
 * spellings, kept in its canonical form). A malformed one refuses the request with Baserow's
 * odd bodies: `{"detail"}` without an error code, and a bare JSON array.
 */
export function undoSessionOf(headers: Request['headers']): { clientSessionId: string | null; actionGroupId: string | null } {
  const session = headers.clientsessionid;
  if (session !== undefined && (typeof session !== 'string' || session.length > MAX_CLIENT_SESSION_ID_LENGTH || !CLIENT_SESSION_ID.test(session))) {
    throw new PlainHttpError(400, {
      detail: 'An invalid ClientSessionId header was provided. It must be between 1 and 256 characters long and must only contain alphanumeric or the - characters.',
    });
  }
  const group = headers.clientundoredoactiongroupid;
  let actionGroupId: string | null = null;
  if (group !== undefined) {
    actionGroupId = typeof group === 'string' ? canonicalUuid(group) : null;
    if (actionGroupId === null) throw new PlainHttpError(400, ['An invalid ClientUndoRedoActionGroupId header was provided. It must be a valid Version 4 UUID.']);
  }
  return { clientSessionId: session ?? null, actionGroupId };
}

/** Python's `uuid.UUID(text)` reading: `urn:uuid:` and braces allowed, hyphens anywhere; 32 hex digits. */
function canonicalUuid(text: string): string | null {
  const hex = text.replace(/urn:/g, '').replace(/uuid:/g, '').replace(/^[{}]+|[{}]+$/g, '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `JWT <token>` (Baserow's `get_public_view_authorization_token`): the token, or null for anything else. */
function publicViewToken(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null;
  const parts = value.trim().split(/\s+/);
  return parts.length === 2 && parts[0] === 'JWT' ? parts[1] : null;
}
