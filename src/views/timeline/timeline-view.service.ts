import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import type { UserEntity } from '../../users/user.entity';
import { GridRowsJson, GridViewService } from '../grid-view.service';
import { TimelineViewType } from '../types/timeline.view-type';
import type { ViewAccess } from '../view-access.service';
import { ViewsService } from '../views.service';
import type { GridRowsQuery } from '../views.dto';
import { ViewErrors } from '../views.errors';

/**
 * Rows through a timeline view (Baserow premium's, ordinary here): once its start and end date
 * fields are valid, paged as the grid pages them (page/size or limit/offset, count, search,
 * `order_by`, filters replacing the saved ones, include/exclude fields, field options, row metadata).
 */
@Injectable()
export class TimelineViewService {
  constructor(
    private readonly views: ViewsService,
    private readonly grid: GridViewService,
    private readonly timelineType: TimelineViewType,
  ) {}

  async list(user: UserEntity, viewId: number, query: GridRowsQuery, url: URL): Promise<GridRowsJson> {
    const access = await this.views.require(viewId, user.id, T.listRows, ViewErrors.timelineDoesNotExist);
    if (access.view.type !== 'timeline') throw ViewErrors.timelineDoesNotExist();
    this.requireValidDates(access);
    return this.grid.rowsPage(user, access, query, url, false);
  }

  /** 400 ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS (or ERROR_INCOMPATIBLE_FIELD) before any row is read. */
  requireValidDates({ view, context }: ViewAccess): void {
    this.timelineType.requireValidDates(view, context);
  }
}
