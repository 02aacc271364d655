import { Injectable } from '@nestjs/common';
import { EntityTarget, MoreThan, ObjectLiteral } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApplicationEntity } from '../applications/application.entity';
import { UserEntity } from '../users/user.entity';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { TrashedRowsEntity, TrashEntryEntity } from './trash-entry.entity';

/** A trash entry with the first name of who trashed it, as the listing shows it. */
export interface TrashEntryRow {
  entry: TrashEntryEntity;
  userWhoTrashed: string | null;
}

@Injectable()
export class TrashRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get entries() {
    return this.db.manager.getRepository(TrashEntryEntity);
  }

  private get trashedRows() {
    return this.db.manager.getRepository(TrashedRowsEntity);
  }

  /**
   * Sets `trashed` on one live item (or clears it on a trashed one); false when another
   * write did it first, so exactly one of two racing deletes succeeds.
   */
  async setTrashed<E extends ObjectLiteral>(entity: EntityTarget<E>, id: number, trashed: boolean): Promise<boolean> {
    const result = await this.db.manager
      .createQueryBuilder()
      .update(entity)
      .set({ trashed } as never)
      .where('id = :id AND trashed = :was', { id, was: !trashed })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  createEntry(values: Partial<TrashEntryEntity>): Promise<TrashEntryEntity> {
    return this.entries.save(this.entries.create(values));
  }

  /** The entry of an item that is not marked for permanent deletion. */
  findEntry(type: string, itemId: number, parentId: number | null): Promise<TrashEntryEntity | null> {
    const query = this.entries
      .createQueryBuilder('e')
      .where('e.trash_item_type = :type AND e.trash_item_id = :itemId AND e.should_be_permanently_deleted = :f', { type, itemId, f: false });
    if (parentId === null) query.andWhere('e.parent_trash_item_id IS NULL');
    else query.andWhere('e.parent_trash_item_id = :parentId', { parentId });
    return query.getOne();
  }

  /** Removes an entry; false when another restore or deletion removed it first. */
  async deleteEntry(id: number): Promise<boolean> {
    const result = await this.entries.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Whether an item of this type has its own entry (trashed on its own, not with its parent). */
  async hasEntry(type: string, itemIds: number[]): Promise<Set<number>> {
    if (!itemIds.length) return new Set();
    const rows = await this.entries
      .createQueryBuilder('e')
      .select('e.trash_item_id', 'id')
      .where('e.trash_item_type = :type AND e.trash_item_id IN (:...itemIds)', { type, itemIds })
      .getRawMany<{ id: number }>();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** A page of a workspace's trash (optionally one application's), newest first, as `user` may see it. */
  /**
   * A page of the workspace's (or application's) entries the user may see: their own or nobody's
   * in particular, and none whose item lives in `hidden.tableIds` (each trash type saying in SQL
   * which of its entries do).
   */
  async page(
    workspaceId: number,
    applicationId: number | null,
    userId: number,
    limit: number,
    offset: number,
    hidden: { tableIds: number[]; inTables: { type: string; sql: string }[] },
  ): Promise<{ count: number; rows: TrashEntryRow[] }> {
    const query = this.entries
      .createQueryBuilder('e')
      .leftJoin(UserEntity, 'u', 'u.id = e.user_who_trashed_id')
      .addSelect('u.first_name', 'user_first_name')
      .where('e.workspace_id = :workspaceId AND e.should_be_permanently_deleted = :f', { workspaceId, f: false })
      .andWhere('(e.trash_item_owner_id IS NULL OR e.trash_item_owner_id = :userId)', { userId });
    if (applicationId !== null) query.andWhere('e.application_id = :applicationId', { applicationId });
    if (hidden.tableIds.length && hidden.inTables.length) {
      const types: Record<string, string> = {};
      const conditions = hidden.inTables.map(({ type, sql }, index) => {
        types[`hiddenType${index}`] = type;
        return `(e.trash_item_type = :hiddenType${index} AND ${sql})`;
      });
      query.andWhere(`NOT (${conditions.join(' OR ')})`, { ...types, hiddenTables: hidden.tableIds });
    }
    const count = await query.getCount();
    const raw = await query.orderBy('e.trashed_at', 'DESC').addOrderBy('e.id', 'DESC').limit(limit).offset(offset).getRawAndEntities();
    const names = new Map(raw.raw.map((r: Record<string, unknown>) => [Number(r.e_id), (r.user_first_name as string | null) ?? null]));
    return { count, rows: raw.entities.map((entry) => ({ entry, userWhoTrashed: names.get(entry.id) ?? null })) };
  }

  /** Marks a workspace's (or one application's) entries for permanent deletion. */
  async markForDeletion(workspaceId: number, applicationId: number | null): Promise<void> {
    const query = this.entries.createQueryBuilder().update(TrashEntryEntity).set({ shouldBePermanentlyDeleted: true }).where('workspace_id = :workspaceId', { workspaceId });
    if (applicationId !== null) query.andWhere('application_id = :applicationId', { applicationId });
    await query.execute();
  }

  /** Marks the entries trashed before `cutoff` for permanent deletion. */
  async markOlderThan(cutoff: Date): Promise<void> {
    await this.entries.createQueryBuilder().update(TrashEntryEntity).set({ shouldBePermanentlyDeleted: true }).where('trashed_at <= :cutoff', { cutoff: cutoff.toISOString() }).execute();
  }

  /** The next entry marked for permanent deletion after `afterId` (one at a time: deleting one may remove others). */
  nextMarked(afterId: number): Promise<TrashEntryEntity | null> {
    return this.entries.findOne({ where: { shouldBePermanentlyDeleted: true, id: MoreThan(afterId) }, order: { id: 'ASC' } });
  }

  /** Forgets the entries of a workspace, or of an application, deleted for good. */
  async deleteEntriesOf(scope: { workspaceId: number } | { applicationId: number }): Promise<void> {
    await this.entries.delete('workspaceId' in scope ? { workspaceId: scope.workspaceId } : { applicationId: scope.applicationId });
  }

  /** Whether the workspace or application is marked for permanent deletion (it then shows nowhere). */
  async isMarked(type: 'workspace' | 'application', id: number): Promise<boolean> {
    return (await this.entries.countBy({ trashItemType: type, trashItemId: id, shouldBePermanentlyDeleted: true })) > 0;
  }

  /** The user's workspaces, trashed ones included, in their own order. */
  async workspacesOfUser(userId: number): Promise<WorkspaceEntity[]> {
    const rows = await this.db.manager
      .getRepository(WorkspaceUserEntity)
      .createQueryBuilder('wu')
      .innerJoinAndMapOne('wu.workspace', WorkspaceEntity, 'w', 'w.id = wu.workspace_id')
      .where('wu.user_id = :userId', { userId })
      .orderBy('wu.order', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getMany();
    return rows.map((row) => (row as WorkspaceUserEntity & { workspace: WorkspaceEntity }).workspace);
  }

  /** A workspace, trashed or not. */
  findWorkspace(id: number): Promise<WorkspaceEntity | null> {
    return this.db.manager.getRepository(WorkspaceEntity).findOneBy({ id });
  }

  /** An application, trashed or not. */
  findApplication(id: number): Promise<ApplicationEntity | null> {
    return this.db.manager.getRepository(ApplicationEntity).findOneBy({ id });
  }

  /** Every application of the workspaces, trashed ones included, by order then id. */
  applicationsOf(workspaceIds: number[]): Promise<ApplicationEntity[]> {
    if (!workspaceIds.length) return Promise.resolve([]);
    return this.db.manager
      .getRepository(ApplicationEntity)
      .createQueryBuilder('a')
      .where('a.workspace_id IN (:...workspaceIds)', { workspaceIds })
      .orderBy('a.order', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
  }

  saveTrashedRows(tableId: number, rowIds: number[]): Promise<TrashedRowsEntity> {
    return this.trashedRows.save(this.trashedRows.create({ tableId, rowIds }));
  }

  findTrashedRows(id: number): Promise<TrashedRowsEntity | null> {
    return this.trashedRows.findOneBy({ id });
  }

  async deleteTrashedRows(id: number): Promise<void> {
    await this.trashedRows.delete({ id });
  }
}
