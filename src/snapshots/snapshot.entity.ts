import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/** `creating` while its job writes the document; `ready` once restorable (Baserow's `restorable()`). */
export type SnapshotState = 'creating' | 'ready';

/** A snapshot of an application (Baserow's `Snapshot`): its document lives in the file storage. */
@Entity('core_snapshot')
export class SnapshotEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 160 })
  name: string;

  /** NULL once the application was deleted for good (the cleanup then deletes the snapshot). */
  @Column({ name: 'snapshot_from_application_id', type: 'integer', nullable: true })
  applicationId: number | null;

  @Column({ name: 'created_by_id', type: 'integer', nullable: true })
  createdById: number | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 16, default: 'creating' })
  state: SnapshotState;

  /** Deleted (or expired): no longer usable; the cleanup removes its document, then it. */
  @Column({ name: 'mark_for_deletion', type: 'boolean', default: false })
  markForDeletion: boolean;

  @Column({ name: 'storage_key', type: 'varchar', length: 255, nullable: true })
  storageKey: string | null;

  /** Bytes of the compressed document. */
  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  size: number;

  /** The `create_snapshot` job writing it (while `creating`). */
  @Column({ name: 'create_job_id', type: 'integer', nullable: true })
  createJobId: number | null;

  /** The last `restore_snapshot` job started from it. */
  @Column({ name: 'restore_job_id', type: 'integer', nullable: true })
  restoreJobId: number | null;
}

/** A user file a snapshot's cells name: kept from the unused-files cleanup while the snapshot exists. */
@Entity('core_snapshot_file')
export class SnapshotFileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'snapshot_id', type: 'integer' })
  snapshotId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;
}

export const SNAPSHOT_ENTITIES = [SnapshotEntity, SnapshotFileEntity];
