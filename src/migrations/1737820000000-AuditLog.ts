import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The audit log (Baserow enterprise's `AuditLogEntry`): one row per action done, undone or redone,
 * written in the acting transaction from the action record (see `src/audit/audit-writer.ts`).
 * The actor's e-mail, the workspace's name and the names the description shows (table, database
 * or application, view, field) are copied in when it is written, so an entry still reads the same
 * after they are renamed or deleted. `action_params` holds the description's own values. No
 * foreign keys: an entry outlives what it names, and a key would cost a check per insert.
 * Timestamps are fixed-width ISO text, as in `core_action`.
 */
export class AuditLog1737820000000 implements MigrationInterface {
  name = 'AuditLog1737820000000';

  async up(q: QueryRunner): Promise<void> {
    const text = (name: string, length = '255') => ({ name, type: 'varchar', length, isNullable: true });
    await q.createTable(
      new Table({
        name: 'baserow_enterprise_auditlogentry',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer', isNullable: true },
          text('user_email', '254'),
          { name: 'workspace_id', type: 'integer', isNullable: true },
          text('workspace_name', '165'),
          { name: 'action_type', type: 'varchar', length: '255' },
          { name: 'action_command_type', type: 'varchar', length: '5' },
          { name: 'action_timestamp', type: 'varchar', length: '32' },
          { name: 'action_params', type: 'text' },
          text('ip_address', '45'),
          text('table_name'),
          { name: 'application_id', type: 'integer', isNullable: true },
          text('application_name', '160'),
          text('view_name'),
          text('field_name'),
        ],
        indices: [
          new TableIndex({ name: 'audit_log_timestamp', columnNames: ['action_timestamp'] }),
          new TableIndex({ name: 'audit_log_workspace', columnNames: ['workspace_id', 'action_timestamp'] }),
          new TableIndex({ name: 'audit_log_user', columnNames: ['user_id', 'action_timestamp'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('baserow_enterprise_auditlogentry');
  }
}
