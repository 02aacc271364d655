import { Injectable, Logger } from '@nestjs/common';
import { ApplicationOperations as A, OperationType, PermissionService, TableOperations as T } from '../../permissions';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { ApplicationsService } from '../../applications/applications.service';
import type { ApplicationEntity } from '../../applications/application.entity';
import { HiddenBuilds, LongWrite } from '../../core/database/long-write';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { Errors } from '../../core/errors/api-error';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import type { FieldEntity } from '../fields/field.entity';
import { DatabaseErrors } from '../database.errors';
import { FieldsService, MAX_FIELDS_PER_TABLE } from '../fields/fields.service';
import { FieldTypeRegistry, fieldColumn } from '../fields/field-type';
import { FieldRepository } from '../fields/field.repository';
import { RowRepository } from '../rows/row.repository';
import { TableSchemaRepository } from '../rows/table-schema.repository';
import { TableContext, TableContextService } from '../table-context';
import { TableEntity } from '../table.entity';
import { TableRepository } from '../table.repository';
import { DatabaseSerializer } from '../serialization/database-serializer';
import { serializeTable, TableJson } from './table.serializer';

/** A field of a table being created: name, type, properties, and its width in the first grid view. */
export interface InitialField {
  name: string;
  type: string;
  properties?: Record<string, unknown>;
  width?: number;
}

/** What a new table starts with: its fields (the first is primary) and rows of raw request values. */
export interface InitialTable {
  fields: InitialField[];
  rows: unknown[][];
  /** Turns a row into the values of the fields, chunk by chunk as the rows are written (imported data: cells as text). */
  cells?: (row: unknown[]) => unknown[];
}

/** Told after each chunk of rows a long table creation wrote (a job's progress; it throws to cancel). */
export type RowsWritten = (done: number, total: number) => Promise<void>;

/** What the views module does when tables are created or duplicated. */
export interface DefaultViewFactory {
  /** A new table's first view: a grid view "Grid" with these field widths. */
  createDefaultView(context: TableContext, widths: Map<number, number>): Promise<void>;
}

/** The example table of an empty create and of `init_with_data`. */
export const EXAMPLE_TABLE: InitialTable = {
  fields: [
    { name: 'Name', type: 'text' },
    { name: 'Notes', type: 'long_text', width: 400 },
    { name: 'Active', type: 'boolean', width: 100 },
  ],
  rows: [
    [null, null, false],
    [null, null, false],
  ],
};

/**
 * The rules of tables: creation (the example fields or imported data, the SQL table, the
 * first grid view), rename, trash and order, all in one unit of work each.
 */
@Injectable()
export class TablesService {
  private readonly logger = new Logger(TablesService.name);
  private viewFactory: DefaultViewFactory | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly long: LongWrite,
    private readonly repo: TableRepository,
    private readonly contexts: TableContextService,
    private readonly applications: ApplicationsService,
    private readonly fields: FieldsService,
    private readonly schema: TableSchemaRepository,
    private readonly rows: RowRepository,
    private readonly types: FieldTypeRegistry,
    private readonly fieldRepo: FieldRepository,
    private readonly trash: TrashService,
    private readonly serializer: DatabaseSerializer,
    private readonly actions: ActionLog,
    private readonly permissions: PermissionService,
  ) {}

  useDefaultViews(factory: DefaultViewFactory): void {
    this.viewFactory = factory;
  }

  /** A database application, when the user may do `operation` on it: 404 for other types too. */
  async requireDatabase(user: UserEntity, databaseId: number, operation: OperationType): Promise<ApplicationEntity> {
    const application = await this.applications.require(databaseId, user.id, operation);
    if (application.type !== 'database') throw Errors.applicationDoesNotExist();
    return application;
  }

  async list(user: UserEntity, databaseId: number): Promise<TableJson[]> {
    const database = await this.requireDatabase(user, databaseId, A.listTables);
    const reader = await this.permissions.reader(user.id, database.workspaceId);
    const scope = (tableId: number) => ({ workspaceId: database.workspaceId, applicationId: databaseId, tableId });
    return (await this.repo.ofDatabases([databaseId])).filter((t) => reader.sees(A.listTables, scope(t.id))).map(serializeTable);
  }

  /** The table as the API shows it, when the user may do `operation` on it (reading it, unless a caller checks more). */
  async get(user: UserEntity, tableId: number, operation: OperationType = T.read): Promise<TableJson> {
    return serializeTable((await this.contexts.require(tableId, user.id, operation)).table);
  }

  async create(user: UserEntity, databaseId: number, input: { name: string; data?: unknown[][]; firstRowHeader?: boolean }): Promise<TableJson> {
    const database = await this.requireDatabase(user, databaseId, A.createTable);
    const initial = input.data ? tableFromData(input.data, input.firstRowHeader ?? false) : EXAMPLE_TABLE;
    return serializeTable(await this.createTable(database, input.name, initial, user.id, undefined, true));
  }

  /**
   * Creates a table with its fields, SQL table, rows and first view, last in the database.
   * Used by the API, `init_with_data`, the example workspace and jobs. Inside a caller's unit of
   * work it is part of it; outside one it is a long write: the table is built hidden (flagged
   * trashed, with no trash entry: listed nowhere, reachable by no one, no messages) with its rows
   * in chunks, each its own transaction, then shown in one last short transaction that records
   * `table.created`. A failure or a cancel (`written` throws) drops the hidden table.
   */
  createTable(database: ApplicationEntity, name: string, initial: InitialTable, userId: number | null, written?: RowsWritten, asAction = false): Promise<TableEntity> {
    return HiddenBuilds.run(() => this.buildTable(database, name, initial, userId, written, asAction));
  }

  /** `create_table` (a user's table, not one made with its database or the example workspace), in the transaction that shows it. */
  private created(table: TableEntity, database: ApplicationEntity, asAction: boolean): void {
    this.db.record('table.created', { tableId: table.id, databaseId: database.id, workspaceId: database.workspaceId });
    if (asAction) this.recordAction('create_table', database.id, database.workspaceId, { tableId: table.id });
  }

  /** Records a table action of the database (scope `application<id>`). */
  private recordAction(type: string, databaseId: number, workspaceId: number, params: Record<string, unknown>): void {
    this.actions.record(type, { databaseId, ...params }, { scope: ActionScopes.application(databaseId), workspaceId });
  }

  private async buildTable(database: ApplicationEntity, name: string, initial: InitialTable, userId: number | null, written: RowsWritten | undefined, asAction: boolean): Promise<TableEntity> {
    // Rows that fit in one chunk are written with the table, in one transaction.
    const size = this.long.rowsPerChunk(initial.fields.length);
    if (!this.long.chunked || initial.rows.length <= size) {
      return this.db.run(async () => {
        const { table, context, fields } = await this.startTable(database, name, initial.fields, userId, false);
        await this.insertInitialRows(context, fields, initial.cells ? initial.rows.map(initial.cells) : initial.rows, userId);
        this.created(table, database, asAction);
        return table;
      });
    }
    const { table, context, fields } = await this.long.chunk(() => this.startTable(database, name, initial.fields, userId, true), { hidden: true });
    try {
      const total = initial.rows.length;
      for (let start = 0; start < total; start += size) {
        const rows = initial.rows.slice(start, start + size);
        if (initial.cells) {
          // The job owns imported rows: the ones taken are let go, so memory shrinks as it goes.
          initial.rows.fill(null as unknown as unknown[], start, start + rows.length);
          for (let i = 0; i < rows.length; i++) rows[i] = initial.cells(rows[i]);
        }
        await this.long.chunk(() => this.insertInitialRows(context, fields, rows, userId), { hidden: true });
        await written?.(Math.min(total, start + size), total);
      }
      return await this.db.run(async () => {
        const shown = { ...table, trashed: false, order: (await this.repo.maxOrder(database.id)) + 1 };
        await this.repo.update(table.id, { trashed: false, order: shown.order });
        this.created(shown, database, asAction);
        return shown;
      });
    } catch (error) {
      await this.dropHidden(table);
      throw error;
    }
  }

  /** Drops a table a long write built and did not show (it failed or was cancelled). */
  async dropHidden(table: TableEntity): Promise<void> {
    try {
      await this.db.run(() => this.deleteForGood(table), { dropEvents: true });
    } catch (error) {
      // Invisible either way; the next start drops it (see HiddenLeftovers).
      this.logger.error(`Dropping the hidden table ${table.id} failed`, error instanceof Error ? error.stack : String(error));
    }
  }

  /** The table, its fields (the first primary), its SQL table and its first view; `hidden` until a long write shows it. */
  private async startTable(database: ApplicationEntity, name: string, specs: InitialField[], userId: number | null, hidden: boolean) {
    const table = await this.repo.create({
      databaseId: database.id,
      name,
      // A hidden table takes its place when it is shown.
      order: hidden ? 0 : (await this.repo.maxOrder(database.id)) + 1,
      createdOn: new Date(),
      trashed: hidden,
      fieldsVersion: 0,
      rowsVersion: 0,
    });
    if (hidden) HiddenBuilds.addTable(table.id);
    await this.schema.createTable(table.id, []);
    let context: TableContext = await this.contexts.withFields(table, database.workspaceId);
    const widths = new Map<number, number>();
    const created = [];
    for (const [index, spec] of specs.entries()) {
      const { field } = await this.fields.createField(context, userId, { name: spec.name, type: spec.type, properties: spec.properties, primary: index === 0 });
      created.push(field);
      if (spec.width) widths.set(field.id, spec.width);
      context = await this.contexts.reload(context);
    }
    await this.viewFactory?.createDefaultView(context, widths);
    const fields = created.map((field) => context.byId.get(field.id)!);
    return { table, context, fields };
  }

  /** Rows of raw values, one per field in order, inserted as the table's last rows. */
  private async insertInitialRows(context: TableContext, fields: FieldEntity[], rows: unknown[][], userId: number | null): Promise<void> {
    if (!rows.length) return;
    const ctx = this.contexts.fieldContext(context, userId);
    const types = fields.map((field) => this.types.of(field));
    const values = [];
    for (const row of rows) {
      const cells: Record<string, unknown> = {};
      for (const [i, field] of fields.entries()) {
        cells[fieldColumn(field)] = row[i] === undefined ? types[i].defaultValue(field, ctx) : await types[i].prepareValue(field, row[i], ctx);
      }
      values.push(cells);
    }
    const orders = await this.rows.nextOrders(context.table.id, values.length);
    await this.rows.insert(
      context.table.id,
      values.map((cells, i) => ({ values: cells, order: orders[i] })),
      fields.map((f) => fieldColumn(f)),
      userId,
    );
  }

  async rename(user: UserEntity, tableId: number, name: string | undefined): Promise<TableJson> {
    const table = await this.db.run(async () => {
      const { table, workspaceId } = await this.contexts.require(tableId, user.id, T.update);
      if (name === undefined) return table;
      await this.repo.update(table.id, { name });
      this.db.record('table.updated', { tableId, databaseId: table.databaseId, workspaceId });
      this.recordAction('update_table', table.databaseId, workspaceId, { tableId, before: table.name, after: name });
      return { ...table, name };
    });
    return serializeTable(table);
  }

  /**
   * Moves the table to the trash; its SQL table stays until the trash is emptied. Link
   * fields of other tables that point at it go to the trash with it, as in Baserow.
   */
  async delete(user: UserEntity, tableId: number): Promise<void> {
    await this.db.run(async () => {
      const { table, workspaceId } = await this.contexts.require(tableId, user.id, T.delete);
      const database = await this.applications.require(table.databaseId, user.id, A.read);
      const others = (await this.repo.liveIdsOfDatabase(table.databaseId)).filter((id) => id !== table.id);
      const links = await this.fieldRepo.linksTo(table.id, others);
      await this.trash.trashItem(TableEntity, user, {
        type: 'table',
        itemId: table.id,
        workspaceId,
        applicationId: table.databaseId,
        name: table.name,
        parentName: database.name,
        relatedItems: links.length ? { field: links.map((link) => link.id) } : {},
      });
      for (const link of links) {
        await this.fieldRepo.save({ ...link, trashed: true });
        // Lookups, rollups and counts through the link become invalid (until the table comes back).
        const related = await this.fields.trashedWith(table.databaseId, [link]);
        await this.repo.bump(link.tableId, 'fields_version');
        this.db.record('field.deleted', { fieldId: link.id, tableId: link.tableId, relatedFieldIds: related.map((f) => f.id) });
      }
      this.db.record('table.deleted', { tableId, databaseId: table.databaseId, workspaceId });
      this.recordAction('delete_table', table.databaseId, workspaceId, { tableId });
    });
  }

  /** Orders the database's tables as listed; the ones not listed get order 0. */
  async order(user: UserEntity, databaseId: number, tableIds: number[]): Promise<void> {
    await this.db.run(async () => {
      const database = await this.requireDatabase(user, databaseId, A.orderTables);
      const all = await this.repo.liveIdsOfDatabase(databaseId);
      const known = new Set(all);
      for (const id of tableIds) if (!known.has(id)) throw DatabaseErrors.tableNotInDatabase(id);
      const positions = new Map<number, number>();
      tableIds.forEach((id, index) => positions.set(id, index + 1));
      for (const id of all) await this.repo.update(id, { order: positions.get(id) ?? 0 });
      const ordered = [...all].sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0) || a - b);
      this.db.record('tables.reordered', { databaseId, workspaceId: database.workspaceId, tableIds: ordered });
      this.recordAction('order_tables', databaseId, database.workspaceId, { before: all, after: tableIds });
    });
  }

  /**
   * Copies a table through the serializer: the fields with their properties, the rows with
   * their ids and orders, the views; named "<name> 2" (or the next free number) and placed
   * right after it. Links to other tables link the same tables (with new related fields).
   * Outside a unit of work it is a long write (see `DatabaseSerializer.importTables`): the copy
   * is built hidden and shown, in its place, by the import's last transaction.
   */
  async duplicate(user: UserEntity, tableId: number, written?: RowsWritten): Promise<TableEntity> {
    const original = await this.contexts.require(tableId, user.id, T.duplicate);
    const database = await this.applications.require(original.table.databaseId, user.id, A.read);
    const doc = await this.serializer.exportTable(original);
    const [table] = await this.serializer.importTables(database, [doc], {
      userId: user.id,
      keepForeign: true,
      hidden: true,
      written,
      place: () => ({ name: original.table.name, order: original.table.order + 1 }),
      finish: async ([copy]) => {
        // Named and placed now, against the siblings as they are at the end.
        const siblings = (await this.repo.ofDatabases([original.table.databaseId])).filter((t) => t.id !== copy.id);
        const names = new Set(siblings.map((t) => t.name));
        let number = 2;
        while (names.has(`${original.table.name} ${number}`)) number++;
        const order = (siblings.find((t) => t.id === original.table.id)?.order ?? original.table.order) + 1;
        for (const sibling of siblings) if (sibling.order >= order && sibling.id !== original.table.id) await this.repo.update(sibling.id, { order: sibling.order + 1 });
        Object.assign(copy, { name: `${original.table.name} ${number}`, order, trashed: false });
        await this.repo.update(copy.id, { name: copy.name, order, trashed: false });
        this.db.record('table.created', { tableId: copy.id, databaseId: copy.databaseId, workspaceId: original.workspaceId });
        this.recordAction('duplicate_table', copy.databaseId, original.workspaceId, { tableId: copy.id, originalTableId: original.table.id, originalTableName: original.table.name });
      },
    });
    return table;
  }

  /** Drops the SQL tables of a database deleted for good. */
  async dropTablesOf(databaseId: number): Promise<void> {
    for (const table of await this.repo.allOfDatabase(databaseId)) await this.deleteForGood(table);
  }

  /** A table deleted for good: its fields' storage (junction tables), its SQL table and its metadata. */
  async deleteForGood(table: TableEntity): Promise<void> {
    const ctx = this.contexts.fieldContext({ table, selectOptions: new Map() }, null);
    for (const field of await this.fieldRepo.allOfTable(table.id)) await this.types.of(field).dropStorage?.(field, ctx);
    await this.schema.dropTable(table.id);
    await this.repo.delete(table.id);
  }
}

/**
 * A table from imported data: one text field per column (the first primary), names from
 * the first row with `first_row_header` (blank ones become "Field N"), cells as text.
 */
export function tableFromData(data: unknown[][], firstRowHeader: boolean): InitialTable {
  // A loop, not Math.max(...lengths): a spread of a million rows overflows the call stack.
  let width = 0;
  for (const row of data) width = Math.max(width, row.length);
  if (width === 0) throw DatabaseErrors.invalidInitialData();
  if (width > MAX_FIELDS_PER_TABLE) throw DatabaseErrors.maxFieldCountExceeded();
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === 'object' ? JSON.stringify(value) : String(value));
  // Cells become text as the rows are written, chunk by chunk (a million rows are not converted in one go).
  const cells = (row: unknown[]): (string | null)[] => {
    const values = new Array<string | null>(width);
    for (let i = 0; i < width; i++) values[i] = text(row[i]);
    return values;
  };
  let rows = data;
  let names = Array.from({ length: width }, (_, i) => `Field ${i + 1}`);
  if (firstRowHeader) {
    names = cells(data[0]).map((name, i) => (name && name.trim() ? name.trim() : `Field ${i + 1}`));
    rows = data.slice(1);
  }
  for (const name of names) {
    if (name.length > 255) throw DatabaseErrors.maxFieldNameLength();
    if (name === 'id' || name === 'order') throw DatabaseErrors.reservedFieldName();
  }
  if (new Set(names).size !== names.length) throw DatabaseErrors.initialDataDuplicateNames();
  return { fields: names.map((name) => ({ name, type: 'text' })), rows, cells };
}
