import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, FieldError, PlainHttpError } from '../core/errors/api-error';
import { checkValue } from '../core/validation/field';
import { Signer } from '../core/signing/signer';
import { ExampleWorkspaceService } from '../database/example-workspace/example-workspace.service';
import { ActiveLicenses, LicensesService } from '../licenses/licenses.service';
import { SettingsService } from '../settings/settings.service';
import { PasswordHasher } from '../users/password-hasher';
import { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { EmailVerificationErrors, EmailVerificationService } from '../users/email-verification.service';
import { normalizeEmail, serializeUser, UserJson } from '../users/user.serializer';
import { InvitationErrors, InvitationsService } from '../workspaces/invitations.service';
import { PermissionEntry, PermissionsService } from '../workspaces/permissions.service';
import { issuedBeforePasswordChange } from './auth.guard';
import { drfStringError } from './auth.dto';
import { LoginLimiter } from './login-limiter';
import { NotificationsService } from '../notifications/notifications.service';
import { TokenRepository } from './token.repository';
import { TokenService } from './token.service';
import { isUniqueViolation } from '../core/database/constraint-errors';
import { PasswordSignIn, PasswordSignInErrors } from '../sso/password-sign-in';
import { RequestContext } from '../core/context/request-context';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';

export interface UserData {
  user: UserJson;
  permissions: PermissionEntry[];
  user_notifications: { unread_count: number };
  active_licenses: ActiveLicenses;
}

export interface TokenAnswer extends UserData {
  token: string;
  access_token: string;
  refresh_token: string;
  user_session: string;
}

const invalidRefreshToken = () => new ApiError('ERROR_INVALID_REFRESH_TOKEN', 401, 'Refresh token is expired or invalid.');

/** Sign-up, sign-in and the JWT life cycle (refresh, verify, blacklist). */
@Injectable()
export class AuthService {
  /** Verified when the e-mail is unknown, so both failures take the same time. */
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly db: UnitOfWork,
    private readonly users: UserRepository,
    private readonly tokenRepo: TokenRepository,
    private readonly tokens: TokenService,
    private readonly hasher: PasswordHasher,
    private readonly limiter: LoginLimiter,
    private readonly permissions: PermissionsService,
    private readonly settings: SettingsService,
    private readonly invitations: InvitationsService,
    private readonly example: ExampleWorkspaceService,
    private readonly signer: Signer,
    private readonly licenses: LicensesService,
    private readonly notifications: NotificationsService,
    private readonly emailVerification: EmailVerificationService,
    private readonly passwordSignIn: PasswordSignIn,
    private readonly actions: ActionLog,
  ) {
    this.dummyHash = this.hasher.hash(randomUUID());
  }

  async userData(user: UserEntity): Promise<UserData> {
    return {
      user: serializeUser(user),
      permissions: await this.permissions.forUser(user),
      user_notifications: { unread_count: await this.notifications.unreadUserLevelCount(user.id) },
      active_licenses: this.licenses.activeLicenses(),
    };
  }

  /** `verifiedEmailClaim`: a sign-in's refresh token carries Baserow's `verified_email_claim` (impersonation's does not). */
  async tokenAnswer(user: UserEntity, verifiedEmailClaim = true): Promise<TokenAnswer> {
    const access = this.tokens.issue(user.id, 'access');
    return {
      token: access,
      access_token: access,
      refresh_token: this.tokens.issue(user.id, 'refresh', verifiedEmailClaim ? { verified_email_claim: 'enforced' } : {}),
      user_session: this.signer.sign('user_session', { user_id: user.id }),
      ...(await this.userData(user)),
    };
  }

  async signUp(input: {
    name: string;
    email: string;
    password: string;
    language: string;
    authenticate: boolean;
    workspace_invitation_token?: string | null;
  }): Promise<{ user: UserJson } | TokenAnswer> {
    if (!(await this.passwordSignIn.enabled())) throw PasswordSignInErrors.disabled();
    const email = normalizeEmail(input.email);
    const user = await this.createAccount({
      email,
      name: input.name,
      password: input.password,
      language: input.language,
      invitationToken: input.workspace_invitation_token || null,
    });
    const settings = await this.settings.get();
    if (settings.emailVerification !== 'no_verification' && !user.emailVerified) await this.emailVerification.sendPending(user);
    // Enforced verification: no tokens until the address is verified.
    return input.authenticate && settings.emailVerification !== 'enforced' ? this.tokenAnswer(user) : { user: serializeUser(user) };
  }

  /**
   * Creates an account as Baserow's `create_user` (a password sign-up, or a first single sign-on
   * with `emailVerified`: the identity provider vouched for the address): sign-ups must be open,
   * or the invitation's e-mail must match while invited people may sign up; the first account is
   * staff; the user joins the invitation's workspace or gets the example workspace.
   */
  async createAccount(input: {
    email: string;
    name: string;
    /** null: an account without a password (Django's unusable password: nothing verifies against it). */
    password: string | null;
    language: string;
    invitationToken: string | null;
    emailVerified?: boolean;
    /** The provider the account signs up with (the audit log's); the password provider when not given. */
    authProvider?: AuthProviderRef;
    /** In the account's transaction, after it is created (single sign-on links the provider). */
    then?: (user: UserEntity) => Promise<void>;
  }): Promise<UserEntity> {
    const settings = await this.settings.get();
    const provider = input.authProvider ?? (await this.passwordSignIn.provider());
    const invitation = input.invitationToken ? await this.invitations.byToken(input.invitationToken) : null;
    if (invitation && invitation.email !== input.email) throw InvitationErrors.emailMismatch();
    // Baserow's rule: open sign-ups, or an invitation while invited people may sign up.
    if (!settings.allowNewSignups && !(invitation && settings.allowSignupsViaWorkspaceInvitations)) {
      throw new ApiError('ERROR_DISABLED_SIGNUP', 400, '');
    }
    if (await this.users.findByEmail(input.email)) throw emailExists();
    const passwordHash = input.password === null ? `!${randomBytes(30).toString('base64url')}` : await this.hasher.hash(input.password);
    const workspaceCreation = settings.allowGlobalWorkspaceCreation;
    return this.db
      .run(async () => {
        // Locks the settings row first: concurrent sign-ups count the accounts one after the other.
        await this.settings.closeAdminSignup();
        const isStaff = !(await this.users.any());
        const now = new Date();
        const created = await this.users.create({
          email: input.email,
          firstName: input.name,
          passwordHash,
          language: input.language,
          isStaff,
          isActive: true,
          emailVerified: invitation != null || input.emailVerified === true,
          // Nothing to onboard into when the user joins a workspace or may not create one.
          completedOnboarding: invitation != null || !(workspaceCreation || isStaff),
          completedGuidedTours: [],
          dateJoined: now,
          // Signing up signs in (Baserow's `user_signed_in` after creation): an active user.
          lastLogin: now,
        });
        // From here the new user acts (the audit log's actor of what the sign-up creates).
        RequestContext.setActor(created.id, null);
        this.actions.record('create_user', { userId: created.id, email: input.email, withInvitation: invitation != null, ...providerParams(provider) }, { scope: ActionScopes.root(), workspaceId: null });
        if (invitation) await this.invitations.join(created, invitation);
        else if (workspaceCreation || isStaff) await this.example.create(created);
        await input.then?.(created);
        return created;
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? emailExists() : error;
      });
  }

  /** Accepts an invitation for a user who signs in with it (single sign-on's `workspace_invitation_token`). */
  async acceptInvitation(user: UserEntity, token: string): Promise<void> {
    const invitation = await this.invitations.byToken(token);
    if (invitation.email !== user.email) throw InvitationErrors.emailMismatch();
    await this.db.run(() => this.invitations.join(user, invitation));
  }

  /** token-auth: `email` (or legacy `username`, which wins when both are sent) and `password`. Only failures are rate limited. */
  async login(body: Record<string, unknown>, ip: string): Promise<TokenAnswer> {
    // Field errors first, all at once (DRF's field validation); the "email or username" rule runs only after.
    const errors: Record<string, string[]> = {};
    for (const key of ['email', 'username']) {
      if (body[key] === undefined) continue;
      const result = checkValue({ kind: 'email' }, body[key]);
      if ('error' in result) errors[key] = (result.error as FieldError[]).map((e) => e.error);
    }
    const passwordError = drfStringError(body.password, true);
    if (passwordError) errors.password = [passwordError];
    if (Object.keys(errors).length) throw new PlainHttpError(400, errors);
    const raw = body.username ?? body.email;
    if (raw === undefined) throw new PlainHttpError(400, { email: ['This field is required.'] });
    const email = normalizeEmail(String(raw));
    const password = String(body.password);
    await this.limiter.check(email, ip);
    const user = await this.users.findByEmail(email);
    const valid = user ? await this.hasher.verify(user.passwordHash, password) : await this.hasher.verify(await this.dummyHash, 'x');
    if (!user || !valid) {
      await this.limiter.recordFailure(email, ip);
      await this.recordFailedSignIn(email, 'invalid credentials');
      throw new ApiError('ERROR_INVALID_CREDENTIALS', 401, 'No active account found with the given credentials.');
    }
    if (!user.isActive) {
      await this.recordFailedSignIn(email, 'account disabled');
      throw new ApiError('ERROR_DEACTIVATED_USER', 401, 'User account has been disabled.');
    }
    // Password sign-in turned off (the password provider disabled): staff only, as Baserow's `log_in_user`.
    if (!user.isStaff && !(await this.passwordSignIn.enabled())) throw PasswordSignInErrors.disabled();
    await this.limiter.recordSuccess(email, ip);
    return this.signIn(user);
  }

  /**
   * The end of every sign-in (password, verified e-mail link), as Baserow's `log_in_user`:
   * with enforced verification an unverified user is mailed a link and, unless staff, refused;
   * then the last login is recorded and a scheduled deletion cancelled.
   */
  async signIn(user: UserEntity, authProvider?: AuthProviderRef): Promise<TokenAnswer> {
    const provider = authProvider ?? (await this.passwordSignIn.provider());
    if (!user.isActive) throw new ApiError('ERROR_DEACTIVATED_USER', 401, 'User account has been disabled.');
    if ((await this.settings.get()).emailVerification === 'enforced' && !user.emailVerified) {
      await this.emailVerification.sendPending(user);
      if (!user.isStaff) throw EmailVerificationErrors.required();
    }
    await this.db.run(async () => {
      const restored = user.deletionScheduledAt != null;
      user.lastLogin = new Date();
      user.deletionScheduledAt = null;
      await this.users.update(user.id, { lastLogin: user.lastLogin, deletionScheduledAt: null });
      if (restored) this.db.record('user.restored', { userId: user.id });
      this.actions.record('sign_in_user', { userId: user.id, email: user.email, ...providerParams(provider) }, { scope: ActionScopes.root(), workspaceId: null, actor: { userId: user.id } });
    });
    return this.tokenAnswer(user);
  }

  /** A refused password sign-in, for the audit log (its own transaction: the request writes nothing else). */
  private recordFailedSignIn(email: string, reason: string): Promise<void> {
    return this.db.run(async () => this.actions.record('sign_in_user_failed', { email, reason }, { scope: ActionScopes.root(), workspaceId: null, actor: { userId: null, email } }));
  }

  /** The refresh token of a token-refresh/token-verify body: DRF-style 400 for wrong-typed values. */
  private refreshTokenOf(body: Record<string, unknown>, required: boolean): string | undefined {
    const errors: Record<string, string[]> = {};
    for (const key of ['refresh_token', 'token']) {
      const error = drfStringError(body[key], required && key === 'refresh_token');
      if (error) errors[key] = [error];
    }
    if (Object.keys(errors).length) throw new PlainHttpError(400, errors);
    const token = body.refresh_token ?? body.token;
    return token === undefined ? undefined : String(token);
  }

  /** The user of a valid refresh token that is not blacklisted, or 401. */
  private async refreshUser(token: string | undefined): Promise<{ user: UserEntity; jti: string; exp: number }> {
    const claims = token ? this.tokens.verify(token, 'refresh') : null;
    if (!claims) throw invalidRefreshToken();
    const user = await this.users.findById(claims.user_id);
    if (!user || !user.isActive || user.deletionScheduledAt || issuedBeforePasswordChange(user, claims.iat)) throw invalidRefreshToken();
    if (await this.tokenRepo.isBlacklisted(claims.jti)) throw invalidRefreshToken();
    if (claims.verified_email_claim === 'enforced' && !user.emailVerified && !user.isStaff && (await this.settings.get()).emailVerification === 'enforced') {
      throw EmailVerificationErrors.required();
    }
    return { user, jti: claims.jti, exp: claims.exp };
  }

  /** token-refresh: `refresh_token` (or legacy `token`); the refresh token is not rotated. */
  async refresh(body: Record<string, unknown>): Promise<Omit<TokenAnswer, 'refresh_token' | 'user_session'>> {
    const { user } = await this.refreshUser(this.refreshTokenOf(body, false));
    const access = this.tokens.issue(user.id, 'access');
    return { token: access, access_token: access, ...(await this.userData(user)) };
  }

  /** token-verify: `refresh_token` is required here, as in Baserow. */
  async verify(body: Record<string, unknown>): Promise<UserData> {
    return this.userData((await this.refreshUser(this.refreshTokenOf(body, true))).user);
  }

  async blacklist(token: string): Promise<void> {
    const claims = this.tokens.verify(token, 'refresh');
    if (!claims) throw invalidRefreshToken();
    if (await this.tokenRepo.isBlacklisted(claims.jti)) {
      throw new ApiError('ERROR_REFRESH_TOKEN_ALREADY_BLACKLISTED', 400, 'The provided refresh token is already blacklisted.');
    }
    await this.refreshUser(token);
    await this.db.run(() => this.tokenRepo.blacklist({ jti: claims.jti, userId: claims.user_id, expiresAt: new Date(claims.exp * 1000) }));
  }
}


const emailExists = () => new ApiError('ERROR_EMAIL_ALREADY_EXISTS', 400, '');

/** The auth provider an account signs up or in with, as the audit log names it. */
export interface AuthProviderRef {
  id: number;
  type: string;
}

function providerParams(provider: AuthProviderRef | null): { authProviderId: number | null; authProviderType: string } {
  return { authProviderId: provider?.id ?? null, authProviderType: provider?.type ?? 'password' };
}
