import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Stored user files (Baserow's `core_userfile`): what file cells name and the media storage holds. */
export class UserFiles1736800000000 implements MigrationInterface {
  name = 'UserFiles1736800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_userfile',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'original_name', type: 'varchar', length: '255' },
          { name: 'original_extension', type: 'varchar', length: '64' },
          { name: 'unique', type: 'varchar', length: '32' },
          { name: 'size', type: 'bigint' },
          { name: 'mime_type', type: 'varchar', length: '127', default: "''" },
          { name: 'is_image', type: 'boolean', default: false },
          { name: 'image_width', type: 'integer', isNullable: true },
          { name: 'image_height', type: 'integer', isNullable: true },
          { name: 'uploaded_at', type: 'varchar', length: '32' },
          { name: 'uploaded_by_id', type: 'integer', isNullable: true },
          { name: 'sha256_hash', type: 'varchar', length: '64' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['uploaded_by_id'], referencedTableName: 'user', referencedColumnNames: ['id'], onDelete: 'SET NULL' })],
        indices: [
          new TableIndex({ name: 'core_userfile_name', columnNames: ['unique', 'sha256_hash', 'original_extension'], isUnique: true }),
          new TableIndex({ name: 'core_userfile_hash', columnNames: ['sha256_hash', 'original_name'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('core_userfile');
  }
}
