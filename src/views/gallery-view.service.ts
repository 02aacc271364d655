import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../permissions';
import type { UserEntity } from '../users/user.entity';
import { GridRowsJson, GridViewService } from './grid-view.service';
import { ViewsService } from './views.service';
import type { GalleryRowsQuery } from './views.dto';
import { ViewErrors } from './views.errors';

/** Rows through a gallery view: the grid's selection and page with limit/offset only. */
@Injectable()
export class GalleryViewService {
  constructor(
    private readonly views: ViewsService,
    private readonly grid: GridViewService,
  ) {}

  async list(user: UserEntity, viewId: number, query: GalleryRowsQuery, url: URL): Promise<GridRowsJson> {
    const access = await this.views.require(viewId, user.id, T.listRows, ViewErrors.galleryDoesNotExist);
    if (access.view.type !== 'gallery') throw ViewErrors.galleryDoesNotExist();
    return this.grid.rowsPage(user, access, query, url, true);
  }
}
