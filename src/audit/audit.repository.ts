import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../core/database/dialect';
import { Sql } from '../core/database/sql';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { notTemplateWorkspace } from '../templates/template-workspaces';
import type { AuditSubjects } from './audit-descriptions';

const TABLE = '"baserow_enterprise_auditlogentry"';
const COLUMNS = [
  'user_id',
  'user_email',
  'workspace_id',
  'workspace_name',
  'action_type',
  'action_command_type',
  'action_timestamp',
  'action_params',
  'ip_address',
  'table_name',
  'application_id',
  'application_name',
  'view_name',
  'field_name',
];
/** Entries per INSERT: 14 columns of at most 20 parameters each stays far below both databases' limits. */
const CHUNK = 500;

/** An entry to write: the names it shows are copied in by the INSERT itself (no read before). */
export interface NewAuditEntry {
  userId: number | null;
  /** Given: written as it is; otherwise the user's current e-mail. */
  userEmail: string | null;
  workspaceId: number | null;
  type: string;
  command: 'DO' | 'UNDO' | 'REDO';
  timestamp: string;
  params: Record<string, unknown>;
  ipAddress: string | null;
  subjects: AuditSubjects;
}

/** A stored entry. */
export interface AuditEntryRow {
  id: number;
  user_id: number | null;
  user_email: string | null;
  workspace_id: number | null;
  workspace_name: string | null;
  action_type: string;
  action_command_type: string;
  action_timestamp: string;
  action_params: string;
  ip_address: string | null;
  table_name: string | null;
  application_id: number | null;
  application_name: string | null;
  view_name: string | null;
  field_name: string | null;
}

/** What a listing or an export selects. */
export interface AuditFilters {
  userId?: number | null;
  workspaceId?: number | null;
  actionType?: string | null;
  from?: string | null;
  to?: string | null;
  ipAddress?: string | null;
  search?: string | null;
  /** Entries up to this id only (an export's pages stay put while new entries arrive). */
  upToId?: number | null;
}

export type AuditSortKey = 'user' | 'workspace' | 'type' | 'timestamp' | 'ip_address';
const SORT_COLUMNS: Record<AuditSortKey, string> = { user: 'user_email', workspace: 'workspace_name', type: 'action_type', timestamp: 'action_timestamp', ip_address: 'ip_address' };

/** The SQL of the audit log; everything runs in the caller's unit of work. */
@Injectable()
export class AuditRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.db.manager.query(text, params);
  }

  /** A transaction's entries in one INSERT; the names are read by its subqueries, by primary key. */
  async insert(entries: NewAuditEntry[]): Promise<void> {
    for (let start = 0; start < entries.length; start += CHUNK) {
      const sql = new Sql(this.dialect);
      const tuples = entries.slice(start, start + CHUNK).map((entry) => this.tuple(sql, entry));
      await this.query(`INSERT INTO ${TABLE} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, sql.params);
    }
  }

  /** One entry's VALUES tuple; its parts are built in column order (SQLite's `?` bind by position). */
  private tuple(sql: Sql, entry: NewAuditEntry): string {
    const p = (value: unknown) => sql.param(value);
    const name = (table: string, id: number | null | undefined) => (id ? `(SELECT "name" FROM "${table}" WHERE "id" = ${p(id)})` : 'NULL');
    const { tableId, applicationId, viewId, fieldId } = entry.subjects;
    const parts = [
      () => p(entry.userId),
      () => (entry.userEmail !== null || !entry.userId ? p(entry.userEmail) : `(SELECT "email" FROM "user" WHERE "id" = ${p(entry.userId)})`),
      () => p(entry.workspaceId),
      () => (entry.workspaceId ? name('workspace', entry.workspaceId) : 'NULL'),
      () => p(entry.type),
      () => p(entry.command),
      () => p(entry.timestamp),
      () => p(JSON.stringify(entry.params)),
      () => p(entry.ipAddress),
      () => name('database_table', tableId),
      () => (applicationId ? p(applicationId) : tableId ? `(SELECT "database_id" FROM "database_table" WHERE "id" = ${p(tableId)})` : 'NULL'),
      () =>
        applicationId
          ? name('application', applicationId)
          : tableId
            ? `(SELECT a."name" FROM "database_table" t JOIN "application" a ON a."id" = t."database_id" WHERE t."id" = ${p(tableId)})`
            : 'NULL',
      () => name('database_view', viewId),
      () => name('database_field', fieldId),
    ];
    return `(${parts.map((part) => part()).join(', ')})`;
  }

  /** The newest entry's id (0: none). */
  async lastId(): Promise<number> {
    const [{ id }] = await this.query(`SELECT MAX("id") AS "id" FROM ${TABLE}`);
    return Number(id ?? 0);
  }

  async count(filters: AuditFilters): Promise<number> {
    const sql = new Sql(this.dialect);
    const rows = await this.query(`SELECT COUNT(*) AS "n" FROM ${TABLE} WHERE ${this.where(filters, sql)}`, sql.params);
    return Number(rows[0].n);
  }

  /** A page of entries, sorted (the newest first by default, as Baserow), then by id. */
  async list(filters: AuditFilters, sorts: { key: AuditSortKey; descending: boolean }[], limit: number, offset: number): Promise<AuditEntryRow[]> {
    const sql = new Sql(this.dialect);
    const order = [...sorts.map((sort) => `"${SORT_COLUMNS[sort.key]}" ${sort.descending ? 'DESC' : 'ASC'}`), `"id" ${sorts.length ? 'ASC' : 'DESC'}`];
    if (!sorts.length) order.unshift('"action_timestamp" DESC');
    const text = `SELECT * FROM ${TABLE} WHERE ${this.where(filters, sql)} ORDER BY ${order.join(', ')} LIMIT ${Number(limit)} OFFSET ${Number(offset)}`;
    return (await this.query(text, sql.params)).map(row);
  }

  /** Users (id, e-mail) sorted by e-mail: of a workspace, containing `search`. */
  async users(workspaceId: number | null, search: string | null, limit: number, offset: number): Promise<{ count: number; rows: { id: number; value: string }[] }> {
    const sql = new Sql(this.dialect);
    const parts = ['1 = 1'];
    if (workspaceId) parts.push(`"id" IN (SELECT "user_id" FROM "workspace_user" WHERE "workspace_id" = ${sql.param(workspaceId)})`);
    if (search) parts.push(`LOWER("email") LIKE ${sql.param(`%${search.toLowerCase()}%`)}`);
    return this.lookup(`FROM "user" WHERE ${parts.join(' AND ')}`, '"email"', sql, limit, offset);
  }

  /** Workspaces (id, name) sorted by name, containing `search`. */
  async workspaces(search: string | null, limit: number, offset: number): Promise<{ count: number; rows: { id: number; value: string }[] }> {
    const sql = new Sql(this.dialect);
    const where = search ? `LOWER("name") LIKE ${sql.param(`%${search.toLowerCase()}%`)}` : '1 = 1';
    // Not the templates' previews (Baserow's `template__isnull=True`).
    return this.lookup(`FROM "workspace" WHERE ${where} AND ${notTemplateWorkspace('"workspace"')}`, '"name"', sql, limit, offset);
  }

  private async lookup(from: string, value: string, sql: Sql, limit: number, offset: number): Promise<{ count: number; rows: { id: number; value: string }[] }> {
    const [{ n }] = await this.query(`SELECT COUNT(*) AS "n" ${from}`, sql.params);
    const rows = await this.query(`SELECT "id", ${value} AS "value" ${from} ORDER BY ${value}, "id" LIMIT ${Number(limit)} OFFSET ${Number(offset)}`, sql.params);
    return { count: Number(n), rows: rows.map((r) => ({ id: Number(r.id), value: String(r.value) })) };
  }

  async workspaceExists(id: number): Promise<boolean> {
    const rows = await this.query(`SELECT 1 AS "found" FROM "workspace" WHERE "id" = ${this.dialect.placeholder(1)} AND "trashed" = ${this.dialect.placeholder(2)}`, [id, this.dialect.bind(false)]);
    return rows.length > 0;
  }

  /** Deletes the entries done before `cutoff`; answers how many. */
  async deleteBefore(cutoff: string): Promise<number> {
    const [{ n }] = await this.query(`SELECT COUNT(*) AS "n" FROM ${TABLE} WHERE "action_timestamp" < ${this.dialect.placeholder(1)}`, [cutoff]);
    if (Number(n)) await this.query(`DELETE FROM ${TABLE} WHERE "action_timestamp" < ${this.dialect.placeholder(1)}`, [cutoff]);
    return Number(n);
  }

  private where(filters: AuditFilters, sql: Sql): string {
    const parts = ['1 = 1'];
    if (filters.userId) parts.push(`"user_id" = ${sql.param(filters.userId)}`);
    if (filters.workspaceId) parts.push(`"workspace_id" = ${sql.param(filters.workspaceId)}`);
    if (filters.actionType) parts.push(`"action_type" = ${sql.param(filters.actionType)}`);
    if (filters.from) parts.push(`"action_timestamp" >= ${sql.param(filters.from)}`);
    if (filters.to) parts.push(`"action_timestamp" <= ${sql.param(filters.to)}`);
    if (filters.ipAddress) parts.push(`"ip_address" = ${sql.param(filters.ipAddress)}`);
    if (filters.upToId) parts.push(`"id" <= ${sql.param(filters.upToId)}`);
    if (filters.search) parts.push(`CAST("id" AS VARCHAR(20)) LIKE ${sql.param(`%${filters.search}%`)}`);
    return parts.join(' AND ');
  }
}

function row(raw: Record<string, unknown>): AuditEntryRow {
  const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return { ...(raw as unknown as AuditEntryRow), id: Number(raw.id), user_id: int(raw.user_id), workspace_id: int(raw.workspace_id), application_id: int(raw.application_id) };
}
