import { Injectable } from '@nestjs/common';
import { limitOffsetLinks } from '../core/http/pagination';
import type { FieldEntity } from '../database/fields/field.entity';
import { RowSelection } from '../database/rows/row-list.query';
import type { FilteredRowsQuery } from '../database/rows/rows.query';
import { RowJson, RowsService } from '../database/rows/rows.service';
import { pageLinks } from '../core/http/pagination';
import type { UserEntity } from '../users/user.entity';
import { ViewAccess, ViewsService } from './views.service';
import type { GridRowsQuery } from './views.dto';
import { ViewErrors } from './views.errors';

/** What the grid rows endpoint answers (keys present depending on the request). */
export type GridRowsJson = Record<string, unknown>;

const DEFAULT_PAGE_SIZE = 100;

/**
 * Rows through a grid view: the view's saved filters and sorts (replaced by adhoc ones),
 * search, field selection and both pagination styles, with field options and row metadata.
 */
@Injectable()
export class GridViewService {
  constructor(
    private readonly views: ViewsService,
    private readonly rows: RowsService,
  ) {}

  async requireGrid(user: UserEntity, viewId: number): Promise<ViewAccess> {
    const access = await this.views.require(viewId, user.id, ViewErrors.gridDoesNotExist);
    if (access.view.type !== 'grid') throw ViewErrors.gridDoesNotExist();
    return access;
  }

  /** The view's selection with the request's: adhoc filters replace saved ones, `order_by` the saved sorts (grid, gallery, kanban). */
  async selection(access: ViewAccess, query: FilteredRowsQuery & { order_by?: unknown }): Promise<RowSelection> {
    const { view, context } = access;
    const adhocQuery: FilteredRowsQuery = {};
    for (const [key, value] of Object.entries(query)) {
      if (['search', 'search_mode', 'filters', 'filter_type', 'order_by'].includes(key) || key.startsWith('filter__')) adhocQuery[key] = value;
    }
    const selection = await this.rows.selection(context, adhocQuery, false);
    const saved = this.views.savedSelection(view, context);
    const hasAdhocFilters = typeof query.filters === 'string' || Object.keys(query).some((key) => key.startsWith('filter__'));
    if (!hasAdhocFilters && !view.filtersDisabled) selection.filters = saved.filters;
    if (!query.order_by) selection.sorts = saved.sorts;
    return selection;
  }

  private fields(access: ViewAccess, query: Partial<GridRowsQuery>): FieldEntity[] | undefined {
    return this.rows.visibleFields(access.context, { include: query.include_fields, exclude: query.exclude_fields }, false);
  }

  async list(user: UserEntity, viewId: number, query: GridRowsQuery, url: URL): Promise<GridRowsJson> {
    return this.rowsPage(user, await this.requireGrid(user, viewId), query, url, false);
  }

  /**
   * One page of a view's rows (grid and gallery): `count` alone, or the rows with the page
   * links, `field_options` and `row_metadata` when included. `limitOffsetOnly`: no page/size.
   */
  async rowsPage(user: UserEntity, access: ViewAccess, query: Partial<GridRowsQuery>, url: URL, limitOffsetOnly: boolean): Promise<GridRowsJson> {
    const { context } = access;
    const selection = await this.selection(access, query);
    if (query.count !== undefined) {
      const { count } = await this.rows.select(context, selection, false, 0, 0);
      return { count };
    }
    const includes = new Set((query.include ?? '').split(',').map((s) => s.trim()));
    const limitOffset = limitOffsetOnly || query.limit !== undefined;
    const limit = (limitOffset ? query.limit : query.size) ?? DEFAULT_PAGE_SIZE;
    const offset = limitOffset ? (query.offset ?? 0) : 0;
    const page = limitOffset ? 1 : (query.page ?? 1);
    const start = limitOffset ? offset : (page - 1) * limit;
    const { count, rows } = await this.rows.select(context, selection, false, limit, start);
    const fields = this.fields(access, query);
    const results: RowJson[] = await this.rows.serialize(context, rows, { userFieldNames: false, fields });
    limitLinkedItems(results, fields ?? context.fields, query.limit_linked_items);
    const links = limitOffset ? limitOffsetLinks(url, limit, offset, count) : pageLinks(url, page, limit, count);
    const json: GridRowsJson = query.exclude_count ? { results } : { count, ...links, results };
    if (includes.has('field_options')) json.field_options = await this.views.fieldOptions(access.view, context);
    if (includes.has('row_metadata')) json.row_metadata = await this.rows.rowMetadata(context.table.id, results.map((row) => row.id), user.id);
    return json;
  }

  /** The rows of `row_ids` that the view shows, in its order, with only `field_ids` when given. */
  async refresh(user: UserEntity, viewId: number, rowIds: number[], fieldIds: number[] | undefined): Promise<RowJson[]> {
    const access = await this.requireGrid(user, viewId);
    const { view, context } = access;
    if (!rowIds.length) return [];
    const saved = this.views.savedSelection(view, context);
    const selection: RowSelection = { filters: view.filtersDisabled ? null : saved.filters, search: null, sorts: saved.sorts, rowIds };
    const { rows } = await this.rows.select(context, selection, false, rowIds.length, 0);
    const fields = fieldIds ? context.fields.filter((f) => fieldIds.includes(f.id)) : undefined;
    return this.rows.serialize(context, rows, { userFieldNames: false, fields });
  }
}

/** `limit_linked_items`: link cells keep at most that many items (the grid shows a few). */
function limitLinkedItems(rows: RowJson[], fields: { id: number; type: string }[], limit: number | null | undefined): void {
  if (limit === null || limit === undefined) return;
  const keys = fields.filter((f) => f.type === 'link_row').map((f) => `field_${f.id}`);
  for (const row of rows) for (const key of keys) if (Array.isArray(row[key])) row[key] = (row[key] as unknown[]).slice(0, limit);
}
