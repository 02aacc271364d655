import { Injectable } from '@nestjs/common';
import { ApplicationEntity } from '../applications/application.entity';
import { HiddenBuilds } from '../core/database/long-write';
import { UnitOfWork } from '../core/database/unit-of-work';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { TableEntity } from './table.entity';

/** A live table with what access checks need, read in one query. */
export interface TableAccessRow {
  table: TableEntity;
  workspaceId: number;
  /** Whether the asking user is a member of the table's workspace. */
  isMember: boolean;
}

@Injectable()
export class TableRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(TableEntity);
  }

  /** Live tables of the given databases, by order then id. */
  ofDatabases(databaseIds: number[]): Promise<TableEntity[]> {
    if (!databaseIds.length) return Promise.resolve([]);
    return this.repo
      .createQueryBuilder('t')
      .where('t.database_id IN (:...databaseIds) AND t.trashed = :f', { databaseIds, f: false })
      .orderBy('t.order', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }

  /**
   * The table if it, its database and its workspace are live, with its workspace and
   * whether `userId` is a member: one query per request, which also reads the version
   * counters the metadata and count caches are keyed by.
   */
  async findAccess(tableId: number, userId: number): Promise<TableAccessRow | null> {
    const raw = await this.repo
      .createQueryBuilder('t')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = a.workspace_id')
      .leftJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = w.id AND wu.user_id = :userId', { userId })
      .select(['t.id', 't.databaseId', 't.name', 't.order', 't.createdOn', 't.trashed', 't.fieldsVersion', 't.rowsVersion'])
      .addSelect('a.workspace_id', 'workspace_id')
      .addSelect('wu.id', 'membership_id')
      // A long write reaches what it builds hidden (see HiddenBuilds); no one else does.
      .where('t.id = :tableId AND (t.trashed = :f OR t.id IN (:...hiddenTables)) AND (a.trashed = :f OR a.id IN (:...hiddenApplications)) AND w.trashed = :f', {
        tableId,
        f: false,
        hiddenTables: HiddenBuilds.tables(),
        hiddenApplications: HiddenBuilds.applications(),
      })
      .getRawAndEntities();
    const table = raw.entities[0];
    if (!table) return null;
    return { table, workspaceId: Number(raw.raw[0].workspace_id), isMember: raw.raw[0].membership_id != null };
  }

  /** A table, trashed or not (the trash's lookups). */
  findAny(id: number): Promise<TableEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** Deletes the table's metadata for good (its fields and views go with it). */
  async delete(id: number): Promise<void> {
    await this.repo.delete({ id });
  }

  async create(values: Partial<TableEntity>): Promise<TableEntity> {
    return this.repo.save(this.repo.create(values));
  }

  async update(id: number, values: Partial<TableEntity>): Promise<void> {
    await this.repo.update(id, values);
  }

  async maxOrder(databaseId: number): Promise<number> {
    const row = await this.repo.createQueryBuilder('t').select('MAX(t.order)', 'max').where('t.database_id = :databaseId', { databaseId }).getRawOne();
    return Number(row?.max ?? 0);
  }

  /** Trashed tables created before `cutoff` (with the trash's entries, a long write's leftovers are told apart). */
  trashedCreatedBefore(cutoff: Date): Promise<TableEntity[]> {
    return this.repo.createQueryBuilder('t').where('t.trashed = :t AND t.created_on < :cutoff', { t: true, cutoff: cutoff.toISOString() }).getMany();
  }

  /** Ids of the live tables of a database. */
  async liveIdsOfDatabase(databaseId: number): Promise<number[]> {
    const rows = await this.repo.find({ where: { databaseId, trashed: false }, select: { id: true }, order: { id: 'ASC' } });
    return rows.map((row) => row.id);
  }

  /** Every table of the databases, trashed ones included (permanent deletion drops their SQL tables). */
  async allOfDatabase(databaseId: number): Promise<TableEntity[]> {
    return this.repo.find({ where: { databaseId } });
  }

  /**
   * Bumps the table's fields version inside the write's transaction. (Row writes are versioned
   * in memory: `UnitOfWork.rowsChanged`; the `rows_version` column is no longer written.)
   */
  async bump(tableId: number, counter: 'fields_version'): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(TableEntity)
      .set({ fieldsVersion: () => counter + ' + 1' })
      .where('id = :tableId', { tableId })
      .execute();
  }
}
