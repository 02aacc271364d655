import { Inject, Injectable } from '@nestjs/common';
import { AuthService } from '../auth/auth.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { ApiError } from '../core/errors/api-error';
import { UserRepository } from '../users/user.repository';
import { normalizeEmail } from '../users/user.serializer';
import { AuthProviderEntity } from './auth-provider.entity';
import { AuthProviderRepository } from './auth-provider.repository';
import { frontendLanding, SsoError, SsoErrorCode } from './sso-redirects';

/** Who the identity provider says signed in, with what the browser asked for when it started. */
export interface SsoUserInfo {
  email: string;
  name: string;
  language?: string | null;
  workspaceInvitationToken?: string | null;
  original?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Baserow's refusals during a sign-in, as the web client's error codes. */
const ERROR_CODES: Record<string, SsoErrorCode> = {
  ERROR_DISABLED_SIGNUP: SsoErrorCode.signupDisabled,
  ERROR_GROUP_INVITATION_EMAIL_MISMATCH: SsoErrorCode.invitationEmailMismatch,
  ERROR_DEACTIVATED_USER: SsoErrorCode.userDeactivated,
};

/**
 * The end of every single sign-on (Baserow's `get_or_create_user_and_sign_in` and
 * `redirect_user_on_success`): the account of the e-mail signs in, or one is made (when sign-ups
 * allow it), the provider is linked to it, and the browser goes to the web client with a
 * refresh token and the user session, which the web client signs in with.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UserRepository,
    private readonly providers: AuthProviderRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The URL the browser is sent to; throws SsoError. `domainOnly`: the provider's domain, when
   * staff set one, limits the addresses it signs in (OpenID Connect; a SAML provider's domain
   * picks the IdP at sign-in, as Baserow's, and does not limit what the IdP asserts).
   */
  async signIn(provider: AuthProviderEntity, info: SsoUserInfo, failure: SsoErrorCode, domainOnly = false): Promise<string> {
    const email = normalizeEmail(String(info.email ?? ''));
    if (!EMAIL.test(email) || email.length > 254) throw new SsoError(failure, 'the identity provider sent no usable e-mail address');
    if (domainOnly && provider.domain && email.slice(email.lastIndexOf('@') + 1) !== provider.domain.toLowerCase()) {
      throw new SsoError(failure, `the e-mail is not of the provider's domain ${provider.domain}`);
    }
    try {
      let user = await this.users.findByEmail(email);
      if (user) {
        if (!user.isActive) throw new SsoError(SsoErrorCode.userDeactivated, 'the account is deactivated');
        if (!this.config.ssoAllowMultipleProvidersPerAccount && !(await this.providers.isLinked(provider.id, user.id))) {
          throw new SsoError(SsoErrorCode.differentProvider, 'the account signs in with another provider');
        }
        if (info.workspaceInvitationToken) await this.auth.acceptInvitation(user, info.workspaceInvitationToken);
      } else {
        user = await this.auth.createAccount({
          email,
          name: (info.name || email).slice(0, 150),
          password: null,
          language: info.language || 'en',
          invitationToken: info.workspaceInvitationToken || null,
          emailVerified: true,
          authProvider: provider,
          then: (created) => this.providers.link(provider.id, created.id),
        });
      }
      await this.providers.link(provider.id, user.id);
      const tokens = await this.auth.signIn(user, provider);
      return frontendLanding(this.config.webFrontendUrl, info.original, { token: tokens.refresh_token, user_session: tokens.user_session });
    } catch (error) {
      if (error instanceof ApiError) throw new SsoError(ERROR_CODES[error.code] ?? failure, error.message);
      throw error;
    }
  }
}
