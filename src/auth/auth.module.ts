import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { LicensesModule } from '../licenses/licenses.module';
import { SettingsModule } from '../settings/settings.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LoginLimiter } from './login-limiter';
import { TokenRepository } from './token.repository';
import { TokenService } from './token.service';

@Module({
  imports: [UsersModule, WorkspacesModule, ApplicationsModule, SettingsModule, TokensModule, LicensesModule],
  controllers: [AuthController],
  providers: [AuthService, AuthGuard, LoginLimiter, TokenRepository, TokenService],
  exports: [AuthGuard, TokenService, TokenRepository],
})
export class AuthModule {}
