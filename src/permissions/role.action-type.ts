import { Injectable } from '@nestjs/common';
import type { ActionContext, ActionType } from '../actions/action-type';
import { RoleAssignmentsService } from './role-assignments.service';

/** One item of a batch: (subject type, subject id, role before, role after, scope type, scope id), as Baserow's AssignmentTuple. */
type AssignmentTuple = [string, number, string | null, string | null, string, number];

interface BatchAssignRoleParams {
  workspace_id: number;
  assignments: AssignmentTuple[];
}

/**
 * Baserow enterprise's `batch_assign_role` (undoable, in the workspace's scope): an undo gives
 * each subject its role before on the scope (none: removed), a redo the role it was given, all
 * through the role API's service and its checks, in one batch.
 */
@Injectable()
export class BatchAssignRoleActionType implements ActionType<BatchAssignRoleParams> {
  readonly type = 'batch_assign_role';
  constructor(private readonly roles: RoleAssignmentsService) {}

  async undo(params: BatchAssignRoleParams, { user }: ActionContext): Promise<void> {
    await this.assign(params, user, 2);
  }

  async redo(params: BatchAssignRoleParams, { user }: ActionContext): Promise<void> {
    await this.assign(params, user, 3);
  }

  private async assign(params: BatchAssignRoleParams, user: ActionContext['user'], roleAt: 2 | 3): Promise<void> {
    const items = params.assignments.map((tuple) => ({ subject_type: tuple[0], subject_id: tuple[1], role: tuple[roleAt], scope_type: tuple[4], scope_id: tuple[5] }));
    await this.roles.assign(user, params.workspace_id, items, { batch: true });
  }
}
