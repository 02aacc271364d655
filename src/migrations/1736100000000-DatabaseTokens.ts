import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/**
 * Database tokens and their permissions. They go with their user, workspace, database or
 * table (cascades), as Baserow's do.
 */
export class DatabaseTokens1736100000000 implements MigrationInterface {
  name = 'DatabaseTokens1736100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_token',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'workspace_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'key_encrypted', type: 'varchar', length: '255' },
          { name: 'version', type: 'integer', default: 0 },
          { name: 'created_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [fk('workspace_id', 'workspace'), fk('user_id', 'user')],
        indices: [new TableIndex({ name: 'database_token_user', columnNames: ['user_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_token_permission',
        columns: [
          id,
          { name: 'token_id', type: 'integer' },
          { name: 'type', type: 'varchar', length: '6' },
          { name: 'database_id', type: 'integer', isNullable: true },
          { name: 'table_id', type: 'integer', isNullable: true },
        ],
        foreignKeys: [fk('token_id', 'database_token'), fk('database_id', 'application'), fk('table_id', 'database_table')],
        indices: [new TableIndex({ name: 'database_token_permission_token', columnNames: ['token_id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_token_permission');
    await q.dropTable('database_token');
  }
}
