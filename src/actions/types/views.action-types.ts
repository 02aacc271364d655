import { Injectable } from '@nestjs/common';
import { TrashService } from '../../trash/trash.service';
import { ViewFieldOptionsService } from '../../views/view-field-options.service';
import { ViewsService } from '../../views/views.service';
import { CalendarViewService } from '../../views/calendar/calendar-view.service';
import { NO_INCLUDES } from '../../views/view-json.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * The view actions (Baserow's `contrib/database/views/actions.py`): creating, duplicating,
 * deleting and ordering views (scope `table<id>`), updating one, its field options and its
 * slug (scope `view<id>`), undone and redone through the views services and the trash, with
 * the views' own messages.
 */

interface ViewParams {
  tableId: number;
  viewId: number;
}

/** A view that came to be (created, duplicated): its undo trashes it, its redo restores it. */
@Injectable()
abstract class NewViewActionType implements ActionType<ViewParams> {
  abstract readonly type: string;

  constructor(
    private readonly views: ViewsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: ViewParams, { user }: ActionContext): Promise<void> {
    await this.views.delete(user, params.viewId);
  }

  async redo(params: ViewParams, { user }: ActionContext): Promise<void> {
    await this.trash.restore(user, { trash_item_type: 'view', trash_item_id: params.viewId });
  }
}

@Injectable()
export class CreateViewActionType extends NewViewActionType {
  readonly type = 'create_view';
}

@Injectable()
export class DuplicateViewActionType extends NewViewActionType {
  readonly type = 'duplicate_view';
}

@Injectable()
export class DeleteViewActionType implements ActionType<ViewParams> {
  readonly type = 'delete_view';

  constructor(
    private readonly views: ViewsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: ViewParams, { user }: ActionContext): Promise<void> {
    await this.trash.restore(user, { trash_item_type: 'view', trash_item_id: params.viewId });
  }

  async redo(params: ViewParams, { user }: ActionContext): Promise<void> {
    await this.views.delete(user, params.viewId);
  }
}

interface UpdateViewParams extends ViewParams {
  before: Record<string, unknown>;
  body: Record<string, unknown>;
  /** An update of premium's attributes (show_logo, allow_public_export). */
  premium?: boolean;
}

@Injectable()
export class UpdateViewActionType implements ActionType<UpdateViewParams> {
  readonly type = 'update_view';

  constructor(private readonly views: ViewsService) {}

  async undo(params: UpdateViewParams, { user }: ActionContext): Promise<void> {
    await this.views.update(user, params.viewId, params.before, NO_INCLUDES, params.premium === true);
  }

  async redo(params: UpdateViewParams, { user }: ActionContext): Promise<void> {
    await this.views.update(user, params.viewId, params.body, NO_INCLUDES, params.premium === true);
  }
}

interface OrderViewsParams {
  tableId: number;
  before: number[];
  after: number[];
}

@Injectable()
export class OrderViewsActionType implements ActionType<OrderViewsParams> {
  readonly type = 'order_views';

  constructor(private readonly views: ViewsService) {}

  async undo(params: OrderViewsParams, { user }: ActionContext): Promise<void> {
    await this.views.order(user, params.tableId, await this.live(user, params.tableId, params.before));
  }

  async redo(params: OrderViewsParams, { user }: ActionContext): Promise<void> {
    await this.views.order(user, params.tableId, await this.live(user, params.tableId, params.after));
  }

  /** The ids still views of the table (one deleted since is left out of the order). */
  private async live(user: ActionContext['user'], tableId: number, ids: number[]): Promise<number[]> {
    const views = new Set((await this.views.list(user, tableId, { includes: NO_INCLUDES })).map((view) => view.id as number));
    return ids.filter((id) => views.has(id));
  }
}

/** Of the options a request set, the ones it changed: their values before and after (as Baserow keeps them). */
interface FieldOptionsParams {
  viewId: number;
  field_options: Record<string, Record<string, unknown>>;
  original_field_options: Record<string, Record<string, unknown>>;
}

@Injectable()
export class UpdateViewFieldOptionsActionType implements ActionType<FieldOptionsParams> {
  readonly type = 'update_view_field_options';

  constructor(private readonly options: ViewFieldOptionsService) {}

  async undo(params: FieldOptionsParams, { user }: ActionContext): Promise<void> {
    await this.options.updateFieldOptions(user, params.viewId, { field_options: params.original_field_options });
  }

  async redo(params: FieldOptionsParams, { user }: ActionContext): Promise<void> {
    await this.options.updateFieldOptions(user, params.viewId, { field_options: params.field_options });
  }
}

interface SlugParams {
  viewId: number;
  slug: string;
  originalSlug: string;
}

@Injectable()
export class RotateViewSlugActionType implements ActionType<SlugParams> {
  readonly type = 'rotate_view_slug';

  constructor(private readonly views: ViewsService) {}

  async undo(params: SlugParams, { user }: ActionContext): Promise<void> {
    await this.views.rotateSlug(user, params.viewId, params.originalSlug);
  }

  async redo(params: SlugParams, { user }: ActionContext): Promise<void> {
    await this.views.rotateSlug(user, params.viewId, params.slug);
  }
}

/** A calendar's iCal feed slug rotated (Baserow premium's `rotate_calendar_ical_view_slug`): undo puts the old slug back. */
@Injectable()
export class RotateCalendarIcalSlugActionType implements ActionType<{ viewId: number; slug: string | null; originalSlug: string | null }> {
  readonly type = 'rotate_calendar_ical_view_slug';

  constructor(private readonly calendar: CalendarViewService) {}

  async undo(params: { viewId: number; originalSlug: string | null }, { user }: ActionContext): Promise<void> {
    await this.calendar.rotateIcalSlug(user, params.viewId, params.originalSlug);
  }

  async redo(params: { viewId: number; slug: string | null }, { user }: ActionContext): Promise<void> {
    await this.calendar.rotateIcalSlug(user, params.viewId, params.slug);
  }
}

export const VIEW_ACTION_TYPES = [
  CreateViewActionType,
  DuplicateViewActionType,
  DeleteViewActionType,
  UpdateViewActionType,
  OrderViewsActionType,
  UpdateViewFieldOptionsActionType,
  RotateViewSlugActionType,
  RotateCalendarIcalSlugActionType,
];
