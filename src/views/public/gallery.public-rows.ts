import { Injectable } from '@nestjs/common';
import { RowsService } from '../../database/rows/rows.service';
import { GridViewService } from '../grid-view.service';
import { ViewErrors } from '../views.errors';
import type { PublicGalleryRowsQuery } from './public-views.dto';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService } from './public-views.service';

/**
 * A shared gallery's rows (Baserow's PublicGalleryViewRowsView): the public selection (saved
 * filters AND the request's, search and `order_by` on visible fields) through the members'
 * gallery page: limit/offset, `count`, only the visible fields and their options.
 */
@Injectable()
export class GalleryPublicRows implements PublicRowsType<PublicGalleryRowsQuery> {
  readonly type = 'gallery';
  readonly notFound = ViewErrors.galleryDoesNotExist;

  constructor(
    private readonly rows: RowsService,
    private readonly grid: GridViewService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicGalleryRowsQuery, url: URL): Promise<Record<string, unknown>> {
    const selection = await this.publicViews.selection(access, query, { orderBy: true, groupBy: false });
    const fields = this.rows.visibleFields(this.publicViews.shown(access), { include: query.include_fields, exclude: query.exclude_fields }, false) ?? access.visible;
    return this.grid.page(access, selection, query, url, { limitOffsetOnly: true, fields, userId: null, optionFields: access.visible });
  }
}
