import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { instanceWideLicenses } from '../licenses/served-licenses';
import { SettingsEntity } from './settings.entity';
import { SettingsRepository } from './settings.repository';

/** The instance settings row, created with Baserow's defaults on first use. */
@Injectable()
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(): Promise<SettingsEntity> {
    const existing = await this.repo.find();
    if (existing) return existing;
    await this.repo.createIfMissing(randomUUID().replace(/-/g, ''));
    return (await this.repo.find())!;
  }

  async update(values: Partial<SettingsEntity>): Promise<SettingsEntity> {
    await this.get();
    await this.repo.update(values);
    return this.get();
  }

  /** The keys of `GET /api/settings/`. */
  async publicSettings(): Promise<Record<string, unknown>> {
    const s = await this.get();
    const hasUsers = await this.repo.hasUsers();
    return {
      allow_new_signups: s.allowNewSignups,
      allow_signups_via_workspace_invitations: s.allowSignupsViaWorkspaceInvitations,
      allow_reset_password: s.allowResetPassword,
      allow_global_workspace_creation: s.allowGlobalWorkspaceCreation,
      account_deletion_grace_delay: this.config.accountDeletionGraceDays,
      show_admin_signup_page: !hasUsers,
      track_workspace_usage: false,
      show_baserow_help_request: true,
      co_branding_logo: null,
      email_verification: 'no_verification',
      verify_import_signature: true,
      // Read by Baserow's web client where no user data is (public views).
      instance_wide_licenses: instanceWideLicenses(),
    };
  }
}
