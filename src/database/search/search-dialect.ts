import { createHash } from 'node:crypto';
import type { Dialect } from '../../core/database/dialect';
import { quote, Sql } from '../../core/database/sql';
import { CellWords, MAX_CELL_WORD_BYTES, MAX_POSITION } from './full-text';

/** The marks of rows whose entries are to be recomputed (see SearchIndexService). */
export const PENDING_TABLE = 'database_search_pending';
/** One row per table with a full-text index: what its entries were computed with. */
export const REGISTRY_TABLE = 'database_search_index';

/** `database_search_<id>`: a table's full-text index (a document per row). */
export const searchTable = (tableId: number): string => `database_search_${tableId}`;

/**
 * A trigger marking rows of an indexed table (`consumer`) whose entries a write made stale:
 * after `event` on `table`, the value of `column` of each written row is marked, as a row of
 * the consumer (`via` 0) or as a row linked through the consumer's link field `via`.
 */
export interface SearchTrigger {
  consumer: number;
  table: string;
  event: 'INSERT' | 'UPDATE' | 'DELETE';
  column: string;
  via: number;
  /** Only updates setting these columns (row by row on PostgreSQL, which has no transition tables then). */
  columns?: string[];
  /** Not the rows whose `trashed` changed (trashing and restoring rows changes no text of their own). */
  keepTrashed?: boolean;
}

/** The name of a consumer's triggers (and, on PostgreSQL, their functions): `search_<consumer>_…`. */
export const triggerPrefix = (consumer: number): string => `search_${consumer}_`;

/** A trigger's name, from what it does (a changed body changes the name, so reconciling replaces it). */
export function triggerName(trigger: SearchTrigger): string {
  const hash = createHash('sha1').update(`v2|${trigger.table}|${trigger.event}|${trigger.column}|${trigger.via}|${trigger.columns?.join(',') ?? ''}|${trigger.keepTrashed ? 't' : ''}`).digest('hex').slice(0, 12);
  return `${triggerPrefix(trigger.consumer)}${hash}`;
}

/** Where each searched field's words are in a document: its cell (column), and the number of cells. */
export interface SearchLayout {
  columns: number;
  slots: Record<string, number>;
}

/** A row's document: the words of each cell (null: none). */
export interface SearchDocument {
  rowId: number;
  cells: (CellWords | null)[];
}

/**
 * What differs between the databases in full-text search: the index's storage, its triggers and
 * its queries. Both keep one document per row (FTS5's cost, and PostgreSQL's, is mostly per
 * document), a cell per searched field so that phrases never cross cells and a search can be
 * kept to some fields.
 */
export interface SearchDialect {
  /** Creates the storage (with `columns` cells per document where the dialect needs to know). */
  createStorage(tableId: number, columns: number): string[];
  /** Indexes the storage once its documents are loaded (building an index at once is cheaper than row by row). */
  indexStorage(tableId: number): string[];
  dropStorage(tableId: number): string[];
  /** Writes documents, replacing those there are. */
  writeDocuments(tableId: number, columns: number, documents: readonly SearchDocument[], sql: Sql): string;
  /** Deletes the documents of rows. */
  deleteDocuments(tableId: number, rowIds: readonly number[], sql: Sql): string;
  /**
   * A SELECT of the ids of the rows whose cells (all, or the `columns` given) hold the words, in
   * a row, the last one as a prefix.
   */
  matchingRowIds(tableId: number, words: readonly string[], fields: { columns: readonly number[] } | null, sql: Sql): string;
  createTrigger(trigger: SearchTrigger): string[];
  /** Drops a trigger (`table` empty: only what is left of it, PostgreSQL's function). */
  dropTrigger(name: string, table: string): string[];
  /** A query of the consumer's triggers: rows `{name, table}`. */
  listTriggers(consumer: number): { sql: string; params: unknown[] };
  /** Statements removing what is left of the consumer's triggers once their tables are gone (PostgreSQL's functions). */
  dropLeftovers(consumer: number): { sql: string; params: unknown[] } | null;
  /**
   * A condition true when the transaction's triggers made marks (null where there is no such
   * flag: SQLite, whose pending marks are then looked at every time).
   */
  readonly markedCondition: string | null;
}

/** A cell's words as text for FTS5: the positioned ones, then the others kept apart by a filler no search has. */
const ftsText = (words: CellWords): string => (words.rest.length ? `${words.positioned.join(' ')} - ${words.rest.join(' - ')}` : words.positioned.join(' '));

/** PostgreSQL: what a trigger that made marks runs, so the transaction's commit knows (see `markedCondition`). */
const MARKED = `PERFORM set_config('rowspace.search_marks', 'on', true)`;

/** A word as a PostgreSQL tsvector/tsquery lexeme literal. */
const lexeme = (word: string): string => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** PostgreSQL keeps at most this many positions of a lexeme in a tsvector. */
const MAX_LEXEME_POSITIONS = 256;

/**
 * A row's tsvector literal: each cell's words at their positions, a position left unused
 * between two cells; `starts`: where each cell starts, then where the last one ended. Positions
 * stop at MAX_POSITION (as PostgreSQL clamps them; a cell's words beyond its own MAX_POSITION
 * are there too), and the row's distinct words at MAX_CELL_WORD_BYTES (a tsvector's limit).
 */
function rowVector(cells: readonly (CellWords | null)[], columns: number): { vector: string; starts: number[] } {
  const positions = new Map<string, number[]>();
  const starts: number[] = [];
  let bytes = 0;
  const add = (word: string, at: number) => {
    const list = positions.get(word);
    if (list) {
      if (list.length < MAX_LEXEME_POSITIONS && list[list.length - 1] !== at) list.push(at);
      return;
    }
    bytes += word.length * 3 > 255 ? Buffer.byteLength(word) : word.length * 3;
    if (bytes <= MAX_CELL_WORD_BYTES) positions.set(word, [at]);
  };
  let next = 1;
  for (let i = 0; i < columns; i++) {
    starts.push(Math.min(next, MAX_POSITION + 1));
    const words = cells[i];
    if (!words) continue;
    for (const word of words.positioned) add(word, Math.min(next++, MAX_POSITION));
    for (const word of words.rest) add(word, MAX_POSITION);
    // The unused position after the cell.
    next += 1;
  }
  starts.push(Math.min(next, MAX_POSITION + 1));
  const parts: string[] = [];
  for (const [word, at] of positions) parts.push(`${lexeme(word)}:${at.join(',')}`);
  return { vector: parts.join(' '), starts };
}

/** The pending marks a trigger inserts: the consumer, the key and the link field (or 0). */
const pendingColumns = `${quote(PENDING_TABLE)} ("table_id", "row_id", "via_field_id")`;

/**
 * SQLite: an FTS5 table per indexed table, one document per row (rowid: the row id) with a
 * column per searched field (phrases never cross columns, a column filter searches some fields
 * only). Contentless (the words are not stored twice) with deletes; `ascii` tokenizer with `-`
 * as a word character: the text written is already the words separated by spaces, and that
 * tokenizer splits it exactly there, whatever the script (every non-ASCII character is a word
 * character to it).
 */
class SqliteSearchDialect implements SearchDialect {
  readonly markedCondition = null;

  createStorage(tableId: number, columns: number): string[] {
    const names = Array.from({ length: Math.max(1, columns) }, (_, i) => `"c${i}"`).join(', ');
    return [`CREATE VIRTUAL TABLE IF NOT EXISTS ${quote(searchTable(tableId))} USING fts5(${names}, content='', contentless_delete=1, tokenize="ascii tokenchars '-'", detail=full)`];
  }

  indexStorage(): string[] {
    return [];
  }

  dropStorage(tableId: number): string[] {
    return [`DROP TABLE IF EXISTS ${quote(searchTable(tableId))}`];
  }

  writeDocuments(tableId: number, columns: number, documents: readonly SearchDocument[], sql: Sql): string {
    const rows = documents.map((d) => [d.rowId, ...Array.from({ length: columns }, (_, i) => (d.cells[i] ? ftsText(d.cells[i]!) : ''))]);
    const names = Array.from({ length: columns }, (_, i) => `"c${i}"`).join(', ');
    const values = Array.from({ length: columns }, (_, i) => `json_extract(d."value", '$[${i + 1}]')`).join(', ');
    return `INSERT OR REPLACE INTO ${quote(searchTable(tableId))} ("rowid", ${names}) SELECT json_extract(d."value", '$[0]'), ${values} FROM json_each(${sql.param(JSON.stringify(rows))}) d`;
  }

  deleteDocuments(tableId: number, rowIds: readonly number[], sql: Sql): string {
    return `DELETE FROM ${quote(searchTable(tableId))} WHERE "rowid" IN (SELECT "value" FROM json_each(${sql.param(JSON.stringify(rowIds))}))`;
  }

  matchingRowIds(tableId: number, words: readonly string[], fields: { columns: readonly number[] } | null, sql: Sql): string {
    const table = quote(searchTable(tableId));
    // One phrase of the words (none holds a quote), the last one a prefix; in the searched fields' columns only.
    const phrase = `"${words.join(' ')}" *`;
    const query = fields ? `{${fields.columns.map((c) => `c${c}`).join(' ')}} : ${phrase}` : phrase;
    return `SELECT "rowid" FROM ${table} WHERE ${table} MATCH ${sql.param(query)}`;
  }

  createTrigger(trigger: SearchTrigger): string[] {
    const row = (ref: 'NEW' | 'OLD') => `(${trigger.consumer}, ${ref}.${quote(trigger.column)}, ${trigger.via})`;
    const values =
      trigger.event === 'INSERT' ? row('NEW') : trigger.event === 'DELETE' ? row('OLD') : trigger.column === 'id' ? row('NEW') : `${row('NEW')}, ${row('OLD')}`;
    const of = trigger.columns ? ` OF ${trigger.columns.map(quote).join(', ')}` : '';
    const when = trigger.keepTrashed && trigger.event === 'UPDATE' ? ' WHEN OLD."trashed" IS NEW."trashed"' : '';
    return [`CREATE TRIGGER IF NOT EXISTS ${quote(triggerName(trigger))} AFTER ${trigger.event}${of} ON ${quote(trigger.table)}${when} BEGIN INSERT INTO ${pendingColumns} VALUES ${values}; END`];
  }

  dropTrigger(name: string): string[] {
    return [`DROP TRIGGER IF EXISTS ${quote(name)}`];
  }

  listTriggers(consumer: number): { sql: string; params: unknown[] } {
    return { sql: `SELECT "name", "tbl_name" AS "table" FROM "sqlite_master" WHERE "type" = 'trigger' AND substr("name", 1, ?) = ?`, params: [triggerPrefix(consumer).length, triggerPrefix(consumer)] };
  }

  dropLeftovers(): null {
    return null;
  }
}

/**
 * PostgreSQL: a table of documents per indexed table, `(row_id, words, bounds)`. `words` is the
 * row's tsvector under a GIN index: every cell's words with their positions, the cells one
 * after the other with an unused position between two (a phrase, whose words must be at
 * consecutive positions, never crosses cells), so a search of all fields is one `@@` the index
 * answers; `bounds` are the positions where the cells start (and where the last ends), for a
 * search of some fields, which keeps the positions of their cells. The vectors and queries are
 * written as literals, never through to_tsvector/to_tsquery, so PostgreSQL's parser and locale
 * play no part. Triggers are statement-level with transition tables: one insert of marks per
 * statement, whatever its rows.
 */
class PostgresSearchDialect implements SearchDialect {
  readonly markedCondition = `current_setting('rowspace.search_marks', true) = 'on'`;

  createStorage(tableId: number): string[] {
    const table = searchTable(tableId);
    return [`CREATE TABLE IF NOT EXISTS ${quote(table)} ("row_id" integer PRIMARY KEY, "words" tsvector NOT NULL, "bounds" integer[] NOT NULL)`];
  }

  indexStorage(tableId: number): string[] {
    const table = searchTable(tableId);
    // Analyzed too: the planner then knows how many rows hold a word (without it, it guesses
    // a few hundred, and reads every row of the table to join them).
    return [`CREATE INDEX IF NOT EXISTS ${quote(`${table}_words`)} ON ${quote(table)} USING gin ("words")`, `ANALYZE ${quote(table)}`];
  }

  dropStorage(tableId: number): string[] {
    return [`DROP TABLE IF EXISTS ${quote(searchTable(tableId))}`];
  }

  writeDocuments(tableId: number, columns: number, documents: readonly SearchDocument[], sql: Sql): string {
    const vectors: string[] = [];
    const bounds: string[] = [];
    for (const d of documents) {
      const { vector, starts } = rowVector(d.cells, columns);
      vectors.push(vector);
      bounds.push(`{${starts.join(',')}}`);
    }
    const rows = sql.param(documents.map((d) => d.rowId));
    return `INSERT INTO ${quote(searchTable(tableId))} ("row_id", "words", "bounds") SELECT r, CAST(w AS tsvector), CAST(b AS integer[]) FROM unnest(CAST(${rows} AS integer[]), CAST(${sql.param(vectors)} AS text[]), CAST(${sql.param(bounds)} AS text[])) AS d(r, w, b) ON CONFLICT ("row_id") DO UPDATE SET "words" = EXCLUDED."words", "bounds" = EXCLUDED."bounds"`;
  }

  deleteDocuments(tableId: number, rowIds: readonly number[], sql: Sql): string {
    return `DELETE FROM ${quote(searchTable(tableId))} WHERE "row_id" = ANY(CAST(${sql.param([...rowIds])} AS integer[]))`;
  }

  matchingRowIds(tableId: number, words: readonly string[], fields: { columns: readonly number[] } | null, sql: Sql): string {
    const table = quote(searchTable(tableId));
    const phrase = `CAST(${sql.param(`${words.map(lexeme).join(' <-> ')}:*`)} AS tsquery)`;
    if (!fields) return `SELECT "row_id" FROM ${table} WHERE "words" @@ ${phrase}`;
    // Some fields: the index finds the rows holding every word, and the phrase is checked in a
    // vector of those rows' words at the positions of the fields' cells (the words hold no
    // quote nor backslash: they are letters, marks, digits and `-`).
    const every = `CAST(${sql.param(`${words.map(lexeme).join(' & ')}:*`)} AS tsquery)`;
    const within = fields.columns.map((c) => `(p >= "bounds"[${c + 1}] AND p < "bounds"[${c + 2}])`).join(' OR ');
    const kept = `SELECT string_agg('''' || u."lexeme" || ''':' || array_to_string(x."at", ','), ' ') FROM unnest("words") u, LATERAL (SELECT ARRAY(SELECT p FROM unnest(u."positions") p WHERE ${within}) AS "at") x WHERE cardinality(x."at") > 0`;
    return `SELECT "row_id" FROM ${table} WHERE "words" @@ ${every} AND CAST(COALESCE((${kept}), '') AS tsvector) @@ ${phrase}`;
  }

  createTrigger(trigger: SearchTrigger): string[] {
    const name = quote(triggerName(trigger));
    if (trigger.columns) {
      const row = trigger.event === 'DELETE' ? 'OLD' : 'NEW';
      return [
        `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO ${pendingColumns} VALUES (${trigger.consumer}, ${row}.${quote(trigger.column)}, ${trigger.via}); ${MARKED}; RETURN NULL; END$$`,
        `DROP TRIGGER IF EXISTS ${name} ON ${quote(trigger.table)}`,
        `CREATE TRIGGER ${name} AFTER ${trigger.event} OF ${trigger.columns.map(quote).join(', ')} ON ${quote(trigger.table)} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
      ];
    }
    const select = (relation: string) => `SELECT ${trigger.consumer}, ${quote(trigger.column)}, ${trigger.via} FROM ${relation}`;
    const both = trigger.event === 'UPDATE' && trigger.column !== 'id';
    const untrashed = trigger.event === 'UPDATE' && !both && trigger.keepTrashed;
    const body = both
      ? `${select('"changed"')} UNION ALL ${select('"before"')}`
      : untrashed
        ? `SELECT ${trigger.consumer}, c.${quote(trigger.column)}, ${trigger.via} FROM "changed" c JOIN "before" b ON b."id" = c."id" WHERE b."trashed" IS NOT DISTINCT FROM c."trashed"`
        : select('"changed"');
    const referencing =
      trigger.event === 'INSERT' ? 'NEW TABLE AS "changed"' : trigger.event === 'DELETE' ? 'OLD TABLE AS "changed"' : both || untrashed ? 'NEW TABLE AS "changed" OLD TABLE AS "before"' : 'NEW TABLE AS "changed"';
    return [
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO ${pendingColumns} ${body}; IF FOUND THEN ${MARKED}; END IF; RETURN NULL; END$$`,
      `DROP TRIGGER IF EXISTS ${name} ON ${quote(trigger.table)}`,
      `CREATE TRIGGER ${name} AFTER ${trigger.event} ON ${quote(trigger.table)} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
    ];
  }

  dropTrigger(name: string, table: string): string[] {
    const dropFunction = `DROP FUNCTION IF EXISTS ${quote(name)}()`;
    return table ? [`DROP TRIGGER IF EXISTS ${quote(name)} ON ${quote(table)}`, dropFunction] : [dropFunction];
  }

  listTriggers(consumer: number): { sql: string; params: unknown[] } {
    return {
      sql: `SELECT t."tgname" AS "name", c."relname" AS "table" FROM pg_trigger t JOIN pg_class c ON c."oid" = t."tgrelid" WHERE NOT t."tgisinternal" AND left(t."tgname", $1) = $2`,
      params: [triggerPrefix(consumer).length, triggerPrefix(consumer)],
    };
  }

  dropLeftovers(consumer: number): { sql: string; params: unknown[] } {
    // Functions whose trigger went with its table: a DO block drops each by name.
    return {
      sql: `SELECT p."proname" AS "name" FROM pg_proc p WHERE left(p."proname", $1) = $2 AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t."tgfoid" = p."oid")`,
      params: [triggerPrefix(consumer).length, triggerPrefix(consumer)],
    };
  }
}

export function searchDialect(dialect: Pick<Dialect, 'name'>): SearchDialect {
  return dialect.name === 'postgres' ? new PostgresSearchDialect() : new SqliteSearchDialect();
}
