import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../permissions';
import type { FieldEntity } from '../database/fields/field.entity';
import type { FilterTree } from '../database/filters/filter-tree';
import type { RowSelection } from '../database/rows/row-list.query';
import { RowJson, RowsService } from '../database/rows/rows.service';
import type { UserEntity } from '../users/user.entity';
import { GridViewService, RowsPageOptions } from './grid-view.service';
import type { ViewAccess } from './view-access.service';
import { ViewsService } from './views.service';
import type { KanbanRowsQuery } from './views.dto';
import { ViewErrors } from './views.errors';

export interface KanbanRowsJson {
  rows: Record<string, { count: number; results: RowJson[] }>;
  field_options?: Record<string, Record<string, unknown>>;
  row_metadata?: Record<string, unknown>;
}

const DEFAULT_LIMIT = 40;

/** Python's `int()` of a query value: an integer (surrounding blanks allowed), else undefined. */
function pyInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\s*[+-]?\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `?select_option=<id|null>[,limit[,offset]]` (repeatable): per option its limit and offset. */
function optionSettings(value: unknown): Map<string, { limit?: number; offset?: number }> {
  const settings = new Map<string, { limit?: number; offset?: number }>();
  const items = value === undefined ? [] : [value].flat().map(String);
  for (const item of items) {
    const [name, limit, offset] = item.split(',');
    const setting: { limit?: number; offset?: number } = {};
    settings.set(name, setting);
    if (limit !== undefined && (setting.limit = pyInt(limit)) === undefined) throw ViewErrors.invalidSelectOptionParameter(name);
    if (offset !== undefined && (setting.offset = pyInt(offset)) === undefined) throw ViewErrors.invalidSelectOptionParameter(name);
  }
  return settings;
}

/**
 * Rows through a kanban view, in one column per option of its single select field and one
 * (`"null"`) for rows without one: each column its count and a page of rows, with the view's
 * saved filters and sorts.
 */
@Injectable()
export class KanbanViewService {
  constructor(
    private readonly views: ViewsService,
    private readonly grid: GridViewService,
    private readonly rows: RowsService,
  ) {}

  async list(user: UserEntity, viewId: number, query: KanbanRowsQuery): Promise<KanbanRowsJson> {
    const access = await this.views.require(viewId, user.id, T.listRows, ViewErrors.kanbanDoesNotExist);
    if (access.view.type !== 'kanban') throw ViewErrors.kanbanDoesNotExist();
    const field = this.singleSelectField(access);
    // Ad-hoc filters replace the saved ones; kanban takes no search and no order_by (Baserow's NO_COMBINE filters).
    const { search: _search, search_mode: _mode, order_by: _orderBy, ...filters } = query;
    const base = await this.grid.selection(access, filters);
    return this.columns(access, field, base, query, { fields: undefined, userId: user.id });
  }

  /** The view's single select field: 400 ERROR_KANBAN_VIEW_HAS_NO_SINGLE_SELECT_FIELD without one. */
  singleSelectField({ view, context }: ViewAccess): FieldEntity {
    const fieldId = view.properties.single_select_field as number | null | undefined;
    const field = fieldId ? context.byId.get(fieldId) : undefined;
    if (!field || field.type !== 'single_select') throw ViewErrors.kanbanHasNoSingleSelectField();
    return field;
  }

  /**
   * The columns of a selection (members' and shared kanban): per option (`select_option` or
   * all) its count and a page of rows with `fields`, and `field_options` / `row_metadata`
   * when included (metadata only for a user).
   */
  async columns(access: ViewAccess, field: FieldEntity, base: RowSelection, query: KanbanRowsQuery, options: Omit<RowsPageOptions, 'limitOffsetOnly'>): Promise<KanbanRowsJson> {
    const { context } = access;
    const settings = optionSettings(query.select_option);
    const defaultLimit = Math.max(0, pyInt(query.limit) ?? DEFAULT_LIMIT);
    const defaultOffset = Math.max(0, pyInt(query.offset) ?? 0);
    const selectOptions = context.selectOptions.get(field.id) ?? [];
    const columns: { key: string; leaf: FilterTree['filters'][number] }[] = [
      { key: 'null', leaf: { field, type: 'empty', value: '' } },
      ...selectOptions.map((option) => ({ key: String(option.id), leaf: { field, type: 'single_select_equal', value: String(option.id) } })),
    ];
    const json: KanbanRowsJson = { rows: {} };
    const rowIds: number[] = [];
    for (const { key, leaf } of columns) {
      if (settings.size && !settings.has(key)) continue;
      const setting = settings.get(key) ?? {};
      const limit = Math.max(0, setting.limit ?? defaultLimit);
      const offset = Math.max(0, setting.offset ?? defaultOffset);
      const column: FilterTree = { filter_type: 'AND', filters: [leaf], groups: base.filters ? [base.filters] : [] };
      const selection: RowSelection = { ...base, filters: column };
      const { count, rows } = await this.rows.select(context, selection, false, limit, offset);
      const results = await this.rows.serialize(context, rows, { userFieldNames: false, fields: options.fields });
      rowIds.push(...results.map((row) => row.id));
      json.rows[key] = { count, results };
    }
    const includes = new Set((query.include ?? '').split(',').map((s) => s.trim()));
    if (includes.has('field_options')) json.field_options = await this.grid.fieldOptions(access, options.optionFields);
    if (includes.has('row_metadata') && options.userId !== null) json.row_metadata = await this.rows.rowMetadata(context.table.id, rowIds, options.userId);
    return json;
  }
}
