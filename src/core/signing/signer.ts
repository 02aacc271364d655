import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ApiError } from '../errors/api-error';

/**
 * Signed, URL-safe tokens for links (password reset, workspace invitations), keyed by
 * purpose so one kind can never be used as another.
 */
@Injectable()
export class Signer {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  sign(purpose: string, payload: Record<string, unknown>, expiresInSeconds?: number): string {
    return this.jwt.sign(
      { ...payload, purpose },
      { algorithm: 'HS256', secret: this.config.secretKey, ...(expiresInSeconds ? { expiresIn: expiresInSeconds } : {}) },
    );
  }

  /** The payload, or 400 `BAD_TOKEN_SIGNATURE` / `EXPIRED_TOKEN_SIGNATURE`. */
  unsign<T extends Record<string, unknown>>(purpose: string, token: unknown): T {
    if (typeof token !== 'string') throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
    try {
      const payload = this.jwt.verify<T & { purpose?: string }>(token, { algorithms: ['HS256'], secret: this.config.secretKey });
      if (payload.purpose !== purpose) throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
      return payload;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if ((error as Error).name === 'TokenExpiredError') throw new ApiError('EXPIRED_TOKEN_SIGNATURE', 400, '');
      throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
    }
  }
}
