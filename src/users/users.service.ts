import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { ApplicationsService } from '../applications/applications.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, validationError } from '../core/errors/api-error';
import { Mailer } from '../core/mail/mailer';
import { Signer } from '../core/signing/signer';
import { SettingsService } from '../settings/settings.service';
import { checkBaseUrl } from '../workspaces/invitations.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { PasswordSignIn, PasswordSignInErrors } from '../sso/password-sign-in';
import { PasswordHasher } from './password-hasher';
import { UserEntity } from './user.entity';
import { UserRepository } from './user.repository';
import { AccountJson, normalizeEmail, serializeAccount } from './user.serializer';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';

const RESET = 'reset_password';
const RESET_LIFETIME_SECONDS = 48 * 3600;

/** Ties a reset link to the password it replaces, so a link works once. */
const passwordFingerprint = (user: UserEntity) => createHash('sha256').update(user.passwordHash).digest('hex').slice(0, 16);

/** The account itself: profile, password, reset by mail, scheduled and permanent deletion. */
@Injectable()
export class UsersService {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
    private readonly settings: SettingsService,
    private readonly signer: Signer,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly passwordSignIn: PasswordSignIn,
    private readonly actions: ActionLog,
  ) {}

  /** A user action of Baserow's (`update_user`, `change_user_password`…): not undoable, for the audit log; `user` acts. */
  private recordAction(type: string, user: UserEntity): void {
    this.actions.record(type, { userId: user.id, email: user.email }, { scope: ActionScopes.root(), workspaceId: null, actor: { userId: user.id } });
  }

  /** Updates the given profile keys and answers the whole account, as Baserow's AccountSerializer. */
  async updateAccount(user: UserEntity, input: Record<string, unknown>): Promise<AccountJson> {
    const keys = Object.keys(input).filter((key) => input[key] !== undefined);
    if (!keys.length) {
      throw validationError({
        non_field_errors: [
          {
            error:
              'At least one of the fields first_name, language, email_notification_frequency, completed_onboarding, completed_guided_tours must be provided.',
            code: 'invalid',
          },
        ],
      });
    }
    const columns: Record<string, keyof UserEntity> = {
      first_name: 'firstName',
      language: 'language',
      email_notification_frequency: 'emailNotificationFrequency',
      completed_onboarding: 'completedOnboarding',
      completed_guided_tours: 'completedGuidedTours',
    };
    const values: Record<string, unknown> = {};
    for (const key of keys) values[columns[key]] = input[key];
    return this.db.run(async () => {
      const stored = (await this.users.findByIdForUpdate(user.id)) ?? user;
      // Sent tours are added to the stored ones, as Baserow does: the web client sends only the
      // tours it just finished, and two tabs finishing tours at once must not lose one.
      if (input.completed_guided_tours !== undefined) {
        values.completedGuidedTours = [...new Set([...(stored.completedGuidedTours ?? []), ...(input.completed_guided_tours as string[])])];
      }
      await this.users.update(user.id, values as Partial<UserEntity>);
      this.db.record('user.updated', { userId: user.id });
      this.recordAction('update_user', user);
      return serializeAccount(Object.assign(stored, values));
    });
  }

  /** Tokens issued before the change stop working; the user's other sockets are disconnected. */
  async changePassword(user: UserEntity, oldPassword: string, newPassword: string): Promise<void> {
    if (!user.isStaff && !(await this.passwordSignIn.enabled())) throw PasswordSignInErrors.disabled();
    if (!(await this.hasher.verify(user.passwordHash, oldPassword))) throw new ApiError('ERROR_INVALID_OLD_PASSWORD', 400, '');
    await this.setPassword(user, newPassword, 'change_user_password');
  }

  private async setPassword(user: UserEntity, password: string, action: 'change_user_password' | 'reset_user_password'): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.db.run(async () => {
      await this.users.update(user.id, { passwordHash, passwordChangedAt: new Date() });
      this.db.record('user.password_changed', { userId: user.id });
      this.recordAction(action, user);
    });
  }

  /** Mails a signed reset link (48 h) when the address has an account; answers the same either way. */
  async sendResetPasswordEmail(email: string, baseUrl: string): Promise<void> {
    if (!(await this.settingsAllowReset())) throw new ApiError('ERROR_DISABLED_RESET_PASSWORD', 400, '');
    checkBaseUrl(baseUrl, this.config.webFrontendUrl);
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user || !user.isActive) return;
    if (!user.isStaff && !(await this.passwordSignIn.enabled())) throw PasswordSignInErrors.disabled();
    const token = this.signer.sign(RESET, { user_id: user.id, pw: passwordFingerprint(user) }, RESET_LIFETIME_SECONDS);
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Hi ${user.firstName},\n\nReset your password within 48 hours: ${baseUrl.replace(/\/+$/, '')}/${token}\n`,
    });
  }

  async resetPassword(token: string, password: string): Promise<void> {
    if (!(await this.settingsAllowReset())) throw new ApiError('ERROR_DISABLED_RESET_PASSWORD', 400, '');
    const payload = this.signer.unsign<{ user_id: number; pw: string }>(RESET, token);
    const user = await this.users.findById(Number(payload.user_id));
    if (!user) throw new ApiError('ERROR_USER_NOT_FOUND', 400, '');
    if (payload.pw !== passwordFingerprint(user)) throw new ApiError('BAD_TOKEN_SIGNATURE', 400, '');
    await this.setPassword(user, password, 'reset_user_password');
  }

  private async settingsAllowReset(): Promise<boolean> {
    return (await this.settings.get()).allowResetPassword;
  }

  /**
   * Flags the account for deletion after the grace period; signing in again cancels it
   * (`user.restored`). As in Baserow, only the instance's last staff account is refused.
   */
  async scheduleDeletion(user: UserEntity): Promise<void> {
    await this.db.run(async () => {
      if (user.isStaff && !(await this.users.otherStaffExists(user.id))) throw new ApiError('ERROR_USER_IS_LAST_ADMIN', 400, '');
      await this.users.update(user.id, { deletionScheduledAt: new Date() });
      this.db.record('user.deletion_scheduled', { userId: user.id });
      this.recordAction('schedule_user_deletion', user);
    });
  }

  /**
   * Every hour: deletes the accounts whose grace period is over, one transaction each, with
   * the workspaces left without an admin. What belongs to the account goes with it through
   * the foreign keys (memberships, jobs, tokens: CASCADE; authored things: SET NULL); other
   * modules react to `user.permanently_deleted` after the commit.
   */
  @Cron(CronExpression.EVERY_HOUR)
  async deleteExpiredAccounts(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - (await this.settings.accountDeletionGraceDays()) * 24 * 3600 * 1000);
    let deletedCount = 0;
    for (const candidate of await this.users.findScheduledForDeletionBefore(before)) {
      const deleted = await this.deleteExpiredAccount(candidate.id, before).catch((error: unknown) => {
        // One account that cannot be deleted must not keep the others: it is tried again next hour.
        this.logger.error(`Could not delete account ${candidate.id}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      });
      if (!deleted) continue;
      deletedCount += 1;
      this.logger.log(`Deleted account ${candidate.id} after its grace period.`);
    }
    return deletedCount;
  }

  private deleteExpiredAccount(userId: number, before: Date): Promise<boolean> {
    return this.db.run(async () => {
      // Read again under a lock: the user may have signed in since, or another instance's job got there first.
      const user = await this.users.findByIdForUpdate(userId);
      if (!user?.deletionScheduledAt || user.deletionScheduledAt >= before) return false;
      const workspaces = await this.workspaces.deleteWorkspacesLeftWithoutAdmin(user.id, (ids) => this.applications.permanentlyDeleteOfWorkspaces(ids));
      await this.users.delete(user.id);
      this.db.record('user.permanently_deleted', {
        userId: user.id,
        workspaceIds: workspaces.kept,
        deletedWorkspaceIds: workspaces.deleted,
        account: { email: user.email, firstName: user.firstName, language: user.language },
      });
      return true;
    });
  }
}
