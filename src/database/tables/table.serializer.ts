import type { TableEntity } from '../table.entity';

/** TableSerializer: a table as nested in its database and in table messages. */
export function serializeTable(table: TableEntity) {
  return { id: table.id, name: table.name, order: table.order, database_id: table.databaseId, data_sync: null };
}

export type TableJson = ReturnType<typeof serializeTable>;
