import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Full-text search (`search_mode=full-text-with-count`). A table gets its index
 * (`database_search_<id>`, created at run time like the table itself) on its first full-text
 * search; `database_search_index` says which tables have one and what their entries were
 * computed with, `database_search_pending` holds the marks of rows a write made stale, inserted
 * by the index's triggers and consumed before the write commits (see SearchIndexService).
 */
export class SearchIndex1736900000000 implements MigrationInterface {
  name = 'SearchIndex1736900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'database_search_index',
        columns: [
          { name: 'table_id', type: 'integer', isPrimary: true },
          // Field id → a hash of the SQL its entries were computed with (a changed one is recomputed).
          { name: 'fields', type: 'text' },
          // SQLite: the index's columns, and the column of each field.
          { name: 'layout', type: 'text', default: "'{}'" },
          // The fields versions of the table and of the tables it links to, when its triggers were last checked.
          { name: 'stamp', type: 'text' },
          // Bumped by every change of the entries (counts of searches are cached by it).
          { name: 'version', type: 'integer', default: 0 },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'database_search_pending',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'table_id', type: 'integer' },
          { name: 'row_id', type: 'integer' },
          // 0: `row_id` is a row of the table; else a link field of it, and `row_id` a row it may link to.
          { name: 'via_field_id', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'database_search_pending_table', columnNames: ['table_id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('database_search_pending');
    await q.dropTable('database_search_index');
  }
}
