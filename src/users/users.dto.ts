import { languageCheck } from '../auth/auth.dto';
import { Field } from '../core/validation/field';

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
  @Field({ kind: 'string', max: 256 })
  old_password: string;

  @Field({ kind: 'password' })
  new_password: string;
}

export class SendResetPasswordDto {
  @Field({ kind: 'email' })
  email: string;

  @Field({ kind: 'string', max: 1000, description: 'The reset page address; the token is appended.' })
  base_url: string;
}

export class ResetPasswordDto {
  @Field({ kind: 'string' })
  token: string;

  @Field({ kind: 'password' })
  password: string;
}
