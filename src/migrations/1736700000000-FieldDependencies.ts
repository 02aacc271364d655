import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * The dependency graph of computed fields (Baserow's `FieldDependency`): a formula, lookup,
 * rollup or count field depends on the fields it reads, directly or through a link field
 * (`via_id`), or on a name that names no field yet (`broken_table_id`, `broken_name`). An
 * edge goes with either field it names when that field is deleted for good.
 */
export class FieldDependencies1736700000000 implements MigrationInterface {
  name = 'FieldDependencies1736700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_field_dependency',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'database_id', type: 'integer' },
          { name: 'dependant_id', type: 'integer' },
          { name: 'dependency_id', type: 'integer', isNullable: true },
          { name: 'via_id', type: 'integer', isNullable: true },
          { name: 'broken_table_id', type: 'integer', isNullable: true },
          { name: 'broken_name', type: 'varchar', length: '255', isNullable: true },
        ],
        foreignKeys: ['dependant_id', 'dependency_id', 'via_id'].map(
          (column) => new TableForeignKey({ columnNames: [column], referencedTableName: 'database_field', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ),
        indices: [
          new TableIndex({ name: 'database_field_dependency_database', columnNames: ['database_id'] }),
          new TableIndex({ name: 'database_field_dependency_dependant', columnNames: ['dependant_id'] }),
          new TableIndex({ name: 'database_field_dependency_dependency', columnNames: ['dependency_id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_field_dependency');
  }
}
