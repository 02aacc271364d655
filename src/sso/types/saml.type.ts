import { validationError } from '../../core/errors/api-error';
import { parseIdpMetadata } from '../saml/idp-metadata';
import { attrKey, AuthProviderType } from './auth-provider-type';

export const samlAcsUrl = (backendUrl: string) => `${backendUrl}/api/sso/saml/acs/`;
export const samlLoginUrl = (backendUrl: string) => `${backendUrl}/api/sso/saml/login/`;

const invalidMetadata = () => ({ error: 'The metadata is not valid according to the XML schema.', code: 'invalid' });

/**
 * SAML 2.0 (Baserow's `SamlAuthProviderType`): staff paste the IdP's metadata and the e-mail
 * domain it signs in (one SAML provider per domain). `is_verified` turns true at the first
 * successful sign-in and false again when the metadata changes.
 */
export const samlProviderType: AuthProviderType = {
  type: 'saml',
  canCreate: true,
  canDelete: true,
  domainRequired: true,
  fields: {
    metadata: { kind: 'string', max: 1_000_000, check: (value: string) => (parseIdpMetadata(value) ? null : invalidMetadata()) },
    email_attr_key: attrKey('user.email'),
    first_name_attr_key: attrKey('user.first_name'),
    last_name_attr_key: attrKey('user.last_name', true),
  },
  async settingsFrom(values, current) {
    const next: Record<string, unknown> = { is_verified: false, ...(current ?? {}), ...values };
    if (typeof values.metadata === 'string' && values.metadata !== current?.metadata) next.is_verified = false;
    if (typeof next.metadata !== 'string') throw validationError({ metadata: [{ error: 'This field is required.', code: 'required' }] });
    return next;
  },
  serialize(provider) {
    const s = provider.settings;
    return {
      metadata: s.metadata,
      is_verified: s.is_verified === true,
      email_attr_key: s.email_attr_key ?? 'user.email',
      first_name_attr_key: s.first_name_attr_key ?? 'user.first_name',
      last_name_attr_key: s.last_name_attr_key ?? 'user.last_name',
    };
  },
  loginOptions({ providers, backendUrl, frontendUrl }) {
    if (!providers.length) return null;
    return {
      type: 'saml',
      // One IdP: the browser goes straight to it; several: the web client asks for the e-mail first.
      domain_required: providers.length > 1,
      default_redirect_url: providers.length === 1 ? samlLoginUrl(backendUrl) : `${frontendUrl}/login/saml`,
    };
  },
  listExtras: ({ backendUrl, frontendUrl }) => ({ relay_state_url: `${frontendUrl}/dashboard`, acs_url: samlAcsUrl(backendUrl) }),
};
