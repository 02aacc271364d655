import { randomUUID } from 'node:crypto';
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

  async tokenAnswer(user: UserEntity): Promise<TokenAnswer> {
    const access = this.tokens.issue(user.id, 'access');
    return {
      token: access,
      access_token: access,
      refresh_token: this.tokens.issue(user.id, 'refresh'),
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
    const email = normalizeEmail(input.email);
    const settings = await this.settings.get();
    const invitationToken = input.workspace_invitation_token || null;
    if (invitationToken ? !settings.allowSignupsViaWorkspaceInvitations : !settings.allowNewSignups) {
      throw new ApiError('ERROR_DISABLED_SIGNUP', 400, '');
    }
    const invitation = invitationToken ? await this.invitations.byToken(invitationToken) : null;
    if (invitation && invitation.email !== email) throw InvitationErrors.emailMismatch();
    if (await this.users.findByEmail(email)) throw emailExists();
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.db
      .run(async () => {
        const created = await this.users.create({
          email,
          firstName: input.name,
          passwordHash,
          language: input.language,
          isStaff: (await this.users.count()) === 0,
          isActive: true,
          emailVerified: invitation != null,
          completedOnboarding: invitation != null,
          completedGuidedTours: [],
          dateJoined: new Date(),
        });
        if (invitation) await this.invitations.join(created, invitation);
        else await this.example.create(created);
        return created;
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? emailExists() : error;
      });
    return input.authenticate ? this.tokenAnswer(user) : { user: serializeUser(user) };
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
      throw new ApiError('ERROR_INVALID_CREDENTIALS', 401, 'No active account found with the given credentials.');
    }
    if (!user.isActive) throw new ApiError('ERROR_DEACTIVATED_USER', 401, 'User account has been disabled.');
    await this.limiter.recordSuccess(email, ip);
    await this.db.run(async () => {
      const restored = user.deletionScheduledAt != null;
      user.lastLogin = new Date();
      user.deletionScheduledAt = null;
      await this.users.update(user.id, { lastLogin: user.lastLogin, deletionScheduledAt: null });
      if (restored) this.db.record('user.restored', { userId: user.id });
    });
    return this.tokenAnswer(user);
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
