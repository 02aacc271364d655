import { languageCheck } from '../auth/auth.dto';
import { Field } from '../core/validation/field';

/** What the browser asked for when it started signing in (Baserow's SsoLoginRequestSerializer). */
export class SsoLoginQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, max: 2000, description: 'The relative URL of the web client to land on after signing in (an absolute one is ignored).' })
  original?: string;

  @Field({ kind: 'string', required: false, min: 2, max: 10, check: languageCheck, description: 'An ISO 639 language code (with optional variant) for a new account. Ex: en-GB.' })
  language?: string;

  @Field({ kind: 'string', required: false, max: 1000, description: 'If provided and valid, the user accepts the workspace invitation after signing in or up.' })
  workspace_invitation_token?: string;
}

/** SAML's login: the e-mail picks the provider by its domain when there are several. */
export class SamlLoginQuery extends SsoLoginQuery {
  @Field({ kind: 'email', required: false, description: 'The e-mail address of the user that wants to sign in using SAML.' })
  email?: string;
}

/** What a sign-in keeps of the browser's request: `original` only when relative (Baserow's `validate_original`). */
export interface SsoLoginRequest {
  original?: string;
  language?: string;
  workspace_invitation_token?: string;
}

export function ssoLoginRequest(query: SsoLoginQuery): SsoLoginRequest {
  const request: SsoLoginRequest = {};
  if (query.original && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(query.original)) request.original = query.original;
  if (query.language) request.language = query.language;
  if (query.workspace_invitation_token) request.workspace_invitation_token = query.workspace_invitation_token;
  return request;
}

/** The provider's answer on the callback URL (RFC 6749: `code` and `state`, or `error`). */
export class OAuth2CallbackQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, max: 4096, description: 'The authorization code returned by the provider.' })
  code?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, max: 512, description: 'The state sent with the authorization request.' })
  state?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, max: 512, description: 'The error the provider answered instead of a code.' })
  error?: string;
}
