import { Field } from '../core/validation/field';
import { EMAIL_VERIFICATION_OPTIONS } from './settings.entity';

/** Baserow's UserFileField: `{"name": "<user file name>"}` or null. */
const userFileCheck = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { name?: unknown }).name === 'string'
    ? null
    : { error: 'The value must be an object containing the file name.', code: 'invalid_value' };

/** `PATCH /api/settings/update/`: every key optional (Baserow's SettingsSerializer, partial). */
export class UpdateSettingsDto {
  @Field({ kind: 'bool', required: false, description: 'Whether anyone may sign up.' })
  allow_new_signups?: boolean;

  @Field({ kind: 'bool', required: false, description: 'Whether an invited person may sign up even when new sign-ups are off.' })
  allow_signups_via_workspace_invitations?: boolean;

  @Field({ kind: 'bool', required: false, description: 'Whether users may ask for a password reset link.' })
  allow_reset_password?: boolean;

  @Field({ kind: 'bool', required: false, description: 'Whether every user, or only staff, may create workspaces.' })
  allow_global_workspace_creation?: boolean;

  @Field({ kind: 'int', min: 0, max: 32767, required: false, description: 'Days between scheduling an account deletion and the deletion.' })
  account_deletion_grace_delay?: number;

  @Field({ kind: 'bool', required: false, description: 'Read only in Baserow: ignored when sent.' })
  show_admin_signup_page?: boolean;

  @Field({ kind: 'bool', required: false })
  track_workspace_usage?: boolean;

  @Field({ kind: 'bool', required: false })
  show_baserow_help_request?: boolean;

  @Field({ kind: 'any', required: false, nullable: true, check: userFileCheck, description: 'A user file `{"name"}` placed next to the logo, or null.' })
  co_branding_logo?: { name: string } | null;

  @Field({
    kind: 'choice',
    choices: EMAIL_VERIFICATION_OPTIONS,
    required: false,
    // Null passes here: the service refuses it with Baserow's own message.
    nullable: true,
  })
  email_verification?: (typeof EMAIL_VERIFICATION_OPTIONS)[number];

  @Field({ kind: 'bool', required: false, description: 'Whether imported workspace files must carry a valid signature.' })
  verify_import_signature?: boolean;
}
