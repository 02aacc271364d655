import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { quote } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { queryValidationError } from '../../core/errors/api-error';
import { databaseId, NO_ID } from '../../core/validation/ids';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { FieldTypeRegistry, RawRow, fieldColumn } from '../fields/field-type';
import { TableContext, TableContextService } from '../table-context';
import { CountCache } from './count-cache';
import { RowMetadataRegistry, RowsMetadata } from './row-metadata';
import { ROW_ALIAS, RowListQuery, RowSelection, splitNames } from './row-list.query';
import { RowRepository } from './row.repository';
import { RowNamesQuery } from './rows.query';

export type RowJson = Record<string, unknown> & { id: number; order: string };

/** How rows are keyed and which fields they carry. */
export interface RowShape {
  userFieldNames: boolean;
  /** Only these fields (include/exclude); all when absent. */
  fields?: FieldEntity[];
}

/**
 * The reads of rows the rows service and other modules share: rows as a client sees them
 * (keyed `field_<id>` or by name), a selection's page with its exact count, its ids in order,
 * `include` / `exclude`, primary values and row metadata.
 */
@Injectable()
export class RowReader {
  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    private readonly listQuery: RowListQuery,
    private readonly types: FieldTypeRegistry,
    private readonly counts: CountCache,
    private readonly metadata: RowMetadataRegistry,
  ) {}

  async serialize(context: TableContext, raw: RawRow[], shape: RowShape): Promise<RowJson[]> {
    const fields = shape.fields ?? context.fields;
    const ctx = this.contexts.fieldContext(context, null);
    const rows: RowJson[] = raw.map((row) => ({ id: Number(row.id), order: this.rows.dialect.orderText(row.order) }));
    for (const field of fields) {
      const values = await this.types.of(field).readValues(field, raw, ctx);
      const key = shape.userFieldNames ? field.name : fieldColumn(field);
      rows.forEach((row, i) => (row[key] = values[i]));
    }
    return rows;
  }

  /** A fresh builder of bound values for SQL the caller compiles (a selection's WHERE). */
  sqlBuilder() {
    return this.rows.sql();
  }

  /**
   * The ids of every live row a selection names, in its order (an export reads the rows a
   * page at a time by these ids, so memory holds one number per row and one page of rows).
   */
  async orderedIds(context: TableContext, selection: RowSelection): Promise<number[]> {
    const sql = this.rows.sql();
    const where = await this.listQuery.where(selection, context, sql, false);
    const orderBy = this.listQuery.orderBy(selection.sorts, sql);
    const rows = await this.rows.read<{ id: unknown }>(`SELECT ${quote(ROW_ALIAS)}."id" AS "id" FROM ${this.listQuery.from(context)} WHERE ${where} ORDER BY ${orderBy}`, sql.params);
    return rows.map((row) => Number(row.id));
  }

  /**
   * Every row of a selection in its order, a page at a time, holding one page (exports). In the
   * default order the pages follow each other by keyset, `("order", "id") > (last page's last)`,
   * which the order index seeks to: each page costs its own rows, whatever the table's size.
   * With sorts, the ids are read once in order (one sort of the selection, eight bytes a row)
   * and the pages by id: a keyset over sort expressions with their null placement and mixed
   * directions cannot seek an index, so each page would re-scan the selection.
   */
  async *pages(context: TableContext, selection: RowSelection, shape: RowShape, pageSize: number): AsyncGenerator<RowJson[]> {
    if (selection.sorts.length) {
      const ids = Float64Array.from(await this.orderedIds(context, selection));
      for (let start = 0; start < ids.length; start += pageSize) yield this.rowsByIds(context, Array.from(ids.subarray(start, start + pageSize)), shape);
      return;
    }
    const alias = quote(ROW_ALIAS);
    let last: RawRow | null = null;
    for (;;) {
      const sql = this.rows.sql();
      const where = await this.listQuery.where(selection, context, sql, false);
      // The last row's `order` as the database answered it, so the comparison is exact.
      const after: string = last ? ` AND (${alias}."order", ${alias}."id") > (${sql.param(last.order)}, ${sql.param(last.id)})` : '';
      const raw: RawRow[] = await this.rows.read<RawRow>(`SELECT ${alias}.* FROM ${this.listQuery.from(context)} WHERE ${where}${after} ORDER BY ${this.listQuery.orderBy([], sql)} LIMIT ${pageSize}`, sql.params);
      if (!raw.length) return;
      last = raw[raw.length - 1];
      yield this.serialize(context, raw.map((row: RawRow) => ({ ...row, id: Number(row.id) })), shape);
      if (raw.length < pageSize) return;
    }
  }

  /** Rows by id in the given order (missing ones left out), keyed `field_<id>`. */
  async rowsByIds(context: TableContext, ids: number[], shape: RowShape = { userFieldNames: false }): Promise<RowJson[]> {
    const raw = await this.rows.findByIds(context.table.id, ids);
    const byId = new Map(raw.map((row) => [row.id, row]));
    return this.serialize(context, ids.map((id) => byId.get(id)).filter((row): row is RawRow => !!row), shape);
  }

  /** Rows keyed `field_<id>` re-keyed by field names (user_field_names), in the same key order. */
  named(context: TableContext, rows: RowJson[]): RowJson[] {
    return rows.map((row) => {
      const out: RowJson = { id: row.id, order: row.order };
      for (const [key, value] of Object.entries(row)) {
        if (key === 'id' || key === 'order') continue;
        const field = context.byId.get(Number(key.slice('field_'.length)));
        out[field ? field.name : key] = value;
      }
      return out;
    });
  }

  /** ERROR_ROW_DOES_NOT_EXIST (with the id as a URL names it) unless the row exists. */
  async requireRow(context: TableContext, rowId: number): Promise<void> {
    const [row] = await this.rows.findByIds(context.table.id, [rowId]);
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
  }

  /** The registered metadata types' values of rows, for a user (row id → type → value). */
  rowMetadata(tableId: number, rowIds: number[], userId: number | null): Promise<RowsMetadata> {
    return this.metadata.forRows(tableId, rowIds, userId);
  }

  /** Reads one page of a selection and its exact count (cached by the table's versions). */
  async select(context: TableContext, selection: RowSelection, userFieldNames: boolean, limit: number, offset: number): Promise<{ count: number; rows: RawRow[] }> {
    const sql = this.rows.sql();
    const where = await this.listQuery.where(selection, context, sql, userFieldNames);
    const whereSql = ` WHERE ${where}`;
    const from = this.listQuery.from(context);
    const countSql = `SELECT COUNT(*) AS "count" FROM ${from}${whereSql}`;
    // Kept by the versions of the table and of the linked tables the count reads (trashed or changed since).
    const key = this.counts.keyOfQuery(context.table.id, countSql, sql.params);
    const orderBy = this.listQuery.orderBy(selection.sorts, sql);
    const pageSql = `SELECT ${quote(ROW_ALIAS)}.* FROM ${from}${whereSql} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
    // The driver's rows are this read's own: their id is made a number in place, not copied.
    const page = (raw: Record<string, unknown>[]) => {
      for (const row of raw) row.id = Number(row.id);
      return raw as RawRow[];
    };
    let count = this.counts.get(key);
    if (count === undefined && !this.db.inTransaction && limit > 0) {
      // Outside a transaction the count and the page are independent reads: sent together, they
      // run side by side (two pooled connections on PostgreSQL; on SQLite a slow count in a read
      // worker while a quick page runs on the main connection).
      const [[row], raw] = await Promise.all([this.rows.read<{ count: unknown }>(countSql, sql.params), this.rows.read(pageSql, sql.params)]);
      count = Number(row.count);
      this.counts.set(key, count);
      return { count, rows: offset >= count ? [] : page(raw) };
    }
    if (count === undefined) {
      const [row] = await this.rows.read<{ count: unknown }>(countSql, sql.params);
      count = Number(row.count);
      if (!this.db.inTransaction) this.counts.set(key, count);
    }
    if (offset >= count || limit === 0) return { count, rows: [] };
    return { count, rows: page(await this.rows.read(pageSql, sql.params)) };
  }

  /** `include` / `exclude`: comma-separated `field_<id>` (or names with user_field_names). */
  visibleFields(context: TableContext, query: { include?: string; exclude?: string }, userFieldNames: boolean): FieldEntity[] | undefined {
    const pick = (text: unknown): Set<number> =>
      new Set(
        splitNames(String(text))
          .map((ref) => (userFieldNames ? (context.byName.get(ref) ?? this.listQuery.resolveField(context, ref, false)) : this.listQuery.resolveField(context, ref, false)))
          .filter((f): f is FieldEntity => !!f)
          .map((f) => f.id),
      );
    let fields = context.fields;
    if (query.include !== undefined) {
      const ids = pick(query.include);
      fields = fields.filter((f) => ids.has(f.id));
    }
    if (query.exclude !== undefined) {
      const ids = pick(query.exclude);
      fields = fields.filter((f) => !ids.has(f.id));
    }
    return fields;
  }

  /** The primary field's text of rows (`unnamed row <id>` without a primary field or value... as Baserow). */
  async primaryValues(context: TableContext, ids: number[]): Promise<Record<string, string>> {
    const raw = await this.rows.findByIds(context.table.id, ids);
    const texts = await this.primaryTexts(context, raw);
    return Object.fromEntries(raw.map((row, i) => [String(row.id), texts[i]]));
  }

  /** The primary field's text of rows already read, in their order. */
  async primaryTexts(context: TableContext, raw: RawRow[]): Promise<string[]> {
    const primary = context.fields.find((f) => f.primary);
    if (!primary) return raw.map((row) => `unnamed row ${row.id}`);
    const type = this.types.of(primary);
    const values = await type.readValues(primary, raw, this.contexts.fieldContext(context, null));
    return values.map((value) => type.toText(primary, value) ?? '');
  }

  /** `{"<table_id>": {"<row_id>": "<primary value>"}}` for `table__<id>=1,2` parameters. */
  async names(user: UserEntity, query: RowNamesQuery): Promise<Record<string, Record<string, string>>> {
    const requested = new Map<number, number[]>();
    for (const [key, value] of Object.entries(query)) {
      const match = /^table__(\d+)$/.exec(key)!;
      const ids = String(value).split(',').map((v) => v.trim());
      if (ids.some((id) => !/^\d+$/.test(id))) throw queryValidationError({ [key]: [{ error: 'A comma separated list of row ids is expected.', code: 'invalid_value' }] });
      // Ids beyond 32 bits name nothing.
      requested.set(databaseId(match[1]) ?? NO_ID, ids.map((id) => databaseId(id) ?? NO_ID));
    }
    const result: Record<string, Record<string, string>> = {};
    let database: number | null = null;
    for (const [tableId, ids] of requested) {
      const context = await this.contexts.require(tableId, user.id, T.listRowNames);
      if (database !== null && context.table.databaseId !== database) {
        throw queryValidationError({ non_field_errors: [{ error: 'All tables must belong to the same database.', code: 'invalid' }] });
      }
      database = context.table.databaseId;
      result[String(tableId)] = await this.primaryValues(context, ids);
    }
    return result;
  }
}
