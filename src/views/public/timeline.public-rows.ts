import { Injectable } from '@nestjs/common';
import { RowsService } from '../../database/rows/rows.service';
import { GridViewService } from '../grid-view.service';
import { TimelineViewService } from '../timeline/timeline-view.service';
import { ViewErrors } from '../views.errors';
import type { PublicGridRowsQuery } from './public-views.dto';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService } from './public-views.service';

/**
 * A shared timeline's rows (Baserow's PublicTimelineViewRowsView): once its date fields are valid,
 * the public selection (saved filters AND the request's, search and `order_by` on visible fields)
 * paged as a shared grid (no group-bys), with only the visible fields and their options.
 */
@Injectable()
export class TimelinePublicRows implements PublicRowsType<PublicGridRowsQuery> {
  readonly type = 'timeline';
  readonly notFound = ViewErrors.timelineDoesNotExist;

  constructor(
    private readonly rows: RowsService,
    private readonly grid: GridViewService,
    private readonly timeline: TimelineViewService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicGridRowsQuery, url: URL): Promise<Record<string, unknown>> {
    this.timeline.requireValidDates(access);
    const selection = await this.publicViews.selection(access, query, { orderBy: true, groupBy: false });
    const fields = this.rows.visibleFields(this.publicViews.shown(access), { include: query.include_fields, exclude: query.exclude_fields }, false) ?? access.visible;
    return this.grid.page(access, selection, query, url, { limitOffsetOnly: false, fields, userId: null, optionFields: access.visible });
  }
}
