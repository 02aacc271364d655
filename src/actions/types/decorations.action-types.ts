import { Injectable } from '@nestjs/common';
import { DecorationsService } from '../../views/decorations/decorations.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * Decorations of a view (Baserow's `create/update/delete_decoration`), scope `view<id>`, through
 * the decorations service with its `view_decoration_*` messages. A deleted decoration comes back
 * under its own id, as Baserow's `primary_key=` does; one whose conf names a field gone since
 * is refused by the service (the action is skipped).
 */
interface DecorationParams {
  viewId: number;
  id: number;
  decoration: Record<string, unknown>;
}

interface UpdateParams {
  viewId: number;
  id: number;
  before: Record<string, unknown>;
  body: Record<string, unknown>;
}

@Injectable()
export class CreateDecorationActionType implements ActionType<DecorationParams> {
  readonly type = 'create_decoration';
  constructor(private readonly decorations: DecorationsService) {}

  async undo(params: DecorationParams, { user }: ActionContext): Promise<void> {
    await this.decorations.delete(user, params.id);
  }

  async redo(params: DecorationParams, { user }: ActionContext): Promise<void> {
    await this.decorations.create(user, params.viewId, params.decoration, params.id);
  }
}

@Injectable()
export class UpdateDecorationActionType implements ActionType<UpdateParams> {
  readonly type = 'update_decoration';
  constructor(private readonly decorations: DecorationsService) {}

  async undo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.decorations.update(user, params.id, params.before);
  }

  async redo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.decorations.update(user, params.id, params.body);
  }
}

@Injectable()
export class DeleteDecorationActionType implements ActionType<DecorationParams> {
  readonly type = 'delete_decoration';
  constructor(private readonly decorations: DecorationsService) {}

  async undo(params: DecorationParams, { user }: ActionContext): Promise<void> {
    await this.decorations.create(user, params.viewId, params.decoration, params.id);
  }

  async redo(params: DecorationParams, { user }: ActionContext): Promise<void> {
    await this.decorations.delete(user, params.id);
  }
}

export const DECORATION_ACTION_TYPES = [CreateDecorationActionType, UpdateDecorationActionType, DeleteDecorationActionType];
