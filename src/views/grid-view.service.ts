import { Injectable } from '@nestjs/common';
import { OperationType, TableOperations as T } from '../permissions';
import { limitOffsetLinks, pageLinks } from '../core/http/pagination';
import type { FieldEntity } from '../database/fields/field.entity';
import { quote } from '../core/database/sql';
import { fieldColumn, FieldTypeRegistry, RawRow } from '../database/fields/field-type';
import { CountCache } from '../database/rows/count-cache';
import { ROW_ALIAS, RowListQuery, RowSelection, RowSort } from '../database/rows/row-list.query';
import { RowRepository } from '../database/rows/row.repository';
import type { TableContext } from '../database/table-context';
import type { FilteredRowsQuery } from '../database/rows/rows.query';
import { RowJson, RowsService } from '../database/rows/rows.service';
import type { UserEntity } from '../users/user.entity';
import { adhocParameters, groupsFirst } from './filters/view-selection.service';
import type { ViewAccess } from './view-access.service';
import { ViewsService } from './views.service';
import type { GridRowsQuery } from './views.dto';
import { ViewErrors } from './views.errors';

/** What the grid rows endpoint answers (keys present depending on the request). */
export type GridRowsJson = Record<string, unknown>;

/** How a page of rows is answered: members' pages and shared ones differ only in these. */
export interface RowsPageOptions {
  /** Gallery: limit/offset only, no page/size. */
  limitOffsetOnly: boolean;
  /** The fields of each row (every field of the table when undefined). */
  fields: FieldEntity[] | undefined;
  /** Whose `row_metadata` (none on a shared page: null). */
  userId: number | null;
  /** `field_options` of these fields only (a shared view's visible ones); all when undefined. */
  optionFields?: FieldEntity[];
}

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
    private readonly rowRepo: RowRepository,
    private readonly listQuery: RowListQuery,
    private readonly counts: CountCache,
    private readonly fieldTypes: FieldTypeRegistry,
  ) {}

  async requireGrid(user: UserEntity, viewId: number, operation: OperationType): Promise<ViewAccess> {
    const access = await this.views.require(viewId, user.id, operation, ViewErrors.gridDoesNotExist);
    if (access.view.type !== 'grid') throw ViewErrors.gridDoesNotExist();
    return access;
  }

  /**
   * The view's selection with the request's (grid, gallery, kanban): adhoc filters replace saved
   * ones, `order_by` the saved sorts; group-bys order the rows first either way.
   */
  async selection(access: ViewAccess, query: FilteredRowsQuery & { order_by?: unknown }): Promise<RowSelection & { groupBys: RowSort[] }> {
    const { view, context } = access;
    const selection = await this.rows.selection(context, adhocParameters(query, true), false);
    const saved = await this.views.savedSelection(view, context);
    // Saved filters are null while the view's filters are disabled.
    const hasAdhocFilters = typeof query.filters === 'string' || Object.keys(query).some((key) => key.startsWith('filter__'));
    if (!hasAdhocFilters) selection.filters = saved.filters;
    selection.sorts = query.order_by ? groupsFirst(saved.groupBys, selection.sorts) : saved.sorts;
    return { ...selection, groupBys: saved.groupBys };
  }

  private fields(access: ViewAccess, query: Partial<GridRowsQuery>): FieldEntity[] | undefined {
    return this.rows.visibleFields(access.context, { include: query.include_fields, exclude: query.exclude_fields }, false);
  }

  async list(user: UserEntity, viewId: number, query: GridRowsQuery, url: URL): Promise<GridRowsJson> {
    return this.rowsPage(user, await this.requireGrid(user, viewId, T.listRows), query, url, false);
  }

  /**
   * One page of a view's rows (grid and gallery) through the view's selection with the
   * request's. `limitOffsetOnly`: no page/size.
   */
  async rowsPage(user: UserEntity, access: ViewAccess, query: Partial<GridRowsQuery>, url: URL, limitOffsetOnly: boolean): Promise<GridRowsJson> {
    const selection = await this.selection(access, query);
    return this.page(access, selection, query, url, { limitOffsetOnly, fields: this.fields(access, query), userId: user.id });
  }

  /**
   * One page of a selection (members' and shared grid and gallery): `count` alone, or the rows
   * with the page links, `field_options` and `row_metadata` when included, and
   * `group_by_metadata` when the selection has group-bys.
   */
  async page(access: ViewAccess, selection: RowSelection & { groupBys: RowSort[] }, query: Partial<GridRowsQuery>, url: URL, options: RowsPageOptions): Promise<GridRowsJson> {
    const { context } = access;
    if (query.count !== undefined) {
      const { count } = await this.rows.select(context, selection, false, 0, 0);
      return { count };
    }
    const includes = new Set((query.include ?? '').split(',').map((s) => s.trim()));
    const limitOffset = options.limitOffsetOnly || query.limit !== undefined;
    const limit = (limitOffset ? query.limit : query.size) ?? DEFAULT_PAGE_SIZE;
    const offset = limitOffset ? (query.offset ?? 0) : 0;
    const page = limitOffset ? 1 : (query.page ?? 1);
    const start = limitOffset ? offset : (page - 1) * limit;
    const { count, rows } = await this.rows.select(context, selection, false, limit, start);
    const fields = options.fields;
    const results: RowJson[] = await this.rows.serialize(context, rows, { userFieldNames: false, fields });
    limitLinkedItems(results, fields ?? context.fields, query.limit_linked_items);
    const links = limitOffset ? limitOffsetLinks(url, limit, offset, count) : pageLinks(url, page, limit, count);
    const json: GridRowsJson = query.exclude_count ? { results } : { count, ...links, results };
    if (includes.has('field_options')) json.field_options = await this.fieldOptions(access, options.optionFields);
    if (includes.has('row_metadata') && options.userId !== null) {
      json.row_metadata = await this.rows.rowMetadata(context.table.id, results.map((row) => row.id), options.userId);
    }
    if (selection.groupBys.length) {
      const grouped = await this.rows.serialize(context, rows, { userFieldNames: false, fields: selection.groupBys.map((s) => s.field) });
      json.group_by_metadata = await this.groupByMetadata(context, selection, rows, grouped);
    }
    return json;
  }

  /** The view's field options, of these fields only when given (a shared view's visible ones). */
  async fieldOptions(access: ViewAccess, only?: FieldEntity[]): Promise<Record<string, Record<string, unknown>>> {
    const options = await this.views.fieldOptions(access.view, access.context);
    if (!only) return options;
    return Object.fromEntries(only.map((field) => [String(field.id), options[String(field.id)]]));
  }

  /**
   * Baserow's `group_by_metadata`: for each group-by level, the value combinations of the
   * page's rows (that level and the ones before) with how many rows of the whole selection
   * have them, counted in one GROUP BY query per level.
   */
  private async groupByMetadata(context: TableContext, selection: RowSelection & { groupBys: RowSort[] }, raw: RawRow[], results: RowJson[]): Promise<Record<string, unknown[]>> {
    const metadata: Record<string, unknown[]> = {};
    const levels = selection.groupBys.map((s) => s.field);
    // A row's key of a level: its column, or a list field's key (its items' ids, see FieldType.groupKey).
    const keyOf = (field: FieldEntity, index: number): unknown => {
      const groupKey = this.fieldTypes.of(field).groupKey;
      return groupKey ? groupKey.ofValue(results[index][`field_${field.id}`]) : raw[index][fieldColumn(field)];
    };
    for (let depth = 1; depth <= levels.length; depth++) {
      const fields = levels.slice(0, depth);
      const sql = this.rowRepo.sql();
      const columns = fields.map((f) => this.fieldTypes.of(f).groupKey?.expression(f, { alias: ROW_ALIAS, sql }) ?? `${quote(ROW_ALIAS)}.${quote(fieldColumn(f))}`);
      const where = await this.listQuery.where(selection, context, sql, false);
      // Only the combinations of the page: each column restricted to the page's values.
      const restrictions = fields.map((field, i) => {
        const keys = raw.map((_, index) => keyOf(field, index));
        const values = [...new Set(keys.filter((v) => v !== null && v !== undefined))];
        const hasNull = keys.some((v) => v === null || v === undefined);
        const parts = [values.length ? `${columns[i]} IN ${sql.list(values)}` : null, hasNull ? `${columns[i]} IS NULL` : null].filter(Boolean);
        return `(${parts.join(' OR ') || '1 = 0'})`;
      });
      const select = columns.map((c, i) => `${c} AS "g${i}"`).join(', ');
      const text = `SELECT ${select}, COUNT(*) AS "count" FROM ${this.listQuery.from(context)} WHERE ${where} AND ${restrictions.join(' AND ')} GROUP BY ${columns.join(', ')}`;
      // Kept as the listing's count is, until the rows it counted change.
      const counted = await this.counts.remember(context.table.id, text, sql.params, () => this.rowRepo.read<Record<string, unknown>>(text, sql.params));
      const counts = new Map(counted.map((row) => [JSON.stringify(fields.map((_, i) => normalize(row[`g${i}`]))), Number(row.count)]));
      const entries: unknown[] = [];
      const seen = new Set<string>();
      raw.forEach((_row, index) => {
        const key = JSON.stringify(fields.map((f) => normalize(keyOf(f, index))));
        if (seen.has(key)) return;
        seen.add(key);
        const entry: Record<string, unknown> = {};
        for (const f of fields) entry[`field_${f.id}`] = groupValue(results[index][`field_${f.id}`]);
        entry.count = counts.get(key) ?? 0;
        entries.push(entry);
      });
      metadata[`field_${fields[depth - 1].id}`] = entries;
    }
    return metadata;
  }

  /** The rows of `row_ids` that the view shows, in its order, with only `field_ids` when given. */
  async refresh(user: UserEntity, viewId: number, rowIds: number[], fieldIds: number[] | undefined): Promise<RowJson[]> {
    const access = await this.requireGrid(user, viewId, T.listRows);
    const { context } = access;
    if (!rowIds.length) return [];
    const selection: RowSelection = { ...(await this.selection(access, {})), rowIds };
    const { rows } = await this.rows.select(context, selection, false, rowIds.length, 0);
    const fields = fieldIds ? context.fields.filter((f) => fieldIds.includes(f.id)) : undefined;
    return this.rows.serialize(context, rows, { userFieldNames: false, fields });
  }
}

/** A grouped cell as the metadata shows it: a select option by its id, other values as the row answers them. */
function groupValue(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'id' in value) return (value as { id: unknown }).id;
  // A list (multiple select options): their ids, as Baserow's ManyToManyGroupByMixin answers.
  if (Array.isArray(value)) return value.map((item) => (item && typeof item === 'object' && 'id' in item ? (item as { id: unknown }).id : item));
  return value;
}

/** A raw column value as a comparable key (drivers answer numbers, booleans and text alike for both queries). */
function normalize(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** `limit_linked_items`: link cells keep at most that many items (the grid shows a few). */
function limitLinkedItems(rows: RowJson[], fields: { id: number; type: string }[], limit: number | null | undefined): void {
  if (limit === null || limit === undefined) return;
  const keys = fields.filter((f) => f.type === 'link_row').map((f) => `field_${f.id}`);
  for (const row of rows) for (const key of keys) if (Array.isArray(row[key])) row[key] = (row[key] as unknown[]).slice(0, limit);
}
