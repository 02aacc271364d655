import { Injectable } from '@nestjs/common';
import { GroupSnapshot, ViewFiltersService } from '../../views/filters/view-filters.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * Filters of a view (Baserow's `create/update/delete_view_filter`), scope `view<id>`, through the
 * filters service with its `view_filter_*` messages. A deleted filter comes back as a new one
 * (its new id kept for the next redo); one whose field or group is gone is skipped. Filter
 * groups (`create/update/delete_view_filter_group`) come back under their own ids, a deleted
 * one with its nested groups and filters, as in Baserow.
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

interface GroupParams {
  viewId: number;
  id: number;
  group: Record<string, unknown>;
}

@Injectable()
export class CreateViewFilterGroupActionType implements ActionType<GroupParams> {
  readonly type = 'create_view_filter_group';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: GroupParams, { user }: ActionContext): Promise<void> {
    await this.filters.deleteGroup(user, params.id);
  }

  async redo(params: GroupParams, { user }: ActionContext): Promise<void> {
    await this.filters.createGroup(user, params.viewId, params.group, params.id);
  }
}

@Injectable()
export class UpdateViewFilterGroupActionType implements ActionType<UpdateParams> {
  readonly type = 'update_view_filter_group';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.filters.updateGroup(user, params.id, params.before);
  }

  async redo(params: UpdateParams, { user }: ActionContext): Promise<void> {
    await this.filters.updateGroup(user, params.id, params.body);
  }
}

@Injectable()
export class DeleteViewFilterGroupActionType implements ActionType<GroupSnapshot & { viewId: number }> {
  readonly type = 'delete_view_filter_group';
  constructor(private readonly filters: ViewFiltersService) {}

  async undo(params: GroupSnapshot & { viewId: number }, { user }: ActionContext): Promise<void> {
    await this.filters.restoreGroup(user, params.viewId, params);
  }

  async redo(params: GroupSnapshot & { viewId: number }, { user }: ActionContext): Promise<void> {
    await this.filters.deleteGroup(user, params.id);
  }
}

export const VIEW_FILTER_ACTION_TYPES = [
  CreateViewFilterActionType,
  UpdateViewFilterActionType,
  DeleteViewFilterActionType,
  CreateViewFilterGroupActionType,
  UpdateViewFilterGroupActionType,
  DeleteViewFilterGroupActionType,
];
