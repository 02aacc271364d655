import { Injectable } from '@nestjs/common';
import { TypeRegistry } from '../../core/registry/type-registry';
import { DatabaseErrors } from '../../database/database.errors';
import type { PublicViewAccess } from './public-views.service';

/**
 * How one view type lists its rows on a shared page (`GET /api/database/views/<type>/{slug}/public/rows/`).
 * Grid registers one here; gallery and kanban add theirs (and a route calling `PublicRowsRegistry.list`)
 * without touching the rest: access, password, hidden fields and saved filters are common.
 */
export interface PublicRowsType<Q = Record<string, unknown>> {
  readonly type: string;
  list(access: PublicViewAccess, query: Q, url: URL): Promise<Record<string, unknown>>;
}

@Injectable()
export class PublicRowsRegistry extends TypeRegistry<PublicRowsType<any>> {
  protected readonly kind = 'Public rows type';

  /** The rows of a view already opened by slug, by its type's lister: a view of another type does not exist here. */
  async list<Q>(type: string, access: PublicViewAccess, query: Q, url: URL): Promise<Record<string, unknown>> {
    const lister = this.get(type);
    if (!lister || access.view.type !== type) throw DatabaseErrors.viewDoesNotExist();
    return lister.list(access, query, url);
  }
}
