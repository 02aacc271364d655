import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApplicationEntity } from '../../applications/application.entity';
import type { ApplicationPart } from '../../applications/application-type';
import { Dialect, parseOrder } from '../../core/database/dialect';
import { HiddenBuilds, LongWrite } from '../../core/database/long-write';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { FieldEntity } from '../fields/field.entity';
import { CellError, FieldType, FieldTypeRegistry, fieldColumn, RawRow } from '../fields/field-type';
import { FieldRepository } from '../fields/field.repository';
import { FieldsService } from '../fields/fields.service';
import { ImportedRow, isoMicros, RowRepository } from '../rows/row.repository';
import { TableSchemaRepository } from '../rows/table-schema.repository';
import { TableContext, TableContextService } from '../table-context';
import type { TableEntity } from '../table.entity';
import { TableRepository } from '../table.repository';
import {
  DATABASE_DOCUMENT_FORMAT,
  DATABASE_DOCUMENT_VERSION,
  DatabaseDocument,
  FieldDocument,
  ImportIds,
  RowDocument,
  RowSource,
  rowsInMemory,
  TableDocument,
  ViewDocument,
} from './database-document';

/** What the views module does for the serializer: a table's views as documents, and back. */
export interface ViewSerializer {
  exportViews(context: TableContext): Promise<ViewDocument[]>;
  /** Creates the views of an imported table (inside the import's unit of work), ids mapped through `ids`. */
  importViews(context: TableContext, views: ViewDocument[], ids: ImportIds): Promise<void>;
  /** A field was duplicated in its table: the views give the copy the original's options, right after it. */
  fieldDuplicated(context: TableContext, originalId: number, copyId: number): Promise<void>;
}

/** A part of a streamed database export: the document without rows, then batches of a table's rows. */
export type DatabasePart = ApplicationPart<DatabaseDocument, RowDocument>;

/** Where an imported table goes: its name and order in the database. */
export type TablePlacement = (doc: TableDocument) => { name: string; order: number };

const ROW_BATCH = 500;

/** How a document's tables are imported (see `importTables`). */
export interface TableImportOptions {
  userId: number | null;
  /** References to tables outside the document stay (a table copied within its own database). */
  keepForeign: boolean;
  place: TablePlacement;
  /** The tables are created flagged trashed (with no trash entry: seen nowhere) until `finish` shows them. */
  hidden?: boolean;
  /** The import's last work, in its last transaction (shows hidden tables, records the events). */
  finish?: (tables: TableEntity[]) => Promise<void>;
  /** Told after each chunk of rows (a job's progress; it throws to cancel). */
  written?: (done: number, total: number) => Promise<void>;
  /** Where a table's rows are when not in the document (its `rows` empty): a snapshot's file. */
  rows?: (doc: TableDocument) => RowSource | undefined;
}

/**
 * The one way Rowspace copies database data: tables (fields with their properties and select
 * options, views with their filters, sorts, group-bys, decorations and field options, rows
 * with their cells) to a `DatabaseDocument` and back into a database. Application
 * duplication, template installation, table duplication and field duplication all go
 * through it. Imports run inside the caller's unit of work: a failure writes nothing.
 */
@Injectable()
export class DatabaseSerializer {
  private readonly logger = new Logger(DatabaseSerializer.name);
  private views: ViewSerializer | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly long: LongWrite,
    private readonly tables: TableRepository,
    private readonly schema: TableSchemaRepository,
    private readonly contexts: TableContextService,
    private readonly fields: FieldsService,
    private readonly fieldRepo: FieldRepository,
    private readonly types: FieldTypeRegistry,
    private readonly rows: RowRepository,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  useViews(views: ViewSerializer): void {
    this.views = views;
  }

  /** Field duplication: the views place the copy after the original (inside the caller's unit of work). */
  async fieldDuplicated(context: TableContext, originalId: number, copyId: number): Promise<void> {
    await this.views?.fieldDuplicated(context, originalId, copyId);
  }

  // ------------------------------------------------------------------ export

  /** A database application with its live tables, in table order. */
  async exportDatabase(database: ApplicationEntity): Promise<DatabaseDocument> {
    const tables: TableDocument[] = [];
    for (const table of await this.tables.ofDatabases([database.id])) {
      tables.push(await this.exportTable(await this.contexts.withFields(table, database.workspaceId)));
    }
    return { format: DATABASE_DOCUMENT_FORMAT, version: DATABASE_DOCUMENT_VERSION, type: 'database', name: database.name, tables };
  }

  /** One table: its live fields, views and live rows. */
  async exportTable(context: TableContext): Promise<TableDocument> {
    return { ...(await this.exportTableHead(context)), rows: await this.exportRows(context, context.fields) };
  }

  /** One table without its rows (`rows` empty): its live fields and views. */
  private async exportTableHead(context: TableContext): Promise<TableDocument> {
    const fields: FieldDocument[] = [];
    for (const field of context.fields) fields.push(await this.exportField(field, context));
    return { id: context.table.id, name: context.table.name, order: context.table.order, fields, views: (await this.views?.exportViews(context)) ?? [], rows: [] };
  }

  async exportField(field: FieldEntity, context: TableContext): Promise<FieldDocument> {
    const type = this.types.of(field);
    const doc: FieldDocument = {
      id: field.id,
      name: field.name,
      type: field.type,
      primary: field.primary,
      order: field.order,
      description: field.description,
      db_index: field.dbIndex,
      field_constraints: structuredClone(field.fieldConstraints ?? []),
      properties: structuredClone(field.properties),
    };
    const options = context.selectOptions.get(field.id);
    if (options && type.writeOnlyProperties?.select_options) doc.select_options = sortedOptions(options).map((o) => ({ id: o.id, value: o.value, color: o.color }));
    if (type.computed) doc.reads = (await type.reads?.(field)) ?? [];
    return doc;
  }

  /** The live rows by id, with the cells of the given fields that hold data (computed cells are not kept). */
  async exportRows(context: TableContext, fields: FieldEntity[]): Promise<RowDocument[]> {
    const result: RowDocument[] = [];
    for await (const batch of this.exportRowBatches(context, fields)) result.push(...batch);
    return result;
  }

  /** As `exportRows`, a batch at a time (a snapshot streams them to its file without holding them all). */
  async *exportRowBatches(context: TableContext, fields: FieldEntity[]): AsyncGenerator<RowDocument[]> {
    const ctx = this.contexts.fieldContext(context, null);
    const kept = fields.filter((field) => this.holdsCells(this.types.of(field), field));
    for await (const batch of this.rows.scan(context.table.id, { liveOnly: true })) {
      const docs: RowDocument[] = batch.map((row) => ({
        id: row.id,
        order: this.dialect.orderText(row.order),
        created_on: timestampText(row.created_on),
        updated_on: timestampText(row.updated_on),
        created_by_id: userId(row.created_by_id),
        last_modified_by_id: userId(row.last_modified_by_id),
      }));
      for (const field of kept) {
        const type = this.types.of(field);
        const values = await type.readValues(field, batch, ctx);
        batch.forEach((row: RawRow, i) => {
          docs[i][fieldColumn(field)] = type.exportCell ? type.exportCell(field, values[i], row) : values[i];
        });
      }
      yield docs;
    }
  }

  /**
   * The database as a stream of parts: first the document without rows (tables with their
   * fields and views, `rows` empty), then the rows of each table in batches. Memory holds one
   * batch at a time, whatever the database's size.
   */
  async *exportDatabaseParts(database: ApplicationEntity): AsyncGenerator<DatabasePart> {
    const contexts: TableContext[] = [];
    const tables: TableDocument[] = [];
    for (const table of await this.tables.ofDatabases([database.id])) {
      const context = await this.contexts.withFields(table, database.workspaceId);
      contexts.push(context);
      tables.push(await this.exportTableHead(context));
    }
    yield { kind: 'document', document: { format: DATABASE_DOCUMENT_FORMAT, version: DATABASE_DOCUMENT_VERSION, type: 'database', name: database.name, tables } };
    for (const context of contexts) {
      for await (const rows of this.exportRowBatches(context, context.fields)) yield { kind: 'rows', table: context.table.id, rows };
    }
  }

  /** Whether a field has cells of its own to copy: stored in a column or a relation, not computed. */
  private holdsCells(type: FieldType, field: FieldEntity): boolean {
    return !type.computed && (type.column(field) !== null || type.writeRelations !== undefined);
  }

  // ------------------------------------------------------------------ import

  /**
   * Creates the document's tables in a database: the tables, the fields that hold data (links
   * after the rest, a link's related side with it), the rows with their ids, the relations,
   * the computed fields after what they read (their cells computed), the field orders of the
   * document, then the views. Answers the new tables in document order.
   *
   * Inside a caller's unit of work it is part of it. Outside one it is a long write: the tables
   * and the fields among them first, then the rows and their relations in chunks of
   * `LONG_WRITE_CHUNK_ROWS`, each its own transaction (their events dropped: nothing of it is
   * visible yet, the tables being hidden or in a hidden database), and last, in one transaction,
   * what reaches outside the new tables (links to other tables, with their cells), the computed
   * fields, the views and `finish`. A failure drops the tables it created.
   */
  importTables(database: ApplicationEntity, docs: TableDocument[], options: TableImportOptions): Promise<TableEntity[]> {
    return HiddenBuilds.run(() => this.buildTables(database, docs, options));
  }

  private async buildTables(database: ApplicationEntity, docs: TableDocument[], options: TableImportOptions): Promise<TableEntity[]> {
    const sources = new Map(docs.map((doc) => [doc.id, options.rows?.(doc) ?? rowsInMemory(doc.rows)]));
    // Rows that fit in one chunk are written with the tables, in one transaction.
    let total = 0;
    let widest = 1;
    for (const doc of docs) {
      total += sources.get(doc.id)!.count;
      widest = Math.max(widest, doc.fields.length);
    }
    if (!this.long.chunked || total <= this.long.rowsPerChunk(widest)) {
      // Read before the transaction: it holds the writer.
      const rows = new Map<number, RowDocument[]>();
      for (const doc of docs) rows.set(doc.id, await allRows(sources.get(doc.id)!));
      return this.db.run(async () => {
        const { run, created } = await this.createTables(database, docs, options, () => true);
        for (const doc of docs) await this.importColumnCells(run, run.ids.tables.get(doc.id)!, doc, rows.get(doc.id)!, 0, rows.get(doc.id)!.length);
        for (const doc of docs) await this.importRelationCells(run, run.ids.tables.get(doc.id)!, doc.fields, rows.get(doc.id)!, 0, rows.get(doc.id)!.length);
        await this.completeTables(run, docs, created, options);
        return created;
      });
    }
    const documentTables = new Set(docs.map((doc) => doc.id));
    // A link among the new tables is made with them; one to another table, in the last transaction.
    const inside = (field: FieldDocument) => field.type !== 'link_row' || documentTables.has(Number(field.properties.link_row_table_id ?? field.properties.link_row_table));
    const first = await this.long.chunk(() => this.createTables(database, docs, options, inside), { hidden: true });
    const { run, created } = first;
    try {
      let done = 0;
      for (const doc of docs) {
        const tableId = run.ids.tables.get(doc.id)!;
        for await (const batch of sources.get(doc.id)!.batches(this.long.rowsPerChunk(doc.fields.length))) {
          await this.long.chunk(() => this.importColumnCells(run, tableId, doc, batch, 0, batch.length), { hidden: true });
          done += batch.length;
          await options.written?.(done, total);
        }
      }
      for (const doc of docs) {
        const tableId = run.ids.tables.get(doc.id)!;
        // A second pass over the rows only for the tables with cells kept outside the row.
        if (doc.fields.some((field) => this.types.get(field.type)?.writeRelations)) {
          for await (const batch of sources.get(doc.id)!.batches(this.long.rowsPerChunk(doc.fields.length))) {
            await this.long.chunk(() => this.importRelationCells(run, tableId, doc.fields, batch, 0, batch.length), { hidden: true });
          }
        }
        await options.written?.(done, total);
      }
      await this.db.run(async () => {
        const before = new Set(run.ids.fields.keys());
        for (const stage of this.fieldStages(docs, (field) => !inside(field))) for (const { table, field } of stage) await this.importField(run, run.ids.tables.get(table.id)!, field);
        for (const doc of docs) {
          const added = doc.fields.filter((field) => !before.has(field.id));
          if (!added.length) continue;
          for await (const batch of sources.get(doc.id)!.batches(ROW_BATCH)) await this.importRelationCells(run, run.ids.tables.get(doc.id)!, added, batch, 0, batch.length);
        }
        await this.completeTables(run, docs, created, options);
      });
      return created;
    } catch (error) {
      await this.dropTables(created);
      throw error;
    }
  }

  /** The tables and their SQL tables, and the fields of `which` that are not computed (links after the rest). */
  private async createTables(database: ApplicationEntity, docs: TableDocument[], options: TableImportOptions, which: (field: FieldDocument) => boolean) {
    const ids = new ImportIds(options.keepForeign);
    const created: TableEntity[] = [];
    for (const doc of docs) {
      const { name, order } = options.place(doc);
      const table = await this.tables.create({ databaseId: database.id, name, order, createdOn: new Date(), trashed: options.hidden ?? false, fieldsVersion: 0, rowsVersion: 0 });
      await this.schema.createTable(table.id, []);
      if (table.trashed) HiddenBuilds.addTable(table.id);
      ids.tables.set(doc.id, table.id);
      created.push(table);
    }
    const contexts = new Map<number, TableContext>();
    for (const table of created) contexts.set(table.id, await this.contexts.withFields(table, database.workspaceId));
    const run: FieldImport = { ids, contexts, userId: options.userId, docs: new Map(docs.flatMap((t) => t.fields.map((f) => [f.id, f] as const))) };
    for (const stage of this.fieldStages(docs, which)) for (const { table, field } of stage) await this.importField(run, ids.tables.get(table.id)!, field);
    return { run, created };
  }

  /** The document's fields of `which` that are not computed, in the order they are created: the others, then links' first sides, then their second sides. */
  private fieldStages(docs: TableDocument[], which: (field: FieldDocument) => boolean) {
    const pending = docs.flatMap((doc) => doc.fields.filter(which).map((field) => ({ table: doc, field })));
    const isComputed = (f: FieldDocument) => !!this.types.get(f.type)?.computed;
    const isLink = (f: FieldDocument) => f.type === 'link_row';
    return [
      pending.filter(({ field }) => !isComputed(field) && !isLink(field)),
      pending.filter(({ field }) => isLink(field) && field.properties.side !== 'b'),
      pending.filter(({ field }) => isLink(field) && field.properties.side === 'b'),
    ];
  }

  /** Once the rows are in: the computed fields (their cells computed), the document's field orders, the views, then `finish`. */
  private async completeTables(run: FieldImport, docs: TableDocument[], created: TableEntity[], options: TableImportOptions): Promise<void> {
    const pending = docs.flatMap((doc) => doc.fields.map((field) => ({ table: doc, field })));
    for (const { table, field } of computedOrder(pending.filter(({ field }) => !!this.types.get(field.type)?.computed))) await this.importField(run, run.ids.tables.get(table.id)!, field);
    for (const doc of docs) {
      const tableId = run.ids.tables.get(doc.id)!;
      const before = await this.reload(run, tableId);
      for (const field of doc.fields) {
        const id = run.ids.fields.get(field.id);
        const current = id === undefined ? undefined : before.byId.get(id);
        if (current && current.order !== field.order) await this.fieldRepo.save({ ...current, order: field.order } as FieldEntity);
      }
      await this.tables.bump(tableId, 'fields_version');
      const context = await this.reload(run, tableId);
      await this.views?.importViews(context, doc.views ?? [], run.ids);
    }
    await options.finish?.(created);
  }

  /** Drops what a failed long import created: the tables' field storage (junction tables), SQL tables and metadata. */
  private async dropTables(tables: TableEntity[]): Promise<void> {
    try {
      await this.db.run(
        async () => {
          for (const table of tables) {
            const ctx = this.contexts.fieldContext({ table, selectOptions: new Map() }, null);
            for (const field of await this.fieldRepo.allOfTable(table.id)) await this.types.of(field).dropStorage?.(field, ctx);
            await this.schema.dropTable(table.id);
            await this.tables.delete(table.id);
          }
        },
        { dropEvents: true },
      );
    } catch (error) {
      this.logger.error(`Dropping the tables of a failed import failed (${tables.map((t) => t.id).join(', ')})`, error instanceof Error ? error.stack : String(error));
    }
  }

  /**
   * Creates a serialized field in an existing table (field duplication): the field, then, with
   * `rows`, its cells. Answers the field and the fields of other tables created with it.
   */
  async importFieldInto(context: TableContext, doc: FieldDocument, rows: RowDocument[] | null, userId: number | null): Promise<{ field: FieldEntity; related: FieldEntity[] }> {
    return this.db.run(async () => {
      const ids = new ImportIds(true);
      ids.tables.set(context.table.id, context.table.id);
      const run: FieldImport = { ids, contexts: new Map([[context.table.id, context]]), userId, docs: new Map([[doc.id, doc]]) };
      const change = await this.importField(run, context.table.id, doc);
      if (!change) throw new Error(`The field ${doc.id} cannot be imported.`);
      if (rows) {
        await this.importColumnCellsOfExistingRows(run, context.table.id, doc, rows);
        await this.importRelationCells(run, context.table.id, [doc], rows, 0, rows.length);
      }
      return change;
    });
  }

  private async reload(run: FieldImport, tableId: number): Promise<TableContext> {
    const known = run.contexts.get(tableId);
    const context = known ? await this.contexts.reload(known) : await this.contexts.ofTable(tableId);
    if (!context) throw new Error(`Table ${tableId} is not there.`);
    run.contexts.set(tableId, context);
    return context;
  }

  private async importField(run: FieldImport, tableId: number, doc: FieldDocument): Promise<{ field: FieldEntity; related: FieldEntity[] } | null> {
    const { ids } = run;
    if (ids.fields.has(doc.id)) return null;
    const type = this.types.get(doc.type);
    if (!type) return null;
    const input: Record<string, unknown> = structuredClone(doc.properties ?? {});
    if (doc.select_options && type.writeOnlyProperties?.select_options) input.select_options = doc.select_options.map((o) => ({ value: o.value, color: o.color }));
    if (type.importInput) {
      const extra = type.importInput(doc, ids, tableId);
      if (extra === null) return null;
      Object.assign(input, extra);
    }
    const properties = { ...this.fields.defaults(type), ...structuredClone(doc.properties ?? {}) };
    const context = await this.reload(run, tableId);
    const change = await this.fields.createField(context, run.userId, {
      name: doc.name,
      type: doc.type,
      properties,
      input,
      primary: doc.primary,
      description: doc.description ?? null,
      dbIndex: doc.db_index ?? false,
      fieldConstraints: doc.field_constraints ?? [],
    });
    const field = change.field;
    ids.fields.set(doc.id, field.id);
    const fresh = await this.reload(run, tableId);
    const options = sortedOptions(fresh.selectOptions.get(field.id) ?? []);
    (doc.select_options ?? []).forEach((option, index) => {
      if (options[index]) ids.selectOptions.set(option.id, options[index].id);
    });
    // The related side of a link, made with it, takes the document's name for it.
    const relatedDocId = doc.properties?.related_field_id;
    for (const related of change.related) {
      if (related.type !== 'link_row' || Number(related.properties.related_field_id) !== field.id || relatedDocId == null) continue;
      const relatedDoc = run.docs.get(Number(relatedDocId));
      if (!relatedDoc) continue;
      ids.fields.set(relatedDoc.id, related.id);
      ids.createdWith.add(relatedDoc.id);
      await this.fieldRepo.save({ ...related, name: relatedDoc.name, description: relatedDoc.description ?? null } as FieldEntity);
      await this.tables.bump(related.tableId, 'fields_version');
    }
    const patch = type.importedProperties?.(doc, ids);
    if (patch) {
      const current = fresh.byId.get(field.id) ?? field;
      await this.fieldRepo.save({ ...current, properties: { ...current.properties, ...patch } } as FieldEntity);
      await this.tables.bump(tableId, 'fields_version');
    }
    return change;
  }

  /** The stored value of a serialized cell; a cell the type refuses becomes the field's default. */
  private async prepareCell(run: FieldImport, field: FieldEntity, type: FieldType, value: unknown, context: TableContext): Promise<unknown> {
    const ctx = this.contexts.fieldContext(context, run.userId);
    if (value === undefined) return type.defaultValue(field, ctx);
    try {
      return type.importCell ? await type.importCell(field, value, run.ids, ctx) : await type.prepareValue(field, value, ctx);
    } catch (error) {
      if (error instanceof CellError) return type.defaultValue(field, ctx);
      throw error;
    }
  }

  /** The fields of a document table that were created and hold cells in columns. */
  private async columnFields(run: FieldImport, tableId: number, docs: FieldDocument[]): Promise<{ doc: FieldDocument; field: FieldEntity; type: FieldType }[]> {
    const context = await this.reload(run, tableId);
    return docs.flatMap((doc) => {
      const field = context.byId.get(run.ids.fields.get(doc.id) ?? -1);
      if (!field || field.tableId !== tableId) return [];
      const type = this.types.of(field);
      return !type.computed && type.column(field) ? [{ doc, field, type }] : [];
    });
  }

  private async importColumnCells(run: FieldImport, tableId: number, table: TableDocument, rows: RowDocument[], from: number, to: number): Promise<void> {
    const context = await this.reload(run, tableId);
    const fields = await this.columnFields(run, tableId, table.fields);
    const columns = fields.map(({ field }) => fieldColumn(field));
    const end = Math.min(to, rows.length);
    for (let i = from; i < end; i += ROW_BATCH) {
      const batch: ImportedRow[] = [];
      for (const row of rows.slice(i, Math.min(end, i + ROW_BATCH))) {
        const values: Record<string, unknown> = {};
        for (const { doc, field, type } of fields) values[fieldColumn(field)] = await this.prepareCell(run, field, type, row[`field_${doc.id}`], context);
        batch.push({ id: Number(row.id), order: parseOrder(String(row.order ?? row.id)), createdOn: row.created_on ?? null, updatedOn: row.updated_on ?? null, createdById: row.created_by_id, lastModifiedById: row.last_modified_by_id, values });
      }
      await this.rows.insertWithIds(tableId, batch, columns, run.userId);
    }
  }

  /** Field duplication with data: the new column of rows that exist already. */
  private async importColumnCellsOfExistingRows(run: FieldImport, tableId: number, doc: FieldDocument, rows: RowDocument[]): Promise<void> {
    const context = await this.reload(run, tableId);
    const [target] = await this.columnFields(run, tableId, [doc]);
    if (!target) return;
    const column = target.type.column(target.field)!;
    for (let i = 0; i < rows.length; i += ROW_BATCH) {
      const values = [];
      for (const row of rows.slice(i, i + ROW_BATCH)) values.push({ id: Number(row.id), value: await this.prepareCell(run, target.field, target.type, row[`field_${doc.id}`], context) });
      await this.rows.setColumn(tableId, column, values);
    }
  }

  /** Cells kept outside the row (links, multiple selects, collaborators), once every table's rows exist. */
  private async importRelationCells(run: FieldImport, tableId: number, docs: FieldDocument[], rows: RowDocument[], from: number, to: number): Promise<void> {
    const end = Math.min(to, rows.length);
    const context = await this.reload(run, tableId);
    const ctx = this.contexts.fieldContext(context, run.userId);
    for (const doc of docs) {
      // The related side of a link shares its relation: its pairs came with the other side.
      if (run.ids.createdWith.has(doc.id)) continue;
      const field = context.byId.get(run.ids.fields.get(doc.id) ?? -1);
      if (!field || field.tableId !== tableId) continue;
      const type = this.types.of(field);
      if (type.computed || type.column(field) || !type.writeRelations) continue;
      const key = `field_${doc.id}`;
      for (let i = from; i < end; i += ROW_BATCH) {
        const values = [];
        for (const row of rows.slice(i, Math.min(end, i + ROW_BATCH))) if (row[key] !== undefined) values.push({ id: Number(row.id), value: await this.prepareCell(run, field, type, row[key], context) });
        await type.writeRelations(field, values, ctx);
      }
    }
  }
}

interface FieldImport {
  ids: ImportIds;
  contexts: Map<number, TableContext>;
  userId: number | null;
  /** Every field of the document, by document id. */
  docs: Map<number, FieldDocument>;
}

async function allRows(source: RowSource): Promise<RowDocument[]> {
  const rows: RowDocument[] = [];
  for await (const batch of source.batches(ROW_BATCH)) rows.push(...batch);
  return rows;
}

function sortedOptions<T extends { order: number; id: number }>(options: T[]): T[] {
  return [...options].sort((a, b) => a.order - b.order || a.id - b.id);
}

function userId(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function timestampText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? isoMicros(value) : String(value);
}

/** Computed fields in document order, each after the computed fields of the document it reads. */
function computedOrder<T extends { field: FieldDocument }>(items: T[]): T[] {
  const byId = new Map(items.map((item) => [item.field.id, item]));
  const placed = new Set<number>();
  const ordered: T[] = [];
  const place = (item: T, path: Set<number>): void => {
    if (placed.has(item.field.id) || path.has(item.field.id)) return;
    path.add(item.field.id);
    for (const id of item.field.reads ?? []) {
      const read = byId.get(id);
      if (read) place(read, path);
    }
    placed.add(item.field.id);
    ordered.push(item);
  };
  for (const item of items) place(item, new Set());
  return ordered;
}
