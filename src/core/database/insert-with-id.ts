import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Dialect } from './dialect';
import { quote, Sql } from './sql';

/**
 * Inserts an entity under an id it had before (an undo bringing a deleted filter group or
 * decoration back, as Baserow's `primary_key=`): TypeORM writes DEFAULT for a generated id on
 * PostgreSQL, so this writes the row itself. Such ids came from the sequence earlier, so the
 * sequence needs no change; SQLite's AUTOINCREMENT keeps its own.
 */
export async function insertWithId<T extends ObjectLiteral>(manager: EntityManager, dialect: Dialect, target: EntityTarget<T>, values: Partial<T> & { id: number }): Promise<void> {
  const meta = manager.connection.getMetadata(target);
  const columns = meta.columns.filter((column) => column.getEntityValue(values) !== undefined);
  const sql = new Sql(dialect);
  const row = sql.list(columns.map((column) => manager.connection.driver.preparePersistentValue(column.getEntityValue(values), column)));
  await manager.query(`INSERT INTO ${quote(meta.tableName)} (${columns.map((column) => quote(column.databaseName)).join(', ')}) VALUES ${row}`, sql.params);
}
