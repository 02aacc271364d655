import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { AuthProviderTypes } from './auth-provider-types';
import { AuthProvidersController } from './auth-providers.controller';
import { AuthProvidersService } from './auth-providers.service';
import { OidcController } from './oidc/oidc.controller';
import { OidcSignInService } from './oidc/oidc-sign-in.service';
import { PendingSignIns } from './pending-sign-ins';
import { SamlController } from './saml/saml.controller';
import { SamlSignInService } from './saml/saml-sign-in.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoStoreModule } from './sso-store.module';

/** Single sign-on: the auth providers staff manage, and the OpenID Connect and SAML sign-ins. */
@Module({
  imports: [SsoStoreModule, AuthModule, UsersModule, TokensModule],
  controllers: [AuthProvidersController, OidcController, SamlController],
  providers: [AuthProviderTypes, AuthProvidersService, PendingSignIns, SsoSignInService, OidcSignInService, SamlSignInService],
})
export class SsoModule {}
