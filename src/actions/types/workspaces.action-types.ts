import { Injectable } from '@nestjs/common';
import { TrashService } from '../../trash/trash.service';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import type { ActionContext, ActionType } from '../action-type';
import { trashableActionTypes } from './trashable';

/**
 * The workspace actions (Baserow's `core/actions.py`, still named "group"), scope `root`:
 * created and deleted workspaces go to and come back from the trash; renames and the user's
 * order are made again through the workspaces service, with its messages.
 */
interface WorkspaceParams {
  workspaceId: number;
}

function workspaceTypes(workspaces: WorkspacesService, trash: TrashService) {
  return trashableActionTypes<WorkspaceParams>({ trashType: 'workspace', itemId: (p) => p.workspaceId, trash: (user, p) => workspaces.delete(user, p.workspaceId), trashService: trash });
}

@Injectable()
export class CreateWorkspaceActionType implements ActionType<WorkspaceParams> {
  readonly type = 'create_group';
  readonly undo;
  readonly redo;
  constructor(workspaces: WorkspacesService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = workspaceTypes(workspaces, trash).appeared);
  }
}

@Injectable()
export class DeleteWorkspaceActionType implements ActionType<WorkspaceParams> {
  readonly type = 'delete_group';
  readonly undo;
  readonly redo;
  constructor(workspaces: WorkspacesService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = workspaceTypes(workspaces, trash).disappeared);
  }
}

interface RenameParams extends WorkspaceParams {
  before: string;
  after: string;
}

@Injectable()
export class UpdateWorkspaceActionType implements ActionType<RenameParams> {
  readonly type = 'update_group';
  constructor(private readonly workspaces: WorkspacesService) {}

  async undo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.workspaces.update(user, params.workspaceId, params.before);
  }

  async redo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.workspaces.update(user, params.workspaceId, params.after);
  }
}

interface OrderParams {
  before: number[];
  after: number[];
}

/** The user's own order of their workspaces (ids no longer theirs are ignored by the service). */
@Injectable()
export class OrderWorkspacesActionType implements ActionType<OrderParams> {
  readonly type = 'order_groups';
  constructor(private readonly workspaces: WorkspacesService) {}

  async undo(params: OrderParams, { user }: ActionContext): Promise<void> {
    await this.workspaces.order(user, params.before);
  }

  async redo(params: OrderParams, { user }: ActionContext): Promise<void> {
    await this.workspaces.order(user, params.after);
  }
}

export const WORKSPACE_ACTION_TYPES = [CreateWorkspaceActionType, DeleteWorkspaceActionType, UpdateWorkspaceActionType, OrderWorkspacesActionType];
