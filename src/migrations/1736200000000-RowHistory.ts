import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Row history (Baserow's `database_rowhistory`): one entry per changed row and action, with
 * the changed cells before and after and what the client needs to show them. Neither id is a
 * foreign key: deleted rows keep their history, and a foreign key would cost a check per
 * inserted entry; entries of a table deleted for good are unreachable (ids are not reused)
 * and go with the retention purge.
 * Timestamps are fixed-width ISO text, so they sort and compare as text on both databases.
 */
export class RowHistory1736200000000 implements MigrationInterface {
  name = 'RowHistory1736200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_rowhistory',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'table_id', type: 'integer' },
          { name: 'row_id', type: 'integer' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'user_name', type: 'varchar', length: '150' },
          { name: 'action_type', type: 'varchar', length: '64' },
          { name: 'action_command_type', type: 'varchar', length: '8' },
          { name: 'action_timestamp', type: 'varchar', length: '32' },
          { name: 'before_values', type: 'text' },
          { name: 'after_values', type: 'text' },
          { name: 'fields_metadata', type: 'text' },
        ],
        indices: [
          new TableIndex({ name: 'database_rowhistory_row', columnNames: ['table_id', 'row_id', 'action_timestamp'] }),
          new TableIndex({ name: 'database_rowhistory_timestamp', columnNames: ['action_timestamp'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_rowhistory');
  }
}
