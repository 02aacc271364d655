import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { ApiError } from '../core/errors/api-error';
import { AuthProviderEntity } from './auth-provider.entity';
import { AuthProviderRepository } from './auth-provider.repository';

export const PasswordSignInErrors = {
  /** Baserow's `ERROR_AUTH_PROVIDER_DISABLED`. */
  disabled: () => new ApiError('ERROR_AUTH_PROVIDER_DISABLED', 401, 'Authentication provider is disabled.'),
};

/**
 * The auth providers as the sign-in pages and every password sign-in read them: a metadata
 * cache (a change on any instance is seen at once).
 */
@Injectable()
export class AuthProviderCatalog {
  private readonly cache: MetadataCache<number, AuthProviderEntity[]>;

  constructor(
    private readonly repo: AuthProviderRepository,
    caches: Caches,
  ) {
    this.cache = caches.metadata<number, AuthProviderEntity[]>('auth-providers', 1);
  }

  all(): Promise<AuthProviderEntity[]> {
    return this.cache.get(1, () => this.repo.list());
  }
}

/**
 * Whether e-mail and password sign-in is on: the password provider's `enabled` (Baserow's
 * `PasswordProviderHandler.get().enabled`). When off, only staff sign in, change or reset a
 * password, and nobody signs up with one.
 */
@Injectable()
export class PasswordSignIn {
  constructor(private readonly catalog: AuthProviderCatalog) {}

  async enabled(): Promise<boolean> {
    return (await this.provider())?.enabled ?? true;
  }

  /** The password provider (the audit log names it on password sign-ups and sign-ins, as Baserow does). */
  async provider(): Promise<AuthProviderEntity | null> {
    return (await this.catalog.all()).find((provider) => provider.type === 'password') ?? null;
  }
}
