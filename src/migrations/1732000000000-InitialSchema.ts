import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const dateTime = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'varchar', length: '32', isNullable: nullable });
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** The metadata schema of the platform: users, workspaces, applications, tables, jobs, settings. */
export class InitialSchema1732000000000 implements MigrationInterface {
  name = 'InitialSchema1732000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'user',
        columns: [
          id,
          { name: 'email', type: 'varchar', length: '254', isUnique: true },
          { name: 'first_name', type: 'varchar', length: '150' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'is_staff', type: 'boolean', default: false },
          { name: 'is_active', type: 'boolean', default: true },
          { name: 'language', type: 'varchar', length: '10', default: "'en'" },
          { name: 'email_notification_frequency', type: 'varchar', length: '16', default: "'instant'" },
          { name: 'email_verified', type: 'boolean', default: false },
          { name: 'completed_onboarding', type: 'boolean', default: false },
          { name: 'completed_guided_tours', type: 'text', default: "'[]'" },
          dateTime('date_joined'),
          dateTime('last_login', true),
          dateTime('password_changed_at', true),
          dateTime('deletion_scheduled_at', true),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'blacklisted_token',
        columns: [
          { name: 'jti', type: 'varchar', length: '64', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          dateTime('expires_at'),
        ],
        foreignKeys: [fk('user_id', 'user')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'workspace',
        columns: [id, { name: 'name', type: 'varchar', length: '165' }, dateTime('created_on'), { name: 'trashed', type: 'boolean', default: false }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'workspace_user',
        columns: [
          id,
          { name: 'workspace_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'permissions', type: 'varchar', length: '32', default: "'MEMBER'" },
          { name: 'order', type: 'integer', default: 0 },
          dateTime('created_on'),
        ],
        foreignKeys: [fk('workspace_id', 'workspace'), fk('user_id', 'user')],
        indices: [
          new TableIndex({ name: 'workspace_user_unique', columnNames: ['workspace_id', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'workspace_user_user', columnNames: ['user_id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'workspace_invitation',
        columns: [
          id,
          { name: 'workspace_id', type: 'integer' },
          { name: 'invited_by_id', type: 'integer' },
          { name: 'email', type: 'varchar', length: '254' },
          { name: 'permissions', type: 'varchar', length: '32', default: "'MEMBER'" },
          { name: 'message', type: 'text', default: "''" },
          dateTime('created_on'),
        ],
        foreignKeys: [fk('workspace_id', 'workspace'), fk('invited_by_id', 'user')],
        indices: [new TableIndex({ name: 'workspace_invitation_unique', columnNames: ['workspace_id', 'email'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'application',
        columns: [
          id,
          { name: 'workspace_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '160' },
          { name: 'order', type: 'integer', default: 0 },
          { name: 'type', type: 'varchar', length: '32' },
          dateTime('created_on'),
          { name: 'trashed', type: 'boolean', default: false },
        ],
        foreignKeys: [fk('workspace_id', 'workspace')],
        indices: [new TableIndex({ name: 'application_workspace', columnNames: ['workspace_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_table',
        columns: [
          id,
          { name: 'database_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'order', type: 'integer', default: 0 },
          dateTime('created_on'),
          { name: 'trashed', type: 'boolean', default: false },
        ],
        foreignKeys: [fk('database_id', 'application')],
        indices: [new TableIndex({ name: 'database_table_database', columnNames: ['database_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'job',
        columns: [
          id,
          { name: 'user_id', type: 'integer' },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '32', default: "'pending'" },
          { name: 'progress_percentage', type: 'integer', default: 0 },
          { name: 'human_readable_error', type: 'text', default: "''" },
          { name: 'web_socket_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'data', type: 'text', default: "'{}'" },
          dateTime('created_on'),
          dateTime('updated_on'),
        ],
        foreignKeys: [fk('user_id', 'user')],
        indices: [new TableIndex({ name: 'job_user', columnNames: ['user_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'settings',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'allow_new_signups', type: 'boolean', default: true },
          { name: 'allow_signups_via_workspace_invitations', type: 'boolean', default: true },
          { name: 'allow_reset_password', type: 'boolean', default: true },
          { name: 'allow_global_workspace_creation', type: 'boolean', default: true },
          { name: 'instance_id', type: 'varchar', length: '64' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['settings', 'job', 'database_table', 'application', 'workspace_invitation', 'workspace_user', 'workspace', 'blacklisted_token', 'user']) {
      await q.dropTable(table);
    }
  }
}
