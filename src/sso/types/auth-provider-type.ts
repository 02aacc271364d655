import type { FieldError } from '../../core/errors/api-error';
import type { FieldSpec } from '../../core/validation/field';
import type { AuthProviderEntity } from '../auth-provider.entity';

/** What a type needs of its provider's settings: read and sealed/unsealed (client secrets). */
export interface ProviderSecrets {
  seal(plain: string): string;
  open(sealed: string): string | null;
}

export interface LoginOptionContext {
  /** The enabled providers of this type. */
  providers: AuthProviderEntity[];
  /** Absolute URL of this server's API (PUBLIC_URL). */
  backendUrl: string;
  /** Absolute URL of the web client (PUBLIC_WEB_FRONTEND_URL). */
  frontendUrl: string;
}

/**
 * An auth provider type (Baserow's `AuthProviderType`): one file per type, collected in
 * AUTH_PROVIDER_TYPES. It knows its own fields (validated and kept in the provider's settings),
 * how it answers in the admin API and what it adds to the login options.
 */
export interface AuthProviderType {
  readonly type: string;
  /** Whether staff may add (the password provider is the one made by the migration) or delete one. */
  readonly canCreate: boolean;
  readonly canDelete: boolean;
  /** Whether `domain` is required on create (SAML finds a provider by the e-mail's domain). */
  readonly domainRequired: boolean;
  /** The request fields besides `domain` and `enabled`, as DRF validates them. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /**
   * The settings to store from validated fields (`partial`: an update's changes, merged over
   * `current`): may look things up (OpenID Connect's discovery document). Throws ApiError.
   */
  settingsFrom(values: Record<string, unknown>, current: Record<string, unknown> | null, secrets: ProviderSecrets): Promise<Record<string, unknown>>;
  /** The type's keys of the admin answer. */
  serialize(provider: AuthProviderEntity, secrets: ProviderSecrets): Record<string, unknown>;
  /** The entry of `GET /api/auth-provider/login-options/`, or null to show nothing. */
  loginOptions(context: LoginOptionContext): Record<string, unknown> | null;
  /** Extra keys of this type's entry in the admin list (SAML's `acs_url`, `relay_state_url`). */
  listExtras?(context: Omit<LoginOptionContext, 'providers'>): Record<string, unknown>;
}

/** DRF's URLField message. */
export const urlCheck = (value: string): FieldError | null => {
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return null;
  } catch {
    // not a URL
  }
  return { error: 'Enter a valid URL.', code: 'invalid' };
};

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.[a-z]{2,63}$/i;

/** Baserow's `validate_domain`. */
export const domainCheck = (value: string): FieldError | null =>
  !value || DOMAIN.test(value) ? null : { error: 'The domain value is not a valid domain name.', code: 'invalid' };

/** Baserow's attribute-key fields (a claim or attribute name, max 32). */
export const attrKey = (fallback: string, allowBlank = false): FieldSpec => ({ kind: 'string', max: 32, required: false, default: fallback, allowBlank });
