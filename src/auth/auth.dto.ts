import { Field } from '../core/validation/field';
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

export class RefreshTokenDto {
  @Field({ kind: 'string', required: false, description: 'The refresh token.' })
  refresh_token?: string;

  @Field({ kind: 'string', required: false, description: 'Deprecated name of `refresh_token`.' })
  token?: string;
}
