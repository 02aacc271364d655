import { providerRequest, ProviderHttpError, ProviderHttpLimits, invalidProviderUrl } from '../provider-http';
import { attrKey, AuthProviderType, urlCheck } from './auth-provider-type';

/** The endpoints of a provider's discovery document (`/.well-known/openid-configuration`). */
export interface WellKnownUrls {
  authorization_url: string;
  access_token_url: string;
  user_info_url: string;
  jwks_url: string;
  issuer: string;
}

/** Reads the discovery document of `baseUrl`; ERROR_INVALID_PROVIDER_URL when it is not one. */
export async function discover(baseUrl: string, limits: ProviderHttpLimits): Promise<WellKnownUrls> {
  try {
    const { status, json } = await providerRequest(`${baseUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`, { headers: { Accept: 'application/json' } }, limits);
    const doc = (json ?? {}) as Record<string, unknown>;
    const urls = {
      authorization_url: doc.authorization_endpoint,
      access_token_url: doc.token_endpoint,
      user_info_url: doc.userinfo_endpoint ?? '',
      jwks_url: doc.jwks_uri,
      issuer: doc.issuer,
    };
    if (status !== 200 || Object.values(urls).some((value) => typeof value !== 'string')) throw invalidProviderUrl();
    if ([urls.authorization_url, urls.access_token_url, urls.jwks_url].some((value) => urlCheck(value as string))) throw invalidProviderUrl();
    return urls as WellKnownUrls;
  } catch (error) {
    if (error instanceof ProviderHttpError) throw invalidProviderUrl();
    throw error;
  }
}

/**
 * A generic OpenID Connect provider (Baserow's `OpenIdConnectAuthProviderType`): staff give its
 * base URL, client id and secret; the endpoints are read from its discovery document when the
 * provider is created and whenever its base URL changes.
 */
export function openIdConnectProviderType(limits: ProviderHttpLimits): AuthProviderType {
  return {
    type: 'openid_connect',
    canCreate: true,
    canDelete: true,
    domainRequired: false,
    fields: {
      name: { kind: 'string', max: 255 },
      base_url: { kind: 'string', max: 200, check: urlCheck },
      client_id: { kind: 'string', max: 191 },
      secret: { kind: 'string', max: 191 },
      use_id_token: { kind: 'bool', required: false, default: false },
      email_attr_key: attrKey('email'),
      first_name_attr_key: attrKey('name'),
      last_name_attr_key: attrKey('', true),
    },
    async settingsFrom(values, current, secrets) {
      const next: Record<string, unknown> = { ...(current ?? {}), ...values };
      if (typeof values.secret === 'string') next.secret = secrets.seal(values.secret);
      if (typeof values.base_url === 'string') Object.assign(next, await discover(values.base_url, limits));
      return next;
    },
    serialize(provider, secrets) {
      const s = provider.settings;
      return {
        name: s.name,
        base_url: s.base_url,
        client_id: s.client_id,
        secret: typeof s.secret === 'string' ? (secrets.open(s.secret) ?? '') : '',
        use_id_token: s.use_id_token ?? false,
        email_attr_key: s.email_attr_key ?? 'email',
        first_name_attr_key: s.first_name_attr_key ?? 'name',
        last_name_attr_key: s.last_name_attr_key ?? '',
      };
    },
    loginOptions({ providers, backendUrl }) {
      if (!providers.length) return null;
      const items = providers.map((provider) => ({
        redirect_url: `${backendUrl}/api/sso/oauth2/login/${provider.id}/`,
        name: provider.settings.name,
        type: 'openid_connect',
      }));
      return { type: 'openid_connect', items, default_redirect_url: items.length === 1 ? items[0].redirect_url : null };
    },
  };
}
