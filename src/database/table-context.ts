import { Inject, Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { Dialect } from '../core/database/dialect';
import { HiddenBuilds } from '../core/database/long-write';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { OperationType, PermissionScope, PermissionService } from '../permissions';
import { DatabaseErrors } from './database.errors';
import { FieldEntity, SelectOptionEntity } from './fields/field.entity';
import { FieldContext } from './fields/field-type';
import { FieldRepository } from './fields/field.repository';
import { TableEntity } from './table.entity';
import { TableAccessRow, TableRepository } from './table.repository';

/** A table with its live fields, as every row and field request needs it. */
export interface TableContext {
  table: TableEntity;
  workspaceId: number;
  /** Primary first, then by order. */
  fields: FieldEntity[];
  byId: Map<number, FieldEntity>;
  byName: Map<string, FieldEntity>;
  selectOptions: Map<number, SelectOptionEntity[]>;
}

/** Where a table sits in the scope chain roles are assigned on. */
export function tableScope(table: Pick<TableEntity, 'id' | 'databaseId'>, workspaceId: number): PermissionScope {
  return { workspaceId, applicationId: table.databaseId, tableId: table.id };
}

interface CachedFields {
  fields: FieldEntity[];
  selectOptions: Map<number, SelectOptionEntity[]>;
}

/**
 * A table's context from metadata caches (see `MetadataCache`): its access for a user (the table,
 * its workspace and membership) and its fields, read once per metadata version, so a warm
 * request sends no query for them and is never answered from what a write changed since.
 */
@Injectable()
export class TableContextService {
  private readonly accessCache: MetadataCache<string, TableAccessRow | null>;
  private readonly cache: MetadataCache<number, CachedFields>;

  constructor(
    caches: Caches,
    private readonly db: UnitOfWork,
    private readonly tables: TableRepository,
    private readonly fields: FieldRepository,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly permissions: PermissionService,
  ) {
    this.accessCache = caches.metadata<string, TableAccessRow | null>('table-access');
    this.cache = caches.metadata<number, CachedFields>('table-fields');
  }

  /**
   * The table, when the user may do `operation` on it (or on an object in it): 404 when it (or
   * its database or workspace) is gone, else the permission check's answer.
   */
  async require(tableId: number, userId: number, operation: OperationType): Promise<TableContext> {
    const access = await this.access(tableId, userId);
    if (!access) throw DatabaseErrors.tableDoesNotExist();
    await this.permissions.require(userId, operation, tableScope(access.table, access.workspaceId));
    return this.withFields(access.table, access.workspaceId);
  }

  /** Whether the table is live and the user may do `operation` on it (socket page subscriptions). */
  async can(tableId: number, userId: number, operation: OperationType): Promise<boolean> {
    const access = await this.access(tableId, userId);
    return access !== null && (await this.permissions.can(userId, operation, tableScope(access.table, access.workspaceId)));
  }

  /** The context of a table already checked (or read by the system). */
  async withFields(table: TableEntity, workspaceId: number): Promise<TableContext> {
    const cached = await this.cache.get(table.id, async () => {
      const fields = await this.fields.ofTable(table.id);
      const selectOptions = await this.fields.selectOptions(fields.filter((f) => f.type.endsWith('select')).map((f) => f.id));
      return { fields, selectOptions };
    });
    const fields = cached.fields;
    return {
      table,
      workspaceId,
      fields,
      byId: new Map(fields.map((f) => [f.id, f])),
      byName: new Map(fields.map((f) => [f.name, f])),
      selectOptions: cached.selectOptions,
    };
  }

  /** A live table's context read by the system (no user), or null when it is gone. */
  async ofTable(tableId: number): Promise<TableContext | null> {
    const access = await this.access(tableId, 0);
    return access ? this.withFields(access.table, access.workspaceId) : null;
  }

  /**
   * A live table with its workspace and whether the user is a member (see `TableRepository.findAccess`),
   * from the metadata cache; the table is a copy (callers may change what they got before saving it).
   */
  async access(tableId: number, userId: number): Promise<TableAccessRow | null> {
    // What a long write reads of the tables it builds hidden is not for others: not cached.
    const access = HiddenBuilds.active ? await this.tables.findAccess(tableId, userId) : await this.accessCache.get(`${tableId}:${userId}`, () => this.tables.findAccess(tableId, userId));
    return access && { ...access, table: Object.assign(new TableEntity(), access.table) };
  }

  /** The contexts of the tables the table's link fields point at (for search and link filters). */
  async linkedTables(context: TableContext): Promise<Map<number, TableContext>> {
    const linked = new Map<number, TableContext>();
    for (const field of context.fields) {
      const tableId = Number(field.properties.link_row_table_id);
      if (field.type !== 'link_row' || !tableId || linked.has(tableId)) continue;
      const other = tableId === context.table.id ? context : await this.ofTable(tableId);
      if (other) linked.set(tableId, other);
    }
    return linked;
  }

  /** Re-reads a table's context inside the current transaction (after its fields changed). */
  async reload(context: TableContext): Promise<TableContext> {
    const fresh = await this.ofTable(context.table.id);
    if (!fresh) throw DatabaseErrors.tableDoesNotExist();
    return fresh;
  }

  /** What field types work with, for this table and the current transaction. */
  fieldContext(context: Pick<TableContext, 'table' | 'selectOptions'>, userId: number | null): FieldContext {
    return { manager: this.db.manager, dialect: this.dialect, userId, table: context.table, selectOptions: context.selectOptions };
  }
}
