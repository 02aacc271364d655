import { Injectable } from '@nestjs/common';
import { ApiError, Errors } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';
import { JobEntity, JobState } from './job.entity';
import { JobRepository } from './job.repository';

const STATES: JobState[] = ['pending', 'started', 'finished', 'failed', 'cancelled'];

/** A job as `/api/jobs/` shows it: the common keys and the type's own (`data`). */
export function serializeJob(job: JobEntity): Record<string, unknown> {
  return {
    id: job.id,
    type: job.type,
    progress_percentage: job.progressPercentage,
    state: job.state,
    human_readable_error: job.humanReadableError,
    ...job.data,
  };
}

@Injectable()
export class JobsService {
  constructor(private readonly repo: JobRepository) {}

  /** `states` is a comma list where `!state` excludes; `jobIds` a comma list of ids. */
  async list(user: UserEntity, states?: string, jobIds?: string): Promise<Record<string, unknown>[]> {
    let jobs = await this.repo.ofUser(user.id);
    if (states) {
      const wanted = states.split(',').map((s) => s.trim()).filter(Boolean);
      for (const state of wanted) {
        if (!STATES.includes(state.replace(/^!/, '') as JobState)) {
          throw new ApiError('ERROR_QUERY_PARAMETER_VALIDATION', 400, {
            states: [{ error: `"${state}" is not a valid choice.`, code: 'invalid_choice' }],
          });
        }
      }
      const include = wanted.filter((s) => !s.startsWith('!'));
      const exclude = wanted.filter((s) => s.startsWith('!')).map((s) => s.slice(1));
      jobs = jobs.filter((j) => (!include.length || include.includes(j.state)) && !exclude.includes(j.state));
    }
    if (jobIds) {
      const ids = jobIds.split(',').map((s) => s.trim());
      if (ids.some((id) => !/^\d+$/.test(id))) {
        throw new ApiError('ERROR_QUERY_PARAMETER_VALIDATION', 400, { job_ids: [{ error: 'A valid integer is required.', code: 'invalid' }] });
      }
      jobs = jobs.filter((j) => ids.includes(String(j.id)));
    }
    return jobs.map(serializeJob);
  }

  async get(user: UserEntity, id: number): Promise<Record<string, unknown>> {
    const job = await this.repo.find(id);
    if (!job || job.userId !== user.id) throw Errors.jobDoesNotExist();
    return serializeJob(job);
  }

  /** Cancels a job that has not finished; a finished or failed one is answered as it is. */
  async cancel(user: UserEntity, id: number): Promise<Record<string, unknown>> {
    const job = await this.repo.find(id);
    if (!job || job.userId !== user.id) throw Errors.jobDoesNotExist();
    if (job.state === 'pending' || job.state === 'started') {
      await this.repo.update(id, { state: 'cancelled' });
      job.state = 'cancelled';
    }
    return serializeJob(job);
  }
}
