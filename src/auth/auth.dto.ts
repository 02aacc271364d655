import { Field, unsafeCharacterErrors } from '../core/validation/field';
import { LANGUAGES } from '../users/user.serializer';

export const languageCheck = (value: string) =>
  (LANGUAGES as readonly string[]).includes(value)
    ? null
    : { error: `Only the following language keys are valid: ${LANGUAGES.join(',')}`, code: 'invalid_language' };

export class SignUpDto {
  @Field({ kind: 'string', min: 2, max: 150, description: "The user's first name." })
  name: string;

  @Field({ kind: 'email', description: 'The e-mail address, which is also the username.' })
  email: string;

  @Field({ kind: 'password' })
  password: string;

  @Field({ kind: 'string', required: false, default: 'en', max: 10, check: languageCheck })
  language: string;

  @Field({ kind: 'bool', required: false, default: false, description: 'Answer with tokens, as token-auth does.' })
  authenticate: boolean;

  @Field({ kind: 'string', required: false, nullable: true, description: 'Joins the workspace of this invitation instead of creating the example workspace.' })
  workspace_invitation_token?: string | null;

  @Field({ kind: 'int', required: false, nullable: true, description: 'Accepted for compatibility; templates are not available.' })
  template_id?: number | null;
}

export class BlacklistTokenDto {
  @Field({ kind: 'string', description: 'The refresh token that must stop working.' })
  refresh_token: string;
}

/**
 * DRF's CharField checks for the simplejwt-based endpoints (token-auth, token-refresh,
 * token-verify), whose field errors are rendered DRF-style (`{"field": ["message"]}`),
 * not in Baserow's envelope. Returns the message, or null when the value is acceptable.
 */
export function drfStringError(value: unknown, required: boolean): string | null {
  if (value === undefined) return required ? 'This field is required.' : null;
  if (value === null) return 'This field may not be null.';
  if (typeof value === 'number') return null;
  if (typeof value !== 'string') return 'Not a valid string.';
  if (value.trim() === '') return 'This field may not be blank.';
  return unsafeCharacterErrors(value)[0]?.error ?? null;
}

export class SendVerifyEmailDto {
  @Field({ kind: 'email', description: 'The address to send the verification link to.' })
  email: string;
}

export class VerifyEmailDto {
  @Field({ kind: 'string', description: 'The token of the verification link.' })
  token: string;
}
