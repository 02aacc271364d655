import { Injectable } from '@nestjs/common';
import { ApplicationsService } from '../../applications/applications.service';
import { TrashService } from '../../trash/trash.service';
import type { ActionContext, ActionType } from '../action-type';
import { stillThere, trashableActionTypes } from './trashable';

/**
 * The application actions (Baserow's `core/actions.py`), scope `workspace<id>`: created,
 * duplicated and deleted applications go to and come back from the trash; renames and
 * orders are made again through the applications service, with its messages.
 */
interface ApplicationParams {
  workspaceId: number;
  applicationId: number;
}

function applicationTypes(applications: ApplicationsService, trash: TrashService) {
  return trashableActionTypes<ApplicationParams>({
    trashType: 'application',
    itemId: (p) => p.applicationId,
    trash: (user, p) => applications.delete(user, p.applicationId),
    trashService: trash,
  });
}

@Injectable()
export class CreateApplicationActionType implements ActionType<ApplicationParams> {
  readonly type = 'create_application';
  readonly undo;
  readonly redo;
  constructor(applications: ApplicationsService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = applicationTypes(applications, trash).appeared);
  }
}

@Injectable()
export class DuplicateApplicationActionType implements ActionType<ApplicationParams> {
  readonly type = 'duplicate_application';
  readonly undo;
  readonly redo;
  constructor(applications: ApplicationsService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = applicationTypes(applications, trash).appeared);
  }
}

@Injectable()
export class DeleteApplicationActionType implements ActionType<ApplicationParams> {
  readonly type = 'delete_application';
  readonly undo;
  readonly redo;
  constructor(applications: ApplicationsService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = applicationTypes(applications, trash).disappeared);
  }
}

interface RenameParams extends ApplicationParams {
  before: string;
  after: string;
}

@Injectable()
export class UpdateApplicationActionType implements ActionType<RenameParams> {
  readonly type = 'update_application';
  constructor(private readonly applications: ApplicationsService) {}

  async undo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.applications.update(user, params.applicationId, params.before);
  }

  async redo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.applications.update(user, params.applicationId, params.after);
  }
}

interface OrderParams {
  workspaceId: number;
  before: number[];
  after: number[];
}

@Injectable()
export class OrderApplicationsActionType implements ActionType<OrderParams> {
  readonly type = 'order_applications';
  constructor(private readonly applications: ApplicationsService) {}

  async undo(params: OrderParams, ctx: ActionContext): Promise<void> {
    await this.order(params.workspaceId, params.before, ctx);
  }

  async redo(params: OrderParams, ctx: ActionContext): Promise<void> {
    await this.order(params.workspaceId, params.after, ctx);
  }

  private async order(workspaceId: number, ids: number[], { user }: ActionContext): Promise<void> {
    const live = (await this.applications.listForWorkspace(user, workspaceId)).map((application) => application.id as number);
    await this.applications.order(user, workspaceId, stillThere(ids, live));
  }
}

export const APPLICATION_ACTION_TYPES = [CreateApplicationActionType, DuplicateApplicationActionType, DeleteApplicationActionType, UpdateApplicationActionType, OrderApplicationsActionType];
