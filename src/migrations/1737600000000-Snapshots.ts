import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const fk = (column: string, table: string, onDelete: 'CASCADE' | 'SET NULL'): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete });

/**
 * Snapshots of applications (Baserow's `core_snapshot`): the snapshot's compressed document is
 * in the file storage under `storage_key`; `core_snapshot_file` lists the user files its cells
 * name (kept from the unused-files cleanup while the snapshot exists). A snapshot outlives the
 * trash of its application; when the application is deleted for good its id becomes NULL and
 * the periodic cleanup deletes the snapshot with its document.
 */
export class Snapshots1737600000000 implements MigrationInterface {
  name = 'Snapshots1737600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_snapshot',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '160' },
          { name: 'snapshot_from_application_id', type: 'integer', isNullable: true },
          { name: 'created_by_id', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'state', type: 'varchar', length: '16', default: "'creating'" },
          { name: 'mark_for_deletion', type: 'boolean', default: false },
          { name: 'storage_key', type: 'varchar', length: '255', isNullable: true },
          { name: 'size', type: 'bigint', default: 0 },
          { name: 'create_job_id', type: 'integer', isNullable: true },
          { name: 'restore_job_id', type: 'integer', isNullable: true },
        ],
        foreignKeys: [fk('snapshot_from_application_id', 'application', 'SET NULL'), fk('created_by_id', 'user', 'SET NULL')],
        indices: [new TableIndex({ name: 'core_snapshot_application', columnNames: ['snapshot_from_application_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'core_snapshot_file',
        columns: [id, { name: 'snapshot_id', type: 'integer' }, { name: 'name', type: 'varchar', length: '255' }],
        foreignKeys: [fk('snapshot_id', 'core_snapshot', 'CASCADE')],
        indices: [
          new TableIndex({ name: 'core_snapshot_file_unique', columnNames: ['snapshot_id', 'name'], isUnique: true }),
          new TableIndex({ name: 'core_snapshot_file_name', columnNames: ['name'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('core_snapshot_file');
    await q.dropTable('core_snapshot');
  }
}
