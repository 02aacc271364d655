import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RequestContext } from '../core/context/request-context';
import { ApiError } from '../core/errors/api-error';
import { InFlight } from '../core/lifecycle/in-flight';
import type { UserEntity } from '../users/user.entity';
import { JobEntity } from './job.entity';
import { JobRepository } from './job.repository';
import { UnitOfWork } from '../core/database/unit-of-work';

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
 */
@Injectable()
export class JobRunner implements OnApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly repo: JobRepository,
    private readonly inFlight: InFlight,
    private readonly db: UnitOfWork,
  ) {}

  /** Creates the job (one running job per type and user) and schedules `work`; answers the pending job. */
  async start(user: UserEntity, type: string, data: Record<string, unknown>, work: (progress: JobProgress) => Promise<Record<string, unknown>>): Promise<JobEntity> {
    if ((await this.repo.countRunning(user.id, type)) > 0) throw maxJobCountExceeded();
    const actor = RequestContext.current();
    const job = await this.repo.create({ userId: user.id, type, state: 'pending', progressPercentage: 0, humanReadableError: '', webSocketId: actor.webSocketId, data });
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => RequestContext.run({ userId: user.id, webSocketId: actor.webSocketId }, () => this.execute(job, work)))
      .finally(() => this.running.delete(task));
    this.running.add(task);
    // Graceful shutdown waits for it (up to its deadline).
    void this.inFlight.track(task);
    return job;
  }

  private async execute(job: JobEntity, work: (progress: JobProgress) => Promise<Record<string, unknown>>): Promise<void> {
    const progress: JobProgress = {
      job,
      set: ({ progress: percentage, data }) =>
        this.db.outside(async () => {
          if ((await this.repo.find(job.id))?.state === 'cancelled') throw new JobCancelledError();
          if (data) job.data = { ...job.data, ...data };
          if (percentage !== undefined) job.progressPercentage = Math.max(0, Math.min(100, Math.floor(percentage)));
          await this.repo.update(job.id, { progressPercentage: job.progressPercentage, data: job.data });
        }),
    };
    try {
      // A job cancelled before it started does not run.
      if ((await this.repo.find(job.id))?.state === 'cancelled') return;
      await this.repo.update(job.id, { state: 'started' });
      const data = await work(progress);
      job.data = { ...job.data, ...data };
      const cancelled = (await this.repo.find(job.id))?.state === 'cancelled';
      await this.repo.update(job.id, { state: cancelled ? 'cancelled' : 'finished', progressPercentage: 100, data: job.data });
    } catch (error) {
      // Written after the work's transaction rolled back (on SQLite the cancel itself was part of it).
      if (error instanceof JobCancelledError) {
        await this.repo.update(job.id, { state: 'cancelled' }).catch(() => undefined);
        return;
      }
      const message = error instanceof ApiError ? (typeof error.detail === 'string' && error.detail ? error.detail : error.code) : 'Something went wrong.';
      if (!(error instanceof ApiError)) this.logger.error(`Job ${job.id} (${job.type}) failed`, error instanceof Error ? error.stack : String(error));
      // A failure may carry keys of the job's own (an import's report of the rows that failed).
      if (error instanceof JobFailure) job.data = { ...job.data, ...error.data };
      await this.repo.update(job.id, { state: 'failed', humanReadableError: message, data: job.data }).catch(() => undefined);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
