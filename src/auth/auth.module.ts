import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { ExampleWorkspaceModule } from '../database/example-workspace/example-workspace.module';
import { LicensesModule } from '../licenses/licenses.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { SettingsModule } from '../settings/settings.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AuthController } from './auth.controller';
import { EmailVerificationController } from './email-verification.controller';
import { StaffGuard } from './staff.guard';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LoginLimiter } from './login-limiter';
import { TokenRepository } from './token.repository';
import { TokenService } from './token.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { BlacklistedTokenEntity } from './blacklisted-token.entity';
import { SsoStoreModule } from '../sso/sso-store.module';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [BlacklistedTokenEntity] }), UsersModule, WorkspacesModule, ApplicationsModule, ExampleWorkspaceModule, SettingsModule, TokensModule, LicensesModule, NotificationsModule, SsoStoreModule],
  controllers: [AuthController, EmailVerificationController],
  providers: [AuthService, AuthGuard, LoginLimiter, TokenRepository, TokenService, StaffGuard],
  exports: [AuthGuard, AuthService, TokenService, TokenRepository, StaffGuard],
})
export class AuthModule {}
