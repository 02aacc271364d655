import { Inject, Injectable } from '@nestjs/common';
import type { Dialect } from '../core/database/dialect';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { SnapshotEntity, SnapshotFileEntity } from './snapshot.entity';

/** A snapshot with the username (e-mail) of its creator, as listings show it. */
export interface ListedSnapshot {
  snapshot: SnapshotEntity;
  createdByUsername: string | null;
}

const FILE_BATCH = 500;

@Injectable()
export class SnapshotRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get repo() {
    return this.db.manager.getRepository(SnapshotEntity);
  }

  private get files() {
    return this.db.manager.getRepository(SnapshotFileEntity);
  }

  find(id: number): Promise<SnapshotEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The snapshot, its row locked until the transaction ends (call inside `db.run`): a restore and a deletion of it take turns. */
  async findForUpdate(id: number): Promise<SnapshotEntity | null> {
    await this.db.manager.query(`SELECT "id" FROM "core_snapshot" WHERE "id" = ${this.dialect.placeholder(1)}${this.dialect.forUpdate}`, [id]);
    return this.find(id);
  }

  /** Locks the application's row until the transaction ends: two snapshot creations of it take turns (PostgreSQL; SQLite has one writer). */
  async lockApplication(applicationId: number): Promise<void> {
    await this.db.manager.query(`SELECT "id" FROM "application" WHERE "id" = ${this.dialect.placeholder(1)}${this.dialect.forUpdate}`, [applicationId]);
  }

  create(values: Partial<SnapshotEntity>): Promise<SnapshotEntity> {
    return this.repo.save(this.repo.create(values));
  }

  async update(id: number, values: Partial<SnapshotEntity>): Promise<void> {
    await this.repo.update({ id }, values);
  }

  async delete(id: number): Promise<void> {
    await this.repo.delete({ id });
  }

  /** The restorable snapshots of an application, newest first (Baserow's order), with their creators' usernames. */
  async listReady(applicationId: number): Promise<ListedSnapshot[]> {
    const { entities, raw } = await this.repo
      .createQueryBuilder('s')
      .leftJoin('user', 'u', 'u.id = s.created_by_id')
      .addSelect('u.email', 'created_by_username')
      .where('s.snapshot_from_application_id = :applicationId AND s.state = :ready AND s.mark_for_deletion = :f', { applicationId, ready: 'ready', f: false })
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getRawAndEntities<{ created_by_username: string | null }>();
    return entities.map((snapshot, i) => ({ snapshot, createdByUsername: raw[i]?.created_by_username ?? null }));
  }

  /** The username (e-mail) of a user, for one snapshot's answer. */
  async username(userId: number | null): Promise<string | null> {
    if (userId === null) return null;
    const rows: { email: string }[] = await this.db.manager.query(`SELECT "email" FROM "user" WHERE "id" = ${this.dialect.placeholder(1)}`, [userId]);
    return rows[0]?.email ?? null;
  }

  /** Restorable snapshots of the workspace's applications (trashed ones included), for BASEROW_MAX_SNAPSHOTS_PER_GROUP. */
  async countReadyInWorkspace(workspaceId: number): Promise<number> {
    return this.repo
      .createQueryBuilder('s')
      .innerJoin('application', 'a', 'a.id = s.snapshot_from_application_id')
      .where('a.workspace_id = :workspaceId AND s.state = :ready AND s.mark_for_deletion = :f', { workspaceId, ready: 'ready', f: false })
      .getCount();
  }

  /** Snapshots of the application still being created. */
  creatingOf(applicationId: number): Promise<SnapshotEntity[]> {
    return this.repo.find({ where: { applicationId, state: 'creating', markForDeletion: false } });
  }

  /** Whether the user already has a restorable snapshot of that name of the application (Baserow's rule). */
  async nameTaken(applicationId: number, userId: number, name: string): Promise<boolean> {
    return (await this.repo.countBy({ applicationId, createdById: userId, name, state: 'ready', markForDeletion: false })) > 0;
  }

  async addFiles(snapshotId: number, names: string[]): Promise<void> {
    for (let i = 0; i < names.length; i += FILE_BATCH) {
      await this.files.insert(names.slice(i, i + FILE_BATCH).map((name) => ({ snapshotId, name })));
    }
  }

  /** Which of `names` some snapshot keeps. */
  async keptFiles(names: string[]): Promise<Set<string>> {
    if (!names.length) return new Set();
    const rows = await this.files.createQueryBuilder('f').select('DISTINCT f.name', 'name').where('f.name IN (:...names)', { names }).getRawMany<{ name: string }>();
    return new Set(rows.map((row) => row.name));
  }

  /**
   * Snapshots to delete: marked for deletion, of an application deleted for good, created
   * before `expiredBefore`, or still `creating` since before `staleBefore` (the service checks
   * their jobs).
   */
  toDelete(expiredBefore: Date, staleBefore: Date): Promise<SnapshotEntity[]> {
    return this.repo
      .createQueryBuilder('s')
      .leftJoin('application', 'a', 'a.id = s.snapshot_from_application_id')
      .where('s.mark_for_deletion = :t OR a.id IS NULL OR s.created_at < :expired OR (s.state = :creating AND s.created_at < :stale)', {
        t: true,
        expired: expiredBefore.toISOString(),
        creating: 'creating',
        stale: staleBefore.toISOString(),
      })
      .orderBy('s.id', 'ASC')
      .getMany();
  }
}
