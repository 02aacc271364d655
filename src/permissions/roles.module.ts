import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { RoleAssignmentsService } from './role-assignments.service';
import { RolesController } from './roles.controller';

/** The role API (`/api/role/{workspace_id}/`): Baserow enterprise's role assignments. */
@Module({
  imports: [WorkspacesModule],
  controllers: [RolesController],
  providers: [RoleAssignmentsService],
  exports: [RoleAssignmentsService],
})
export class RolesModule {}
