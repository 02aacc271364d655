import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * A digest of every table of the database (metadata and user tables), to prove that a refused
 * request changed nothing. Rows are compared as a set, so physical order does not matter.
 */
export async function fingerprint(dataSource: DataSource): Promise<string> {
  const tables: { name: string }[] =
    dataSource.options.type === 'postgres'
      ? await dataSource.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)
      : await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1`);
  const hash = createHash('sha1');
  for (const { name } of tables) {
    const rows: unknown[] = await dataSource.query(`SELECT * FROM "${name.replace(/"/g, '')}"`);
    hash.update(name).update(rows.map((row) => JSON.stringify(row)).sort().join('\n'));
  }
  return hash.digest('hex');
}
