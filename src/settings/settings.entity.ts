import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Baserow's `Settings.EmailVerificationOptions`. */
export const EMAIL_VERIFICATION_OPTIONS = ['no_verification', 'recommended', 'enforced'] as const;
export type EmailVerification = (typeof EMAIL_VERIFICATION_OPTIONS)[number];

/** Instance-wide settings: a single row with id 1. */
@Entity('settings')
export class SettingsEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'allow_new_signups', type: 'boolean', default: true })
  allowNewSignups: boolean;

  @Column({ name: 'allow_signups_via_workspace_invitations', type: 'boolean', default: true })
  allowSignupsViaWorkspaceInvitations: boolean;

  @Column({ name: 'allow_reset_password', type: 'boolean', default: true })
  allowResetPassword: boolean;

  @Column({ name: 'allow_global_workspace_creation', type: 'boolean', default: true })
  allowGlobalWorkspaceCreation: boolean;

  /** Days; null until a staff member sets it: ACCOUNT_DELETION_GRACE_DAYS applies meanwhile. */
  @Column({ name: 'account_deletion_grace_delay', type: 'integer', nullable: true })
  accountDeletionGraceDelay: number | null;

  /** True until the first account is made (the web client then shows the admin sign-up form). */
  @Column({ name: 'show_admin_signup_page', type: 'boolean', default: true })
  showAdminSignupPage: boolean;

  @Column({ name: 'track_workspace_usage', type: 'boolean', default: false })
  trackWorkspaceUsage: boolean;

  @Column({ name: 'show_baserow_help_request', type: 'boolean', default: true })
  showBaserowHelpRequest: boolean;

  @Column({ name: 'co_branding_logo_id', type: 'integer', nullable: true })
  coBrandingLogoId: number | null;

  @Column({ name: 'email_verification', type: 'varchar', length: 16, default: 'no_verification' })
  emailVerification: EmailVerification;

  /** Read by the workspace import (only stored and served here). */
  @Column({ name: 'verify_import_signature', type: 'boolean', default: true })
  verifyImportSignature: boolean;

  @Column({ name: 'instance_id', type: 'varchar', length: 64 })
  instanceId: string;
}
