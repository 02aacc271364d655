import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * Tables that record requests rather than hold state: the audit log records refused attempts by
 * design (a failed sign-in is an entry), so a refusal may add to it and still have changed nothing.
 */
const RECORDS = new Set(['baserow_enterprise_auditlogentry']);

/** The last full digest of a data source and the write marker it was taken at. */
const digests = new WeakMap<DataSource, { marker: string; digest: string }>();

/**
 * A digest of every table of the database (metadata and user tables, but the RECORDS), to prove that a refused
 * request changed nothing. Rows are compared as a set, so physical order does not matter.
 *
 * The tables are read only when something may have been written since the last digest. SQLite:
 * the app and the tests share its one connection, whose `total_changes()` counts every row
 * written (rolled back too) and `schema_version` every schema change. PostgreSQL hashes each
 * table's sorted rows in the database (one query).
 */
export async function fingerprint(dataSource: DataSource): Promise<string> {
  if (dataSource.options.type === 'postgres') return postgresDigest(dataSource);
  const [{ changes }] = await dataSource.query('SELECT total_changes() AS changes');
  const [{ schema_version: version }] = await dataSource.query('PRAGMA schema_version');
  const marker = `${changes}:${version}`;
  const cached = digests.get(dataSource);
  if (cached?.marker === marker) return cached.digest;
  const tables: { name: string }[] = await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1`);
  const hash = createHash('sha1');
  for (const { name } of tables.filter((table) => !RECORDS.has(table.name))) {
    const rows: unknown[] = await dataSource.query(`SELECT * FROM "${name.replace(/"/g, '')}"`);
    hash.update(name).update(rows.map((row) => JSON.stringify(row)).sort().join('\n'));
  }
  const digest = hash.digest('hex');
  digests.set(dataSource, { marker, digest });
  return digest;
}

/**
 * PostgreSQL keeps the same skip: a sequence bumped by a statement trigger on every table and an
 * event trigger on every schema change (both installed here, in the test database only). A
 * sequence is not transactional, so a rolled-back write also bumps it; that only costs a full digest.
 */
const PG_SETUP = `
  CREATE SEQUENCE IF NOT EXISTS fingerprint_writes;
  CREATE OR REPLACE FUNCTION fingerprint_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('fingerprint_writes'); RETURN NULL; END $$;
  CREATE OR REPLACE FUNCTION fingerprint_bump_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('fingerprint_writes'); END $$;
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_event_trigger WHERE evtname = 'fingerprint_ddl') THEN
      CREATE EVENT TRIGGER fingerprint_ddl ON ddl_command_end EXECUTE FUNCTION fingerprint_bump_ddl();
    END IF;
  END $$;`;

/** Data sources whose database has the triggers (installing them is DDL, which would bump the sequence each time). */
const watched = new WeakSet<DataSource>();

async function postgresDigest(dataSource: DataSource): Promise<string> {
  if (!watched.has(dataSource)) {
    await dataSource.query(PG_SETUP);
    watched.add(dataSource);
  }
  const unwatched: { name: string }[] = await dataSource.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r'
       AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = 'fingerprint_writes')`,
  );
  for (const { name } of unwatched) {
    await dataSource.query(`CREATE TRIGGER fingerprint_writes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${name.replace(/"/g, '')}" FOR EACH STATEMENT EXECUTE FUNCTION fingerprint_bump()`);
  }
  const [{ marker }]: { marker: string }[] = await dataSource.query(`SELECT last_value::text || ':' || is_called::text AS marker FROM fingerprint_writes`);
  const cached = digests.get(dataSource);
  if (cached?.marker === marker) return cached.digest;
  const tables: { name: string }[] = await dataSource.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const parts = tables.filter((table) => !RECORDS.has(table.name)).map(({ name }) => {
    const quoted = `"${name.replace(/"/g, '')}"`;
    return `SELECT '${name.replace(/'/g, '')}' AS name, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM ${quoted} t`;
  });
  const rows: { name: string; digest: string }[] = parts.length ? await dataSource.query(parts.join(' UNION ALL ')) : [];
  const hash = createHash('sha1');
  for (const row of rows.sort((a, b) => (a.name < b.name ? -1 : 1))) hash.update(row.name).update(row.digest);
  const digest = hash.digest('hex');
  digests.set(dataSource, { marker, digest });
  return digest;
}
