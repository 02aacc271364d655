import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RequestContext } from '../core/context/request-context';
import { ApiError } from '../core/errors/api-error';
import { InFlight } from '../core/lifecycle/in-flight';
import type { UserEntity } from '../users/user.entity';
import { JobEntity } from './job.entity';
import { JobRepository } from './job.repository';
import { UnitOfWork } from '../core/database/unit-of-work';
import { LiveJobs } from './live-jobs';
import { serializeJob } from './job.serializer';
import { yieldTurn } from '../core/lifecycle/yield-turn';

/**
 * What a job's work can do while it runs: report progress and keys of the job's own. The
 * report is written outside the work's transaction (pollers see it) and throws
 * `JobCancelledError` once the job was cancelled, so the work stops and its transaction rolls back.
 */
export interface JobProgress {
  job: JobEntity;
  set(values: { progress?: number; data?: Record<string, unknown> }): Promise<void>;
}

/** A job's failure with a readable error and keys the failed job keeps (e.g. an import's report). */
export class JobFailure extends ApiError {
  constructor(
    code: string,
    detail: string,
    readonly data: Record<string, unknown>,
  ) {
    super(code, 400, detail);
  }
}

/** Thrown by a progress report of a cancelled job: the work stops, nothing it wrote stays. */
export class JobCancelledError extends Error {
  constructor() {
    super('The job was cancelled.');
  }
}

export const maxJobCountExceeded = (): ApiError => new ApiError('ERROR_MAX_JOB_COUNT_EXCEEDED', 400, 'Max running job count for this type is exceeded.');

/**
 * Runs background jobs in this process: the job row is created (pending) before the
 * request answers, the work runs right after as the requesting user and socket (so its
 * broadcasts leave that socket out), and the row records progress, the type's keys, and
 * `finished` or `failed` with a readable error. Shutdown waits for running jobs.
 *
 * While a job runs, its progress lives in memory (LiveJobs), where pollers of this instance
 * read it, and is stored in the background, at most one write at a time: on SQLite that write
 * waits for the job's own transaction to end (one connection, one writer), on PostgreSQL it
 * commits at once, for other instances. A cancel of a job running here reaches it through
 * memory too, so it stops at its next progress report even while its transaction is open.
 */
@Injectable()
export class JobRunner implements OnApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  private readonly running = new Set<Promise<void>>();
  /** Per running job: the background store of its progress under way, and whether another is due after it. */
  private readonly stores = new Map<number, { writing: Promise<void>; again: boolean }>();

  constructor(
    private readonly repo: JobRepository,
    private readonly inFlight: InFlight,
    private readonly db: UnitOfWork,
    private readonly live: LiveJobs,
  ) {}

  /** Creates the job (one running job per type and user) and schedules `work`; answers the pending job. */
  /** `user` null: a job nobody signed in started (a shared view's public export), readable by its signed id only. */
  async start(user: UserEntity | null, type: string, data: Record<string, unknown>, work: (progress: JobProgress) => Promise<Record<string, unknown>>): Promise<JobEntity> {
    if (user && (await this.repo.countRunning(user.id, type)) > 0) throw maxJobCountExceeded();
    const actor = RequestContext.current();
    const job = await this.repo.create({ userId: user?.id ?? null, type, state: 'pending', progressPercentage: 0, humanReadableError: '', webSocketId: actor.webSocketId, data });
    this.live.add(job);
    // The work is no part of the starting request's transaction, if it has one.
    const task = this.db
      .outside(async () => {
        await yieldTurn();
        // The job's actions join the starting request's undo session and action group; its row
        // changes (an import) call no webhooks, as in Baserow.
        const undo = { clientSessionId: actor.clientSessionId ?? null, actionGroupId: actor.actionGroupId ?? null };
        await RequestContext.run({ userId: user?.id ?? null, webSocketId: actor.webSocketId, sendWebhookEvents: false, ipAddress: actor.ipAddress ?? null, ...undo }, () => this.execute(job, work));
      })
      .finally(() => {
        this.running.delete(task);
        this.live.delete(job.id);
      });
    this.running.add(task);
    // Graceful shutdown waits for it (up to its deadline).
    void this.inFlight.track(task);
    return job;
  }

  /** Cancels a job running on this instance (answers false when it runs nowhere here): it stops at its next progress report. */
  cancel(id: number): boolean {
    const [job] = this.live.cancel((candidate) => candidate.id === id);
    if (!job) return false;
    this.store(job);
    return true;
  }

  private async execute(job: JobEntity, work: (progress: JobProgress) => Promise<Record<string, unknown>>): Promise<void> {
    const progress: JobProgress = {
      job,
      set: async ({ progress: percentage, data }) => {
        if (await this.cancelled(job)) throw new JobCancelledError();
        if (data) job.data = { ...job.data, ...data };
        if (percentage !== undefined) job.progressPercentage = Math.max(0, Math.min(100, Math.floor(percentage)));
        this.store(job);
      },
    };
    try {
      // A job cancelled before it started does not run.
      if (await this.cancelled(job)) return await this.end(job, { state: 'cancelled' });
      job.state = 'started';
      // Its creator's sockets hear of it once that is stored (Baserow's `job_started`).
      await this.db.run(async () => {
        await this.repo.update(job.id, { state: 'started' });
        if (job.userId !== null) this.db.record('job.started', { userId: job.userId, job: serializeJob(job) });
      });
      const data = await work(progress);
      job.data = { ...job.data, ...data };
      const cancelled = await this.cancelled(job);
      job.progressPercentage = 100;
      await this.end(job, { state: cancelled ? 'cancelled' : 'finished', progressPercentage: 100, data: job.data });
    } catch (error) {
      // Written after the work's transaction rolled back.
      if (error instanceof JobCancelledError || job.state === 'cancelled') {
        await this.end(job, { state: 'cancelled' }).catch(() => undefined);
        return;
      }
      const message = error instanceof ApiError ? (typeof error.detail === 'string' && error.detail ? error.detail : error.code) : 'Something went wrong.';
      if (!(error instanceof ApiError)) this.logger.error(`Job ${job.id} (${job.type}) failed`, error instanceof Error ? error.stack : String(error));
      // A failure may carry keys of the job's own (an import's report of the rows that failed).
      if (error instanceof JobFailure) job.data = { ...job.data, ...error.data };
      await this.end(job, { state: 'failed', humanReadableError: message, data: job.data }).catch(() => undefined);
    }
  }

  /**
   * Whether the job was cancelled, here (in memory) or by another instance (stored). Asked in
   * the work's transaction when there is one (a progress report of a one-transaction import):
   * the job's row is not written there, so it reads the committed state as well, at once on the
   * connection the work holds. Read outside it, on SQLite it would go to a read worker while
   * the work holds the one writer, which then waits on that worker (one busy with a long scan,
   * or still starting) and every other write with it.
   */
  private async cancelled(job: JobEntity): Promise<boolean> {
    if (job.state === 'cancelled') return true;
    const stored = await this.repo.find(job.id);
    if (stored?.state === 'cancelled') job.state = 'cancelled';
    return job.state === 'cancelled';
  }

  /** Stores the job's progress, keys and a cancel in the background (one write at a time; a later one follows with the latest values). */
  private store(job: JobEntity): void {
    const pending = this.stores.get(job.id);
    if (pending) {
      pending.again = true;
      return;
    }
    const entry = { writing: Promise.resolve(), again: false };
    entry.writing = this.db
      .outside(async () => {
        try {
          do {
            entry.again = false;
            await this.repo.update(job.id, { progressPercentage: job.progressPercentage, data: job.data, ...(job.state === 'cancelled' ? { state: 'cancelled' as const } : {}) });
          } while (entry.again);
        } finally {
          // In the same step as the last check of `again`: a report after it starts a new write.
          this.stores.delete(job.id);
        }
      })
      .catch((error: unknown) => this.logger.warn(`Storing the progress of job ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`));
    this.stores.set(job.id, entry);
  }

  /**
   * The job's last state, stored after its progress writes; pollers of this instance see it once
   * stored (a poller told "finished" finds everything the job wrote, its own row included).
   */
  private async end(job: JobEntity, values: Partial<JobEntity>): Promise<void> {
    await this.stores.get(job.id)?.writing;
    await this.db.outside(() => this.repo.update(job.id, values));
    Object.assign(job, values);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
