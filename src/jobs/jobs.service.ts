import { Injectable } from '@nestjs/common';
import { ApiError, Errors, queryValidationError } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';
import { JOB_STATES as STATES, JobEntity, JobState } from './job.entity';
import { JobRepository } from './job.repository';
import { JobRunner } from './job-runner';
import { serializeJob } from './job.serializer';

export { serializeJob };

export const JobErrors = {
  notCancellable: () => new ApiError('ERROR_JOB_NOT_CANCELLABLE', 400, 'The job cannot be cancelled'),
};

@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobRepository,
    private readonly runner: JobRunner,
  ) {}

  /**
   * `states` is a comma list where `!state` excludes; `jobIds` a comma list of ids. Bad values
   * answer Baserow's query-parameter validation errors.
   */
  async list(user: UserEntity, states?: string, jobIds?: string): Promise<Record<string, unknown>[]> {
    let jobs = await this.repo.ofUser(user.id);
    if (states) {
      const wanted = states.split(',');
      for (const state of wanted) {
        const name = state.startsWith('!') ? state.slice(1) : state;
        if (!STATES.includes(name as JobState)) {
          throw queryValidationError({
            states: [{ error: `State ${name} is not a valid state. Valid states are: ${STATES.join(', ')}.`, code: 'invalid' }],
          });
        }
      }
      const include = wanted.filter((s) => !s.startsWith('!'));
      const exclude = wanted.filter((s) => s.startsWith('!')).map((s) => s.slice(1));
      jobs = jobs.filter((j) => (!include.length || include.includes(j.state)) && !exclude.includes(j.state));
    }
    if (jobIds) {
      const ids: number[] = [];
      for (const raw of jobIds.split(',')) {
        if (!/^\s*[-+]?\d+\s*$/.test(raw)) {
          throw queryValidationError({ job_ids: [{ error: `Job id ${raw} is not a valid integer.`, code: 'invalid' }] });
        }
        ids.push(Number(raw));
      }
      jobs = jobs.filter((j) => ids.includes(j.id));
    }
    return jobs.map(serializeJob);
  }

  async get(user: UserEntity, id: number): Promise<Record<string, unknown>> {
    return serializeJob(await this.own(user, id));
  }

  /** Cancels a pending or running job; one that has ended cannot be cancelled. */
  async cancel(user: UserEntity, id: number): Promise<Record<string, unknown>> {
    const job = await this.own(user, id);
    if (job.state !== 'pending' && job.state !== 'started') throw JobErrors.notCancellable();
    // A job running here stores its cancel itself (on SQLite once its transaction has ended).
    if (!this.runner.cancel(id)) await this.repo.update(id, { state: 'cancelled' });
    job.state = 'cancelled';
    return serializeJob(job);
  }

  /** The user's own job; another user's job is answered as not existing. */
  private async own(user: UserEntity, id: number): Promise<JobEntity> {
    const job = await this.repo.find(id);
    if (!job || job.userId !== user.id) throw Errors.jobDoesNotExist();
    return job;
  }
}
