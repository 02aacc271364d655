import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import type { AuthProviderType } from './types/auth-provider-type';
import { openIdConnectProviderType } from './types/openid-connect.type';
import { passwordProviderType } from './types/password.type';
import { samlProviderType } from './types/saml.type';

/** The auth provider types, in Baserow's order of the login options. */
@Injectable()
export class AuthProviderTypes {
  private readonly types: Map<string, AuthProviderType>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const limits = { timeoutMs: config.ssoProviderTimeoutMs, maxBytes: config.ssoProviderMaxBytes };
    this.types = new Map([passwordProviderType, openIdConnectProviderType(limits), samlProviderType].map((type) => [type.type, type]));
  }

  all(): AuthProviderType[] {
    return [...this.types.values()];
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  get(type: string): AuthProviderType | undefined {
    return this.types.get(type);
  }
}
