import { Injectable } from '@nestjs/common';
import { RowsService } from '../../database/rows/rows.service';
import { GridViewService } from '../grid-view.service';
import { ViewErrors } from '../views.errors';
import type { PublicGridRowsQuery } from './public-views.dto';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService } from './public-views.service';

/**
 * A shared grid's rows: the public selection (saved filters AND the request's, search,
 * `order_by` and `group_by` on visible fields) through the members' grid page: page/size or
 * limit/offset, `count`, only the visible fields, their options, and `group_by_metadata` of
 * the visible group-bys (`group_by`, else the view's).
 */
@Injectable()
export class GridPublicRows implements PublicRowsType<PublicGridRowsQuery> {
  readonly type = 'grid';
  readonly notFound = ViewErrors.gridDoesNotExist;

  constructor(
    private readonly rows: RowsService,
    private readonly grid: GridViewService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicGridRowsQuery, url: URL): Promise<Record<string, unknown>> {
    const selection = await this.publicViews.selection(access, query, { orderBy: true, groupBy: true });
    const fields = this.rows.visibleFields(this.publicViews.shown(access), { include: query.include_fields, exclude: query.exclude_fields }, false) ?? access.visible;
    return this.grid.page(access, selection, query, url, { limitOffsetOnly: false, fields, userId: null, optionFields: access.visible });
  }
}
