import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
const fk = (column: string, table: string): TableForeignKey =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/**
 * Saved view filters, filter groups (nested through `parent_group_id`), sorts and group-bys;
 * all go with their view and field. `database_view.version` counts their changes (the key of
 * the view's cached selection).
 */
export class ViewFilters1736500000000 implements MigrationInterface {
  name = 'ViewFilters1736500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('database_view', new TableColumn({ name: 'version', type: 'integer', default: 0 }));
    await q.createTable(
      new Table({
        name: 'database_view_filter_group',
        columns: [
          id,
          { name: 'view_id', type: 'integer' },
          { name: 'filter_type', type: 'varchar', length: '3', default: "'AND'" },
          { name: 'parent_group_id', type: 'integer', isNullable: true },
        ],
        foreignKeys: [fk('view_id', 'database_view'), fk('parent_group_id', 'database_view_filter_group')],
        indices: [new TableIndex({ name: 'database_view_filter_group_view', columnNames: ['view_id'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_view_filter',
        columns: [
          id,
          { name: 'view_id', type: 'integer' },
          { name: 'field_id', type: 'integer' },
          { name: 'type', type: 'varchar', length: '48' },
          { name: 'value', type: 'text', default: "''" },
          { name: 'group_id', type: 'integer', isNullable: true },
        ],
        foreignKeys: [fk('view_id', 'database_view'), fk('field_id', 'database_field'), fk('group_id', 'database_view_filter_group')],
        indices: [new TableIndex({ name: 'database_view_filter_view', columnNames: ['view_id'] }), new TableIndex({ name: 'database_view_filter_field', columnNames: ['field_id'] })],
      }),
    );
    for (const name of ['database_view_sort', 'database_view_group_by']) {
      await q.createTable(
        new Table({
          name,
          columns: [
            id,
            { name: 'view_id', type: 'integer' },
            { name: 'field_id', type: 'integer' },
            { name: 'order', type: 'varchar', length: '4', default: "'ASC'" },
            { name: 'type', type: 'varchar', length: '32', default: "'default'" },
            ...(name === 'database_view_group_by' ? [{ name: 'width', type: 'integer', default: 200 }] : []),
          ],
          foreignKeys: [fk('view_id', 'database_view'), fk('field_id', 'database_field')],
          indices: [
            new TableIndex({ name: `${name}_unique`, columnNames: ['view_id', 'field_id'], isUnique: true }),
            new TableIndex({ name: `${name}_field`, columnNames: ['field_id'] }),
          ],
        }),
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_view_group_by');
    await q.dropTable('database_view_sort');
    await q.dropTable('database_view_filter');
    await q.dropTable('database_view_filter_group');
    await q.dropColumn('database_view', 'version');
  }
}
