import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../core/database/dialect';
import { Sql } from '../core/database/sql';
import { DIALECT } from '../core/database/tokens';
import { RecordedAction, UnitOfWork } from '../core/database/unit-of-work';

/** A stored action, as undo and redo read it. */
export interface ActionRecord {
  id: number;
  type: string;
  scope: string;
  params: Record<string, unknown>;
  workspaceId: number | null;
  actionGroup: string | null;
  createdOn: string;
  undoneAt: string | null;
  error: string | null;
}

/** Whose undo stack a query reads: the user's actions of one client session, of these types, still young enough. */
export interface UndoStack {
  userId: number;
  session: string;
  /** Scope strings; empty: every scope. */
  scopes: string[];
  /** The undoable types (other recorded actions are for the audit log). */
  types: string[];
  /** Actions last touched before this are too old to undo or redo. */
  notBefore: string;
}

const COLUMNS = ['user_id', 'workspace_id', 'session', 'action_group', 'type', 'params', 'scope', 'created_on', 'updated_on'];
/** Actions per INSERT: 9 parameters each stays far below both databases' parameter limits. */
const CHUNK = 1000;
const SELECT = `SELECT "id", "type", "scope", "params", "workspace_id", "action_group", "created_on", "undone_at", "error" FROM "core_action"`;

/** The SQL of `core_action`; everything runs in the caller's unit of work. */
@Injectable()
export class ActionRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.manager.query(text, params);
  }

  /** A transaction's actions, in one INSERT (no read). */
  async insert(actions: RecordedAction[], now: string): Promise<void> {
    for (let start = 0; start < actions.length; start += CHUNK) {
      const sql = new Sql(this.dialect);
      const tuples = actions
        .slice(start, start + CHUNK)
        .map((a) => sql.list([a.userId, a.workspaceId, a.clientSessionId, a.actionGroupId, a.type, JSON.stringify(a.params), a.scope, now, now]));
      await this.query(`INSERT INTO "core_action" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, sql.params);
    }
  }

  /** The newest action of the stack not undone (locked for the undo). */
  async nextToUndo(stack: UndoStack): Promise<ActionRecord | null> {
    const sql = new Sql(this.dialect);
    const rows = await this.query(`${SELECT} WHERE ${this.stackWhere(stack, sql)} AND "undone_at" IS NULL ORDER BY "created_on" DESC, "id" DESC LIMIT 1${this.lock()}`, sql.params);
    return rows.length ? record(rows[0]) : null;
  }

  /** The newest undone action of the stack (locked for the redo). */
  async nextToRedo(stack: UndoStack): Promise<ActionRecord | null> {
    const sql = new Sql(this.dialect);
    const rows = await this.query(
      `${SELECT} WHERE ${this.stackWhere(stack, sql)} AND "undone_at" IS NOT NULL ORDER BY "undone_at" DESC, "created_on" DESC, "id" DESC LIMIT 1${this.lock()}`,
      sql.params,
    );
    return rows.length ? record(rows[0]) : null;
  }

  /** Whether the stack has an action not undone that was done after `after` (a redo then has nothing to do). */
  async doneSince(stack: UndoStack, after: string): Promise<boolean> {
    const sql = new Sql(this.dialect);
    const rows = await this.query(`SELECT 1 AS "found" FROM "core_action" WHERE ${this.stackWhere(stack, sql)} AND "undone_at" IS NULL AND "created_on" > ${sql.param(after)} LIMIT 1`, sql.params);
    return rows.length > 0;
  }

  /**
   * The actions of a group, in any scope: not undone, newest first (`undone` false), or undone,
   * oldest first (`undone` true); at most `limit`.
   */
  async group(stack: Omit<UndoStack, 'scopes'>, group: string, undone: boolean, limit: number): Promise<ActionRecord[]> {
    const sql = new Sql(this.dialect);
    const where = `${this.stackWhere({ ...stack, scopes: [] }, sql)} AND "action_group" = ${sql.param(group)} AND "undone_at" IS ${undone ? 'NOT NULL' : 'NULL'}`;
    const order = undone ? `"created_on" ASC, "id" ASC` : `"created_on" DESC, "id" DESC`;
    const rows = await this.query(`${SELECT} WHERE ${where} ORDER BY ${order} LIMIT ${Number(limit)}${this.lock()}`, sql.params);
    return rows.map(record);
  }

  /** Sets the actions' undo state (`undoneAt` null: done again) and error, and the params an undo or redo changed. */
  async mark(actions: ActionRecord[], undoneAt: string | null, error: string | null, now: string): Promise<void> {
    for (const action of actions) {
      const sql = new Sql(this.dialect);
      const sets = [`"undone_at" = ${sql.param(undoneAt)}`, `"error" = ${sql.param(error)}`, `"updated_on" = ${sql.param(now)}`, `"params" = ${sql.param(JSON.stringify(action.params))}`];
      await this.query(`UPDATE "core_action" SET ${sets.join(', ')} WHERE "id" = ${sql.param(action.id)}`, sql.params);
    }
  }

  /** Forgets actions last touched before `cutoff`. */
  async deleteBefore(cutoff: string): Promise<void> {
    await this.query(`DELETE FROM "core_action" WHERE "updated_on" < ${this.dialect.placeholder(1)}`, [cutoff]);
  }

  private stackWhere(stack: UndoStack, sql: Sql): string {
    const parts = [`"user_id" = ${sql.param(stack.userId)}`, `"session" = ${sql.param(stack.session)}`, `"updated_on" >= ${sql.param(stack.notBefore)}`];
    parts.push(stack.types.length ? `"type" IN ${sql.list(stack.types)}` : '1 = 0');
    if (stack.scopes.length) parts.push(`"scope" IN ${sql.list(stack.scopes)}`);
    return parts.join(' AND ');
  }

  private lock(): string {
    return this.dialect.forUpdate;
  }
}

function record(row: Record<string, unknown>): ActionRecord {
  return {
    id: Number(row.id),
    type: String(row.type),
    scope: String(row.scope),
    params: JSON.parse(String(row.params)) as Record<string, unknown>,
    workspaceId: row.workspace_id === null || row.workspace_id === undefined ? null : Number(row.workspace_id),
    actionGroup: (row.action_group as string | null) ?? null,
    createdOn: String(row.created_on),
    undoneAt: (row.undone_at as string | null) ?? null,
    error: (row.error as string | null) ?? null,
  };
}
