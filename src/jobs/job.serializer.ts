import type { JobEntity } from './job.entity';

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
