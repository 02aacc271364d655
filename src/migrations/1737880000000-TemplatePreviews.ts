import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Template previews (Baserow's `core_template`, cut to what the catalogue files do not say): each
 * template of TEMPLATES_DIR installed read-only in a workspace of its own, with no member, so the
 * web client can show its tables before installing it. `export_hash` is null while the preview is
 * being built (it is not shown yet); a row goes with its workspace.
 */
export class TemplatePreviews1737880000000 implements MigrationInterface {
  name = 'TemplatePreviews1737880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_template',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'slug', type: 'varchar', length: '255' },
          { name: 'workspace_id', type: 'integer', isUnique: true },
          { name: 'export_hash', type: 'varchar', length: '64', isNullable: true },
          { name: 'open_application', type: 'integer', isNullable: true },
          { name: 'created_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['workspace_id'], referencedTableName: 'workspace', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [new TableIndex({ columnNames: ['slug'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('core_template');
  }
}
