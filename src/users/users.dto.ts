import { languageCheck } from '../auth/auth.dto';
import { Field } from '../core/validation/field';

/** DRF's URLField: an absolute http(s)/ftp(s) URL with a host. */
const urlCheck = (value: string) => {
  try {
    const url = new URL(value);
    if (['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && url.hostname && !/\s/.test(value)) return null;
  } catch {
    // Not a URL at all.
  }
  return { error: 'Enter a valid URL.', code: 'invalid' };
};

export class UpdateAccountDto {
  @Field({ kind: 'string', required: false, min: 2, max: 150 })
  first_name?: string;

  @Field({ kind: 'string', required: false, max: 10, check: languageCheck })
  language?: string;

  @Field({ kind: 'choice', required: false, choices: ['instant', 'daily', 'weekly', 'never'] })
  email_notification_frequency?: string;

  @Field({ kind: 'bool', required: false })
  completed_onboarding?: boolean;

  @Field({ kind: 'list', required: false, of: { kind: 'string', max: 255 } })
  completed_guided_tours?: string[];
}

export class ChangePasswordDto {
  // No length rule: a wrong old password of any length is ERROR_INVALID_OLD_PASSWORD, as in Baserow.
  @Field({ kind: 'string' })
  old_password: string;

  @Field({ kind: 'password' })
  new_password: string;
}

export class SendResetPasswordDto {
  @Field({ kind: 'email' })
  email: string;

  @Field({ kind: 'string', max: 1000, check: urlCheck, description: 'The reset page address; the token is appended.' })
  base_url: string;
}

export class ResetPasswordDto {
  @Field({ kind: 'string' })
  token: string;

  @Field({ kind: 'password' })
  password: string;
}
