import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { KeyRing } from '../core/secrets/key-ring';
import type { ViewEntity } from './view.entity';

/**
 * The tokens of password-protected shared views (`POST /api/database/views/{slug}/public/auth/`),
 * as Baserow's: an HS256 JWT `{"slug_id": slug}` without expiry, signed with a key made of the
 * view's slug and password hash (and the KeyRing's `signing` key), so rotating the slug or
 * changing the password invalidates every earlier token, and a token opens only its own view.
 */
@Injectable()
export class PublicViewTokens {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: KeyRing,
  ) {}

  private secret(view: Pick<ViewEntity, 'slug' | 'passwordHash'>): string {
    return createHmac('sha256', this.keys.key('signing')).update(`public-view:${view.slug}:${view.passwordHash ?? ''}`).digest('base64url');
  }

  issue(view: Pick<ViewEntity, 'slug' | 'passwordHash'>): string {
    return this.jwt.sign({ slug_id: view.slug }, { algorithm: 'HS256', secret: this.secret(view), noTimestamp: true });
  }

  isValid(view: Pick<ViewEntity, 'slug' | 'passwordHash'>, token: unknown): boolean {
    if (typeof token !== 'string' || !token) return false;
    try {
      const claims = this.jwt.verify<{ slug_id?: unknown }>(token, { algorithms: ['HS256'], secret: this.secret(view) });
      return claims.slug_id === view.slug;
    } catch {
      return false;
    }
  }
}
