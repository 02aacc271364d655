import { Injectable } from '@nestjs/common';
import { ViewFiltersService } from '../../views/filters/view-filters.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * Filters of a view (Baserow's `create/update/delete_view_filter`), scope `view<id>`, through the
 * filters service with its `view_filter_*` messages. A deleted filter comes back as a new one
 * (its new id kept for the next redo); one whose field or group is gone is skipped.
 */
interface FilterParams {
  viewId: number;
  id: number;
  filter: Record<string, unknown>;
  [key: string]: unknown;
}

interface UpdateParams {
  viewId: number;
  id: number;
  before: Record<string, unknown>;
  body: Record<string, unknown>;
}

@Injectable()
export class CreateViewFilterActionType implements ActionType<FilterParams> {
  readonly type = 'create_view_filter';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: FilterParams, { user }: ActionContext): Promise<void> {
    await this.filters.delete(user, params.id);
  }

  async redo(params: FilterParams, { user }: ActionContext): Promise<FilterParams> {
    return { ...params, id: (await this.filters.create(user, params.viewId, params.filter)).id as number };
  }
}

@Injectable()
export class UpdateViewFilterActionType implements ActionType<UpdateParams> {
  readonly type = 'update_view_filter';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.filters.update(user, params.id, params.before);
  }

  async redo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.filters.update(user, params.id, params.body);
  }
}

@Injectable()
export class DeleteViewFilterActionType implements ActionType<FilterParams> {
  readonly type = 'delete_view_filter';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: FilterParams, { user }: ActionContext): Promise<FilterParams> {
    return { ...params, id: (await this.filters.create(user, params.viewId, params.filter)).id as number };
  }

  async redo(params: FilterParams, { user }: ActionContext): Promise<void> {
    await this.filters.delete(user, params.id);
  }
}

export const VIEW_FILTER_ACTION_TYPES = [CreateViewFilterActionType, UpdateViewFilterActionType, DeleteViewFilterActionType];
