import { Injectable } from '@nestjs/common';
import { CalendarViewService, limitLinkedItems } from '../calendar/calendar-view.service';
import type { CalendarRange } from '../calendar/calendar-query';
import { DatabaseErrors } from '../../database/database.errors';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService } from './public-views.service';

/** A shared calendar's query: its range already checked (before the slug is looked up, as Baserow's decorator does). */
export type PublicCalendarQuery = Record<string, unknown> & { range: CalendarRange };

/**
 * A shared calendar's rows (Baserow's PublicCalendarViewView): the members' days over the saved
 * filters AND the request's (no search), with only the visible fields and their options.
 */
@Injectable()
export class CalendarPublicRows implements PublicRowsType<PublicCalendarQuery> {
  readonly type = 'calendar';
  readonly notFound = DatabaseErrors.viewDoesNotExist;

  constructor(
    private readonly calendar: CalendarViewService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicCalendarQuery): Promise<Record<string, unknown>> {
    const field = this.calendar.dateField(access);
    const filters = Object.fromEntries(Object.entries(query).filter(([key]) => key === 'filters' || key === 'filter_type' || key.startsWith('filter__')));
    const selection = await this.publicViews.selection(access, filters, { orderBy: false, groupBy: false });
    // Baserow's shared calendar answers `field_options` only (no row metadata) and takes no search.
    const include = String(query.include ?? '')
      .split(',')
      .filter((name) => name.trim() === 'field_options')
      .join(',');
    return {
      ...(await this.calendar.days(access, field, { ...selection, search: null }, { ...query.range, search: null, searchMode: null }, {
        fields: access.visible,
        userId: null,
        optionFields: access.visible,
        include,
        limitLinkedItems: limitLinkedItems(query.limit_linked_items),
      })),
    };
  }
}
