import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../../core/database/dialect';
import { DIALECT } from '../../core/database/tokens';
import { quote, Sql } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { rowsTable } from '../fields/field-type';
import { PENDING_TABLE, REGISTRY_TABLE, SearchDialect, searchDialect, SearchDocument, SearchLayout, SearchTrigger, triggerName } from './search-dialect';

/** A table's full-text index as registered: field id → hash of its text SQL, the schema stamp, the content version. */
export interface SearchIndexState {
  fields: Record<string, string>;
  stamp: string;
  version: number;
  /** Where each field's words are in the rows' documents. */
  layout: SearchLayout;
}

/** A pending mark: a row of the table (`via` 0), or a row reached through the link field `via`. */
export interface PendingMark {
  rowId: number;
  via: number;
}

/** The SQL of full-text indexes: their registry, pending marks, entries and triggers. Runs in the caller's unit of work. */
@Injectable()
export class SearchIndexRepository {
  readonly search: SearchDialect;

  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) readonly dialect: Dialect,
  ) {
    this.search = searchDialect(dialect);
  }

  sql(): Sql {
    return new Sql(this.dialect);
  }

  query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.manager.query(text, params);
  }

  /** A statement answering rows (TypeORM answers `[rows, count]` for PostgreSQL's DELETE … RETURNING). */
  private async returning<T>(text: string, params: unknown[]): Promise<T[]> {
    const result: unknown = await this.db.manager.query(text, params);
    if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
    return result as T[];
  }

  /** The table's registration and whether it has pending marks (one query); null without an index. */
  async state(tableId: number): Promise<(SearchIndexState & { pending: boolean }) | null> {
    const p = (i: number) => this.dialect.placeholder(i);
    const [row] = await this.query(
      `SELECT i."fields", i."stamp", i."version", i."layout", EXISTS (SELECT 1 FROM ${quote(PENDING_TABLE)} p WHERE p."table_id" = ${p(1)}) AS "pending" FROM ${quote(REGISTRY_TABLE)} i WHERE i."table_id" = ${p(2)}`,
      [tableId, tableId],
    );
    if (!row) return null;
    return {
      fields: JSON.parse(String(row.fields)),
      stamp: String(row.stamp),
      version: Number(row.version),
      layout: { columns: 0, slots: {}, ...JSON.parse(String(row.layout ?? '{}')) },
      pending: row.pending === true || Number(row.pending) === 1,
    };
  }

  /** Every registered table's fields (to mark some stale). */
  async registered(): Promise<{ tableId: number; fields: Record<string, string> }[]> {
    const rows = await this.query(`SELECT "table_id", "fields" FROM ${quote(REGISTRY_TABLE)} ORDER BY "table_id"`);
    return rows.map((row) => ({ tableId: Number(row.table_id), fields: JSON.parse(String(row.fields)) }));
  }

  /** Whether any table has an index (registered, built or not). */
  async anyRegistered(): Promise<boolean> {
    const rows = await this.query(`SELECT 1 AS "one" FROM ${quote(REGISTRY_TABLE)} LIMIT 1`);
    return rows.length > 0;
  }

  async register(tableId: number): Promise<SearchIndexState> {
    await this.query(`INSERT INTO ${quote(REGISTRY_TABLE)} ("table_id", "fields", "stamp", "version", "layout") VALUES (${this.dialect.placeholder(1)}, '{}', '', 0, '{}')`, [tableId]);
    return { fields: {}, stamp: '', version: 0, layout: { columns: 0, slots: {} } };
  }

  async saveState(tableId: number, state: SearchIndexState): Promise<void> {
    const p = (i: number) => this.dialect.placeholder(i);
    await this.query(`UPDATE ${quote(REGISTRY_TABLE)} SET "fields" = ${p(1)}, "stamp" = ${p(2)}, "version" = ${p(3)}, "layout" = ${p(4)} WHERE "table_id" = ${p(5)}`, [
      JSON.stringify(state.fields),
      state.stamp,
      state.version,
      JSON.stringify(state.layout),
      tableId,
    ]);
  }

  async saveFields(tableId: number, fields: Record<string, string>): Promise<void> {
    await this.query(`UPDATE ${quote(REGISTRY_TABLE)} SET "fields" = ${this.dialect.placeholder(1)} WHERE "table_id" = ${this.dialect.placeholder(2)}`, [JSON.stringify(fields), tableId]);
  }

  /**
   * Runs `work` in a savepoint: when it fails, what it did is undone and the transaction goes on
   * (PostgreSQL would refuse every later statement of it otherwise); answers its error, or null.
   */
  async savepoint(work: () => Promise<unknown>): Promise<unknown> {
    await this.query('SAVEPOINT "search_index"');
    try {
      await work();
    } catch (error) {
      await this.query('ROLLBACK TO SAVEPOINT "search_index"');
      await this.query('RELEASE SAVEPOINT "search_index"');
      return error;
    }
    await this.query('RELEASE SAVEPOINT "search_index"');
    return null;
  }

  /**
   * The tables with pending marks (0: marks of renamed users), in id order, with their numbers of
   * marks; none, without reading them, when the transaction made no marks (where the dialect knows).
   */
  async pendingTables(): Promise<{ tableId: number; marks: number }[]> {
    const marked = this.search.markedCondition ? ` WHERE ${this.search.markedCondition}` : '';
    const rows = await this.query(`SELECT "table_id", COUNT(*) AS "n" FROM ${quote(PENDING_TABLE)}${marked} GROUP BY "table_id" ORDER BY "table_id"`);
    return rows.map((row) => ({ tableId: Number(row.table_id), marks: Number(row.n) }));
  }

  /** The fields versions of tables as a stamp (`id:version`, sorted), from one query. */
  async fieldsVersions(tableIds: number[]): Promise<string> {
    const sql = this.sql();
    const rows = await this.query(`SELECT "id", "fields_version" FROM "database_table" WHERE "id" IN ${sql.list(tableIds)}`, sql.params);
    return rows
      .map((row) => `${Number(row.id)}:${Number(row.fields_version)}`)
      .sort()
      .join(',');
  }

  /** Removes and answers the table's pending marks (those committed, and the transaction's own). */
  async takePending(tableId: number): Promise<PendingMark[]> {
    const rows = await this.returning<{ row_id: unknown; via_field_id: unknown }>(
      `DELETE FROM ${quote(PENDING_TABLE)} WHERE "table_id" = ${this.dialect.placeholder(1)} RETURNING "row_id", "via_field_id"`,
      [tableId],
    );
    return rows.map((row) => ({ rowId: Number(row.row_id), via: Number(row.via_field_id) }));
  }

  async dropPending(tableId: number): Promise<void> {
    await this.query(`DELETE FROM ${quote(PENDING_TABLE)} WHERE "table_id" = ${this.dialect.placeholder(1)}`, [tableId]);
  }

  /** The rows of `to` that a junction (or table) maps the keys to: `SELECT to FROM table WHERE from IN keys`. */
  async mapKeys(via: { table: string; from: string; to: string }, keys: number[]): Promise<number[]> {
    const result = new Set<number>();
    for (let i = 0; i < keys.length; i += 5000) {
      const sql = this.sql();
      const rows = await this.query(
        `SELECT DISTINCT ${quote(via.to)} AS "id" FROM ${quote(via.table)} WHERE ${quote(via.from)} IN ${this.dialect.idsIn(keys.slice(i, i + 5000), (v) => sql.param(v))}`,
        sql.params,
      );
      for (const row of rows) result.add(Number(row.id));
    }
    return [...result];
  }

  async rowCount(tableId: number): Promise<number> {
    const [row] = await this.query(`SELECT COUNT(*) AS "n" FROM ${quote(rowsTable(tableId))}`);
    return Number(row.n);
  }

  // ------------------------------------------------------------------ storage and entries

  async createStorage(tableId: number, columns: number): Promise<void> {
    for (const statement of this.search.createStorage(tableId, columns)) await this.query(statement);
  }

  async indexStorage(tableId: number): Promise<void> {
    for (const statement of this.search.indexStorage(tableId)) await this.query(statement);
  }

  async dropStorage(tableId: number): Promise<void> {
    for (const statement of this.search.dropStorage(tableId)) await this.query(statement);
  }




  async writeDocuments(tableId: number, columns: number, documents: SearchDocument[]): Promise<void> {
    for (let i = 0; i < documents.length; i += 1000) {
      const sql = this.sql();
      await this.query(this.search.writeDocuments(tableId, columns, documents.slice(i, i + 1000), sql), sql.params);
    }
  }

  async deleteDocuments(tableId: number, rowIds: number[]): Promise<void> {
    if (!rowIds.length) return;
    const sql = this.sql();
    await this.query(this.search.deleteDocuments(tableId, rowIds, sql), sql.params);
  }

  /**
   * The texts of rows: `{id, f<field id>…}` for the given rows, or (`after`) the next `limit`
   * rows after that id, in id order. Trashed rows too (a restore needs nothing recomputed).
   */
  async texts(tableId: number, texts: { fieldId: number; build: (sql: Sql) => string }[], rows: { ids: number[] } | { after: number; limit: number }): Promise<Record<string, unknown>[]> {
    const sql = this.sql();
    const columns = texts.map((t) => `${t.build(sql)} AS ${quote(`f${t.fieldId}`)}`);
    const from = `${quote(rowsTable(tableId))} ${quote('r')}`;
    const where = 'ids' in rows ? `"r"."id" IN ${this.dialect.idsIn(rows.ids, (v) => sql.param(v))}` : `"r"."id" > ${sql.param(rows.after)}`;
    const tail = 'ids' in rows ? '' : ` ORDER BY "r"."id" LIMIT ${Math.trunc(rows.limit)}`;
    return this.query(`SELECT "r"."id"${columns.map((c) => `, ${c}`).join('')} FROM ${from} WHERE ${where}${tail}`, sql.params);
  }

  // ------------------------------------------------------------------ triggers

  async triggers(consumer: number): Promise<{ name: string; table: string }[]> {
    const { sql, params } = this.search.listTriggers(consumer);
    const rows = await this.query(sql, params);
    return rows.map((row) => ({ name: String(row.name), table: String(row.table) }));
  }

  async createTrigger(trigger: SearchTrigger): Promise<void> {
    for (const statement of this.search.createTrigger(trigger)) await this.query(statement);
  }

  async dropTrigger(name: string, table: string): Promise<void> {
    for (const statement of this.search.dropTrigger(name, table)) await this.query(statement);
  }

  /** Drops what is left of triggers whose table is gone (PostgreSQL's functions). */
  async dropLeftovers(consumer: number): Promise<void> {
    const leftovers = this.search.dropLeftovers(consumer);
    if (!leftovers) return;
    for (const row of await this.query(leftovers.sql, leftovers.params)) await this.dropTrigger(String(row.name), '');
  }

  /** Drops a table's index: its triggers (on whichever table), entries, registration and marks. */
  async drop(tableId: number): Promise<void> {
    for (const trigger of await this.triggers(tableId)) await this.dropTrigger(trigger.name, trigger.table);
    await this.dropLeftovers(tableId);
    await this.dropStorage(tableId);
    await this.query(`DELETE FROM ${quote(REGISTRY_TABLE)} WHERE "table_id" = ${this.dialect.placeholder(1)}`, [tableId]);
    await this.dropPending(tableId);
  }

  /** The name a trigger has (for comparing the wanted ones with those installed). */
  triggerName(trigger: SearchTrigger): string {
    return triggerName(trigger);
  }
}
