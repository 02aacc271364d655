import { Inject, Injectable } from '@nestjs/common';
import { ColumnDefinition, Dialect } from '../../core/database/dialect';
import { DIALECT } from '../../core/database/tokens';
import { quote } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { rowsTable } from '../fields/field-type';
import { SearchIndexRepository } from '../search/search-index.repository';

/** The system columns of every user table besides `id`. */
export const SYSTEM_COLUMNS: ColumnDefinition[] = [
  { name: 'order', kind: 'order' },
  { name: 'created_on', kind: 'datetime' },
  { name: 'updated_on', kind: 'datetime' },
  { name: 'created_by_id', kind: 'integer' },
  { name: 'last_modified_by_id', kind: 'integer' },
];

/**
 * Trashed rows stay in their table (a restore brings them back with their id, order and
 * links) with `trashed` set; every read of live rows adds `liveRow()`.
 */
export function trashedColumnSql(dialect: Pick<Dialect, 'columnType'>): string {
  return `"trashed" ${dialect.columnType({ name: 'trashed', kind: 'boolean' })} NOT NULL DEFAULT FALSE`;
}

/** The condition of live rows, on the row alias given (none: the table itself). */
export function liveRow(alias?: string): string {
  return `${alias ? `${quote(alias)}.` : ''}"trashed" = FALSE`;
}

/**
 * The default ordering (`order`, then `id`) is served by this index. `trashed` comes last in
 * this and the `db_index` indexes: the planner keeps choosing them by the sort and the filter
 * as it did before trash existed (a leading `trashed` made SQLite prefer a range index and a
 * sort), and counts of live rows stay covered by the index.
 */
export function orderIndexSql(tableId: number): string {
  const table = rowsTable(tableId);
  return `CREATE INDEX ${quote(`${table}_order`)} ON ${quote(table)} ("order", "id", "trashed")`;
}

/**
 * `db_index`: two indexes that match the generated ORDER BY of an ascending and a
 * descending sort of live rows exactly (null order and the `order`, `id` tie-breakers
 * included); either serves range filters on the column.
 */
export function columnIndexSql(dialect: Pick<Dialect, 'name'>, tableId: number, column: string): string[] {
  const table = rowsTable(tableId);
  const desc = dialect.name === 'postgres' ? 'DESC NULLS LAST' : 'DESC';
  const asc = dialect.name === 'postgres' ? 'ASC NULLS FIRST' : 'ASC';
  return [
    `CREATE INDEX IF NOT EXISTS ${quote(`${table}_${column}_asc`)} ON ${quote(table)} (${quote(column)} ${asc}, "order", "id", "trashed")`,
    `CREATE INDEX IF NOT EXISTS ${quote(`${table}_${column}_desc`)} ON ${quote(table)} (${quote(column)} ${desc}, "order", "id", "trashed")`,
  ];
}

/**
 * The DDL of user tables (`database_table_<id>`), run inside the caller's transaction so a
 * failed metadata write leaves no table or column behind (both databases have transactional DDL).
 */
@Injectable()
export class TableSchemaRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly search: SearchIndexRepository,
  ) {}

  private run(sql: string): Promise<unknown> {
    return this.db.manager.query(sql);
  }

  private columnSql(column: ColumnDefinition): string {
    return `${quote(column.name)} ${this.dialect.columnType(column)}`;
  }

  async createTable(tableId: number, columns: ColumnDefinition[]): Promise<void> {
    const table = rowsTable(tableId);
    const definitions = [this.dialect.rowIdColumn, ...[...SYSTEM_COLUMNS, ...columns].map((c) => this.columnSql(c)), trashedColumnSql(this.dialect)];
    await this.run(`CREATE TABLE ${quote(table)} (${definitions.join(', ')})`);
    await this.run(orderIndexSql(tableId));
  }

  /** Drops the table, and its full-text index and the triggers that index set on other tables. */
  async dropTable(tableId: number): Promise<void> {
    await this.search.drop(tableId);
    await this.run(`DROP TABLE IF EXISTS ${quote(rowsTable(tableId))}`);
  }

  async addColumn(tableId: number, column: ColumnDefinition): Promise<void> {
    await this.run(`ALTER TABLE ${quote(rowsTable(tableId))} ADD COLUMN ${this.columnSql(column)}`);
  }

  async dropColumn(tableId: number, name: string): Promise<void> {
    await this.dropIndexes(tableId, name);
    await this.run(`ALTER TABLE ${quote(rowsTable(tableId))} DROP COLUMN ${quote(name)}`);
  }

  async renameColumn(tableId: number, from: string, to: string): Promise<void> {
    await this.run(`ALTER TABLE ${quote(rowsTable(tableId))} RENAME COLUMN ${quote(from)} TO ${quote(to)}`);
  }

  async createIndexes(tableId: number, column: string): Promise<void> {
    for (const statement of columnIndexSql(this.dialect, tableId, column)) await this.run(statement);
  }

  async dropIndexes(tableId: number, column: string): Promise<void> {
    const table = rowsTable(tableId);
    await this.run(`DROP INDEX IF EXISTS ${quote(`${table}_${column}_asc`)}`);
    await this.run(`DROP INDEX IF EXISTS ${quote(`${table}_${column}_desc`)}`);
  }

}
