import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { SettingsModule } from '../settings/settings.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AccountDeletionMails } from './account-deletion.mails';
import { EmailVerificationService } from './email-verification.service';
import { PasswordHasher } from './password-hasher';
import { UserRepository } from './user.repository';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { UserEntity } from './user.entity';
import { SsoStoreModule } from '../sso/sso-store.module';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [UserEntity] }), WorkspacesModule, ApplicationsModule, SettingsModule, SsoStoreModule],
  controllers: [UsersController],
  providers: [UserRepository, PasswordHasher, UsersService, AccountDeletionMails, EmailVerificationService],
  exports: [UserRepository, PasswordHasher, UsersService, EmailVerificationService],
})
export class UsersModule {}
