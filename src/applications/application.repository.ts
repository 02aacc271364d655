import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { ApplicationEntity } from './application.entity';

@Injectable()
export class ApplicationRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(ApplicationEntity);
  }

  /** Trashed applications created before `cutoff` (with the trash's entries, a long write's leftovers are told apart). */
  trashedCreatedBefore(cutoff: Date): Promise<ApplicationEntity[]> {
    return this.repo.createQueryBuilder('a').where('a.trashed = :t AND a.created_on < :cutoff', { t: true, cutoff: cutoff.toISOString() }).getMany();
  }

  /** An application that is not trashed, in a workspace that is not trashed. */
  findLive(id: number): Promise<ApplicationEntity | null> {
    return this.repo
      .createQueryBuilder('a')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = a.workspace_id')
      .where('a.id = :id AND a.trashed = :f AND w.trashed = :f', { id, f: false })
      .getOne();
  }

  /** Live applications of the given workspaces, by workspace id, then order, then id. */
  ofWorkspaces(workspaceIds: number[]): Promise<ApplicationEntity[]> {
    if (!workspaceIds.length) return Promise.resolve([]);
    return this.repo
      .createQueryBuilder('a')
      .where('a.workspace_id IN (:...workspaceIds) AND a.trashed = :f', { workspaceIds, f: false })
      .orderBy('a.workspace_id', 'ASC')
      .addOrderBy('a.order', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
  }

  /** Live applications in every live workspace the user is a member of. */
  ofUser(userId: number): Promise<ApplicationEntity[]> {
    return this.repo
      .createQueryBuilder('a')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = a.workspace_id')
      .innerJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = a.workspace_id AND wu.user_id = :userId', { userId })
      .where('a.trashed = :f AND w.trashed = :f', { f: false })
      .orderBy('a.workspace_id', 'ASC')
      .addOrderBy('a.order', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
  }

  async maxOrder(workspaceId: number): Promise<number> {
    const row = await this.repo
      .createQueryBuilder('a')
      .select('MAX(a.order)', 'max')
      .where('a.workspace_id = :workspaceId', { workspaceId })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /** An application, trashed or not (the trash's lookups). */
  findAny(id: number): Promise<ApplicationEntity | null> {
    return this.repo.findOneBy({ id });
  }

  async delete(id: number): Promise<void> {
    await this.repo.delete({ id });
  }

  create(values: Partial<ApplicationEntity>): Promise<ApplicationEntity> {
    return this.repo.save(this.repo.create(values));
  }

  update(id: number, values: Partial<ApplicationEntity>): Promise<unknown> {
    return this.repo.update({ id }, values);
  }

  /** Every application of the workspace, trashed ones included. */
  allOfWorkspace(workspaceId: number): Promise<ApplicationEntity[]> {
    return this.repo.find({ where: { workspaceId } });
  }

  /** Ids of the workspace's applications that are not trashed, by order then id. */
  async liveIdsOfWorkspace(workspaceId: number): Promise<number[]> {
    const rows = await this.repo.find({ where: { workspaceId, trashed: false }, select: { id: true }, order: { order: 'ASC', id: 'ASC' } });
    return rows.map((row) => row.id);
  }
}
