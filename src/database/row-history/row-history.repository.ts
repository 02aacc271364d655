import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../../core/database/dialect';
import { Sql } from '../../core/database/sql';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { RowHistoryDraft } from './row-history.entries';

/** A stored entry, as read back. */
export interface RowHistoryRecord {
  id: number;
  tableId: number;
  rowId: number;
  userId: number | null;
  userName: string;
  actionType: string;
  actionCommandType: string;
  /** Fixed-width ISO text (`…T12:00:00.000000Z`). */
  actionTimestamp: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  fieldsMetadata: Record<string, unknown>;
}

/** Who made a write's entries, and when (the same for all of them). */
export interface RowHistoryAuthor {
  userId: number | null;
  userName: string;
  actionTimestamp: string;
  /** DO, or UNDO / REDO for a write an undo or redo makes. */
  commandType: string;
}

const COLUMNS = ['table_id', 'row_id', 'user_id', 'user_name', 'action_type', 'action_command_type', 'action_timestamp', 'before_values', 'after_values', 'fields_metadata'];
/** Entries per INSERT: 10 parameters each stays far below both databases' parameter limits. */
const CHUNK = 1000;

/** The SQL of `database_rowhistory`; writes run in the caller's unit of work. */
@Injectable()
export class RowHistoryRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.manager.query(text, params);
  }

  /** One multi-row INSERT per 1000 entries (a batch of 200 rows is one); answers the ids in order. */
  async insert(entries: RowHistoryDraft[], author: RowHistoryAuthor): Promise<number[]> {
    const ids: number[] = [];
    const { userId, userName, actionTimestamp, commandType } = author;
    for (let start = 0; start < entries.length; start += CHUNK) {
      const sql = new Sql(this.dialect);
      const tuples = entries.slice(start, start + CHUNK).map((e) =>
        sql.list([e.tableId, e.rowId, userId, userName, e.actionType, commandType, actionTimestamp, JSON.stringify(e.before), JSON.stringify(e.after), JSON.stringify(e.fieldsMetadata)]),
      );
      const rows = await this.query<{ id: unknown }>(
        `INSERT INTO "database_rowhistory" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')} RETURNING "id"`,
        sql.params,
      );
      // Both databases answer RETURNING rows in VALUES order for a single INSERT.
      ids.push(...rows.map((row) => Number(row.id)));
    }
    return ids;
  }

  /** A row's entries, newest first, and how many there are. */
  async page(tableId: number, rowId: number, limit: number, offset: number): Promise<{ count: number; entries: RowHistoryRecord[] }> {
    const sql = new Sql(this.dialect);
    const where = `"table_id" = ${sql.param(tableId)} AND "row_id" = ${sql.param(rowId)}`;
    const [counted] = await this.query<{ count: unknown }>(`SELECT COUNT(*) AS "count" FROM "database_rowhistory" WHERE ${where}`, sql.params);
    const count = Number(counted.count);
    if (offset >= count) return { count, entries: [] };
    const rows = await this.query(
      `SELECT * FROM "database_rowhistory" WHERE ${where} ORDER BY "action_timestamp" DESC, "id" DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
      sql.params,
    );
    return { count, entries: rows.map(toRecord) };
  }

  /** A user deleted for good keeps only their name in the entries (Baserow's `SET_NULL`). */
  async forgetUser(userId: number): Promise<void> {
    const sql = new Sql(this.dialect);
    await this.query(`UPDATE "database_rowhistory" SET "user_id" = NULL WHERE "user_id" = ${sql.param(userId)}`, sql.params);
  }

  /** Deletes the entries recorded before `cutoff` (fixed-width ISO text compares as time). */
  async deleteBefore(cutoff: string): Promise<void> {
    const sql = new Sql(this.dialect);
    await this.query(`DELETE FROM "database_rowhistory" WHERE "action_timestamp" < ${sql.param(cutoff)}`, sql.params);
  }
}

function toRecord(row: any): RowHistoryRecord {
  return {
    id: Number(row.id),
    tableId: Number(row.table_id),
    rowId: Number(row.row_id),
    userId: row.user_id == null ? null : Number(row.user_id),
    userName: String(row.user_name),
    actionType: String(row.action_type),
    actionCommandType: String(row.action_command_type),
    actionTimestamp: String(row.action_timestamp),
    before: JSON.parse(row.before_values),
    after: JSON.parse(row.after_values),
    fieldsMetadata: JSON.parse(row.fields_metadata),
  };
}
