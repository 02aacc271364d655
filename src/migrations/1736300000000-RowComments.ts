import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const dateTime = (name: string): TableColumnOptions => ({ name, type: 'varchar', length: '32' });
const fk = (column: string, table: string, onDelete: 'CASCADE' | 'SET NULL'): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete });

/** Row comments and the per-row notification modes; both go with their table. */
export class RowComments1736300000000 implements MigrationInterface {
  name = 'RowComments1736300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_rowcomment',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'row_id', type: 'integer' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'message', type: 'text' },
          dateTime('created_on'),
          dateTime('updated_on'),
          { name: 'trashed', type: 'boolean', default: false },
        ],
        foreignKeys: [fk('table_id', 'database_table', 'CASCADE'), fk('user_id', 'user', 'SET NULL')],
        indices: [new TableIndex({ name: 'database_rowcomment_row', columnNames: ['table_id', 'row_id', 'created_on'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_rowcommentsnotificationmode',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'row_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'mode', type: 'varchar', length: '32' },
        ],
        foreignKeys: [fk('table_id', 'database_table', 'CASCADE'), fk('user_id', 'user', 'CASCADE')],
        indices: [new TableIndex({ name: 'database_rowcommentsnotificationmode_unique', columnNames: ['table_id', 'row_id', 'user_id'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_rowcommentsnotificationmode');
    await q.dropTable('database_rowcomment');
  }
}
