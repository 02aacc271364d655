import { Inject, Injectable } from '@nestjs/common';
import { PermissionService, TableOperations as T } from '../../permissions';
import { APP_CONFIG, AppConfig } from '../../core/config/config';

import { quote } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { parseOrder } from '../../core/database/dialect';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { pageLinks } from '../../core/http/pagination';
import { ErrorTree, validationError } from '../../core/errors/api-error';
import { TrashErrors } from '../../trash/trash.errors';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { FieldTypeRegistry, RawRow, fieldColumn } from '../fields/field-type';
import { TableContext, TableContextService, tableScope } from '../table-context';
import { TableRepository } from '../table.repository';
import { RowHistoryService } from '../row-history/row-history.service';
import { RowCascade, RowCascadeSource, RowVisibilitySource, RowWriteSession } from './row-cascade';
import { ImportedCells, parseRowId, requireObject, RowInput } from './row-input';
import { CreateRowsParams, DeleteRowsParams, MoveRowParams, UpdateRowsParams, writtenCells } from './row-actions';
import { RowsMetadata } from './row-metadata';
import { ROW_ALIAS, RowListQuery, RowSelection } from './row-list.query';
import { RowJson, RowReader, RowShape } from './row-reader';
import { AdjacentRowQuery, FilteredRowsQuery, ListRowsQuery, RowNamesQuery } from './rows.query';
import { NewRow, RowRepository } from './row.repository';

// The rows module's types, where its users import them from.
export type { RowCascadeSource, RowVisibilitySource, RowWriteCascade, RowWriteChange, RowWriteSession } from './row-cascade';
export type { ImportedCells } from './row-input';
export type { RowJson, RowShape } from './row-reader';

/** A page of rows as the list endpoints answer it. */
export interface RowPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: RowJson[];
}

/** Where provider of saved view filters and sorts plugs in (the views module). */
export interface ViewSelectionSource {
  /** The view's saved selection, or null when the view is not one of the table's (or not `userId`'s to use: someone else's personal view). */
  selection(viewId: number, context: TableContext, userId?: number): Promise<Pick<RowSelection, 'filters' | 'sorts'> | null>;
}

/** Imports of up to this many rows announce them as `rows_created`; larger ones make clients reload the table. */
export const IMPORT_ROWS_CREATED_MAX = 200;

/**
 * The rules of rows: values checked and converted by their field types, orders, batches
 * of 1 to 200 written all or nothing, listing with filters, search, sorts and exact counts.
 */
@Injectable()
export class RowsService {
  private viewSource: ViewSelectionSource | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    private readonly tables: TableRepository,
    private readonly listQuery: RowListQuery,
    private readonly types: FieldTypeRegistry,
    private readonly history: RowHistoryService,
    private readonly trash: TrashService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: RowReader,
    private readonly input: RowInput,
    private readonly cascade: RowCascade,
    private readonly actions: ActionLog,
    private readonly permissions: PermissionService,
  ) {}

  /** The views module provides saved filters and sorts for `view_id`. */
  useViewSelection(source: ViewSelectionSource): void {
    this.viewSource = source;
  }

  /** The shared views tell which rows they showed before an update or delete (their pages' messages). */
  useRowVisibility(source: RowVisibilitySource): void {
    this.cascade.useRowVisibility(source);
  }

  /** The formula module recomputes computed cells after each row write. */
  useCascade(source: RowCascadeSource): void {
    this.cascade.useCascade(source);
  }

  // ------------------------------------------------------------------ reading (shared ones: RowReader)

  serialize(context: TableContext, raw: RawRow[], shape: RowShape): Promise<RowJson[]> {
    return this.reader.serialize(context, raw, shape);
  }

  sqlBuilder() {
    return this.reader.sqlBuilder();
  }

  orderedIds(context: TableContext, selection: RowSelection): Promise<number[]> {
    return this.reader.orderedIds(context, selection);
  }

  rowsByIds(context: TableContext, ids: number[], shape: RowShape = { userFieldNames: false }): Promise<RowJson[]> {
    return this.reader.rowsByIds(context, ids, shape);
  }

  pages(context: TableContext, selection: RowSelection, shape: RowShape, pageSize: number): AsyncGenerator<RowJson[]> {
    return this.reader.pages(context, selection, shape, pageSize);
  }

  named(context: TableContext, rows: RowJson[]): RowJson[] {
    return this.reader.named(context, rows);
  }

  requireRow(context: TableContext, rowId: number): Promise<void> {
    return this.reader.requireRow(context, rowId);
  }

  rowMetadata(tableId: number, rowIds: number[], userId: number | null): Promise<RowsMetadata> {
    return this.reader.rowMetadata(tableId, rowIds, userId);
  }

  select(context: TableContext, selection: RowSelection, userFieldNames: boolean, limit: number, offset: number): Promise<{ count: number; rows: RawRow[] }> {
    return this.reader.select(context, selection, userFieldNames, limit, offset);
  }

  visibleFields(context: TableContext, query: { include?: string; exclude?: string }, userFieldNames: boolean): FieldEntity[] | undefined {
    return this.reader.visibleFields(context, query, userFieldNames);
  }

  primaryValues(context: TableContext, ids: number[]): Promise<Record<string, string>> {
    return this.reader.primaryValues(context, ids);
  }

  names(user: UserEntity, query: RowNamesQuery): Promise<Record<string, Record<string, string>>> {
    return this.reader.names(user, query);
  }

  /** One row; with `withMetadata`, its `metadata` for the user (`include=metadata`). */
  async get(user: UserEntity, tableId: number, rowId: number, userFieldNames: boolean, withMetadata = false): Promise<RowJson> {
    const context = await this.contexts.require(tableId, user.id, T.readRow);
    const [row] = await this.rowsByIds(context, [rowId], { userFieldNames });
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    if (withMetadata) row.metadata = (await this.rowMetadata(tableId, [rowId], user.id))[String(rowId)] ?? {};
    return row;
  }

  async list(user: UserEntity, tableId: number, query: ListRowsQuery, url: URL): Promise<RowPage> {
    const context = await this.contexts.require(tableId, user.id, T.listRows);
    const userFieldNames = !!query.user_field_names;
    const page = query.page ?? 1;
    const size = query.size ?? 100;
    if (size > this.config.rowPageSizeLimit) throw DatabaseErrors.pageSizeLimit(this.config.rowPageSizeLimit);
    const selection = await this.selection(context, query, userFieldNames, user.id);
    const shape: RowShape = { userFieldNames, fields: this.visibleFields(context, query, userFieldNames) };
    const { count, rows } = await this.select(context, selection, userFieldNames, size, (page - 1) * size);
    const results = await this.serialize(context, rows, shape);
    return { count, ...pageLinks(url, page, size, count), results };
  }

  /** The filters, search and sorts of a list request (`view_id` adds the view's saved ones). */
  async selection(context: TableContext, query: FilteredRowsQuery & { view_id?: number }, userFieldNames: boolean, userId?: number): Promise<RowSelection> {
    const selection: RowSelection = { filters: null, search: query.search || null, searchMode: query.search_mode ?? 'compat', sorts: [] };
    let viewSelection: Pick<RowSelection, 'filters' | 'sorts'> | null = null;
    if (query.view_id !== undefined) {
      viewSelection = this.viewSource ? await this.viewSource.selection(query.view_id, context, userId) : null;
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

  // ------------------------------------------------------------------ writing

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
    return this.createMany(user, tableId, this.input.batchItems(body), options, false);
  }

  private async createMany(
    user: UserEntity,
    tableId: number,
    items: unknown[],
    options: { before: number | null; userFieldNames: boolean },
    single: boolean,
  ): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    const ready = await this.input.prepareOffLoop(await this.contexts.require(tableId, user.id, T.createRow), items, options.userFieldNames, user.id);
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.createRow);
      const result = await this.insertRows(user, context, ready, { ...options, checkFieldWrites: true }, single);
      const params: CreateRowsParams = { tableId, rowIds: result.rows.map((row) => row.id) };
      this.actions.record(single ? 'create_row' : 'create_rows', params, this.actionPlace(context));
      return result;
    });
  }

  /** Where the table's row actions are undone: its scope, its workspace. */
  private actionPlace(context: TableContext) {
    return { scope: ActionScopes.table(context.table.id), workspaceId: context.workspaceId };
  }

  /**
   * Creates rows in a table the caller has checked access to (a form submission names its
   * table by the form's slug; `actor` is null when anonymous: no author, no history entry).
   * With `checkFieldWrites`, the actor must be allowed to write each field given a value (field
   * permissions; a form, which shows only the fields it may write, does not ask).
   */
  async insertRows(
    actor: UserEntity | null,
    context: TableContext,
    items: unknown[],
    options: { before: number | null; userFieldNames: boolean; checkFieldWrites?: boolean },
    single: boolean,
  ): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    const tableId = context.table.id;
    const userId = actor?.id ?? null;
    return this.db.run(async () => {
      const { prepared, fieldIds } = await this.input.prepareItems(context, items, { userFieldNames: options.userFieldNames, create: true, single, userId });
      if (actor && options.checkFieldWrites) await this.permissions.requireFieldWrites(actor.id, tableScope(context.table, context.workspaceId), fieldIds);
      const session = await this.cascade.begin(context);
      const orders = await this.newOrders(tableId, prepared.length, options.before);
      const columns = this.columnsOf(context);
      const newRows: NewRow[] = prepared.map(({ cells }, i) => ({ values: cells.values, order: orders[i] }));
      const inserted = await this.rows.insertRows(tableId, newRows, columns, userId);
      const ids = inserted.map((row) => row.id);
      const fieldCtx = this.contexts.fieldContext(context, userId);
      for (const field of context.fields) await this.types.of(field).fillNewRows?.(field, ids, fieldCtx);
      await this.writeRelations(context, ids, prepared.map((p) => p.cells.relations), userId);
      await this.cascade.run(session, context, ids, 'all');
      this.db.rowsChanged(tableId);
      // The message carries these rows (keyed field_<id>), the answer may rename them: as
      // inserted, unless something wrote them since.
      const rows = this.writesOnlyCells(context, session) ? await this.serialize(context, inserted, { userFieldNames: false }) : await this.rowsByIds(context, ids);
      if (actor) await this.history.record(actor, context, { action: single ? 'create_row' : 'create_rows', rows });
      this.db.record('rows.created', { tableId, rowIds: ids, beforeRowId: options.before, rows });
      return { rows: this.shaped(context, rows, options.userFieldNames), updatedFieldIds: fieldIds };
    });
  }

  /** An import's rows checked and converted as a row create is; failing rows reported by index (see RowInput). */
  prepareImport(context: TableContext, bodies: Record<string, unknown>[], userId: number | null): Promise<{ valid: ImportedCells[]; failing: Map<number, Record<string, string[]>> }> {
    return this.input.prepareImport(context, bodies, userId);
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
    await this.cascade.run(session, context, ids, 'all');
    return ids;
  }

  /**
   * An upsert's matched rows get the imported cells (columns and relations), and what is
   * computed from them is recomputed, in the import's transaction.
   */
  async updateImported(context: TableContext, rows: { id: number; cells: ImportedCells }[], userId: number | null, session: RowWriteSession | null): Promise<void> {
    if (!rows.length) return;
    const ids = rows.map((row) => row.id);
    const previousLinks = session ? this.cascade.linksOf(context, await this.rowsByIds(context, ids)) : undefined;
    for (const { id, cells } of rows) await this.rows.update(context.table.id, id, cells.values, userId);
    await this.writeRelations(context, ids, rows.map((row) => row.cells.relations), userId);
    await this.cascade.run(session, context, ids, 'all', previousLinks);
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
    return this.cascade.begin(context);
  }

  /**
   * Announces an import's new rows after commit: a few as `rows_created`, a large import as a
   * `table_updated` with `force_table_refresh` (clients reload the table), as Baserow does;
   * an upsert that updated rows too makes clients reload.
   */
  async announceImport(context: TableContext, ids: number[], updated: number[] = []): Promise<void> {
    if (!ids.length && !updated.length) return;
    this.db.rowsChanged(context.table.id);
    // Its undo trashes the new rows (rows an upsert updated stay as they are).
    if (ids.length) this.actions.record('import_rows', { tableId: context.table.id, rowIds: ids } satisfies CreateRowsParams, this.actionPlace(context));
    if (!updated.length && ids.length <= IMPORT_ROWS_CREATED_MAX) {
      this.db.record('rows.created', { tableId: context.table.id, rowIds: ids, beforeRowId: null, rows: await this.rowsByIds(context, ids) });
    } else {
      this.db.recordAsSystem('table.updated', { tableId: context.table.id, databaseId: context.table.databaseId, workspaceId: context.workspaceId, forceTableRefresh: true });
    }
  }

  /**
   * Undoes rows an import committed in earlier chunks (it failed or was cancelled): they leave
   * what is computed from them, then go for good with their links. No message: the import's
   * rows were never announced.
   */
  async removeImported(context: TableContext, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const session = await this.cascade.begin(context);
    await this.rows.setTrashed(context.table.id, ids, true);
    await this.cascade.run(session, context, ids, 'all');
    const ctx = this.contexts.fieldContext(context, null);
    for (const field of context.fields) await this.types.of(field).deleteRelations?.(field, ids, ctx);
    await this.rows.delete(context.table.id, ids);
    this.db.rowsChanged(context.table.id);
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
    return this.updateMany(user, tableId, this.input.batchItems(body), userFieldNames, false);
  }

  private async updateMany(user: UserEntity, tableId: number, items: unknown[], userFieldNames: boolean, single: boolean): Promise<{ rows: RowJson[]; updatedFieldIds: number[] }> {
    const ready = await this.input.prepareOffLoop(await this.contexts.require(tableId, user.id, T.updateRow), items, userFieldNames, user.id);
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.updateRow);
      const { prepared, fieldIds } = await this.input.prepareItems(context, ready, { userFieldNames, create: false, single, userId: user.id });
      await this.permissions.requireFieldWrites(user.id, tableScope(context.table, context.workspaceId), fieldIds);
      const session = await this.cascade.begin(context);
      const ids = prepared.map((p) => p.id);
      const before = await this.existingRows(context, ids, single);
      const visibleBefore = await this.cascade.visibleBefore(context, ids);
      const updated: RawRow[] = [];
      for (const { id, cells } of prepared) {
        const row = await this.rows.update(tableId, id, cells.values, user.id);
        if (row) updated.push(row);
      }
      await this.writeRelations(context, ids, prepared.map((p) => p.cells.relations), user.id);
      await this.cascade.run(session, context, ids, fieldIds, this.cascade.linksOf(context, before));
      this.db.rowsChanged(tableId);
      const rows = this.writesOnlyCells(context, session) ? await this.serialize(context, updated, { userFieldNames: false }) : await this.rowsByIds(context, ids);
      // Baserow's REST row updates, single or batch, are all `update_rows` actions.
      await this.history.record(user, context, { action: 'update_rows', rowsBefore: before, rows, fieldIds });
      this.db.record('rows.updated', { tableId, rowIds: ids, rowsBefore: before, updatedFieldIds: fieldIds, rows, visibleBefore });
      const params: UpdateRowsParams = { tableId, fieldIds, before: writtenCells(context, this.types, before, fieldIds), after: writtenCells(context, this.types, rows, fieldIds) };
      this.actions.record(single ? 'update_row' : 'update_rows', params, this.actionPlace(context));
      return { rows: this.shaped(context, rows, userFieldNames), updatedFieldIds: fieldIds };
    });
  }

  async move(user: UserEntity, tableId: number, rowId: number, beforeId: number | null, userFieldNames: boolean): Promise<RowJson> {
    return this.place(user, tableId, rowId, async () => (await this.newOrders(tableId, 1, beforeId))[0], userFieldNames);
  }

  /** A move's undo or redo: the row goes back to the order it had (decimal text). */
  async moveToOrder(user: UserEntity, tableId: number, rowId: number, order: string): Promise<void> {
    await this.place(user, tableId, rowId, async () => parseOrder(order), false);
  }

  private async place(user: UserEntity, tableId: number, rowId: number, orderOf: () => Promise<bigint>, userFieldNames: boolean): Promise<RowJson> {
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.moveRow);
      const session = await this.cascade.begin(context);
      const before = await this.existingRows(context, [rowId], true);
      const visibleBefore = await this.cascade.visibleBefore(context, [rowId]);
      const order = await orderOf();
      await this.rows.setOrder(tableId, rowId, order, user.id);
      // Lookups through links order the linked rows by their order: theirs follow the move.
      await this.cascade.run(session, context, [rowId], 'all');
      this.db.rowsChanged(tableId);
      const rows = await this.rowsByIds(context, [rowId]);
      this.db.record('rows.updated', { tableId, rowIds: [rowId], rowsBefore: before, updatedFieldIds: [], rows, visibleBefore });
      const params: MoveRowParams = { tableId, rowId, orderBefore: String(before[0].order), orderAfter: String(rows[0].order) };
      this.actions.record('move_row', params, this.actionPlace(context));
      return this.shaped(context, rows, userFieldNames)[0];
    });
  }

  async delete(user: UserEntity, tableId: number, rowId: number): Promise<void> {
    await this.deleteMany(user, tableId, [rowId], true);
  }

  async batchDelete(user: UserEntity, tableId: number, body: unknown): Promise<void> {
    const errors: ErrorTree = {};
    const ids = this.input.batchItems(body).map((item, i) => {
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
      const context = await this.contexts.require(tableId, user.id, T.deleteRow);
      const trashItemId = await this.trashIn(user, context, ids, single);
      const params: DeleteRowsParams = { tableId, rowIds: ids, trashItemId };
      this.actions.record(single ? 'delete_row' : 'delete_rows', params, this.actionPlace(context));
    });
  }

  /**
   * Moves rows to the trash (a delete, or the undo of a create); answers the trash entry's item:
   * the row's id (`row`) or the batch's (`rows`).
   */
  async trashRows(user: UserEntity, tableId: number, ids: number[], single: boolean): Promise<number> {
    return this.db.run(async () => this.trashIn(user, await this.contexts.require(tableId, user.id, T.deleteRow), ids, single));
  }

  private async trashIn(user: UserEntity, context: TableContext, ids: number[], single: boolean): Promise<number> {
    const tableId = context.table.id;
    return this.db.run(async () => {
      const session = await this.cascade.begin(context);
      const rows = await this.existingRows(context, ids, single);
      const visibleBefore = await this.cascade.visibleBefore(context, ids);
      if ((await this.rows.setTrashed(tableId, ids, true)) !== ids.length) throw TrashErrors.alreadyDeleted();
      await this.cascade.run(session, context, ids, 'all');
      const names = this.trashNames(context, rows);
      const entry = { workspaceId: context.workspaceId, applicationId: context.table.databaseId, parentId: tableId, parentName: context.table.name, names };
      const itemId = single ? ids[0] : (await this.trash.saveTrashedRows(tableId, ids)).id;
      await this.trash.record(user, { ...entry, type: single ? 'row' : 'rows', itemId, name: single ? String(ids[0]) : ' ' });
      this.db.rowsChanged(tableId);
      await this.history.record(user, context, { action: single ? 'delete_row' : 'delete_rows', rowsBefore: rows });
      this.db.record('rows.deleted', { tableId, rowIds: ids, rows, visibleBefore });
      return itemId;
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
      const session = await this.cascade.begin(context);
      const trashed = (await this.rows.findByIds(tableId, ids, 'trashed')).map((row) => row.id);
      if ((await this.rows.setTrashed(tableId, trashed, false)) !== trashed.length) throw TrashErrors.itemDoesNotExist();
      await this.cascade.run(session, context, trashed, 'all');
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

  // ------------------------------------------------------------------ names, adjacent

  /** The row after (or before, with `previous`) a row in a selection's order; null when none. */
  async adjacent(user: UserEntity, tableId: number, rowId: number, query: AdjacentRowQuery): Promise<RowJson | null> {
    const context = await this.contexts.require(tableId, user.id, T.readAdjacentRow);
    const userFieldNames = !!query.user_field_names;
    const previous = !!query.previous;
    const selection = await this.selection(context, { search: query.search, search_mode: query.search_mode, view_id: query.view_id }, false, user.id);
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

