import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/**
 * Single sign-on (Baserow's `core_authprovidermodel` and its `users`): one row per auth provider
 * (the password provider, created here, and those staff add), its type's settings as JSON (a
 * client secret sealed with the instance key); the users each provider signed in; the sign-ins
 * started and not yet finished (OpenID Connect state, PKCE verifier, nonce; SAML request ids),
 * each consumed once; and the ids of the SAML assertions already used, kept until they expire.
 */
export class SingleSignOn1737830000000 implements MigrationInterface {
  name = 'SingleSignOn1737830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_authprovidermodel',
        columns: [
          id,
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'domain', type: 'varchar', length: '255', isNullable: true },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'settings', type: 'text', default: "'{}'" },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
        ],
        indices: [new TableIndex({ name: 'core_authprovider_type', columnNames: ['type'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'core_authprovidermodel_users',
        columns: [id, { name: 'authprovidermodel_id', type: 'integer' }, { name: 'user_id', type: 'integer' }],
        foreignKeys: [fk('authprovidermodel_id', 'core_authprovidermodel'), fk('user_id', 'user')],
        indices: [
          new TableIndex({ name: 'core_authprovider_users_unique', columnNames: ['authprovidermodel_id', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'core_authprovider_users_user', columnNames: ['user_id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sso_pending_sign_in',
        columns: [
          id,
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'provider_id', type: 'integer' },
          { name: 'data', type: 'text', default: "'{}'" },
          { name: 'expires_at', type: 'varchar', length: '32' },
        ],
        foreignKeys: [fk('provider_id', 'core_authprovidermodel')],
        indices: [new TableIndex({ name: 'sso_pending_sign_in_expires', columnNames: ['expires_at'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sso_used_assertion',
        columns: [
          id,
          { name: 'assertion_id', type: 'varchar', length: '255', isUnique: true },
          { name: 'expires_at', type: 'varchar', length: '32' },
        ],
        indices: [new TableIndex({ name: 'sso_used_assertion_expires', columnNames: ['expires_at'] })],
      }),
    );
    const now = new Date().toISOString();
    await q.query(
      `INSERT INTO core_authprovidermodel (type, domain, enabled, settings, created_on, updated_on) VALUES ('password', NULL, ${q.connection.driver.options.type === 'postgres' ? 'true' : '1'}, '{}', '${now}', '${now}')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('sso_used_assertion');
    await q.dropTable('sso_pending_sign_in');
    await q.dropTable('core_authprovidermodel_users');
    await q.dropTable('core_authprovidermodel');
  }
}
