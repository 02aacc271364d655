import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { installSqliteFunctions } from './sqlite-functions';

/**
 * One read worker of the SQLite read pool (see sqlite-read-pool.ts): its own read-only
 * connection to the database file, with the same SQL functions as the main connection (the
 * files the app's modules declare, loaded here by path). It answers one query at a time, each
 * statement outside any transaction, so every read takes a fresh snapshot of what is committed
 * (WAL) and holds none between statements.
 */

export interface ReadRequest {
  id: number;
  sql: string;
  params: unknown[];
}

export type ReadAnswer =
  | { id: number; ms: number; columns: string[]; json: string }
  | { id: number; ms: number; columns: string[]; rows: unknown[][] }
  | { id: number; ms: number; error: { message: string; code?: string } };

/** Prepared statements kept per worker, by SQL text (as TypeORM's runner keeps the main connection's). */
const STATEMENT_CACHE_SIZE = 200;

const { path, functions } = workerData as { path: string; functions: string[] };
const db = new Database(path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
installSqliteFunctions(db, functions);
const statements = new Map<string, Database.Statement>();

function prepared(sql: string): Database.Statement {
  let statement = statements.get(sql);
  if (statement) {
    // Most recently used last, so the first one is the one to drop.
    statements.delete(sql);
  } else {
    statement = db.prepare(sql);
    if (!statement.reader) throw Object.assign(new Error('The read pool runs statements that answer rows only.'), { code: 'ROWSPACE_NOT_A_READ' });
    statement.raw(true);
    while (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
  }
  statements.set(sql, statement);
  return statement;
}

/**
 * Whether every value survives JSON (strings, finite numbers but -0, null): then the rows
 * travel as one JSON string, which the main thread parses several times faster than it
 * deserialises the structured clone of the same rows. Anything else (blobs, big integers,
 * infinities) goes as a structured clone.
 */
function jsonSafe(rows: unknown[][]): boolean {
  for (const row of rows) {
    for (const value of row) {
      if (value === null || typeof value === 'string') continue;
      if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) continue;
      return false;
    }
  }
  return true;
}

parentPort!.on('message', ({ id, sql, params }: ReadRequest) => {
  const start = performance.now();
  let answer: ReadAnswer;
  try {
    const statement = prepared(sql);
    const rows = statement.all(...params) as unknown[][];
    // Read after running: a `SELECT *` prepared before a column was added answers the new one.
    const columns = statement.columns().map((column) => column.name);
    answer = jsonSafe(rows) ? { id, ms: performance.now() - start, columns, json: JSON.stringify(rows) } : { id, ms: performance.now() - start, columns, rows };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    answer = { id, ms: performance.now() - start, error: { message: String(message ?? error), code } };
  }
  parentPort!.postMessage(answer);
});

parentPort!.postMessage({ ready: true });
