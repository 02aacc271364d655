import { Module, OnModuleInit } from '@nestjs/common';
import { ActionTypeRegistry } from '../actions/action-type';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { BatchAssignRoleActionType } from './role.action-type';
import { RoleAssignmentsService } from './role-assignments.service';
import { RolesController } from './roles.controller';

/** The role API (`/api/role/{workspace_id}/`): Baserow enterprise's role assignments, and its undoable action `batch_assign_role`. */
@Module({
  imports: [WorkspacesModule],
  controllers: [RolesController],
  providers: [RoleAssignmentsService, BatchAssignRoleActionType],
  exports: [RoleAssignmentsService],
})
export class RolesModule implements OnModuleInit {
  constructor(
    private readonly registry: ActionTypeRegistry,
    private readonly actionType: BatchAssignRoleActionType,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.actionType);
  }
}
