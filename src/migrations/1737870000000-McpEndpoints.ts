import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/**
 * MCP endpoints (Baserow's `core_mcpendpoint`): a user's key to the MCP server, scoped to one
 * workspace. As database tokens, the key is kept as a SHA-256 hash (what `/mcp/<key>/…` is
 * looked up by) and encrypted with the instance's secret (to be shown again). They go with
 * their user and workspace.
 */
export class McpEndpoints1737870000000 implements MigrationInterface {
  name = 'McpEndpoints1737870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_mcpendpoint',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'workspace_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'key_encrypted', type: 'varchar', length: '255' },
          { name: 'created', type: 'varchar', length: '32' },
        ],
        foreignKeys: [fk('workspace_id', 'workspace'), fk('user_id', 'user')],
        indices: [new TableIndex({ name: 'core_mcpendpoint_user', columnNames: ['user_id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('core_mcpendpoint');
  }
}
