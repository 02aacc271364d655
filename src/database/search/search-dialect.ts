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
   * A query answering `marked`: whether the transaction's writes made marks (PostgreSQL: a
   * setting of the transaction its triggers set), so a transaction that made none does not read
   * the marks' table; null where reading it is as cheap (SQLite).
   */
  readonly markedQuery: string | null;
}

/** A cell's words as text for FTS5: the positioned ones, then the others kept apart by a filler no search has. */
const ftsText = (words: CellWords): string => (words.rest.length ? `${words.positioned.join(' ')} - ${words.rest.join(' - ')}` : words.positioned.join(' '));

/** PostgreSQL: what a trigger that made marks runs, so the transaction's commit knows (see `markedQuery`). */
const MARKED = `PERFORM set_config('rowspace.search_marks', 'on', true)`;

/** A word as a PostgreSQL tsvector/tsquery lexeme literal. */
const lexeme = (word: string): string => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A cell's words as a tsvector literal: each word with its positions, the later ones at the last position (as PostgreSQL clamps them). */
function tsvector(words: CellWords): string {
  const positions = new Map<string, number[]>();
  words.positioned.forEach((word, i) => {
    const list = positions.get(word);
    if (list) list.push(i + 1);
    else positions.set(word, [i + 1]);
  });
  const parts = [...positions].map(([word, at]) => `${lexeme(word)}:${at.join(',')}`);
  for (const word of words.rest) parts.push(`${lexeme(word)}:${MAX_POSITION}`);
  return parts.join(' ');
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
  readonly markedQuery = null;

  createStorage(tableId: number, columns: number): string[] {
    const names = Array.from({ length: Math.max(1, columns) }, (_, i) => `"c${i}"`).join(', ');
    return [`CREATE VIRTUAL TABLE IF NOT EXISTS ${quote(searchTable(tableId))} USING fts5(${names}, content='', contentless_delete=1, tokenize="ascii tokenchars '-'", detail=full)`];
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
 * PostgreSQL: a table of entries per indexed table, `tsvector` with a GIN index. The vectors
 * and queries are written as literals (the words with their positions), never through
 * to_tsvector/to_tsquery, so PostgreSQL's parser and locale play no part. Triggers are
 * statement-level with transition tables: one insert of marks per statement, whatever its rows.
 */
class PostgresSearchDialect implements SearchDialect {
  readonly markedQuery = `SELECT current_setting('rowspace.search_marks', true) = 'on' AS "marked"`;

  createStorage(tableId: number): string[] {
    const table = searchTable(tableId);
    return [
      `CREATE TABLE IF NOT EXISTS ${quote(table)} ("row_id" integer PRIMARY KEY, "words" tsvector NOT NULL, "cells" tsvector[] NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS ${quote(`${table}_words`)} ON ${quote(table)} USING gin ("words")`,
    ];
  }

  dropStorage(tableId: number): string[] {
    return [`DROP TABLE IF EXISTS ${quote(searchTable(tableId))}`];
  }

  writeDocuments(tableId: number, columns: number, documents: readonly SearchDocument[], sql: Sql): string {
    const all: string[] = [];
    const cells: string[] = [];
    for (const d of documents) {
      const union = new Set<string>();
      const vectors: string[] = [];
      // The row's distinct words stay within a tsvector's 1 MB (beyond, later cells' words are found by no search).
      let bytes = 0;
      const add = (word: string) => {
        if (union.has(word)) return;
        bytes += word.length * 3 > 255 ? Buffer.byteLength(word) : word.length * 3;
        if (bytes <= MAX_CELL_WORD_BYTES) union.add(word);
      };
      for (let i = 0; i < columns; i++) {
        const words = d.cells[i];
        vectors.push(words ? tsvector(words) : '');
        if (words) {
          for (const word of words.positioned) add(word);
          for (const word of words.rest) add(word);
        }
      }
      all.push([...union].map(lexeme).join(' '));
      // An array literal of tsvector literals: each element quoted, its `"` and `\` escaped.
      cells.push(`{${vectors.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`);
    }
    const rows = sql.param(documents.map((d) => d.rowId));
    return `INSERT INTO ${quote(searchTable(tableId))} ("row_id", "words", "cells") SELECT r, CAST(w AS tsvector), CAST(c AS tsvector[]) FROM unnest(CAST(${rows} AS integer[]), CAST(${sql.param(all)} AS text[]), CAST(${sql.param(cells)} AS text[])) AS d(r, w, c) ON CONFLICT ("row_id") DO UPDATE SET "words" = EXCLUDED."words", "cells" = EXCLUDED."cells"`;
  }

  deleteDocuments(tableId: number, rowIds: readonly number[], sql: Sql): string {
    return `DELETE FROM ${quote(searchTable(tableId))} WHERE "row_id" = ANY(CAST(${sql.param([...rowIds])} AS integer[]))`;
  }

  matchingRowIds(tableId: number, words: readonly string[], fields: { columns: readonly number[] } | null, sql: Sql): string {
    // The index finds the rows holding every word (the row's words without positions); the
    // phrase is checked in each searched cell.
    const every = sql.param(`${words.map(lexeme).join(' & ')}:*`);
    if (words.length === 1 && !fields) return `SELECT "row_id" FROM ${quote(searchTable(tableId))} WHERE "words" @@ CAST(${every} AS tsquery)`;
    const phrase = `CAST(${sql.param(`${words.map(lexeme).join(' <-> ')}:*`)} AS tsquery)`;
    const cells = fields ? `(${fields.columns.map((c) => `"cells"[${c + 1}] @@ ${phrase}`).join(' OR ')})` : `EXISTS (SELECT 1 FROM unnest("cells") c WHERE c @@ ${phrase})`;
    return `SELECT "row_id" FROM ${quote(searchTable(tableId))} WHERE "words" @@ CAST(${every} AS tsquery) AND ${cells}`;
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
