import { MigrationInterface, QueryRunner, TableColumn, TableForeignKey } from 'typeorm';

/**
 * The instance settings Baserow 1.35.3 has and the first table lacked (issue: administration).
 * `account_deletion_grace_delay` stays null until a staff member sets it: the configured
 * ACCOUNT_DELETION_GRACE_DAYS is served and obeyed until then. An instance that already has
 * accounts no longer shows the admin sign-up page.
 */
export class InstanceSettings1737500000000 implements MigrationInterface {
  name = 'InstanceSettings1737500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('settings', [
      new TableColumn({ name: 'account_deletion_grace_delay', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'show_admin_signup_page', type: 'boolean', default: true }),
      new TableColumn({ name: 'track_workspace_usage', type: 'boolean', default: false }),
      new TableColumn({ name: 'show_baserow_help_request', type: 'boolean', default: true }),
      new TableColumn({ name: 'co_branding_logo_id', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'email_verification', type: 'varchar', length: '16', default: "'no_verification'" }),
      new TableColumn({ name: 'verify_import_signature', type: 'boolean', default: true }),
    ]);
    await q.createForeignKey(
      'settings',
      new TableForeignKey({ columnNames: ['co_branding_logo_id'], referencedTableName: 'core_userfile', referencedColumnNames: ['id'], onDelete: 'SET NULL' }),
    );
    await q.query(`UPDATE "settings" SET "show_admin_signup_page" = ${q.connection.options.type === 'postgres' ? 'false' : '0'} WHERE EXISTS (SELECT 1 FROM "user")`);
  }

  async down(q: QueryRunner): Promise<void> {
    const table = await q.getTable('settings');
    const fk = table?.foreignKeys.find((key) => key.columnNames.includes('co_branding_logo_id'));
    if (fk) await q.dropForeignKey('settings', fk);
    for (const column of ['verify_import_signature', 'email_verification', 'co_branding_logo_id', 'show_baserow_help_request', 'track_workspace_usage', 'show_admin_signup_page', 'account_deletion_grace_delay']) {
      await q.dropColumn('settings', column);
    }
  }
}
