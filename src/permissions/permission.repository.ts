import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { WorkspaceUserEntity } from '../workspaces/workspace.entity';

/** What the permission check reads: the actor's membership of a workspace. */
@Injectable()
export class PermissionRepository {
  constructor(private readonly db: UnitOfWork) {}

  /** The member's `workspace_user.permissions`, or null when the user is not a member. */
  async memberRole(workspaceId: number, userId: number): Promise<string | null> {
    const found = await this.db.manager.getRepository(WorkspaceUserEntity).findOne({ select: { id: true, permissions: true }, where: { workspaceId, userId } });
    return found?.permissions ?? null;
  }

  /** The workspaces of the templates' previews, built or being built (`core_template`). */
  async templateWorkspaceIds(): Promise<number[]> {
    const rows = await this.db.manager.createQueryBuilder().select('t.workspace_id', 'workspace_id').from('core_template', 't').getRawMany<Record<string, unknown>>();
    return rows.map((r) => Number(r.workspace_id));
  }

  /** The live tables of the databases, with their database. */
  async tablesOf(databaseIds: readonly number[]): Promise<{ id: number; databaseId: number }[]> {
    if (!databaseIds.length) return [];
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('t.id', 'id')
      .addSelect('t.database_id', 'database_id')
      .from('database_table', 't')
      .where('t.database_id IN (:...databaseIds) AND t.trashed = :f', { databaseIds: [...databaseIds], f: false })
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({ id: Number(r.id), databaseId: Number(r.database_id) }));
  }

  /** The live tables of the workspace's databases, with their database. */
  async tablesOfWorkspace(workspaceId: number): Promise<{ id: number; databaseId: number }[]> {
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('t.id', 'id')
      .addSelect('t.database_id', 'database_id')
      .from('database_table', 't')
      .innerJoin('application', 'a', 'a.id = t.database_id')
      .where('a.workspace_id = :workspaceId AND t.trashed = :f AND a.trashed = :f', { workspaceId, f: false })
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({ id: Number(r.id), databaseId: Number(r.database_id) }));
  }

  /** The live snapshots of those applications (the `snapshot` context's objects), with their application. */
  async snapshotsOf(applicationIds: readonly number[]): Promise<{ id: number; applicationId: number }[]> {
    if (!applicationIds.length) return [];
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('s.id', 'id')
      .addSelect('s.snapshot_from_application_id', 'application_id')
      .from('core_snapshot', 's')
      .where('s.snapshot_from_application_id IN (:...applicationIds) AND s.mark_for_deletion = :f', { applicationIds: [...applicationIds], f: false })
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({ id: Number(r.id), applicationId: Number(r.application_id) }));
  }

  /** The ids of the objects of a context below a table (fields, views, filters…) in those tables, by table. */
  async objectsIn(context: string, tableIds: readonly number[]): Promise<{ id: number; tableId: number }[]> {
    const below = BELOW_TABLE[context];
    if (!below || !tableIds.length) return [];
    const found: { id: number; tableId: number }[] = [];
    for (const table of below.tables) {
      const qb = this.db.manager.createQueryBuilder().select('o.id', 'id').from(table, 'o');
      if (below.viaView) qb.innerJoin('database_view', 'v', 'v.id = o.view_id').addSelect('v.table_id', 'table_id').where('v.table_id IN (:...tableIds)', { tableIds: [...tableIds] });
      else qb.addSelect('o.table_id', 'table_id').where('o.table_id IN (:...tableIds)', { tableIds: [...tableIds] });
      for (const r of await qb.getRawMany<Record<string, unknown>>()) found.push({ id: Number(r.id), tableId: Number(r.table_id) });
    }
    return found;
  }
}

/** The tables holding what each operation context names below a table (the role manager's exceptions list their ids). */
const BELOW_TABLE: Record<string, { tables: string[]; viaView: boolean }> = {
  field: { tables: ['database_field'], viaView: false },
  view: { tables: ['database_view'], viaView: false },
  view_filter: { tables: ['database_view_filter', 'database_view_filter_group'], viaView: true },
  view_sort: { tables: ['database_view_sort'], viaView: true },
  view_group_by: { tables: ['database_view_group_by'], viaView: true },
  view_decoration: { tables: ['database_view_decoration'], viaView: true },
};
