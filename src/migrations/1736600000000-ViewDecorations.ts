import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Decorations of views (Baserow's `database_viewdecoration`); they go with their view. */
export class ViewDecorations1736600000000 implements MigrationInterface {
  name = 'ViewDecorations1736600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_view_decoration',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'view_id', type: 'integer' },
          { name: 'type', type: 'varchar', length: '255' },
          { name: 'value_provider_type', type: 'varchar', length: '255', default: "''" },
          { name: 'value_provider_conf', type: 'text', default: "'{}'" },
          { name: 'order', type: 'integer', default: 32767 },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['view_id'], referencedTableName: 'database_view', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [new TableIndex({ name: 'database_view_decoration_view', columnNames: ['view_id', 'order'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_view_decoration');
  }
}
