import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** Database webhooks, their call logs and the outbox of calls to make; all go with their table. */
export class Webhooks1737100000000 implements MigrationInterface {
  name = 'Webhooks1737100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_tablewebhook',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'url', type: 'varchar', length: '2000' },
          { name: 'request_method', type: 'varchar', length: '10' },
          { name: 'include_all_events', type: 'boolean', default: true },
          { name: 'use_user_field_names', type: 'boolean', default: true },
          { name: 'active', type: 'boolean', default: true },
          { name: 'failed_triggers', type: 'integer', default: 0 },
          { name: 'events', type: 'text', default: "'[]'" },
          { name: 'headers', type: 'text', default: "'{}'" },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [fk('table_id', 'database_table')],
        indices: [new TableIndex({ name: 'database_tablewebhook_table', columnNames: ['table_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_tablewebhookcall',
        columns: [
          id,
          { name: 'webhook_id', type: 'integer' },
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'batch_id', type: 'integer', isNullable: true },
          { name: 'event_type', type: 'varchar', length: '50' },
          { name: 'called_time', type: 'varchar', length: '32' },
          { name: 'called_url', type: 'varchar', length: '2000' },
          { name: 'request', type: 'text', isNullable: true },
          { name: 'response', type: 'text', isNullable: true },
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
        ],
        foreignKeys: [fk('webhook_id', 'database_tablewebhook')],
        indices: [new TableIndex({ name: 'database_tablewebhookcall_webhook', columnNames: ['webhook_id', 'called_time'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_webhookdelivery',
        columns: [
          id,
          { name: 'webhook_id', type: 'integer' },
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'event_type', type: 'varchar', length: '50' },
          { name: 'batch_id', type: 'integer', isNullable: true },
          { name: 'payload', type: 'text' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'due_at', type: 'varchar', length: '32' },
          { name: 'claimed_until', type: 'varchar', length: '32', isNullable: true },
          { name: 'claimed_by', type: 'varchar', length: '36', isNullable: true },
        ],
        foreignKeys: [fk('webhook_id', 'database_tablewebhook')],
        indices: [
          new TableIndex({ name: 'database_webhookdelivery_due', columnNames: ['due_at'] }),
          new TableIndex({ name: 'database_webhookdelivery_webhook', columnNames: ['webhook_id', 'id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_webhookdelivery');
    await q.dropTable('database_tablewebhookcall');
    await q.dropTable('database_tablewebhook');
  }
}
