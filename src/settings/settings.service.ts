import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { validationError } from '../core/errors/api-error';
import { UserFileRepository } from '../files/user-file.repository';
import { UserFileJson, UserFilesService } from '../files/user-files.service';
import { instanceWideLicenses } from '../licenses/served-licenses';
import { SettingsEntity } from './settings.entity';
import { SettingsRepository } from './settings.repository';
import type { UpdateSettingsDto } from './settings.dto';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';

/** Baserow's SettingsSerializer. */
export interface SettingsJson {
  allow_new_signups: boolean;
  allow_signups_via_workspace_invitations: boolean;
  allow_reset_password: boolean;
  allow_global_workspace_creation: boolean;
  account_deletion_grace_delay: number;
  show_admin_signup_page: boolean;
  track_workspace_usage: boolean;
  show_baserow_help_request: boolean;
  co_branding_logo: UserFileJson | null;
  email_verification: string;
  verify_import_signature: boolean;
}

/** Request keys → columns (what `CoreHandler.update_settings` lets change: not show_admin_signup_page). */
const WRITABLE: Record<string, keyof SettingsEntity> = {
  allow_new_signups: 'allowNewSignups',
  allow_signups_via_workspace_invitations: 'allowSignupsViaWorkspaceInvitations',
  allow_reset_password: 'allowResetPassword',
  allow_global_workspace_creation: 'allowGlobalWorkspaceCreation',
  account_deletion_grace_delay: 'accountDeletionGraceDelay',
  track_workspace_usage: 'trackWorkspaceUsage',
  show_baserow_help_request: 'showBaserowHelpRequest',
  email_verification: 'emailVerification',
  verify_import_signature: 'verifyImportSignature',
};

/** The instance settings row, created with Baserow's defaults on first use. */
@Injectable()
export class SettingsService {
  /** Read on every sign-in, refresh and permission answer: a metadata cache (a change on any instance is seen at once). */
  private readonly cache: MetadataCache<number, SettingsEntity | null>;

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: SettingsRepository,
    private readonly files: UserFileRepository,
    private readonly userFiles: UserFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    caches: Caches,
    private readonly actions: ActionLog,
  ) {
    this.cache = caches.metadata<number, SettingsEntity | null>('settings', 1);
  }

  async get(): Promise<SettingsEntity> {
    const existing = await this.cache.get(1, () => this.repo.find());
    if (existing) return existing;
    await this.repo.createIfMissing({ instanceId: randomUUID().replace(/-/g, ''), showAdminSignupPage: !(await this.repo.hasUsers()) });
    return (await this.repo.find())!;
  }

  /** Days between scheduling an account deletion and the deletion: the setting, else ACCOUNT_DELETION_GRACE_DAYS. */
  async accountDeletionGraceDays(): Promise<number> {
    return this.graceDays(await this.get());
  }

  private graceDays(settings: SettingsEntity): number {
    return settings.accountDeletionGraceDelay ?? this.config.accountDeletionGraceDays;
  }

  /** Inside a sign-up's unit of work, before the accounts are counted (see `SettingsRepository.closeAdminSignup`). */
  async closeAdminSignup(): Promise<void> {
    await this.get();
    await this.repo.closeAdminSignup();
  }

  /** `PATCH /api/settings/update/` (staff only, by its route's guard): the keys sent change, the whole settings answer. */
  async update(input: UpdateSettingsDto): Promise<SettingsJson> {
    if (input.email_verification === null) {
      throw validationError({ email_verification: [{ error: "'null' is not a valid choice.", code: 'invalid_choice' }] });
    }
    const values: Partial<Record<keyof SettingsEntity, unknown>> = {};
    for (const [key, column] of Object.entries(WRITABLE)) {
      const value = (input as Record<string, unknown>)[key];
      if (value !== undefined) values[column] = value;
    }
    if (input.co_branding_logo !== undefined) {
      const file = input.co_branding_logo === null ? null : await this.files.findByName(input.co_branding_logo.name);
      if (input.co_branding_logo !== null && !file) {
        throw validationError({ co_branding_logo: [{ error: 'The provided user file does not exist.', code: 'invalid_user_file' }] });
      }
      values.coBrandingLogoId = file?.id ?? null;
    }
    await this.get();
    if (Object.keys(values).length) {
      // Baserow has no action for this; the audit log records it by the keys sent.
      const keys = Object.keys(input as object).filter((key) => (input as Record<string, unknown>)[key] !== undefined);
      await this.db.run(async () => {
        await this.repo.update(values as Partial<SettingsEntity>);
        this.actions.record('update_settings', { keys }, { scope: ActionScopes.root(), workspaceId: null });
      });
    }
    return this.serialize(await this.get());
  }

  /** `GET /api/settings/instance-id/` (staff only, by its route's guard). */
  async instanceId(): Promise<{ instance_id: string }> {
    return { instance_id: (await this.get()).instanceId };
  }

  async serialize(s: SettingsEntity): Promise<SettingsJson> {
    const logo = s.coBrandingLogoId === null ? null : await this.files.findById(s.coBrandingLogoId);
    return {
      allow_new_signups: s.allowNewSignups,
      allow_signups_via_workspace_invitations: s.allowSignupsViaWorkspaceInvitations,
      allow_reset_password: s.allowResetPassword,
      allow_global_workspace_creation: s.allowGlobalWorkspaceCreation,
      account_deletion_grace_delay: this.graceDays(s),
      show_admin_signup_page: s.showAdminSignupPage,
      track_workspace_usage: s.trackWorkspaceUsage,
      show_baserow_help_request: s.showBaserowHelpRequest,
      co_branding_logo: logo ? await this.userFiles.serialize(logo) : null,
      email_verification: s.emailVerification ?? 'no_verification',
      verify_import_signature: s.verifyImportSignature,
    };
  }

  /** The keys of `GET /api/settings/`. */
  async publicSettings(): Promise<Record<string, unknown>> {
    return {
      ...(await this.serialize(await this.get())),
      // Read by Baserow's web client where no user data is (public views).
      instance_wide_licenses: instanceWideLicenses(),
    };
  }
}
