import { Injectable } from '@nestjs/common';
import { KanbanViewService } from '../kanban-view.service';
import { ViewErrors } from '../views.errors';
import type { PublicKanbanRowsQuery } from './public-views.dto';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService } from './public-views.service';

/**
 * A shared kanban's rows (Baserow's PublicKanbanViewView): the members' columns per option of
 * the single select field (`select_option`, `limit`, `offset`) over the saved filters AND the
 * request's (no search or `order_by`: the saved sorts on visible fields), with only the visible
 * fields and their options.
 */
@Injectable()
export class KanbanPublicRows implements PublicRowsType<PublicKanbanRowsQuery> {
  readonly type = 'kanban';
  readonly notFound = ViewErrors.kanbanDoesNotExist;

  constructor(
    private readonly kanban: KanbanViewService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicKanbanRowsQuery): Promise<Record<string, unknown>> {
    const field = this.kanban.singleSelectField(access);
    // Only the filters count here (Baserow's shared kanban takes no search or order).
    const filters = Object.fromEntries(Object.entries(query).filter(([key]) => key === 'filters' || key === 'filter_type' || key.startsWith('filter__')));
    const selection = await this.publicViews.selection(access, filters, { orderBy: false, groupBy: false });
    return { ...(await this.kanban.columns(access, field, selection, query, { fields: access.visible, userId: null, optionFields: access.visible })) };
  }
}
