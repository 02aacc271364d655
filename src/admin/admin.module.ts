import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { AuthModule } from '../auth/auth.module';
import { DatabaseModule } from '../database/database.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AdminDashboardService } from './admin-dashboard.service';
import { AdminController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminUsersService } from './admin-users.service';
import { AdminWorkspacesService } from './admin-workspaces.service';

/** Administration (Baserow's `/api/admin/`): the dashboard, every user and every workspace, for staff. */
@Module({
  imports: [AuthModule, UsersModule, WorkspacesModule, ApplicationsModule, DatabaseModule],
  controllers: [AdminController],
  providers: [AdminRepository, AdminDashboardService, AdminUsersService, AdminWorkspacesService],
})
export class AdminModule {}
