import { Injectable } from '@nestjs/common';
import { TypeRegistry } from '../../core/registry/type-registry';
import { DatabaseErrors } from '../../database/database.errors';
import { PublicViewAccess, PublicViewCaller, PublicViewsService } from './public-views.service';

/**
 * How one view type lists its rows on a shared page (`GET /api/database/views/<type>/{slug}/public/rows/`):
 * grid, gallery and kanban register one each. Access, password, hidden fields and the
 * request's selection are common (PublicViewsService).
 */
export interface PublicRowsType<Q = Record<string, unknown>> {
  readonly type: string;
  /** The 404 of a slug that is not a shared view of this type (`ERROR_GRID_DOES_NOT_EXIST`, …). */
  readonly notFound: () => Error;
  list(access: PublicViewAccess, query: Q, url: URL): Promise<Record<string, unknown>>;
}

@Injectable()
export class PublicRowsRegistry extends TypeRegistry<PublicRowsType<any>> {
  protected readonly kind = 'Public rows type';

  constructor(private readonly publicViews: PublicViewsService) {
    super();
  }

  /** The rows of the shared view with this slug, by its type's lister: a view of another type is the type's 404. */
  async list<Q>(type: string, slug: string, caller: PublicViewCaller, query: Q, url: URL): Promise<Record<string, unknown>> {
    const lister = this.get(type);
    if (!lister) throw DatabaseErrors.viewDoesNotExist();
    const access = await this.publicViews.require(slug, caller, true, { type, notFound: lister.notFound });
    return lister.list(access, query, url);
  }
}
