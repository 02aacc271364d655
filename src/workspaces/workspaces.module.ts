import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { SettingsModule } from '../settings/settings.module';
import { InvitationsService } from './invitations.service';
import { PermissionsService } from './permissions.service';
import { WorkspaceRepository } from './workspace.repository';
import { DashboardController, InvitationsController, WorkspacesController } from './workspaces.controller';
import { WorkspacesService } from './workspaces.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { WorkspaceEntity, WorkspaceInvitationEntity, WorkspaceUserEntity } from './workspace.entity';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [WorkspaceEntity, WorkspaceUserEntity, WorkspaceInvitationEntity] }), SettingsModule, NotificationsModule],
  controllers: [InvitationsController, WorkspacesController, DashboardController],
  providers: [WorkspaceRepository, WorkspacesService, InvitationsService, PermissionsService],
  exports: [WorkspaceRepository, WorkspacesService, InvitationsService, PermissionsService],
})
export class WorkspacesModule {}
