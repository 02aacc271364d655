import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import type { ApplicationEntity } from '../applications/application.entity';
import { ApplicationRepository } from '../applications/application.repository';
import { ApplicationType, ApplicationTypeRegistry } from '../applications/application-type';
import { ApplicationsService } from '../applications/applications.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, Errors } from '../core/errors/api-error';
import { UnusedUserFilesService } from '../database/files/unused-user-files.service';
import { FileNotStoredError } from '../files/storage/file-storage';
import { JobProgress, JobRunner } from '../jobs/job-runner';
import { JobRepository } from '../jobs/job.repository';
import { serializeJob } from '../jobs/job.serializer';
import type { UserEntity } from '../users/user.entity';
import { ApplicationOperations as A, OperationType, PermissionService } from '../permissions';
import { SnapshotEntity } from './snapshot.entity';
import { SnapshotRepository } from './snapshot.repository';
import { serializeSnapshot, SnapshotJson } from './snapshot.serializer';
import { SnapshotStore } from './snapshot-store';
import { SnapshotErrors } from './snapshots.errors';

/** A `creating` snapshot without a job id yet is being started by a request (or was, before a crash, when older). */
export const STARTING_CREATE_MAX_AGE_MS = 3600 * 1000;

/**
 * Snapshots of applications (Baserow's SnapshotHandler): a `create_snapshot` job writes the
 * application's document (its type's streamed export) compressed to the file storage; a
 * `restore_snapshot` job builds a new application from it beside the original, hidden until
 * its last transaction (all or nothing). Any member of the workspace may list, create, restore
 * and delete them (Baserow's core permissions; only its enterprise roles narrow this to admins).
 */
@Injectable()
export class SnapshotsService implements OnModuleInit {
  private readonly logger = new Logger(SnapshotsService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: SnapshotRepository,
    private readonly store: SnapshotStore,
    private readonly applications: ApplicationsService,
    private readonly applicationRepo: ApplicationRepository,
    private readonly types: ApplicationTypeRegistry,
    private readonly permissions: PermissionService,
    private readonly runner: JobRunner,
    private readonly jobs: JobRepository,
    private readonly actions: ActionLog,
    private readonly unusedFiles: UnusedUserFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // The files a snapshot's cells name stay while the snapshot does (a restored file cell downloads).
    this.unusedFiles.keep((names) => this.repo.keptFiles(names));
  }

  async list(user: UserEntity, applicationId: number): Promise<SnapshotJson[]> {
    const application = await this.applicationRepo.findLive(applicationId);
    if (!application) throw Errors.applicationDoesNotExist();
    await this.permissions.require(user.id, A.listSnapshots, { workspaceId: application.workspaceId, applicationId: application.id });
    return (await this.repo.listReady(application.id)).map(({ snapshot, createdByUsername }) => serializeSnapshot(snapshot, createdByUsername));
  }

  /** Checks what Baserow checks, in its order, then starts the `create_snapshot` job (202 with the pending job). */
  async startCreate(user: UserEntity, applicationId: number, name: string): Promise<Record<string, unknown>> {
    const snapshot = await this.db.run(async () => {
      const application = await this.applicationRepo.findLive(applicationId);
      if (!application) throw Errors.applicationDoesNotExist();
      await this.permissions.require(user.id, A.createSnapshot, { workspaceId: application.workspaceId, applicationId: application.id });
      await this.permissions.requireWholeDatabases(user.id, application.workspaceId, [application.id]);
      this.snapshotType(application);
      await this.repo.lockApplication(application.id);
      const max = this.config.snapshots.maxPerWorkspace;
      if (max >= 0 && (await this.repo.countReadyInWorkspace(application.workspaceId)) >= max) throw SnapshotErrors.maximumReached();
      for (const creating of await this.repo.creatingOf(application.id)) if (await this.creating(creating)) throw SnapshotErrors.isBeingCreated();
      if (await this.repo.nameTaken(application.id, user.id, name)) throw SnapshotErrors.nameNotUnique();
      return this.repo.create({ name, applicationId: application.id, createdById: user.id, createdAt: new Date(), state: 'creating', markForDeletion: false, size: 0 });
    });
    const json = serializeSnapshot(snapshot, user.email);
    const job = await this.startJob(user, 'create_snapshot', json, (progress) => this.create(user, snapshot.id, progress)).catch(async (error: unknown) => {
      await this.db.run(() => this.repo.delete(snapshot.id));
      throw error;
    });
    await this.db.run(() => this.repo.update(snapshot.id, { createJobId: Number(job.id) }));
    return job;
  }

  /**
   * Checks the snapshot can be restored now, then starts the `restore_snapshot` job (200 with the
   * pending job) and notes it on the snapshot, checking again under the lock: a deletion or
   * another restore that passed its checks meanwhile wins, and this job is cancelled before it
   * builds anything.
   */
  async startRestore(user: UserEntity, snapshotId: number): Promise<Record<string, unknown>> {
    const snapshot = await this.db.run(async () => {
      const { snapshot, application } = await this.usable(user, snapshotId, A.restoreSnapshot);
      await this.permissions.requireWholeDatabases(user.id, application.workspaceId, [application.id]);
      if (snapshot.state !== 'ready') throw SnapshotErrors.isBeingCreated();
      return snapshot;
    });
    const json = serializeSnapshot(snapshot, await this.repo.username(snapshot.createdById));
    const job = await this.startJob(user, 'restore_snapshot', json, (progress) => this.restore(user, snapshot.id, progress));
    try {
      await this.db.run(async () => {
        const current = await this.repo.findForUpdate(snapshot.id);
        if (!current || current.applicationId === null) throw SnapshotErrors.doesNotExist();
        if (current.markForDeletion) throw SnapshotErrors.isBeingDeleted();
        if (current.restoreJobId !== snapshot.restoreJobId && current.restoreJobId !== null && (await this.jobRunning(current.restoreJobId))) throw SnapshotErrors.isBeingRestored();
        await this.repo.update(snapshot.id, { restoreJobId: Number(job.id) });
      });
    } catch (error) {
      this.runner.cancel(Number(job.id));
      throw error;
    }
    return job;
  }

  /** Marks the snapshot deleted (it is then seen nowhere), then removes its document and it. */
  async delete(user: UserEntity, snapshotId: number): Promise<void> {
    const snapshot = await this.db.run(async () => {
      const { snapshot, application } = await this.usable(user, snapshotId, A.deleteSnapshot);
      await this.repo.update(snapshot.id, { markForDeletion: true });
      this.record('delete_snapshot', application, snapshot);
      return snapshot;
    });
    // Marked, it is seen nowhere: what is left after a failure here (its file in an unreachable bucket) goes with the next cleanup.
    await this.purge(snapshot).catch((error: unknown) => this.logger.warn(`Deleting snapshot ${snapshot.id} failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Deletes a snapshot's document, then the snapshot (its file references with it). */
  async purge(snapshot: SnapshotEntity): Promise<void> {
    if (snapshot.storageKey) await this.store.delete(snapshot.storageKey);
    await this.db.run(() => this.repo.delete(snapshot.id));
  }

  /** Whether a `creating` snapshot's job may still finish it. */
  async creating(snapshot: SnapshotEntity): Promise<boolean> {
    if (snapshot.createJobId === null) return Date.now() - snapshot.createdAt.getTime() < STARTING_CREATE_MAX_AGE_MS;
    return this.jobRunning(snapshot.createJobId);
  }

  private async jobRunning(jobId: number): Promise<boolean> {
    const job = await this.jobs.find(jobId);
    return !!job && (job.state === 'pending' || job.state === 'started');
  }

  /**
   * The snapshot (locked) and its application, for a restore or a deletion: 404 when it or its
   * application is gone (a trashed application's snapshots stay usable, as in Baserow), 400 when
   * the user is not a member, when it is being restored or was deleted.
   */
  private async usable(user: UserEntity, snapshotId: number, operation: OperationType): Promise<{ snapshot: SnapshotEntity; application: ApplicationEntity }> {
    const snapshot = await this.repo.findForUpdate(snapshotId);
    const application = snapshot?.applicationId ? await this.applicationRepo.findAny(snapshot.applicationId) : null;
    if (!snapshot || !application) throw SnapshotErrors.doesNotExist();
    await this.permissions.require(user.id, operation, { workspaceId: application.workspaceId, applicationId: application.id });
    this.snapshotType(application);
    if (snapshot.restoreJobId !== null && (await this.jobRunning(snapshot.restoreJobId))) throw SnapshotErrors.isBeingRestored();
    if (snapshot.markForDeletion) throw SnapshotErrors.isBeingDeleted();
    return { snapshot, application };
  }

  /** The application's type, when it can be snapshotted (streamed export and import). */
  private snapshotType(application: ApplicationEntity): ApplicationType & Required<Pick<ApplicationType, 'exportParts'>> {
    const type = this.types.get(application.type);
    if (!type?.exportParts || !type.importSerialized) throw SnapshotErrors.operationNotSupported();
    return type as ApplicationType & Required<Pick<ApplicationType, 'exportParts'>>;
  }

  /** Starts a job (one running per type and user: Baserow's ERROR_SNAPSHOT_OPERATION_LIMIT_EXCEEDED beyond). */
  private async startJob(user: UserEntity, type: string, snapshot: SnapshotJson, work: (progress: JobProgress) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    try {
      return serializeJob(await this.runner.start(user, type, { snapshot }, work));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERROR_MAX_JOB_COUNT_EXCEEDED') throw SnapshotErrors.operationLimitExceeded();
      throw error;
    }
  }

  /** The `create_snapshot` job's work: the document written, then the snapshot made restorable (or, on any failure, deleted). */
  private async create(user: UserEntity, snapshotId: number, progress: JobProgress): Promise<Record<string, unknown>> {
    let key: string | null = null;
    try {
      const snapshot = await this.repo.find(snapshotId);
      const application = snapshot?.applicationId ? await this.applicationRepo.findLive(snapshot.applicationId) : null;
      if (!snapshot || snapshot.markForDeletion) throw SnapshotErrors.doesNotExist();
      if (!application) throw Errors.applicationDoesNotExist();
      await this.permissions.require(user.id, A.createSnapshot, { workspaceId: application.workspaceId, applicationId: application.id });
      await this.permissions.requireWholeDatabases(user.id, application.workspaceId, [application.id]);
      const type = this.snapshotType(application);
      let rows = 0;
      // The row count is not known beforehand: the progress approaches 95 % as rows are written.
      const written = await this.store.write(type.exportParts(application), async (batch) => {
        rows += batch;
        await progress.set({ progress: Math.floor((95 * rows) / (rows + 20_000)) });
      });
      key = written.key;
      const ready = await this.db.run(async () => {
        const current = await this.repo.findForUpdate(snapshotId);
        if (!current || current.markForDeletion || current.applicationId === null) throw SnapshotErrors.doesNotExist();
        await this.repo.update(snapshotId, { state: 'ready', storageKey: written.key, size: written.size });
        await this.repo.addFiles(snapshotId, [...written.files]);
        this.record('create_snapshot', application, current);
        return { ...current, state: 'ready' as const, storageKey: written.key };
      });
      return { snapshot: serializeSnapshot(ready, user.email) };
    } catch (error) {
      if (key) await this.store.delete(key).catch(() => undefined);
      await this.db.run(async () => {
        const current = await this.repo.findForUpdate(snapshotId);
        if (current?.state === 'creating') await this.repo.delete(snapshotId);
      });
      throw error;
    }
  }

  /** The `restore_snapshot` job's work: a new application from the document, shown only if the snapshot and its application are still there. */
  private async restore(user: UserEntity, snapshotId: number, progress: JobProgress): Promise<Record<string, unknown>> {
    const gone = async (): Promise<{ snapshot: SnapshotEntity; application: ApplicationEntity }> => {
      const snapshot = await this.repo.find(snapshotId);
      const application = snapshot?.applicationId ? await this.applicationRepo.findAny(snapshot.applicationId) : null;
      if (!snapshot || !application || snapshot.markForDeletion || !snapshot.storageKey) throw SnapshotErrors.doesNotExist();
      await this.permissions.require(user.id, A.restoreSnapshot, { workspaceId: application.workspaceId, applicationId: application.id });
      await this.permissions.requireWholeDatabases(user.id, application.workspaceId, [application.id]);
      return { snapshot, application };
    };
    const { snapshot, application } = await gone();
    try {
      const { document, rows } = await this.store.open(snapshot.storageKey!);
      await progress.set({ progress: 5 });
      await this.applications.restoreDocument(
        user,
        application.workspaceId,
        document,
        snapshot.name,
        async () => {
          // The last transaction: the snapshot (locked against a deletion) and its application must still be there.
          await this.repo.findForUpdate(snapshotId);
          await gone();
        },
        (restored) => this.record('restore_snapshot', restored, snapshot, { originalApplicationId: application.id, originalApplicationName: application.name }),
        (done, total) => progress.set({ progress: 5 + Math.floor((93 * done) / Math.max(1, total)) }),
        rows,
      );
    } catch (error) {
      // Its file deleted under it (an expired snapshot): the snapshot is gone.
      if (error instanceof FileNotStoredError) throw SnapshotErrors.doesNotExist();
      throw error;
    }
    return {};
  }

  /** Records a snapshot action of the workspace (not undoable, as in Baserow: for the audit log). */
  private record(type: string, application: ApplicationEntity, snapshot: SnapshotEntity, extra: Record<string, unknown> = {}): void {
    this.actions.record(
      type,
      { applicationId: application.id, applicationName: application.name, snapshotId: snapshot.id, snapshotName: snapshot.name, ...extra },
      { scope: ActionScopes.workspace(application.workspaceId), workspaceId: application.workspaceId },
    );
  }
}
