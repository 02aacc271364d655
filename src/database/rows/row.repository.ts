import { Inject, Injectable } from '@nestjs/common';
import { ColumnDefinition, Dialect, ORDER_ONE } from '../../core/database/dialect';
import { yieldTurn } from '../../core/lifecycle/yield-turn';
import { DIALECT } from '../../core/database/tokens';
import { idList, quote, Sql } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { inIdRange } from '../../core/validation/ids';
import { RawRow, rowsTable } from '../fields/field-type';
import { liveRow } from './table-schema.repository';

/** Bound values per statement: SQLite takes at most 32,766, PostgreSQL 65,535. */
const MAX_BOUND_VALUES = 30_000;

/** How many rows of `valuesPerRow` bound values one INSERT may carry. */
const rowsPerStatement = (valuesPerRow: number): number => Math.max(1, Math.floor(MAX_BOUND_VALUES / valuesPerRow));

/** A row that keeps its id and order (timestamps as stored text; absent: now). */
export interface ImportedRow {
  id: number;
  order: bigint;
  createdOn?: string | null;
  updatedOn?: string | null;
  /** Who created and last changed the row (a copy keeps them); undefined: the importing user. */
  createdById?: number | null;
  lastModifiedById?: number | null;
  values: Record<string, unknown>;
}

/** A row to insert: its stored column values and its order. */
export interface NewRow {
  values: Record<string, unknown>;
  order: bigint;
}

/**
 * The SQL of rows in user tables. Table and column names are built from ids only; every
 * value is bound. Writes run in the caller's unit of work.
 */
@Injectable()
export class RowRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) readonly dialect: Dialect,
  ) {}

  sql(): Sql {
    return new Sql(this.dialect);
  }

  query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.manager.query(text, params);
  }

  /**
   * A read that may scan the table (pages, counts, search, aggregations, exports): off the
   * event loop on SQLite outside a transaction, in the transaction inside one (see UnitOfWork.read).
   */
  read<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.read<T>(text, params);
  }

  /**
   * Multi-row INSERTs (one per batch of rows whose values SQLite can bind in one statement);
   * answers the new ids in the rows' order.
   */
  async insert(tableId: number, rows: NewRow[], columns: string[], userId: number | null): Promise<number[]> {
    return (await this.insertReturning(tableId, rows, columns, userId, '"id"')).map((row) => row.id);
  }

  /** Inserts rows and answers them as stored (in the order given), without reading them again. */
  insertRows(tableId: number, rows: NewRow[], columns: string[], userId: number | null): Promise<RawRow[]> {
    return this.insertReturning(tableId, rows, columns, userId, '*');
  }

  private async insertReturning(tableId: number, rows: NewRow[], columns: string[], userId: number | null, returning: string): Promise<RawRow[]> {
    if (!rows.length) return [];
    const perStatement = rowsPerStatement(5 + columns.length);
    if (rows.length > perStatement) {
      const inserted: RawRow[] = [];
      for (let start = 0; start < rows.length; start += perStatement) inserted.push(...(await this.insertReturning(tableId, rows.slice(start, start + perStatement), columns, userId, returning)));
      return inserted;
    }
    const sql = this.sql();
    const now = isoMicros(new Date());
    const names = ['order', 'created_on', 'updated_on', 'created_by_id', 'last_modified_by_id', ...columns];
    const tuples = rows.map((row) => {
      const values = [this.dialect.orderToDb(row.order), now, now, userId, userId, ...columns.map((c) => row.values[c] ?? null)];
      return sql.list(values);
    });
    const result = await this.query(`INSERT INTO ${quote(rowsTable(tableId))} (${names.map(quote).join(', ')}) VALUES ${tuples.join(', ')} RETURNING ${returning}`, sql.params);
    // Both databases answer RETURNING rows in VALUES order for a single INSERT.
    return result.map((row) => normalize(row));
  }

  /**
   * Inserts rows that keep their ids, orders and timestamps (an imported or copied table),
   * in statements of as many rows as can be bound; the id sequence then follows the largest id.
   */
  async insertWithIds(tableId: number, rows: ImportedRow[], columns: string[], userId: number | null): Promise<void> {
    const now = isoMicros(new Date());
    const names = ['id', 'order', 'created_on', 'updated_on', 'created_by_id', 'last_modified_by_id', ...columns];
    const perStatement = rowsPerStatement(names.length);
    for (let i = 0; i < rows.length; i += perStatement) {
      const sql = this.sql();
      const tuples = rows.slice(i, i + perStatement).map((row) =>
        sql.list([row.id, this.dialect.orderToDb(row.order), row.createdOn ?? now, row.updatedOn ?? now, row.createdById === undefined ? userId : row.createdById, row.lastModifiedById === undefined ? userId : row.lastModifiedById, ...columns.map((c) => row.values[c] ?? null)]),
      );
      await this.query(`INSERT INTO ${quote(rowsTable(tableId))} (${names.map(quote).join(', ')}) VALUES ${tuples.join(', ')}`, sql.params);
    }
    const sync = this.dialect.syncRowIdSequence(rowsTable(tableId));
    if (rows.length && sync) await this.query(sync);
  }

  /** Live rows by id (in no particular order); an id beyond 32 bits names none. */
  async findByIds(tableId: number, requested: number[], which: 'live' | 'trashed' = 'live'): Promise<RawRow[]> {
    const ids = requested.filter(inIdRange);
    if (!ids.length) return [];
    const sql = this.sql();
    const state = which === 'live' ? liveRow() : `NOT (${liveRow()})`;
    const rows = await this.read(`SELECT * FROM ${quote(rowsTable(tableId))} WHERE "id" IN ${idList(sql, ids)} AND ${state}`, sql.params);
    return rows.map((row) => normalize(row));
  }

  /**
   * Moves live rows to the trash or trashed rows back; answers how many changed, so a
   * caller racing another delete (or restore) of the same rows can tell.
   */
  async setTrashed(tableId: number, ids: number[], trashed: boolean): Promise<number> {
    let changed = 0;
    for (let start = 0; start < ids.length; start += 500) {
      const sql = this.sql();
      const state = trashed ? liveRow() : `NOT (${liveRow()})`;
      changed += await this.execute(
        `UPDATE ${quote(rowsTable(tableId))} SET "trashed" = ${trashed ? 'TRUE' : 'FALSE'} WHERE "id" IN ${sql.list(ids.slice(start, start + 500))} AND ${state}`,
        sql.params,
      );
    }
    return changed;
  }

  /** Runs a write in the caller's transaction and answers the number of rows it changed. */
  private async execute(text: string, params: unknown[]): Promise<number> {
    const runner = this.db.manager.queryRunner;
    if (!runner) throw new Error('A counted write runs inside a unit of work.');
    const result = await runner.query(text, params, true);
    return result.affected ?? 0;
  }

  /** Updates some columns of one row and stamps `updated_on` / `last_modified_by_id`. */
  /** Updates a row's cells; answers the row as stored afterwards (null when there is no such row). */
  async update(tableId: number, id: number, values: Record<string, unknown>, userId: number | null): Promise<RawRow | null> {
    const sql = this.sql();
    const sets = Object.entries({ ...values, updated_on: isoMicros(new Date()), last_modified_by_id: userId }).map(
      ([column, value]) => `${quote(column)} = ${sql.param(value)}`,
    );
    const result: unknown[] = await this.query(`UPDATE ${quote(rowsTable(tableId))} SET ${sets.join(', ')} WHERE "id" = ${sql.param(id)} RETURNING *`, sql.params);
    // TypeORM answers a PostgreSQL UPDATE as [rows, affected count], SQLite's as the rows.
    const [row] = (Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
    return row ? normalize(row) : null;
  }

  async delete(tableId: number, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const sql = this.sql();
    await this.query(`DELETE FROM ${quote(rowsTable(tableId))} WHERE "id" IN ${sql.list(ids)}`, sql.params);
  }

  /** The orders of `count` new last rows: the largest live order rounded up, plus one, two, … (as Baserow, trashed rows aside). */
  async nextOrders(tableId: number, count: number): Promise<bigint[]> {
    const [row] = await this.query<{ max: unknown }>(`SELECT MAX("order") AS "max" FROM ${quote(rowsTable(tableId))} WHERE ${liveRow()}`);
    const max = row?.max == null ? 0n : this.dialect.orderFromDb(row.max);
    const first = ((max + ORDER_ONE - 1n) / ORDER_ONE) * ORDER_ONE + ORDER_ONE;
    return Array.from({ length: count }, (_, i) => first + BigInt(i) * ORDER_ONE);
  }

  /** The order of a row, and of the live row right before it (null when it is the first). */
  async ordersAround(tableId: number, rowId: number): Promise<{ order: bigint; previous: bigint | null } | null> {
    const table = quote(rowsTable(tableId));
    const sql = this.sql();
    const [row] = await this.query<{ order: unknown }>(`SELECT "order" FROM ${table} WHERE "id" = ${sql.param(rowId)}`, sql.params);
    if (!row) return null;
    const sql2 = this.sql();
    const [prev] = await this.query<{ order: unknown }>(
      `SELECT "order" FROM ${table} WHERE "order" < ${sql2.param(row.order)} AND ${liveRow()} ORDER BY "order" DESC, "id" DESC LIMIT 1`,
      sql2.params,
    );
    return { order: this.dialect.orderFromDb(row.order), previous: prev ? this.dialect.orderFromDb(prev.order) : null };
  }

  async setOrder(tableId: number, id: number, order: bigint, userId: number | null): Promise<void> {
    await this.update(tableId, id, { order: this.dialect.orderToDb(order) }, userId);
  }

  /**
   * Every row, trashed ones included unless `liveOnly`, in id batches (conversions read a whole
   * column). Between two batches the event loop takes a turn: the reads of a large table would
   * otherwise follow one another in microtasks and hold every other request (an export, a
   * duplication).
   */
  async *scan(tableId: number, { liveOnly = false, batchSize = 2000 } = {}): AsyncGenerator<RawRow[]> {
    let after = 0;
    for (;;) {
      const sql = this.sql();
      const rows = await this.read(
        `SELECT * FROM ${quote(rowsTable(tableId))} WHERE "id" > ${sql.param(after)}${liveOnly ? ` AND ${liveRow()}` : ''} ORDER BY "id" LIMIT ${batchSize}`,
        sql.params,
      );
      if (!rows.length) return;
      yield rows.map((row) => normalize(row));
      if (rows.length < batchSize) return;
      after = Number(rows[rows.length - 1].id);
      await yieldTurn();
    }
  }

  /** Sets one column of many rows with one statement per 500 rows. */
  async setColumn(tableId: number, column: ColumnDefinition, values: { id: number; value: unknown }[]): Promise<void> {
    const table = quote(rowsTable(tableId));
    const type = this.dialect.columnType(column);
    for (let start = 0; start < values.length; start += 500) {
      const chunk = values.slice(start, start + 500);
      const sql = this.sql();
      const tuples = chunk.map(({ id, value }) => `(${sql.param(id)}, ${sql.param(value)})`).join(', ');
      await this.query(
        `UPDATE ${table} SET ${quote(column.name)} = CAST(v.column2 AS ${type}) FROM (VALUES ${tuples}) AS v WHERE ${table}."id" = CAST(v.column1 AS INTEGER)`,
        sql.params,
      );
    }
  }

  /** Sets one column of every row to the same value (a new field's default). */
  async fillColumn(tableId: number, column: string, value: unknown): Promise<void> {
    const sql = this.sql();
    await this.query(`UPDATE ${quote(rowsTable(tableId))} SET ${quote(column)} = ${sql.param(value)}`, sql.params);
  }

}

/** Driver values to JS: ids as numbers (PostgreSQL's bigint arrives as text). */
export function normalize(row: Record<string, unknown>): RawRow {
  // The driver's rows are fresh objects: set in place, not copied (a batch answers 200 of them).
  if (typeof row.id !== 'number') row.id = Number(row.id);
  return row as RawRow;
}

/**
 * A timestamp as stored in user tables: ISO UTC with six fraction digits, the same
 * fixed-width text the date fields store, so SQLite compares all of them as text.
 */
export function isoMicros(date: Date): string {
  return date.toISOString().replace('Z', '000Z');
}

