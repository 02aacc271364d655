import type { AuthProviderType } from './auth-provider-type';

/** E-mail and password (Baserow's `PasswordAuthProviderType`): one provider, made by the migration; `enabled` false keeps only staff signing in with a password. */
export const passwordProviderType: AuthProviderType = {
  type: 'password',
  canCreate: false,
  canDelete: false,
  domainRequired: false,
  fields: {},
  settingsFrom: async () => ({}),
  serialize: () => ({}),
  loginOptions: ({ providers }) => (providers.length ? { type: 'password' } : null),
};
