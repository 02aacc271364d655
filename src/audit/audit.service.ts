import { Injectable } from '@nestjs/common';
import { toApiDateTime } from '../core/database/columns';
import { Errors } from '../core/errors/api-error';
import { pageLinks } from '../core/http/pagination';
import { Page, pageWindow } from '../admin/listing';
import { parseSortParameter } from '../core/http/sorts';
import type { UserEntity } from '../users/user.entity';
import { WorkspaceOperations } from '../permissions';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AUDIT_ACTION_TYPES, longDescription, shortDescription } from './audit-descriptions';
import { AuditEntryRow, AuditFilters, AuditRepository, AuditSortKey } from './audit.repository';

/** Baserow's ListWorkspaceAuditLogEntriesOperationType. */
const SORT_KEYS: readonly AuditSortKey[] = ['user', 'workspace', 'type', 'timestamp', 'ip_address'];
/** Baserow lists these only in the instance-wide log: they have no workspace of one. */
const NOT_IN_A_WORKSPACE = ['delete_group', 'order_groups'];

/** Baserow's AuditLogSerializer. */
export interface AuditEntryJson {
  id: number;
  action_type: string;
  user: string;
  workspace: string;
  type: string;
  description: string;
  timestamp: string;
  ip_address: string | null;
}

export interface LookupJson {
  id: number | string;
  value: string;
}

export interface AuditListQuery extends AuditFilters {
  page?: number;
  size?: number;
  sorts?: string | null;
}


/**
 * Reading the audit log (Baserow enterprise's audit log views): staff read every entry; a
 * workspace's admins read their workspace's (`workspace_id` given). Entries are written by
 * AuditWriter from the action record, never here.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly workspaces: WorkspacesService,
  ) {}

  /**
   * Baserow's `check_for_license_and_permissions_or_raise`: a workspace that exists, whose admin
   * the user is (staff: any); without a workspace, staff only.
   */
  async authorize(user: UserEntity, workspaceId: number | null | undefined): Promise<void> {
    if (workspaceId) {
      if (user.isStaff) {
        if (!(await this.repo.workspaceExists(workspaceId))) throw Errors.workspaceDoesNotExist();
        return;
      }
      await this.workspaces.require(workspaceId, user.id, WorkspaceOperations.listAuditLogEntries);
      return;
    }
    if (!user.isStaff) throw Errors.notStaff();
  }

  async list(user: UserEntity, query: AuditListQuery, url: URL): Promise<Page<AuditEntryJson>> {
    await this.authorize(user, query.workspaceId);
    const sorts = query.sorts ? parseSortParameter(query.sorts, SORT_KEYS) : [];
    // Baserow's paginator: a page below 1 is the first.
    const { page, size, offset } = pageWindow(Math.max(1, query.page ?? 1), query.size);
    const count = await this.repo.count(query);
    const rows = await this.repo.list(query, sorts, size, offset);
    return { count, ...pageLinks(url, page, size, count), results: rows.map(serializeEntry) };
  }

  async users(user: UserEntity, query: { workspaceId?: number | null; search?: string | null; page?: number; size?: number }, url: URL): Promise<Page<LookupJson>> {
    await this.authorize(user, query.workspaceId);
    const { page, size, offset } = pageWindow(query.page, query.size);
    const { count, rows } = await this.repo.users(query.workspaceId ?? null, query.search || null, size, offset);
    return { count, ...pageLinks(url, page, size, count), results: rows };
  }

  /** Staff only (the route's guard). */
  async workspaceList(query: { search?: string | null; page?: number; size?: number }, url: URL): Promise<Page<LookupJson>> {
    const { page, size, offset } = pageWindow(query.page, query.size);
    const { count, rows } = await this.repo.workspaces(query.search || null, size, offset);
    return { count, ...pageLinks(url, page, size, count), results: rows };
  }

  /** Every action type (their short descriptions searched, sorted); of a workspace: not the instance-wide ones. */
  async actionTypes(user: UserEntity, query: { workspaceId?: number | null; search?: string | null }): Promise<Page<LookupJson>> {
    await this.authorize(user, query.workspaceId);
    const search = (query.search ?? '').toLowerCase();
    const results = AUDIT_ACTION_TYPES.filter((type) => !(query.workspaceId && NOT_IN_A_WORKSPACE.includes(type)))
      .map((type) => ({ id: type, value: shortDescription(type) }))
      .filter((item) => !search || item.value.toLowerCase().includes(search))
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return { count: results.length, next: null, previous: null, results };
  }
}

/** The values an entry's description reads: the names copied when it was written, then its own params. */
export function descriptionValues(row: AuditEntryRow): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const put = (keys: string[], value: unknown) => {
    if (value !== null && value !== undefined) for (const key of keys) values[key] = value;
  };
  put(['group_id', 'workspace_id'], row.workspace_id);
  put(['group_name', 'workspace_name'], row.workspace_name);
  put(['table_name'], row.table_name);
  put(['database_id', 'application_id'], row.application_id);
  put(['database_name', 'application_name'], row.application_name);
  put(['view_name'], row.view_name);
  put(['field_name', 'new_primary_field_name'], row.field_name);
  return { ...values, ...(JSON.parse(row.action_params) as Record<string, unknown>) };
}

export function serializeEntry(row: AuditEntryRow): AuditEntryJson {
  return {
    id: row.id,
    action_type: row.action_type,
    user: row.user_id ? `${row.user_email} (${row.user_id})` : '',
    workspace: row.workspace_id ? `${row.workspace_name} (${row.workspace_id})` : '',
    type: shortDescription(row.action_type),
    description: longDescription(row.action_type, row.action_command_type, descriptionValues(row)),
    timestamp: toApiDateTime(new Date(row.action_timestamp))!,
    ip_address: row.ip_address,
  };
}
