import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const dateTime = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'varchar', length: '32', isNullable });
const flag = (name: string): TableColumnOptions => ({ name, type: 'boolean', default: false });
const fk = (column: string, table: string, onDelete: 'CASCADE' | 'SET NULL'): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete });

/**
 * Notifications (issue 22, Baserow's `core_notification` and `core_notificationrecipient`), when
 * each user was last mailed a summary, and the users mentioned in rich-text cells (only a new
 * mention notifies). They go with their workspace, table, field and user.
 */
export class Notifications1737400000000 implements MigrationInterface {
  name = 'Notifications1737400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'notification',
        columns: [
          id,
          dateTime('created_on'),
          { name: 'type', type: 'varchar', length: '64' },
          flag('broadcast'),
          { name: 'workspace_id', type: 'integer', isNullable: true },
          { name: 'sender_id', type: 'integer', isNullable: true },
          { name: 'data', type: 'text' },
        ],
        foreignKeys: [fk('workspace_id', 'workspace', 'CASCADE'), fk('sender_id', 'user', 'SET NULL')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_recipient',
        columns: [
          id,
          { name: 'notification_id', type: 'integer' },
          { name: 'recipient_id', type: 'integer', isNullable: true },
          flag('read'),
          flag('cleared'),
          flag('queued'),
          flag('email_scheduled'),
          dateTime('created_on'),
          flag('broadcast'),
          { name: 'workspace_id', type: 'integer', isNullable: true },
        ],
        foreignKeys: [fk('notification_id', 'notification', 'CASCADE'), fk('recipient_id', 'user', 'CASCADE'), fk('workspace_id', 'workspace', 'CASCADE')],
        indices: [
          new TableIndex({ name: 'notification_recipient_unique', columnNames: ['notification_id', 'recipient_id'], isUnique: true }),
          // A user's list and unread counts.
          new TableIndex({ name: 'notification_recipient_user', columnNames: ['recipient_id', 'workspace_id', 'cleared'] }),
          // The e-mail sender's queue.
          new TableIndex({ name: 'notification_recipient_email', columnNames: ['email_scheduled', 'recipient_id'] }),
          new TableIndex({ name: 'notification_recipient_broadcast', columnNames: ['broadcast', 'recipient_id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_email_state',
        columns: [{ name: 'user_id', type: 'integer', isPrimary: true }, dateTime('last_sent_at', true), dateTime('claimed_until', true)],
        foreignKeys: [fk('user_id', 'user', 'CASCADE')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_richtextfieldmention',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'field_id', type: 'integer' },
          { name: 'row_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          dateTime('marked_for_deletion_at', true),
        ],
        foreignKeys: [fk('table_id', 'database_table', 'CASCADE'), fk('field_id', 'database_field', 'CASCADE'), fk('user_id', 'user', 'CASCADE')],
        indices: [
          new TableIndex({ name: 'database_richtextfieldmention_unique', columnNames: ['table_id', 'field_id', 'row_id', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'database_richtextfieldmention_marked', columnNames: ['marked_for_deletion_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_richtextfieldmention');
    await q.dropTable('notification_email_state');
    await q.dropTable('notification_recipient');
    await q.dropTable('notification');
  }
}
