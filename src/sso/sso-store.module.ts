import { Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { AuthProviderEntity, AuthProviderUserEntity, PendingSignInEntity, UsedAssertionEntity } from './auth-provider.entity';
import { AuthProviderRepository } from './auth-provider.repository';
import { AuthProviderCatalog, PasswordSignIn } from './password-sign-in';

/** The auth providers' tables and the password sign-in switch, used by the auth and users modules as by single sign-on. */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [AuthProviderEntity, AuthProviderUserEntity, PendingSignInEntity, UsedAssertionEntity] })],
  providers: [AuthProviderRepository, AuthProviderCatalog, PasswordSignIn],
  exports: [AuthProviderRepository, AuthProviderCatalog, PasswordSignIn],
})
export class SsoStoreModule {}
