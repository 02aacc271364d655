import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const dateTime = (name: string): TableColumnOptions => ({ name, type: 'varchar', length: '32' });
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/**
 * The metadata of database applications: fields, select options, views and their field
 * options, and the version counters of tables. User rows live in `database_table_<id>`,
 * created at run time, not here.
 */
export class DatabaseCore1733000000000 implements MigrationInterface {
  name = 'DatabaseCore1733000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('database_table', [
      new TableColumn({ name: 'fields_version', type: 'integer', default: 0 }),
      new TableColumn({ name: 'rows_version', type: 'integer', default: 0 }),
    ]);
    await q.createTable(
      new Table({
        name: 'database_field',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'order', type: 'integer', default: 0 },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'primary', type: 'boolean', default: false },
          { name: 'description', type: 'text', isNullable: true },
          { name: 'db_index', type: 'boolean', default: false },
          { name: 'field_constraints', type: 'text', default: "'[]'" },
          { name: 'properties', type: 'text', default: "'{}'" },
          dateTime('created_on'),
          { name: 'trashed', type: 'boolean', default: false },
        ],
        foreignKeys: [fk('table_id', 'database_table')],
        indices: [new TableIndex({ name: 'database_field_table', columnNames: ['table_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_select_option',
        columns: [
          id,
          { name: 'field_id', type: 'integer' },
          { name: 'value', type: 'varchar', length: '255' },
          { name: 'color', type: 'varchar', length: '255' },
          { name: 'order', type: 'integer', default: 0 },
        ],
        foreignKeys: [fk('field_id', 'database_field')],
        indices: [new TableIndex({ name: 'database_select_option_field', columnNames: ['field_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_view',
        columns: [
          id,
          { name: 'table_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'order', type: 'integer', default: 0 },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'filter_type', type: 'varchar', length: '3', default: "'AND'" },
          { name: 'filters_disabled', type: 'boolean', default: false },
          { name: 'public', type: 'boolean', default: false },
          { name: 'slug', type: 'varchar', length: '64', isUnique: true },
          { name: 'password_hash', type: 'varchar', length: '255', isNullable: true },
          { name: 'show_logo', type: 'boolean', default: true },
          { name: 'allow_public_export', type: 'boolean', default: false },
          { name: 'ownership_type', type: 'varchar', length: '32', default: "'collaborative'" },
          { name: 'owned_by_id', type: 'integer', isNullable: true },
          { name: 'properties', type: 'text', default: "'{}'" },
          dateTime('created_on'),
          { name: 'trashed', type: 'boolean', default: false },
        ],
        foreignKeys: [fk('table_id', 'database_table')],
        indices: [new TableIndex({ name: 'database_view_table', columnNames: ['table_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_view_field_options',
        columns: [id, { name: 'view_id', type: 'integer' }, { name: 'field_id', type: 'integer' }, { name: 'options', type: 'text', default: "'{}'" }],
        foreignKeys: [fk('view_id', 'database_view'), fk('field_id', 'database_field')],
        indices: [new TableIndex({ name: 'database_view_field_options_unique', columnNames: ['view_id', 'field_id'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_view_field_options');
    await q.dropTable('database_view');
    await q.dropTable('database_select_option');
    await q.dropTable('database_field');
    await q.dropColumn('database_table', 'rows_version');
    await q.dropColumn('database_table', 'fields_version');
  }
}
