import { Inject, Injectable } from '@nestjs/common';
import { databaseId, NO_ID } from '../../core/validation/ids';
import { APP_CONFIG, AppConfig } from '../../core/config/config';

import { quote } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { pageLinks } from '../../core/http/pagination';
import { ApiError, ErrorTree, queryValidationError, validationError } from '../../core/errors/api-error';
import { pythonTypeName } from '../../core/validation/field';
import { TrashErrors } from '../../trash/trash.errors';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { CellError, FieldTypeRegistry, KEEP_CELL, RawRow, fieldColumn } from '../fields/field-type';
import { TableContext, TableContextService } from '../table-context';
import type { RowVisibility } from '../../core/events/domain-events';
import { TableRepository } from '../table.repository';
import type { TableEntity } from '../table.entity';
import { RowHistoryService } from '../row-history/row-history.service';
import { CountCache } from './count-cache';
import { RowMetadataRegistry, RowsMetadata } from './row-metadata';
import { ROW_ALIAS, RowListQuery, RowSelection, splitNames } from './row-list.query';
import { AdjacentRowQuery, FilteredRowsQuery, ListRowsQuery, RowNamesQuery } from './rows.query';
import { NewRow, RowRepository } from './row.repository';
import { settleCells } from './settle-cells';

export type RowJson = Record<string, unknown> & { id: number; order: string };

/** How rows are keyed and which fields they carry. */
export interface RowShape {
  userFieldNames: boolean;
  /** Only these fields (include/exclude); all when absent. */
  fields?: FieldEntity[];
}

/** A page of rows as the list endpoints answer it. */
export interface RowPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: RowJson[];
}

/** Where provider of saved view filters and sorts plugs in (the views module). */
export interface ViewSelectionSource {
  /** The view's saved selection, or null when the view is not one of the table's. */
  selection(viewId: number, context: TableContext): Promise<Pick<RowSelection, 'filters' | 'sorts'> | null>;
}

export const VIEW_SELECTION_SOURCE = Symbol('ViewSelectionSource');

/** Which rows filtered shared views show, read right before a write changes them (the views module). */
export interface RowVisibilitySource {
  visibleBefore(context: TableContext, rowIds: number[]): Promise<RowVisibility | undefined>;
}

/** A row write, as computed fields need to know it (see the formula module). */
export interface RowWriteChange {
  tableId: number;
  databaseId: number;
  rowIds: number[];
  /** The fields whose cells were written; `all` for created, trashed and restored rows. */
  fieldIds: number[] | 'all';
  /** Rows linked before the write, by link field id. */
  previousLinks?: Map<number, Set<number>>;
}

/** What a row write makes stale elsewhere: rows whose computed cells `apply` recomputes. */
export interface RowWriteCascade {
  rows: { tableId: number; rowIds: number[]; fieldIds: number[] }[];
  apply(): Promise<void>;
}

/** A row write's view of computed fields, taken before it writes anything (see `RowCascadeSource`). */
export interface RowWriteSession {
  plan(change: RowWriteChange): Promise<RowWriteCascade | null>;
}

/**
 * The formula module: recomputes computed cells a row write makes stale, in the same
 * transaction. `beginRowWrite` runs before the write changes anything (on PostgreSQL it waits
 * for other writers of the database's computed cells); null when nothing can be affected.
 */
export interface RowCascadeSource {
  beginRowWrite(table: Pick<TableEntity, 'id' | 'databaseId' | 'fieldsVersion'>): Promise<RowWriteSession | null>;
}

/** Prepared cells of one row: column values and what types without a column store after the insert. */
export type ImportedCells = { values: Record<string, unknown>; relations: Map<FieldEntity, unknown>; fieldIds: number[] };

/** Imports of up to this many rows announce them as `rows_created`; larger ones make clients reload the table. */
export const IMPORT_ROWS_CREATED_MAX = 200;

/** An error tree's leaves per field as plain messages (an import report's per-field lists). */
function messages(errors: ErrorTree): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const collect = (node: unknown, into: string[]): void => {
    if (Array.isArray(node)) for (const item of node) collect(item, into);
    else if (node && typeof node === 'object') {
      if (typeof (node as { error?: unknown }).error === 'string') into.push((node as { error: string }).error);
      else for (const value of Object.values(node)) collect(value, into);
    }
  };
  for (const [key, node] of Object.entries(errors)) {
    const list: string[] = [];
    collect(node, list);
    out[key] = list;
  }
  return out;
}

const READ_ONLY_DETAIL = (type: string): string => `Field of type ${type} is read only and should not be set manually.`;

/**
 * The rules of rows: values checked and converted by their field types, orders, batches
 * of 1 to 200 written all or nothing, listing with filters, search, sorts and exact counts.
 */
@Injectable()
export class RowsService {
  private viewSource: ViewSelectionSource | null = null;
  private visibility: RowVisibilitySource | null = null;
  private cascadeSource: RowCascadeSource | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    private readonly tables: TableRepository,
    private readonly listQuery: RowListQuery,
    private readonly types: FieldTypeRegistry,
    private readonly counts: CountCache,
    private readonly metadata: RowMetadataRegistry,
    private readonly history: RowHistoryService,
    private readonly trash: TrashService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The views module provides saved filters and sorts for `view_id`. */
  useViewSelection(source: ViewSelectionSource): void {
    this.viewSource = source;
  }

  /** The shared views tell which rows they showed before an update or delete (their pages' messages). */
  useRowVisibility(source: RowVisibilitySource): void {
    this.visibility = source;
  }

  /** The formula module recomputes computed cells after each row write. */
  useCascade(source: RowCascadeSource): void {
    this.cascadeSource = source;
  }

  /**
   * Recomputes the computed cells a write made stale, in its transaction: the written rows'
   * own (read back by the caller) and other rows' (linked rows, other tables), which are
   * announced here as `rows_updated` of their tables with their state before and after.
   */
  private async cascade(session: RowWriteSession | null, context: TableContext, rowIds: number[], fieldIds: number[] | 'all', previousLinks?: Map<number, Set<number>>): Promise<void> {
    if (!session || !rowIds.length) return;
    const plan = await session.plan({ tableId: context.table.id, databaseId: context.table.databaseId, rowIds, fieldIds, previousLinks });
    if (!plan) return;
    const others = [];
    for (const change of plan.rows) {
      const other = change.tableId === context.table.id ? context : await this.contexts.ofTable(change.tableId);
      if (!other) continue;
      // As for the rows a write changes itself: what they were and which filtered shared views
      // showed them. Before, only the recomputed cells are read (the rest is as after).
      const fields = change.fieldIds.map((id) => other.byId.get(id)).filter((f): f is FieldEntity => !!f);
      const before = await this.serialize(other, await this.rows.findByIds(change.tableId, change.rowIds), { userFieldNames: false, fields });
      others.push({ change, context: other, before, visibleBefore: await this.visibility?.visibleBefore(other, change.rowIds) });
    }
    await plan.apply();
    for (const { change, context: other, before, visibleBefore } of others) {
      if (!before.length) continue;
      this.db.rowsChanged(change.tableId);
      const rows = await this.rowsByIds(other, before.map((row) => row.id));
      const beforeById = new Map(before.map((row) => [row.id, row]));
      const rowsBefore = rows.map((row) => ({ ...row, ...beforeById.get(row.id) }));
      this.db.record('rows.updated', { tableId: change.tableId, rowIds: rows.map((row) => row.id), rowsBefore, updatedFieldIds: change.fieldIds, rows, visibleBefore });
    }
  }

  /** Starts a row write's cascade (before anything is written); null without computed fields. */
  private beginCascade(context: TableContext): Promise<RowWriteSession | null> {
    return this.cascadeSource?.beginRowWrite(context.table) ?? Promise.resolve(null);
  }

  /** The rows each link cell of `rows` pointed at (their related cells change with them). */
  private linksOf(context: TableContext, rows: RowJson[]): Map<number, Set<number>> {
    const links = new Map<number, Set<number>>();
    for (const field of context.fields) {
      if (field.type !== 'link_row') continue;
      const ids = new Set<number>();
      for (const row of rows) for (const item of (row[fieldColumn(field)] as { id: number }[] | undefined) ?? []) ids.add(item.id);
      links.set(field.id, ids);
    }
    return links;
  }

  // ------------------------------------------------------------------ serialization

  async serialize(context: TableContext, raw: RawRow[], shape: RowShape): Promise<RowJson[]> {
    const fields = shape.fields ?? context.fields;
    const ctx = this.contexts.fieldContext(context, null);
    const rows: RowJson[] = raw.map((row) => ({ id: Number(row.id), order: this.rows.dialect.orderText(row.order) }));
    for (const field of fields) {
      const values = await this.types.of(field).readValues(field, raw, ctx);
      const key = shape.userFieldNames ? field.name : fieldColumn(field);
      rows.forEach((row, i) => (row[key] = values[i]));
    }
    return rows;
  }

  /** A fresh builder of bound values for SQL the caller compiles (a selection's WHERE). */
  sqlBuilder() {
    return this.rows.sql();
  }

  /**
   * The ids of every live row a selection names, in its order (an export reads the rows a
   * page at a time by these ids, so memory holds one number per row and one page of rows).
   */
  async orderedIds(context: TableContext, selection: RowSelection): Promise<number[]> {
    const sql = this.rows.sql();
    const where = await this.listQuery.where(selection, context, sql, false);
    const orderBy = this.listQuery.orderBy(selection.sorts, sql);
    const rows = await this.rows.read<{ id: unknown }>(`SELECT ${quote(ROW_ALIAS)}."id" AS "id" FROM ${this.listQuery.from(context)} WHERE ${where} ORDER BY ${orderBy}`, sql.params);
    return rows.map((row) => Number(row.id));
  }

  /** Rows by id in the given order (missing ones left out), keyed `field_<id>`. */
  async rowsByIds(context: TableContext, ids: number[], shape: RowShape = { userFieldNames: false }): Promise<RowJson[]> {
    const raw = await this.rows.findByIds(context.table.id, ids);
    const byId = new Map(raw.map((row) => [row.id, row]));
    return this.serialize(context, ids.map((id) => byId.get(id)).filter((row): row is RawRow => !!row), shape);
  }

  /** Rows keyed `field_<id>` re-keyed by field names (user_field_names), in the same key order. */
  named(context: TableContext, rows: RowJson[]): RowJson[] {
    return rows.map((row) => {
      const out: RowJson = { id: row.id, order: row.order };
      for (const [key, value] of Object.entries(row)) {
        if (key === 'id' || key === 'order') continue;
        const field = context.byId.get(Number(key.slice('field_'.length)));
        out[field ? field.name : key] = value;
      }
      return out;
    });
  }

  // ------------------------------------------------------------------ reading

  /** One row; with `withMetadata`, its `metadata` for the user (`include=metadata`). */
  async get(user: UserEntity, tableId: number, rowId: number, userFieldNames: boolean, withMetadata = false): Promise<RowJson> {
    const context = await this.contexts.require(tableId, user.id);
    const [row] = await this.rowsByIds(context, [rowId], { userFieldNames });
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    if (withMetadata) row.metadata = (await this.rowMetadata(tableId, [rowId], user.id))[String(rowId)] ?? {};
    return row;
  }

  /** ERROR_ROW_DOES_NOT_EXIST (with the id as a URL names it) unless the row exists. */
  async requireRow(context: TableContext, rowId: number): Promise<void> {
    const [row] = await this.rows.findByIds(context.table.id, [rowId]);
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
  }

  /** The registered metadata types' values of rows, for a user (row id → type → value). */
  rowMetadata(tableId: number, rowIds: number[], userId: number | null): Promise<RowsMetadata> {
    return this.metadata.forRows(tableId, rowIds, userId);
  }

  async list(user: UserEntity, tableId: number, query: ListRowsQuery, url: URL): Promise<RowPage> {
    const context = await this.contexts.require(tableId, user.id);
    const userFieldNames = !!query.user_field_names;
    const page = query.page ?? 1;
    const size = query.size ?? 100;
    if (size > this.config.rowPageSizeLimit) throw DatabaseErrors.pageSizeLimit(this.config.rowPageSizeLimit);
    const selection = await this.selection(context, query, userFieldNames);
    const shape: RowShape = { userFieldNames, fields: this.visibleFields(context, query, userFieldNames) };
    const { count, rows } = await this.select(context, selection, userFieldNames, size, (page - 1) * size);
    const results = await this.serialize(context, rows, shape);
    return { count, ...pageLinks(url, page, size, count), results };
  }

  /** Reads one page of a selection and its exact count (cached by the table's versions). */
  async select(context: TableContext, selection: RowSelection, userFieldNames: boolean, limit: number, offset: number): Promise<{ count: number; rows: RawRow[] }> {
    const sql = this.rows.sql();
    const where = await this.listQuery.where(selection, context, sql, userFieldNames);
    const whereSql = ` WHERE ${where}`;
    const from = this.listQuery.from(context);
    // A filter or search through links also counts on the linked tables' rows (trashed or changed since).
    const linked = [...new Set([...whereSql.matchAll(/"database_table_(\d+)"/g)].map((m) => Number(m[1])))].filter((id) => id !== context.table.id);
    const key = this.counts.key(context.table.id, [context.table.id, ...linked], whereSql, sql.params);
    let count = this.counts.get(key);
    if (count === undefined) {
      const [row] = await this.rows.read<{ count: unknown }>(`SELECT COUNT(*) AS "count" FROM ${from}${whereSql}`, sql.params);
      count = Number(row.count);
      if (!this.db.inTransaction) this.counts.set(key, count);
    }
    if (offset >= count || limit === 0) return { count, rows: [] };
    const orderBy = this.listQuery.orderBy(selection.sorts, sql);
    const raw = await this.rows.read(`SELECT ${quote(ROW_ALIAS)}.* FROM ${from}${whereSql} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`, sql.params);
    return { count, rows: raw.map((row) => ({ ...row, id: Number(row.id) })) };
  }

  /** The filters, search and sorts of a list request (`view_id` adds the view's saved ones). */
  async selection(context: TableContext, query: FilteredRowsQuery & { view_id?: number }, userFieldNames: boolean): Promise<RowSelection> {
    const selection: RowSelection = { filters: null, search: query.search || null, searchMode: query.search_mode ?? 'compat', sorts: [] };
    let viewSelection: Pick<RowSelection, 'filters' | 'sorts'> | null = null;
    if (query.view_id !== undefined) {
      viewSelection = this.viewSource ? await this.viewSource.selection(query.view_id, context) : null;
      if (!viewSelection) throw DatabaseErrors.viewDoesNotExist();
    }
    let adhoc;
    // The JSON tree replaces every filter__ parameter, filter__field_id__in included (§7.3).
    if (typeof query.filters === 'string') adhoc = { tree: this.listQuery.parseFiltersJson(query.filters, userFieldNames), rowIds: null };
    else adhoc = this.listQuery.parseFilterParams(query, context, userFieldNames);
    const trees = [viewSelection?.filters, adhoc.tree].filter((tree) => !!tree);
    selection.filters = trees.length > 1 ? { filter_type: 'AND', filters: [], groups: trees as never } : (trees[0] ?? null);
    selection.rowIds = adhoc.rowIds;
    selection.sorts = query.order_by ? this.listQuery.parseOrderBy(context, String(query.order_by), userFieldNames) : (viewSelection?.sorts ?? []);
    return selection;
  }

  /** `include` / `exclude`: comma-separated `field_<id>` (or names with user_field_names). */
  visibleFields(context: TableContext, query: { include?: string; exclude?: string }, userFieldNames: boolean): FieldEntity[] | undefined {
    const pick = (text: unknown): Set<number> =>
      new Set(
        splitNames(String(text))
          .map((ref) => (userFieldNames ? (context.byName.get(ref) ?? this.listQuery.resolveField(context, ref, false)) : this.listQuery.resolveField(context, ref, false)))
          .filter((f): f is FieldEntity => !!f)
          .map((f) => f.id),
      );
    let fields = context.fields;
    if (query.include !== undefined) {
      const ids = pick(query.include);
      fields = fields.filter((f) => ids.has(f.id));
    }
    if (query.exclude !== undefined) {
      const ids = pick(query.exclude);
      fields = fields.filter((f) => !ids.has(f.id));
    }
    return fields;
  }

  // ------------------------------------------------------------------ writing

  /**
   * Checks and converts one row's cells. Unknown keys are ignored; a read-only type is a
   * string detail; a bad value is that key's leaf in `errors`. On create, missing cells
   * take their default.
   */
  private async prepareCells(
    context: TableContext,
    body: Record<string, unknown>,
    userFieldNames: boolean,
    create: boolean,
    userId: number | null,
    errors: ErrorTree,
    /** An import reports every error under its field (a request answers a whole-detail error as such). */
    cellErrorsOnly = false,
  ): Promise<{ values: Record<string, unknown>; relations: Map<FieldEntity, unknown>; fieldIds: number[] }> {
    const ctx = this.contexts.fieldContext(context, userId);
    const values: Record<string, unknown> = {};
    const relations = new Map<FieldEntity, unknown>();
    const fieldIds: number[] = [];
    for (const field of context.fields) {
      const type = this.types.of(field);
      const key = userFieldNames ? field.name : fieldColumn(field);
      const given = Object.prototype.hasOwnProperty.call(body, key);
      if (given && type.readOnly) throw new ApiError('ERROR_REQUEST_BODY_VALIDATION', 400, READ_ONLY_DETAIL(field.type));
      if (!given && !create) continue;
      let value: unknown;
      if (given) {
        try {
          const prepared = type.prepareValue(field, body[key], ctx);
          // Most types answer at once: no promise per cell (an import prepares millions). Work off
          // the event loop stays a promise until the whole batch is prepared (settleCells).
          value = prepared instanceof Promise && !type.preparesOffLoop ? await prepared : prepared;
        } catch (error) {
          if (!(error instanceof CellError)) throw error;
          if (typeof error.detail === 'string' && !cellErrorsOnly) throw new ApiError('ERROR_REQUEST_BODY_VALIDATION', 400, error.detail);
          errors[key] = typeof error.detail === 'string' ? [{ error: error.detail, code: 'invalid' }] : error.detail;
          continue;
        }
        if (value === KEEP_CELL) continue;
        fieldIds.push(field.id);
      } else {
        if (type.readOnly) continue;
        value = type.defaultValue(field, ctx);
      }
      if (type.column(field)) values[fieldColumn(field)] = value;
      else relations.set(field, value);
    }
    return { values, relations, fieldIds };
  }

  /** Orders for `count` new rows: before a row (between it and the one before), or at the end. */
  private async newOrders(tableId: number, count: number, beforeId: number | null): Promise<bigint[]> {
    if (beforeId === null) return this.rows.nextOrders(tableId, count);
    const around = await this.rows.ordersAround(tableId, beforeId);
    if (!around) throw DatabaseErrors.rowDoesNotExist([beforeId]);
    const low = around.previous ?? 0n;
    const step = (around.order - low) / BigInt(count + 1);
    return Array.from({ length: count }, (_, i) => low + step * BigInt(i + 1));
  }

  async create(user: UserEntity, tableId: number, body: unknown, options: { before: number | null; userFieldNames: boolean }): Promise<RowJson> {
    const result = await this.createMany(user, tableId, [body], options, true);
    return result.rows[0];
  }

  async batchCreate(user: UserEntity, tableId: number, body: unknown, options: { before: number | null; userFieldNames: boolean }) {
    return this.createMany(user, tableId, this.batchItems(body), options, false);
  }

  /**
   * Checks and converts the cells of every item (ids too, for updates). Errors are collected
   * for all items: a batch answers them under `items.<index>`, a single row at the top.
   */
  private async prepareItems(context: TableContext, items: unknown[], options: { userFieldNames: boolean; create: boolean; single: boolean; userId: number | null }) {
    const errors: ErrorTree = {};
    const prepared: { id: number; cells: Awaited<ReturnType<RowsService['prepareCells']>> }[] = [];
    const fieldIds = new Set<number>();
    for (let i = 0; i < items.length; i++) {
      const itemErrors: ErrorTree = {};
      const body = requireObject(items[i], options.single ? null : i);
      const id = options.create ? 0 : options.single ? (body.id as number) : checkRowId(body.id, itemErrors);
      const cells = await this.prepareCells(context, body, options.userFieldNames, options.create, options.userId, itemErrors);
      cells.fieldIds.forEach((fieldId) => fieldIds.add(fieldId));
      if (Object.keys(itemErrors).length) errors[String(i)] = itemErrors;
      prepared.push({ id, cells });
    }
    await settleCells(prepared.map((item) => item.cells.values));
    if (Object.keys(errors).length) throw validationError(options.single ? (errors['0'] as ErrorTree) : { items: errors });
    return { prepared, fieldIds: [...fieldIds] };
  }

  private async createMany(
    user: UserEntity,
    tableId: number,
    items: unknown[],
    options: { before: number | null; userFieldNames: boolean },
    single: boolean,
  ): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    return this.db.run(async () => this.insertRows(user, await this.contexts.require(tableId, user.id), items, options, single));
  }

  /**
   * Creates rows in a table the caller has checked access to (a form submission names its
   * table by the form's slug; `actor` is null when anonymous: no author, no history entry).
   */
  async insertRows(
    actor: UserEntity | null,
    context: TableContext,
    items: unknown[],
    options: { before: number | null; userFieldNames: boolean },
    single: boolean,
  ): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    const tableId = context.table.id;
    const userId = actor?.id ?? null;
    return this.db.run(async () => {
      const { prepared, fieldIds } = await this.prepareItems(context, items, { userFieldNames: options.userFieldNames, create: true, single, userId });
      const session = await this.beginCascade(context);
      const orders = await this.newOrders(tableId, prepared.length, options.before);
      const columns = this.columnsOf(context);
      const newRows: NewRow[] = prepared.map(({ cells }, i) => ({ values: cells.values, order: orders[i] }));
      const inserted = await this.rows.insertRows(tableId, newRows, columns, userId);
      const ids = inserted.map((row) => row.id);
      const fieldCtx = this.contexts.fieldContext(context, userId);
      for (const field of context.fields) await this.types.of(field).fillNewRows?.(field, ids, fieldCtx);
      await this.writeRelations(context, ids, prepared.map((p) => p.cells.relations), userId);
      await this.cascade(session, context, ids, 'all');
      this.db.rowsChanged(tableId);
      // The message carries these rows (keyed field_<id>), the answer may rename them: as
      // inserted, unless something wrote them since.
      const rows = this.writesOnlyCells(context, session) ? await this.serialize(context, inserted, { userFieldNames: false }) : await this.rowsByIds(context, ids);
      if (actor) await this.history.record(actor, context, { action: single ? 'create_row' : 'create_rows', rows });
      this.db.record('rows.created', { tableId, rowIds: ids, beforeRowId: options.before, rows });
      return { rows: this.shaped(context, rows, options.userFieldNames), updatedFieldIds: fieldIds };
    });
  }

  /**
   * An import's rows, each keyed `field_<id>` (missing cells take their defaults), checked and
   * converted through the field types as a row create is. Rows with errors are left out and
   * reported by index with their messages per field (Baserow's `failing_rows`).
   */
  async prepareImport(
    context: TableContext,
    bodies: Record<string, unknown>[],
    userId: number | null,
  ): Promise<{ valid: ImportedCells[]; failing: Map<number, Record<string, string[]>> }> {
    const valid: ImportedCells[] = [];
    const failing = new Map<number, Record<string, string[]>>();
    for (const [index, body] of bodies.entries()) {
      const errors: ErrorTree = {};
      let cells: ImportedCells | null = null;
      try {
        cells = await this.prepareCells(context, body, false, true, userId, errors, true);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        errors['row'] = [{ error: typeof error.detail === 'string' ? error.detail : error.code, code: 'invalid' }];
      }
      if (Object.keys(errors).length || !cells) failing.set(index, messages(errors));
      else valid.push(cells);
    }
    await settleCells(valid.map((cells) => cells.values));
    return { valid, failing };
  }

  /**
   * Inserts prepared import rows as the last rows of the table, in one multi-row INSERT, with
   * their relations, generated cells and computed cells; answers the new ids. Announcing them
   * is the caller's (once, after the whole import).
   */
  async insertImported(context: TableContext, rows: ImportedCells[], userId: number | null, session: RowWriteSession | null): Promise<number[]> {
    if (!rows.length) return [];
    const tableId = context.table.id;
    const orders = await this.rows.nextOrders(tableId, rows.length);
    const columns = this.columnsOf(context);
    const ids = await this.rows.insert(tableId, rows.map((cells, i) => ({ values: cells.values, order: orders[i] })), columns, userId);
    const fieldCtx = this.contexts.fieldContext(context, userId);
    for (const field of context.fields) await this.types.of(field).fillNewRows?.(field, ids, fieldCtx);
    await this.writeRelations(context, ids, rows.map((cells) => cells.relations), userId);
    await this.cascade(session, context, ids, 'all');
    return ids;
  }

  /**
   * An upsert's matched rows get the imported cells (columns and relations), and what is
   * computed from them is recomputed, in the import's transaction.
   */
  async updateImported(context: TableContext, rows: { id: number; cells: ImportedCells }[], userId: number | null, session: RowWriteSession | null): Promise<void> {
    if (!rows.length) return;
    const ids = rows.map((row) => row.id);
    const previousLinks = session ? this.linksOf(context, await this.rowsByIds(context, ids)) : undefined;
    for (const { id, cells } of rows) await this.rows.update(context.table.id, id, cells.values, userId);
    await this.writeRelations(context, ids, rows.map((row) => row.cells.relations), userId);
    await this.cascade(session, context, ids, 'all', previousLinks);
  }

  /**
   * Whether a row write changes nothing but the row's own columns: no computed cells to
   * recompute (`session`), no link tables, no cells generated after the insert. Then the rows
   * the INSERT or UPDATE answered are the rows as they are.
   */
  private writesOnlyCells(context: TableContext, session: RowWriteSession | null): boolean {
    return !session && context.fields.every((field) => {
      const type = this.types.of(field);
      return !type.fillNewRows && !type.writeRelations;
    });
  }

  /** The stored columns of a table's cells (what an insert writes beside the system columns). */
  private columnsOf(context: TableContext): string[] {
    return context.fields.map((f) => this.types.of(f).column(f)?.name).filter((c): c is string => !!c);
  }

  /** Starts an import's cascade of computed cells (before it writes anything). */
  beginImport(context: TableContext): Promise<RowWriteSession | null> {
    return this.beginCascade(context);
  }

  /**
   * Announces an import's new rows after commit: a few as `rows_created`, a large import as a
   * `table_updated` with `force_table_refresh` (clients reload the table), as Baserow does;
   * an upsert that updated rows too makes clients reload.
   */
  async announceImport(context: TableContext, ids: number[], updated: number[] = []): Promise<void> {
    if (!ids.length && !updated.length) return;
    this.db.rowsChanged(context.table.id);
    if (!updated.length && ids.length <= IMPORT_ROWS_CREATED_MAX) {
      this.db.record('rows.created', { tableId: context.table.id, rowIds: ids, beforeRowId: null, rows: await this.rowsByIds(context, ids) });
    } else {
      this.db.recordAsSystem('table.updated', { tableId: context.table.id, databaseId: context.table.databaseId, workspaceId: context.workspaceId, forceTableRefresh: true });
    }
  }

  private async writeRelations(context: TableContext, ids: number[], relations: Map<FieldEntity, unknown>[], userId: number | null): Promise<void> {
    const ctx = this.contexts.fieldContext(context, userId);
    for (const field of context.fields) {
      const type = this.types.of(field);
      if (!type.writeRelations) continue;
      const rows = ids.map((id, i) => ({ id, present: relations[i].has(field), value: relations[i].get(field) })).filter((r) => r.present);
      if (rows.length) await type.writeRelations(field, rows, ctx);
    }
  }

  async update(user: UserEntity, tableId: number, rowId: number, body: unknown, userFieldNames: boolean): Promise<RowJson> {
    const source = requireObject(body, null);
    const result = await this.updateMany(user, tableId, [{ ...source, id: rowId }], userFieldNames, true);
    return result.rows[0];
  }

  async batchUpdate(user: UserEntity, tableId: number, body: unknown, userFieldNames: boolean) {
    return this.updateMany(user, tableId, this.batchItems(body), userFieldNames, false);
  }

  private async updateMany(user: UserEntity, tableId: number, items: unknown[], userFieldNames: boolean, single: boolean): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id);
      const { prepared, fieldIds } = await this.prepareItems(context, items, { userFieldNames, create: false, single, userId: user.id });
      const session = await this.beginCascade(context);
      const ids = prepared.map((p) => p.id);
      const before = await this.existingRows(context, ids, single);
      const visibleBefore = await this.visibility?.visibleBefore(context, ids);
      const updated: RawRow[] = [];
      for (const { id, cells } of prepared) {
        const row = await this.rows.update(tableId, id, cells.values, user.id);
        if (row) updated.push(row);
      }
      await this.writeRelations(context, ids, prepared.map((p) => p.cells.relations), user.id);
      await this.cascade(session, context, ids, fieldIds, this.linksOf(context, before));
      this.db.rowsChanged(tableId);
      const rows = this.writesOnlyCells(context, session) ? await this.serialize(context, updated, { userFieldNames: false }) : await this.rowsByIds(context, ids);
      // Baserow's REST row updates, single or batch, are all `update_rows` actions.
      await this.history.record(user, context, { action: 'update_rows', rowsBefore: before, rows, fieldIds });
      this.db.record('rows.updated', { tableId, rowIds: ids, rowsBefore: before, updatedFieldIds: fieldIds, rows, visibleBefore });
      return { rows: this.shaped(context, rows, userFieldNames), updatedFieldIds: fieldIds };
    });
  }

  async move(user: UserEntity, tableId: number, rowId: number, beforeId: number | null, userFieldNames: boolean): Promise<RowJson> {
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id);
      const before = await this.existingRows(context, [rowId], true);
      const visibleBefore = await this.visibility?.visibleBefore(context, [rowId]);
      const [order] = await this.newOrders(tableId, 1, beforeId);
      await this.rows.setOrder(tableId, rowId, order, user.id);
      this.db.rowsChanged(tableId);
      const rows = await this.rowsByIds(context, [rowId]);
      this.db.record('rows.updated', { tableId, rowIds: [rowId], rowsBefore: before, updatedFieldIds: [], rows, visibleBefore });
      return this.shaped(context, rows, userFieldNames)[0];
    });
  }

  async delete(user: UserEntity, tableId: number, rowId: number): Promise<void> {
    await this.deleteMany(user, tableId, [rowId], true);
  }

  async batchDelete(user: UserEntity, tableId: number, body: unknown): Promise<void> {
    const errors: ErrorTree = {};
    const ids = this.batchItems(body).map((item, i) => {
      const id = parseRowId(item);
      if (id === null) errors[String(i)] = [{ error: 'A valid integer is required.', code: 'invalid' }];
      return id ?? 0;
    });
    if (Object.keys(errors).length) throw validationError({ items: errors });
    await this.deleteMany(user, tableId, ids, false);
  }

  /**
   * Moves rows to the trash: one `row` entry for the single-row endpoint, one `rows` entry
   * for a batch. Their links stay, so a restore brings them back as they were.
   */
  private async deleteMany(user: UserEntity, tableId: number, ids: number[], single: boolean): Promise<void> {
    await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id);
      const session = await this.beginCascade(context);
      const rows = await this.existingRows(context, ids, single);
      const visibleBefore = await this.visibility?.visibleBefore(context, ids);
      if ((await this.rows.setTrashed(tableId, ids, true)) !== ids.length) throw TrashErrors.alreadyDeleted();
      await this.cascade(session, context, ids, 'all');
      const names = this.trashNames(context, rows);
      const entry = { workspaceId: context.workspaceId, applicationId: context.table.databaseId, parentId: tableId, parentName: context.table.name, names };
      if (single) await this.trash.record(user, { ...entry, type: 'row', itemId: ids[0], name: String(ids[0]) });
      else await this.trash.record(user, { ...entry, type: 'rows', itemId: (await this.trash.saveTrashedRows(tableId, ids)).id, name: ' ' });
      this.db.rowsChanged(tableId);
      await this.history.record(user, context, { action: single ? 'delete_row' : 'delete_rows', rowsBefore: rows });
      this.db.record('rows.deleted', { tableId, rowIds: ids, rows, visibleBefore });
    });
  }

  /**
   * Brings trashed rows back (a trash restore, by the system): fewer than 50 are announced
   * as `rows_created`, more as a `table_updated` that makes clients reload the table.
   */
  async restore(user: Pick<UserEntity, 'id' | 'firstName'>, tableId: number, ids: number[]): Promise<void> {
    await this.db.run(async () => {
      const context = await this.contexts.ofTable(tableId);
      if (!context) return;
      const session = await this.beginCascade(context);
      const trashed = (await this.rows.findByIds(tableId, ids, 'trashed')).map((row) => row.id);
      if ((await this.rows.setTrashed(tableId, trashed, false)) !== trashed.length) throw TrashErrors.itemDoesNotExist();
      await this.cascade(session, context, trashed, 'all');
      this.db.rowsChanged(tableId);
      const rows = await this.rowsByIds(context, trashed);
      await this.history.recordRestore(user, context, rows);
      if (rows.length < 50) this.db.recordAsSystem('rows.created', { tableId, rowIds: trashed, beforeRowId: null, rows });
      else this.db.recordAsSystem('table.updated', { tableId, databaseId: context.table.databaseId, workspaceId: context.workspaceId, forceTableRefresh: true });
    });
  }

  /** Trashed rows deleted for good, with their links and what other modules keep of them. */
  async deleteForGood(tableId: number, ids: number[]): Promise<void> {
    await this.db.run(async () => {
      const table = await this.tables.findAny(tableId);
      if (!table) return;
      const trashed = (await this.rows.findByIds(tableId, ids, 'trashed')).map((row) => row.id);
      if (!trashed.length) return;
      const context = await this.contexts.withFields(table, 0);
      const ctx = this.contexts.fieldContext(context, null);
      for (const field of context.fields) await this.types.of(field).deleteRelations?.(field, trashed, ctx);
      await this.rows.delete(tableId, trashed);
      this.db.record('rows.deleted_for_good', { tableId, rowIds: trashed });
    });
  }

  /** The trash's names of rows: their primary text, or `unnamed row <id>`. */
  private trashNames(context: TableContext, rows: RowJson[]): string[] {
    const primary = context.fields.find((f) => f.primary);
    return rows.map((row) => (primary ? this.types.of(primary).toText(primary, row[fieldColumn(primary)]) : null) || `unnamed row ${row.id}`);
  }

  /**
   * The rows a write names, as they are: ids must be unique (ERROR_ROW_IDS_NOT_UNIQUE) and
   * all exist (ERROR_ROW_DOES_NOT_EXIST; a single-row URL shows its id as text, as Baserow).
   */
  private async existingRows(context: TableContext, ids: number[], single: boolean): Promise<RowJson[]> {
    const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (duplicates.length) throw DatabaseErrors.rowIdsNotUnique(duplicates);
    const rows = await this.rowsByIds(context, ids);
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      throw DatabaseErrors.rowDoesNotExist(single ? missing.map(String) : missing);
    }
    return rows;
  }

  /** Rows as the request asked for them: keyed `field_<id>`, or by name with user_field_names. */
  private shaped(context: TableContext, rows: RowJson[], userFieldNames: boolean): RowJson[] {
    return userFieldNames ? this.named(context, rows) : rows;
  }

  /** `{"items": [...]}` with 1 to BATCH_ROWS_SIZE_LIMIT items. */
  private batchItems(body: unknown): unknown[] {
    const source = requireObject(body, null);
    const items = source.items;
    const limit = this.config.batchRowsSizeLimit;
    if (items === undefined) throw validationError({ items: [{ error: 'This field is required.', code: 'required' }] });
    if (!Array.isArray(items)) throw validationError({ items: [{ error: `Expected a list of items but got type "${pythonTypeName(items)}".`, code: 'not_a_list' }] });
    if (items.length < 1) throw validationError({ items: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] });
    if (items.length > limit) throw validationError({ items: [{ error: `Ensure this field has no more than ${limit} elements.`, code: 'max_length' }] });
    return items;
  }

  // ------------------------------------------------------------------ names, adjacent

  /** `{"<table_id>": {"<row_id>": "<primary value>"}}` for `table__<id>=1,2` parameters. */
  async names(user: UserEntity, query: RowNamesQuery): Promise<Record<string, Record<string, string>>> {
    const requested = new Map<number, number[]>();
    for (const [key, value] of Object.entries(query)) {
      const match = /^table__(\d+)$/.exec(key)!;
      const ids = String(value).split(',').map((v) => v.trim());
      if (ids.some((id) => !/^\d+$/.test(id))) throw queryValidationError({ [key]: [{ error: 'A comma separated list of row ids is expected.', code: 'invalid_value' }] });
      // Ids beyond 32 bits name nothing.
      requested.set(databaseId(match[1]) ?? NO_ID, ids.map((id) => databaseId(id) ?? NO_ID));
    }
    const result: Record<string, Record<string, string>> = {};
    let database: number | null = null;
    for (const [tableId, ids] of requested) {
      const context = await this.contexts.require(tableId, user.id);
      if (database !== null && context.table.databaseId !== database) {
        throw queryValidationError({ non_field_errors: [{ error: 'All tables must belong to the same database.', code: 'invalid' }] });
      }
      database = context.table.databaseId;
      result[String(tableId)] = await this.primaryValues(context, ids);
    }
    return result;
  }

  /** The primary field's text of rows (`unnamed row <id>` without a primary field or value... as Baserow). */
  async primaryValues(context: TableContext, ids: number[]): Promise<Record<string, string>> {
    const primary = context.fields.find((f) => f.primary);
    const raw = await this.rows.findByIds(context.table.id, ids);
    const out: Record<string, string> = {};
    if (!primary) {
      for (const row of raw) out[String(row.id)] = `unnamed row ${row.id}`;
      return out;
    }
    const type = this.types.of(primary);
    const values = await type.readValues(primary, raw, this.contexts.fieldContext(context, null));
    raw.forEach((row, i) => (out[String(row.id)] = type.toText(primary, values[i]) ?? ''));
    return out;
  }

  /** The row after (or before, with `previous`) a row in a selection's order; null when none. */
  async adjacent(user: UserEntity, tableId: number, rowId: number, query: AdjacentRowQuery): Promise<RowJson | null> {
    const context = await this.contexts.require(tableId, user.id);
    const userFieldNames = !!query.user_field_names;
    const previous = !!query.previous;
    const selection = await this.selection(context, { search: query.search, search_mode: query.search_mode, view_id: query.view_id }, false);
    const [row] = await this.rows.findByIds(tableId, [rowId]);
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    const sql = this.rows.sql();
    const where = await this.listQuery.where(selection, context, sql, false);
    const from = this.listQuery.from(context);
    const ordered = `SELECT ${quote(ROW_ALIAS)}."id", ROW_NUMBER() OVER (ORDER BY ${this.listQuery.orderBy(selection.sorts, sql)}) AS "position" FROM ${from} WHERE ${where}`;
    const target = sql.param(rowId);
    const found = await this.rows.read<{ id: unknown }>(
      `WITH "ordered" AS (${ordered}) SELECT o2."id" FROM "ordered" o1 JOIN "ordered" o2 ON o2."position" = o1."position" ${previous ? '-' : '+'} 1 WHERE o1."id" = ${target}`,
      sql.params,
    );
    if (!found.length) return null;
    const [result] = await this.rowsByIds(context, [Number(found[0].id)], { userFieldNames });
    return result ?? null;
  }
}

/** A row body must be a JSON object; a batch item's error is keyed by its index. */
function requireObject(value: unknown, index: number | null): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const leaf = [{ error: `Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, code: 'invalid' }];
  throw validationError(index === null ? { non_field_errors: leaf } : { items: { [String(index)]: { non_field_errors: leaf } } });
}

/** A row id given as a number or a digit string; null when it is neither. */
function parseRowId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

function checkRowId(value: unknown, errors: ErrorTree): number {
  if (value === undefined) {
    errors.id = [{ error: 'This field is required.', code: 'required' }];
    return 0;
  }
  const id = parseRowId(value);
  if (id === null) errors.id = [{ error: 'A valid integer is required.', code: 'invalid' }];
  return id ?? 0;
}

