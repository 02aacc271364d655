import { Injectable } from '@nestjs/common';
import { ApplicationsService } from '../../applications/applications.service';
import type { ApplicationEntity } from '../../applications/application.entity';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { Errors } from '../../core/errors/api-error';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
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
}

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
  private viewFactory: DefaultViewFactory | null = null;

  constructor(
    private readonly db: UnitOfWork,
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
  ) {}

  useDefaultViews(factory: DefaultViewFactory): void {
    this.viewFactory = factory;
  }

  /** A database application the user may use: 404 for other types too. */
  async requireDatabase(user: UserEntity, databaseId: number): Promise<ApplicationEntity> {
    const application = await this.applications.require(databaseId, user.id);
    if (application.type !== 'database') throw Errors.applicationDoesNotExist();
    return application;
  }

  async list(user: UserEntity, databaseId: number): Promise<TableJson[]> {
    await this.requireDatabase(user, databaseId);
    return (await this.repo.ofDatabases([databaseId])).map(serializeTable);
  }

  async get(user: UserEntity, tableId: number): Promise<TableJson> {
    return serializeTable((await this.contexts.require(tableId, user.id)).table);
  }

  async create(user: UserEntity, databaseId: number, input: { name: string; data?: unknown[][]; firstRowHeader?: boolean }): Promise<TableJson> {
    const table = await this.db.run(async () => {
      const database = await this.requireDatabase(user, databaseId);
      const initial = input.data ? tableFromData(input.data, input.firstRowHeader ?? false) : EXAMPLE_TABLE;
      return this.createTable(database, input.name, initial, user.id);
    });
    return serializeTable(table);
  }

  /**
   * Creates a table with its fields, SQL table, rows and first view, last in the database.
   * Used by the API, `init_with_data`, the example workspace and jobs.
   */
  async createTable(database: ApplicationEntity, name: string, initial: InitialTable, userId: number | null): Promise<TableEntity> {
    return this.db.run(async () => {
      const table = await this.repo.create({
        databaseId: database.id,
        name,
        order: (await this.repo.maxOrder(database.id)) + 1,
        createdOn: new Date(),
        trashed: false,
        fieldsVersion: 0,
        rowsVersion: 0,
      });
      await this.schema.createTable(table.id, []);
      let context: TableContext = await this.contexts.withFields(table, database.workspaceId);
      const widths = new Map<number, number>();
      const created = [];
      for (const [index, spec] of initial.fields.entries()) {
        const { field } = await this.fields.createField(context, userId, { name: spec.name, type: spec.type, properties: spec.properties, primary: index === 0 });
        created.push(field);
        if (spec.width) widths.set(field.id, spec.width);
        context = await this.contexts.reload(context);
      }
      if (initial.rows.length) {
        const ctx = this.contexts.fieldContext(context, userId);
        const ordered = created.map((field) => context.byId.get(field.id)!);
        const values = [];
        for (const row of initial.rows) {
          const cells: Record<string, unknown> = {};
          for (const [i, field] of ordered.entries()) {
            const type = this.types.of(field);
            cells[fieldColumn(field)] = row[i] === undefined ? type.defaultValue(field, ctx) : await type.prepareValue(field, row[i], ctx);
          }
          values.push(cells);
        }
        const orders = await this.rows.nextOrders(table.id, values.length);
        await this.rows.insert(
          table.id,
          values.map((cells, i) => ({ values: cells, order: orders[i] })),
          ordered.map((f) => fieldColumn(f)),
          userId,
        );
      }
      await this.viewFactory?.createDefaultView(context, widths);
      this.db.record('table.created', { tableId: table.id, databaseId: database.id, workspaceId: database.workspaceId });
      return table;
    });
  }

  async rename(user: UserEntity, tableId: number, name: string | undefined): Promise<TableJson> {
    const table = await this.db.run(async () => {
      const { table, workspaceId } = await this.contexts.require(tableId, user.id);
      if (name === undefined) return table;
      await this.repo.update(table.id, { name });
      this.db.record('table.updated', { tableId, databaseId: table.databaseId, workspaceId });
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
      const { table, workspaceId } = await this.contexts.require(tableId, user.id);
      const database = await this.applications.require(table.databaseId, user.id);
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
    });
  }

  /** Orders the database's tables as listed; the ones not listed get order 0. */
  async order(user: UserEntity, databaseId: number, tableIds: number[]): Promise<void> {
    await this.db.run(async () => {
      const database = await this.requireDatabase(user, databaseId);
      const all = await this.repo.liveIdsOfDatabase(databaseId);
      const known = new Set(all);
      for (const id of tableIds) if (!known.has(id)) throw DatabaseErrors.tableNotInDatabase(id);
      const positions = new Map<number, number>();
      tableIds.forEach((id, index) => positions.set(id, index + 1));
      for (const id of all) await this.repo.update(id, { order: positions.get(id) ?? 0 });
      const ordered = [...all].sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0) || a - b);
      this.db.record('tables.reordered', { databaseId, workspaceId: database.workspaceId, tableIds: ordered });
    });
  }

  /**
   * Copies a table through the serializer: the fields with their properties, the rows with
   * their ids and orders, the views; named "<name> 2" (or the next free number) and placed
   * right after it. Links to other tables link the same tables (with new related fields).
   */
  async duplicate(user: UserEntity, tableId: number): Promise<TableEntity> {
    return this.db.run(async () => {
      const original = await this.contexts.require(tableId, user.id);
      const database = await this.applications.require(original.table.databaseId, user.id);
      const siblings = await this.repo.ofDatabases([original.table.databaseId]);
      const names = new Set(siblings.map((t) => t.name));
      let number = 2;
      while (names.has(`${original.table.name} ${number}`)) number++;
      for (const sibling of siblings) if (sibling.order > original.table.order) await this.repo.update(sibling.id, { order: sibling.order + 1 });
      const doc = await this.serializer.exportTable(original);
      const [table] = await this.serializer.importTables(database, [doc], {
        userId: user.id,
        keepForeign: true,
        place: () => ({ name: `${original.table.name} ${number}`, order: original.table.order + 1 }),
      });
      this.db.record('table.created', { tableId: table.id, databaseId: table.databaseId, workspaceId: original.workspaceId });
      return table;
    });
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
  let rows = data.map((row) => Array.from({ length: width }, (_, i) => text(row[i])));
  let names = Array.from({ length: width }, (_, i) => `Field ${i + 1}`);
  if (firstRowHeader) {
    names = rows[0].map((name, i) => (name && name.trim() ? name.trim() : `Field ${i + 1}`));
    rows = rows.slice(1);
  }
  for (const name of names) {
    if (name.length > 255) throw DatabaseErrors.maxFieldNameLength();
    if (name === 'id' || name === 'order') throw DatabaseErrors.reservedFieldName();
  }
  if (new Set(names).size !== names.length) throw DatabaseErrors.initialDataDuplicateNames();
  return { fields: names.map((name) => ({ name, type: 'text' })), rows };
}
