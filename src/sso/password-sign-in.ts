import { Injectable } from '@nestjs/common';
import { ApiError } from '../core/errors/api-error';
import { AuthProviderRepository } from './auth-provider.repository';

export const PasswordSignInErrors = {
  /** Baserow's `ERROR_AUTH_PROVIDER_DISABLED`. */
  disabled: () => new ApiError('ERROR_AUTH_PROVIDER_DISABLED', 401, 'Authentication provider is disabled.'),
};

/**
 * Whether e-mail and password sign-in is on: the password provider's `enabled` (Baserow's
 * `PasswordProviderHandler.get().enabled`). When off, only staff sign in, change or reset a
 * password, and nobody signs up with one.
 */
@Injectable()
export class PasswordSignIn {
  constructor(private readonly repo: AuthProviderRepository) {}

  async enabled(): Promise<boolean> {
    const [password] = await this.repo.listOfType('password');
    return password?.enabled ?? true;
  }
}
