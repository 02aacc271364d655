import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, PlainHttpError } from '../core/errors/api-error';
import { Signer } from '../core/signing/signer';
import { ExampleWorkspaceService } from '../applications/example-workspace.service';
import { SettingsService } from '../settings/settings.service';
import { PasswordHasher } from '../users/password-hasher';
import { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { normalizeEmail, serializeUser, UserJson } from '../users/user.serializer';
import { InvitationErrors, InvitationsService } from '../workspaces/invitations.service';
import { PermissionEntry, PermissionsService } from '../workspaces/permissions.service';
import { issuedBeforePasswordChange } from './auth.guard';
import { LoginLimiter } from './login-limiter';
import { TokenRepository } from './token.repository';
import { TokenService } from './token.service';

export interface UserData {
  user: UserJson;
  permissions: PermissionEntry[];
  user_notifications: { unread_count: number };
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
  ) {
    this.dummyHash = this.hasher.hash(randomUUID());
  }

  async userData(user: UserEntity): Promise<UserData> {
    return { user: serializeUser(user), permissions: await this.permissions.forUser(user), user_notifications: { unread_count: 0 } };
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

  /** token-auth: `email` (or legacy `username`) and `password`. Only failures are rate limited. */
  async login(body: Record<string, unknown>, ip: string): Promise<TokenAnswer> {
    const raw = body.email ?? body.username;
    const errors: Record<string, string[]> = {};
    if (raw === undefined || raw === null || raw === '') errors.email = ['This field is required.'];
    else if (typeof raw !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(raw.trim())) errors.email = ['Enter a valid email address.'];
    if (body.password === undefined || body.password === null || body.password === '') errors.password = ['This field is required.'];
    else if (typeof body.password !== 'string') errors.password = ['Not a valid string.'];
    if (Object.keys(errors).length) throw new PlainHttpError(400, errors);
    const email = normalizeEmail(raw as string);
    await this.limiter.check(email, ip);
    const user = await this.users.findByEmail(email);
    const valid = user ? await this.hasher.verify(user.passwordHash, body.password as string) : await this.hasher.verify(await this.dummyHash, 'x');
    if (!user || !valid) {
      await this.limiter.recordFailure(email, ip);
      throw new ApiError('ERROR_INVALID_CREDENTIALS', 401, 'No active account found with the given credentials.');
    }
    if (!user.isActive) throw new ApiError('ERROR_DEACTIVATED_USER', 401, 'User account has been disabled.');
    await this.db.run(async () => {
      const restored = user.deletionScheduledAt != null;
      user.lastLogin = new Date();
      user.deletionScheduledAt = null;
      await this.users.update(user.id, { lastLogin: user.lastLogin, deletionScheduledAt: null });
      if (restored) this.db.record('user.restored', { userId: user.id });
    });
    return this.tokenAnswer(user);
  }

  /** The user of a valid refresh token that is not blacklisted, or 401. */
  private async refreshUser(body: { refresh_token?: string; token?: string }): Promise<{ user: UserEntity; jti: string; exp: number }> {
    const token = body.refresh_token ?? body.token;
    const claims = token ? this.tokens.verify(token, 'refresh') : null;
    if (!claims) throw invalidRefreshToken();
    const user = await this.users.findById(claims.user_id);
    if (!user || !user.isActive || user.deletionScheduledAt || issuedBeforePasswordChange(user, claims.iat)) throw invalidRefreshToken();
    if (await this.tokenRepo.isBlacklisted(claims.jti)) throw invalidRefreshToken();
    return { user, jti: claims.jti, exp: claims.exp };
  }

  async refresh(body: { refresh_token?: string; token?: string }): Promise<Omit<TokenAnswer, 'refresh_token' | 'user_session'>> {
    const { user } = await this.refreshUser(body);
    const access = this.tokens.issue(user.id, 'access');
    return { token: access, access_token: access, ...(await this.userData(user)) };
  }

  async verify(body: { refresh_token?: string; token?: string }): Promise<UserData> {
    return this.userData((await this.refreshUser(body)).user);
  }

  async blacklist(body: { refresh_token?: string; token?: string }): Promise<void> {
    const token = body.refresh_token ?? body.token;
    const claims = token ? this.tokens.verify(token, 'refresh') : null;
    if (!claims) throw invalidRefreshToken();
    if (await this.tokenRepo.isBlacklisted(claims.jti)) {
      throw new ApiError('ERROR_REFRESH_TOKEN_ALREADY_BLACKLISTED', 400, 'The refresh token is already blacklisted.');
    }
    await this.refreshUser(body);
    await this.db.run(() => this.tokenRepo.blacklist({ jti: claims.jti, userId: claims.user_id, expiresAt: new Date(claims.exp * 1000) }));
  }
}


const emailExists = () => new ApiError('ERROR_EMAIL_ALREADY_EXISTS', 400, '');

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  const code = e.driverError?.code ?? e.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}


