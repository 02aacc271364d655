import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';
import { columnIndexSql, orderIndexSql, trashedColumnSql } from '../database/rows/table-schema.repository';
import { dialectFor } from '../core/database/dialect';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };

/**
 * The trash: one entry per trashed item, the row ids of batch deletes, and a `trashed`
 * column in every existing user table (with its indexes led by it, as new tables have them).
 */
export class Trash1736400000000 implements MigrationInterface {
  name = 'Trash1736400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'trash_entry',
        columns: [
          id,
          { name: 'trash_item_type', type: 'varchar', length: '64' },
          { name: 'trash_item_id', type: 'integer' },
          { name: 'parent_trash_item_id', type: 'integer', isNullable: true },
          { name: 'workspace_id', type: 'integer' },
          { name: 'application_id', type: 'integer', isNullable: true },
          { name: 'user_who_trashed_id', type: 'integer', isNullable: true },
          { name: 'trash_item_owner_id', type: 'integer', isNullable: true },
          { name: 'trashed_at', type: 'varchar', length: '32' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'names', type: 'text', isNullable: true },
          { name: 'parent_name', type: 'varchar', length: '255', isNullable: true },
          { name: 'related_items', type: 'text', default: "'{}'" },
          { name: 'should_be_permanently_deleted', type: 'boolean', default: false },
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['user_who_trashed_id'], referencedTableName: 'user', referencedColumnNames: ['id'], onDelete: 'SET NULL' }),
          new TableForeignKey({ columnNames: ['trash_item_owner_id'], referencedTableName: 'user', referencedColumnNames: ['id'], onDelete: 'SET NULL' }),
        ],
        indices: [
          new TableIndex({ name: 'trash_entry_item', columnNames: ['trash_item_type', 'trash_item_id', 'parent_trash_item_id'] }),
          new TableIndex({ name: 'trash_entry_workspace', columnNames: ['workspace_id', 'trashed_at'] }),
          new TableIndex({ name: 'trash_entry_trashed_at', columnNames: ['trashed_at'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_trashedrows',
        columns: [id, { name: 'table_id', type: 'integer' }, { name: 'row_ids', type: 'text' }],
      }),
    );
    const dialect = dialectFor(q.connection.options.type);
    const tables: { id: number | string }[] = await q.query('SELECT "id" FROM "database_table"');
    for (const { id: raw } of tables) {
      const tableId = Number(raw);
      await q.query(`ALTER TABLE "database_table_${tableId}" ADD COLUMN ${trashedColumnSql(dialect)}`);
      await q.query(`DROP INDEX IF EXISTS "database_table_${tableId}_order"`);
      await q.query(orderIndexSql(tableId));
    }
    const indexed: { id: number | string; table_id: number | string }[] = await q.query(
      `SELECT "id", "table_id" FROM "database_field" WHERE "db_index" = TRUE`,
    );
    for (const field of indexed) {
      const table = `database_table_${Number(field.table_id)}`;
      const column = `field_${Number(field.id)}`;
      await q.query(`DROP INDEX IF EXISTS "${table}_${column}_asc"`);
      await q.query(`DROP INDEX IF EXISTS "${table}_${column}_desc"`);
      for (const statement of columnIndexSql(dialect, Number(field.table_id), column)) await q.query(statement);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_trashedrows');
    await q.dropTable('trash_entry');
  }
}
