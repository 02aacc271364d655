import { Inject, Injectable } from '@nestjs/common';
import { ColumnDefinition, Dialect } from '../../core/database/dialect';
import { DIALECT } from '../../core/database/tokens';
import { quote } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { rowsTable } from '../fields/field-type';

/** The system columns of every user table besides `id`. */
export const SYSTEM_COLUMNS: ColumnDefinition[] = [
  { name: 'order', kind: 'order' },
  { name: 'created_on', kind: 'datetime' },
  { name: 'updated_on', kind: 'datetime' },
  { name: 'created_by_id', kind: 'integer' },
  { name: 'last_modified_by_id', kind: 'integer' },
];

/**
 * The DDL of user tables (`database_table_<id>`), run inside the caller's transaction so a
 * failed metadata write leaves no table or column behind (both databases have transactional DDL).
 */
@Injectable()
export class TableSchemaRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private run(sql: string): Promise<unknown> {
    return this.db.manager.query(sql);
  }

  private columnSql(column: ColumnDefinition): string {
    return `${quote(column.name)} ${this.dialect.columnType(column)}`;
  }

  async createTable(tableId: number, columns: ColumnDefinition[]): Promise<void> {
    const table = rowsTable(tableId);
    const definitions = [this.dialect.rowIdColumn, ...[...SYSTEM_COLUMNS, ...columns].map((c) => this.columnSql(c))];
    await this.run(`CREATE TABLE ${quote(table)} (${definitions.join(', ')})`);
    // The default ordering (`order`, then `id`) is served by this index.
    await this.run(`CREATE INDEX ${quote(`${table}_order`)} ON ${quote(table)} ("order", "id")`);
  }

  async dropTable(tableId: number): Promise<void> {
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

  /**
   * `db_index`: two indexes that match the generated ORDER BY of an ascending and a
   * descending sort exactly (null order and the `order`, `id` tie-breakers included);
   * either serves range filters on the column.
   */
  async createIndexes(tableId: number, column: string): Promise<void> {
    const table = rowsTable(tableId);
    const desc = this.dialect.name === 'postgres' ? 'DESC NULLS LAST' : 'DESC';
    const asc = this.dialect.name === 'postgres' ? 'ASC NULLS FIRST' : 'ASC';
    await this.run(`CREATE INDEX IF NOT EXISTS ${quote(`${table}_${column}_asc`)} ON ${quote(table)} (${quote(column)} ${asc}, "order", "id")`);
    await this.run(`CREATE INDEX IF NOT EXISTS ${quote(`${table}_${column}_desc`)} ON ${quote(table)} (${quote(column)} ${desc}, "order", "id")`);
  }

  async dropIndexes(tableId: number, column: string): Promise<void> {
    const table = rowsTable(tableId);
    await this.run(`DROP INDEX IF EXISTS ${quote(`${table}_${column}_asc`)}`);
    await this.run(`DROP INDEX IF EXISTS ${quote(`${table}_${column}_desc`)}`);
  }

}
