import { Injectable } from '@nestjs/common';
import { liveRow } from '../database/rows/table-schema.repository';
import { UnitOfWork } from '../core/database/unit-of-work';
import { WorkspaceUserEntity } from '../workspaces/workspace.entity';

/** The queries of the realtime module: audiences and page permission checks. */
@Injectable()
export class RealtimeRepository {
  constructor(private readonly db: UnitOfWork) {}

  /** WORKSPACES(ids): the distinct users that are members of any of the workspaces. */
  async memberUserIds(workspaceIds: number[]): Promise<number[]> {
    if (!workspaceIds.length) return [];
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('DISTINCT wu.user_id', 'user_id')
      .from(WorkspaceUserEntity, 'wu')
      .where('wu.workspace_id IN (:...workspaceIds)', { workspaceIds })
      .getRawMany<{ user_id: number | string }>();
    return rows.map((row) => Number(row.user_id));
  }

  /** Every workspace the user is a member of (trashed ones included, as Baserow reads them). */
  async workspaceIdsOfUser(userId: number): Promise<number[]> {
    const rows = await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { userId }, select: { workspaceId: true } });
    return rows.map((row) => row.workspaceId);
  }

  /** Whether live row `rowId` exists in `database_table_<tableId>`; a table without its SQL table has no rows. */
  async rowExists(tableId: number, rowId: number): Promise<boolean> {
    if (!Number.isSafeInteger(tableId)) return false;
    try {
      const row = await this.db.manager
        .createQueryBuilder()
        .select('r.id', 'id')
        .from(`database_table_${tableId}`, 'r')
        .where(`r.id = :rowId AND ${liveRow('r')}`, { rowId })
        .limit(1)
        .getRawOne();
      return row !== undefined;
    } catch {
      return false;
    }
  }
}
