import { Inject, Injectable } from '@nestjs/common';
import { issuedBeforePasswordChange } from '../auth/auth.guard';
import { TokenService } from '../auth/token.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UserRepository } from '../users/user.repository';

/** Who a socket is: a user, or an anonymous public-view socket (`userId` null). */
export interface SocketIdentity {
  userId: number | null;
}

/**
 * The `jwt_token` rules of §1.2: `anonymous` (unless disabled), or a valid access token
 * of an active user, not scheduled for deletion, issued after the last password change.
 */
@Injectable()
export class SocketAuthenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UserRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async authenticate(token: string): Promise<SocketIdentity | null> {
    if (token === 'anonymous') return this.config.disableAnonymousPublicViewWs ? null : { userId: null };
    const claims = this.tokens.verify(token, 'access');
    if (!claims) return null;
    const user = await this.users.findById(claims.user_id);
    if (!user || !user.isActive || user.deletionScheduledAt != null || issuedBeforePasswordChange(user, claims.iat)) return null;
    return { userId: user.id };
  }
}
