import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiError } from '../errors/api-error';
import { KeyRing } from '../secrets/key-ring';

/**
 * Signed, URL-safe tokens for links (password reset, workspace invitations), keyed by
 * purpose so one kind can never be used as another; signed with the KeyRing's `signing`
 * key, so no link is ever a valid JWT and no JWT a valid link.
 */
@Injectable()
export class Signer {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: KeyRing,
  ) {}

  sign(purpose: string, payload: Record<string, unknown>, expiresInSeconds?: number): string {
    return this.jwt.sign(
      { ...payload, purpose },
      { algorithm: 'HS256', secret: this.keys.key('signing'), ...(expiresInSeconds ? { expiresIn: expiresInSeconds } : {}) },
    );
  }

  /** The payload, or 400 `BAD_TOKEN_SIGNATURE` / `EXPIRED_TOKEN_SIGNATURE`. */
  unsign<T extends Record<string, unknown>>(purpose: string, token: unknown): T {
    if (typeof token !== 'string') throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
    try {
      const payload = this.jwt.verify<T & { purpose?: string }>(token, { algorithms: ['HS256'], secret: this.keys.key('signing') });
      if (payload.purpose !== purpose) throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
      return payload;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if ((error as Error).name === 'TokenExpiredError') throw new ApiError('EXPIRED_TOKEN_SIGNATURE', 400, '');
      throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
    }
  }
}
