import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * Field permissions (Baserow enterprise's `FieldPermissions`): the minimum role that may write a
 * field's cells (BUILDER, ADMIN, CUSTOM or NOBODY; no row means EDITOR, the default) and whether
 * a form may write it regardless. One per field; it goes with its field.
 */
export class FieldPermissions1737840000000 implements MigrationInterface {
  name = 'FieldPermissions1737840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'baserow_enterprise_fieldpermissions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'field_id', type: 'integer', isUnique: true },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'allow_in_forms', type: 'boolean', default: false },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['field_id'], referencedTableName: 'database_field', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('baserow_enterprise_fieldpermissions');
  }
}
