import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, AppConfig } from '../core/config/config';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  token_type: TokenType;
  exp: number;
  /** Issued-at in seconds, with millisecond precision so a password change cuts tokens off exactly. */
  iat: number;
  jti: string;
  user_id: number;
}

/** Issues and checks the JWTs of decision 1: HS256 with the configured secret. */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  issue(userId: number, type: TokenType): string {
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
    };
    return this.jwt.sign(claims, { algorithm: 'HS256', secret: this.config.secretKey });
  }

  /** The claims of a valid, unexpired token of the given type, or null. */
  verify(token: string, type: TokenType): TokenClaims | null {
    try {
      const claims = this.jwt.verify<TokenClaims>(token, { algorithms: ['HS256'], secret: this.config.secretKey });
      if (claims.token_type !== type || typeof claims.user_id !== 'number' || typeof claims.jti !== 'string') return null;
      return claims;
    } catch {
      return null;
    }
  }
}
