import { Injectable } from '@nestjs/common';
import { limitOffsetLinks, pageLinks } from '../../core/http/pagination';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import type { FilterTree } from '../../database/filters/filter-tree';
import { RowListQuery } from '../../database/rows/row-list.query';
import type { FilteredRowsQuery } from '../../database/rows/rows.query';
import { RowsService } from '../../database/rows/rows.service';
import type { TableContext } from '../../database/table-context';
import { ViewsService } from '../views.service';
import type { PublicGridRowsQuery } from './public-views.dto';
import type { PublicRowsType } from './public-rows';
import { PublicViewAccess, PublicViewsService, resolveTree } from './public-views.service';

const DEFAULT_PAGE_SIZE = 100;

/**
 * A shared grid's rows: the view's saved filters AND the request's (`filters`, `filter__…`),
 * search, `order_by` and `group_by` on visible fields only (a hidden one is not found, as
 * Baserow answers), page/size or limit/offset, and only the visible fields in the answer.
 */
@Injectable()
export class GridPublicRows implements PublicRowsType<PublicGridRowsQuery> {
  readonly type = 'grid';

  constructor(
    private readonly rows: RowsService,
    private readonly listQuery: RowListQuery,
    private readonly views: ViewsService,
    private readonly publicViews: PublicViewsService,
  ) {}

  async list(access: PublicViewAccess, query: PublicGridRowsQuery, url: URL): Promise<Record<string, unknown>> {
    const { context, visible } = access;
    const shown = narrowed(context, visible);
    const adhocQuery: FilteredRowsQuery = {};
    for (const [key, value] of Object.entries(query)) {
      if (['search', 'search_mode', 'filters', 'filter_type'].includes(key) || key.startsWith('filter__')) adhocQuery[key] = value;
    }
    // Parsed against the visible fields only: a hidden field is not found.
    const selection = await this.rows.selection(shown, adhocQuery, false);
    const adhoc = typeof query.filters === 'string' ? onlyResolved(resolveTree(selection.filters, shown)) : selection.filters;
    const saved = await this.publicViews.savedFilters(access);
    const trees = [saved, adhoc].filter((tree): tree is FilterTree => !!tree);
    selection.filters = trees.length > 1 ? { filter_type: 'AND', filters: [], groups: trees } : (trees[0] ?? null);
    const groupSorts = query.group_by ? this.listQuery.parseOrderBy(shown, query.group_by, false) : [];
    const sorts = query.order_by ? this.listQuery.parseOrderBy(shown, query.order_by, false) : (await this.views.savedSelection(access.view, context)).sorts;
    selection.sorts = [...groupSorts, ...sorts];
    selection.searchFields = visible;

    const limitOffset = query.limit !== undefined;
    const limit = (limitOffset ? query.limit : query.size) ?? DEFAULT_PAGE_SIZE;
    const offset = limitOffset ? (query.offset ?? 0) : 0;
    const page = limitOffset ? 1 : (query.page ?? 1);
    const start = limitOffset ? offset : (page - 1) * limit;
    const { count, rows } = await this.rows.select(context, selection, false, limit, start);
    const fields = this.rows.visibleFields(shown, { include: query.include_fields, exclude: query.exclude_fields }, false) ?? visible;
    const results = await this.rows.serialize(context, rows, { userFieldNames: false, fields });
    const links = limitOffset ? limitOffsetLinks(url, limit, offset, count) : pageLinks(url, page, limit, count);
    const json: Record<string, unknown> = { count, ...links, results };
    const includes = new Set((query.include ?? '').split(',').map((s) => s.trim()));
    if (includes.has('field_options')) {
      const options = await this.views.fieldOptions(access.view, context);
      json.field_options = Object.fromEntries(visible.map((field) => [String(field.id), options[String(field.id)]]));
    }
    return json;
  }
}

/** The table's context as a shared view shows it: only the visible fields can be named. */
function narrowed(context: TableContext, visible: FieldEntity[]): TableContext {
  return {
    ...context,
    fields: visible,
    byId: new Map(visible.map((field) => [field.id, field])),
    byName: new Map(visible.map((field) => [field.name, field])),
  };
}

/** A request's filter tree whose every leaf named a visible field; any other is ERROR_FILTER_FIELD_NOT_FOUND. */
function onlyResolved(tree: FilterTree | null): FilterTree | null {
  if (!tree) return null;
  for (const leaf of tree.filters) if (typeof leaf.field !== 'object') throw DatabaseErrors.filterFieldNotFound(String(leaf.field));
  for (const group of tree.groups) onlyResolved(group);
  return tree;
}
