import { Injectable } from '@nestjs/common';
import type { JobEntity } from './job.entity';

/**
 * The jobs running on this instance, as their runner knows them now. Their progress is kept
 * here while they run and stored in the background: on SQLite a job's store waits for the job's
 * own transaction to end (the one connection has one writer), so pollers read it from here.
 * A cancel of a job running here is seen here at once, by the job and by pollers.
 */
@Injectable()
export class LiveJobs {
  private readonly jobs = new Map<number, JobEntity>();

  add(job: JobEntity): void {
    this.jobs.set(job.id, job);
  }

  delete(id: number): void {
    this.jobs.delete(id);
  }

  get(id: number): JobEntity | undefined {
    return this.jobs.get(id);
  }

  /** A stored job as it is now: a job running here shows its live state, progress, keys and error (a stored cancel wins). */
  overlay(stored: JobEntity): JobEntity;
  overlay(stored: JobEntity | null): JobEntity | null;
  overlay(stored: JobEntity | null): JobEntity | null {
    const live = stored && this.jobs.get(stored.id);
    if (!stored || !live) return stored;
    return Object.assign(Object.create(Object.getPrototypeOf(stored)) as JobEntity, stored, {
      state: stored.state === 'cancelled' ? 'cancelled' : live.state,
      progressPercentage: live.progressPercentage,
      data: live.data,
      // Its runner sets the final state and the error together, once both are stored: a poll sees both or neither.
      humanReadableError: live.humanReadableError,
    });
  }

  /** Marks the unfinished jobs running here that `which` picks as cancelled: their next progress report stops them. */
  cancel(which: (job: JobEntity) => boolean): JobEntity[] {
    const cancelled = [...this.jobs.values()].filter((job) => (job.state === 'pending' || job.state === 'started') && which(job));
    for (const job of cancelled) job.state = 'cancelled';
    return cancelled;
  }
}
