import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { KeyRing } from '../core/secrets/key-ring';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  token_type: TokenType;
  exp: number;
  /** Issued-at in seconds, with millisecond precision so a password change cuts tokens off exactly. */
  iat: number;
  jti: string;
  user_id: number;
  /**
   * On refresh tokens of a sign-in, as Baserow's: `enforced`. While the instance enforces
   * e-mail verification, such a token of an unverified user is refused.
   */
  verified_email_claim?: string;
}

/** How far in the future an `iat` may be (clocks of several instances differ a little). */
const IAT_LEEWAY_SECONDS = 5;
/** How many verified tokens are remembered (oldest forgotten first). */
const VERIFIED_KEPT = 2_000;

/**
 * Issues and checks the JWTs of decision 1: HS256 with the KeyRing's `jwt` key. Every
 * check of a presented token is here; callers only see claims or null.
 */
@Injectable()
export class TokenService {
  /**
   * Tokens whose signature was checked, with their claims: a client sends the same access token
   * with every request, and the HMAC and JSON decoding were a tenth of a small read's time.
   * Only valid tokens are kept (a forged one costs its check each time), at most VERIFIED_KEPT.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly jwt: JwtService,
    private readonly keys: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  issue(userId: number, type: TokenType, extra: Pick<TokenClaims, 'verified_email_claim'> = {}): string {
    const nowMs = Date.now();
    const lifetimeMs =
      (type === 'access' ? this.config.accessTokenLifetimeMinutes * 60 : this.config.refreshTokenLifetimeHours * 3600) * 1000;
    const claims: TokenClaims = {
      token_type: type,
      // Same millisecond precision as `iat`, so `exp - iat` is exactly the configured lifetime.
      exp: (nowMs + lifetimeMs) / 1000,
      iat: nowMs / 1000,
      jti: randomUUID().replace(/-/g, ''),
      user_id: userId,
      ...extra,
    };
    return this.jwt.sign(claims, { algorithm: 'HS256', secret: this.keys.keyObject('jwt') as unknown as string });
  }

  /**
   * The claims of a valid token of the given type, or null: HS256 only (never `none`),
   * signed with the `jwt` key (so no signed link passes), with `exp` in the future and an
   * `iat` not in the future, both required (the library checks them only when present).
   */
  verify(token: string, type: TokenType): TokenClaims | null {
    let claims = this.verified.get(token);
    if (claims) {
      // A token checked before: only the clock can have made it invalid since (as the library checks `exp`).
      if (Math.floor(Date.now() / 1000) >= claims.exp) {
        this.verified.delete(token);
        return null;
      }
    } else {
      try {
        claims = this.jwt.verify<TokenClaims>(token, { algorithms: ['HS256'], secret: this.keys.keyObject('jwt') as unknown as string });
      } catch {
        return null;
      }
    }
    const now = Date.now() / 1000;
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.iat > now + IAT_LEEWAY_SECONDS) return null;
    if (claims.token_type !== type || !Number.isSafeInteger(claims.user_id) || typeof claims.jti !== 'string') return null;
    if (!this.verified.has(token)) {
      this.verified.set(token, claims);
      if (this.verified.size > VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
    }
    return claims;
  }
}
