import { Injectable } from '@nestjs/common';
import type { ApplicationEntity } from '../applications/application.entity';
import type { ApplicationDocument, ApplicationPart, ApplicationType, DocumentRows, RowsWritten } from '../applications/application-type';
import { ApiError } from '../core/errors/api-error';
import { DATABASE_DOCUMENT_FORMAT, DATABASE_DOCUMENT_VERSION, DatabaseDocument, RowSource } from './serialization/database-document';
import { DatabaseSerializer } from './serialization/database-serializer';
import type { UserEntity } from '../users/user.entity';
import { TableRepository } from './table.repository';
import { serializeTable } from './tables/table.serializer';
import { EXAMPLE_TABLE, TablesService } from './tables/tables.service';

/** The `database` application type: its serializer adds the `tables` array. */
@Injectable()
export class DatabaseApplicationType implements ApplicationType {
  readonly type = 'database';

  constructor(
    private readonly tables: TableRepository,
    private readonly tablesService: TablesService,
    private readonly serializer: DatabaseSerializer,
  ) {}

  async exportSerialized(application: ApplicationEntity): Promise<ApplicationDocument> {
    return { ...(await this.serializer.exportDatabase(application)) };
  }

  async *exportParts(application: ApplicationEntity): AsyncGenerator<ApplicationPart> {
    for await (const part of this.serializer.exportDatabaseParts(application)) {
      yield part.kind === 'document' ? { kind: 'document', document: { ...part.document } } : part;
    }
  }

  /** The document's tables, in their order, with everything they hold (ids mapped to the new ones). */
  async importSerialized(application: ApplicationEntity, document: ApplicationDocument, user: UserEntity | null, written?: RowsWritten, rows?: DocumentRows): Promise<void> {
    if (!isDatabaseDocument(document)) {
      throw new ApiError('ERROR_INVALID_SERIALIZED_APPLICATION', 400, 'The serialized database is not a Rowspace database document of a known version.');
    }
    const tables = (document as unknown as DatabaseDocument).tables;
    await this.serializer.importTables(application, tables, {
      userId: user?.id ?? null,
      keepForeign: false,
      written,
      place: (table) => ({ name: table.name, order: table.order }),
      // A streamed document's rows are read from their source (the source writes rows it serialized).
      rows: rows && ((table) => rows(table.id) as RowSource | undefined),
    });
  }

  async extraKeys(applications: ApplicationEntity[]): Promise<Map<number, Record<string, unknown>>> {
    const tables = await this.tables.ofDatabases(applications.map((a) => a.id));
    return new Map(applications.map((a) => [a.id, { tables: tables.filter((t) => t.databaseId === a.id).map(serializeTable) }]));
  }

  /** `init_with_data`: a table "Table" with the example fields and two empty rows. */
  async afterCreate(application: ApplicationEntity, user: UserEntity, options: { initWithData: boolean }): Promise<void> {
    if (options.initWithData) await this.tablesService.createTable(application, 'Table', EXAMPLE_TABLE, user.id);
  }

  async beforePermanentDelete(application: ApplicationEntity): Promise<void> {
    await this.tablesService.dropTablesOf(application.id);
  }
}

/** The shape an import relies on: known format and version, tables with ids, fields and rows with ids. */
function isDatabaseDocument(document: ApplicationDocument): boolean {
  if (document.format !== DATABASE_DOCUMENT_FORMAT || typeof document.version !== 'number' || document.version > DATABASE_DOCUMENT_VERSION) return false;
  if (!Array.isArray(document.tables)) return false;
  const positiveInt = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
  return (document.tables as unknown[]).every((table) => {
    const t = table as Partial<DatabaseDocument['tables'][number]>;
    return (
      !!t &&
      positiveInt(t.id) &&
      typeof t.name === 'string' &&
      Array.isArray(t.fields) &&
      t.fields.every((f) => f && positiveInt(f.id) && typeof f.name === 'string' && typeof f.type === 'string' && !!f.properties && typeof f.properties === 'object') &&
      Array.isArray(t.rows) &&
      t.rows.every((r) => r && positiveInt(r.id)) &&
      (t.views === undefined || Array.isArray(t.views))
    );
  });
}
