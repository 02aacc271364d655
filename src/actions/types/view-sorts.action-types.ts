import { Injectable } from '@nestjs/common';
import { ViewSortsService } from '../../views/sorts/view-sorts.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * Sorts and group-bys of a view (Baserow's `create/update/delete_view_sort` and `…_view_group`),
 * scope `view<id>`, through the sorts service with its `view_sort_*` / `view_group_by_*`
 * messages. A deleted one comes back as a new one (with a new id, kept for the next redo).
 */
interface PartParams {
  viewId: number;
  id: number;
  json: Record<string, unknown>;
  [key: string]: unknown;
}

interface UpdateParams {
  viewId: number;
  id: number;
  before: Record<string, unknown>;
  body: Record<string, unknown>;
}

type KindName = 'sorts' | 'groupBys';

function sortActionTypes(kindName: KindName, name: string) {
  @Injectable()
  class Create implements ActionType<PartParams> {
    readonly type = `create_${name}`;
    constructor(readonly service: ViewSortsService) {}
    async undo(params: PartParams, { user }: ActionContext): Promise<void> {
      await this.service.delete(this.service[kindName], user, params.id);
    }
    async redo(params: PartParams, { user }: ActionContext): Promise<PartParams> {
      const created = await this.service.create(this.service[kindName], user, params.viewId, params.json);
      return { ...params, id: created.id as number };
    }
  }
  @Injectable()
  class Update implements ActionType<UpdateParams> {
    readonly type = `update_${name}`;
    constructor(readonly service: ViewSortsService) {}
    async undo(params: UpdateParams, { user }: ActionContext): Promise<void> {
      await this.service.update(this.service[kindName], user, params.id, params.before);
    }
    async redo(params: UpdateParams, { user }: ActionContext): Promise<void> {
      await this.service.update(this.service[kindName], user, params.id, params.body);
    }
  }
  @Injectable()
  class Delete implements ActionType<PartParams> {
    readonly type = `delete_${name}`;
    constructor(readonly service: ViewSortsService) {}
    async undo(params: PartParams, { user }: ActionContext): Promise<PartParams> {
      const created = await this.service.create(this.service[kindName], user, params.viewId, params.json);
      return { ...params, id: created.id as number };
    }
    async redo(params: PartParams, { user }: ActionContext): Promise<void> {
      await this.service.delete(this.service[kindName], user, params.id);
    }
  }
  return [Create, Update, Delete];
}

export const [CreateViewSortActionType, UpdateViewSortActionType, DeleteViewSortActionType] = sortActionTypes('sorts', 'view_sort');
export const [CreateViewGroupByActionType, UpdateViewGroupByActionType, DeleteViewGroupByActionType] = sortActionTypes('groupBys', 'view_group');

export const VIEW_SORT_ACTION_TYPES = [
  CreateViewSortActionType,
  UpdateViewSortActionType,
  DeleteViewSortActionType,
  CreateViewGroupByActionType,
  UpdateViewGroupByActionType,
  DeleteViewGroupByActionType,
];
