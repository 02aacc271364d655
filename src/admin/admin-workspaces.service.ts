import { Injectable } from '@nestjs/common';
import { ApplicationsService } from '../applications/applications.service';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError } from '../core/errors/api-error';
import { pageLinks } from '../core/http/pagination';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AdminRepository, WORKSPACE_SORTS } from './admin.repository';
import { Page, pageWindow, parseSorts } from './listing';

/** Baserow's WorkspacesAdminResponseSerializer. */
export interface WorkspaceAdminJson {
  id: number;
  name: string;
  users: { id: number; email: string; permissions: string }[];
  application_count: number;
  row_count: number;
  /** Measured by Baserow's daily usage job, which Rowspace does not run: null, as Baserow's before its first run. */
  storage_usage: number | null;
  seats_taken: number | null;
  free_users: number | null;
  created_on: string | null;
}

export const AdminWorkspaceErrors = {
  cannotDeleteTemplate: () => new ApiError('ERROR_CANNOT_DELETE_A_TEMPLATE_GROUP', 400, 'You cannot delete a template group as it is used by the template system.'),
};

/** The workspaces of the instance as staff sees and deletes them (Baserow's WorkspacesAdminHandler). */
@Injectable()
export class AdminWorkspacesService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: AdminRepository,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
  ) {}

  async list(query: { search?: string; sorts?: string; page?: number; size?: number }, url: URL): Promise<Page<WorkspaceAdminJson>> {
    const sorts = parseSorts(query.sorts, WORKSPACE_SORTS);
    const { page, size, offset } = pageWindow(query.page, query.size);
    let count: number;
    let rows: Awaited<ReturnType<AdminRepository['workspaces']>>['workspaces'];
    let rowCounts: Map<number, number>;
    if (!sorts.some((sort) => sort.key === 'row_count')) {
      ({ count, workspaces: rows } = await this.repo.workspaces(query.search, sorts, size, offset));
      rowCounts = await this.repo.rowCounts(rows.map((w) => w.id));
    } else {
      // Row counts are not stored: every match is counted and sorted here, then the page is cut.
      ({ count, workspaces: rows } = await this.repo.workspaces(query.search, sorts, null, 0));
      rowCounts = await this.repo.rowCounts(rows.map((w) => w.id));
      const value = (w: (typeof rows)[number], key: string): number | string =>
        key === 'row_count' ? rowCounts.get(w.id)! : key === 'name' ? w.name : key === 'created_on' ? w.createdOn.getTime() : key === 'application_count' ? w.applicationCount : key === 'id' ? w.id : 0;
      rows = [...rows].sort((a, b) => {
        for (const { key, descending } of sorts) {
          const [x, y] = [value(a, key), value(b, key)];
          if (x !== y) return (x < y ? -1 : 1) * (descending ? -1 : 1);
        }
        return a.id - b.id;
      });
      rows = rows.slice(offset, offset + size);
    }
    const members = await this.repo.membersOfWorkspaces(rows.map((w) => w.id));
    return {
      count,
      ...pageLinks(url, page, size, count),
      results: rows.map((w) => ({
        id: w.id,
        name: w.name,
        users: members.filter((m) => m.workspaceId === w.id).map((m) => ({ id: m.userId, email: m.email, permissions: m.permissions })),
        application_count: w.applicationCount,
        row_count: rowCounts.get(w.id) ?? 0,
        storage_usage: null,
        seats_taken: null,
        free_users: null,
        created_on: toApiDateTime(w.createdOn),
      })),
    };
  }

  /** Deletes the workspace for good, trashed or not in use; its members get `group_deleted`. A template's preview is kept (Baserow's). */
  async delete(workspaceId: number): Promise<void> {
    await this.db.run(async () => {
      await this.repo.lockWorkspace(workspaceId);
      if (await this.repo.isTemplateWorkspace(workspaceId)) throw AdminWorkspaceErrors.cannotDeleteTemplate();
      await this.workspaces.deletePermanently(workspaceId, (ids) => this.applications.permanentlyDeleteOfWorkspaces(ids));
    });
  }
}

