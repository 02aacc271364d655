/**
 * SQL functions added to every SQLite connection (better-sqlite3's `function`), for what
 * PostgreSQL has built in and SQLite lacks. Core defines none: modules above it declare the
 * files that export theirs (`OwnedSchemaModule.forFeature({ sqliteFunctions: [file] })`, a
 * module exporting `SQLITE_FUNCTIONS`). They travel as file paths because the read workers
 * (sqlite-read-worker.ts) load them in their own threads, where the app's modules are not.
 */
export type SqliteFunction = (...args: any[]) => unknown;

/** One function: deterministic unless said otherwise, a fixed number of arguments unless `varargs`. */
export interface SqliteFunctionDefinition {
  fn: SqliteFunction;
  deterministic?: boolean;
  varargs?: boolean;
}

/** What a file of SQLite functions exports as `SQLITE_FUNCTIONS`, by SQL name. */
export type SqliteFunctions = Record<string, SqliteFunctionDefinition>;

/** A better-sqlite3 connection, as far as adding functions goes. */
export interface SqliteFunctionTarget {
  function(name: string, options: Record<string, unknown>, fn: SqliteFunction): unknown;
}

/** Adds the `SQLITE_FUNCTIONS` of each file to a better-sqlite3 connection. */
export function installSqliteFunctions(db: SqliteFunctionTarget, files: readonly string[]): void {
  for (const file of files) {
    const { SQLITE_FUNCTIONS } = require(file) as { SQLITE_FUNCTIONS: SqliteFunctions };
    for (const [name, { fn, deterministic = true, varargs = false }] of Object.entries(SQLITE_FUNCTIONS)) db.function(name, { deterministic, varargs }, fn);
  }
}
