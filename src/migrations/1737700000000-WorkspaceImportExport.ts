import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const dateTime = (name: string): TableColumnOptions => ({ name, type: 'varchar', length: '32' });
const flag = (name: string): TableColumnOptions => ({ name, type: 'boolean', default: false });

/**
 * Workspace export and import in Baserow's format (Baserow's `core_importexportresource` and
 * `core_importexporttrustedsource`): the zips written or uploaded, and the keys exports are
 * signed with and imports trusted from.
 */
export class WorkspaceImportExport1737700000000 implements MigrationInterface {
  name = 'WorkspaceImportExport1737700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'import_export_resource',
        columns: [
          id,
          { name: 'uuid', type: 'varchar', length: '36' },
          { name: 'original_name', type: 'varchar', length: '255', default: "''" },
          { name: 'size', type: 'bigint', default: 0 },
          { name: 'created_by_id', type: 'integer', isNullable: true },
          flag('is_valid'),
          flag('marked_for_deletion'),
          dateTime('created_on'),
          dateTime('updated_on'),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['created_by_id'], referencedTableName: 'user', referencedColumnNames: ['id'], onDelete: 'SET NULL' })],
        indices: [new TableIndex({ name: 'import_export_resource_uuid', columnNames: ['uuid'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'import_export_trusted_source',
        columns: [id, { name: 'name', type: 'varchar', length: '255', default: "''" }, { name: 'private_key', type: 'text', default: "''" }, { name: 'public_key', type: 'text' }, dateTime('created_at')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('import_export_trusted_source');
    await q.dropTable('import_export_resource');
  }
}
