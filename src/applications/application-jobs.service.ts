import { Injectable } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner';
import { serializeJob } from '../jobs/jobs.service';
import type { UserEntity } from '../users/user.entity';
import { ApplicationsService } from './applications.service';

/** Application work that runs as a job polled through `/api/jobs/{id}/`. */
@Injectable()
export class ApplicationJobsService {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly runner: JobRunner,
  ) {}

  /**
   * `duplicate_application`: the copy is made in the background (one running per user); the
   * request answers the pending job with `original_application`, the job ends with
   * `duplicated_application`. What the request can check (existence, membership) it checks now.
   */
  async duplicateAsync(user: UserEntity, applicationId: number): Promise<Record<string, unknown>> {
    const original = await this.applications.get(user, applicationId);
    const job = await this.runner.start(user, 'duplicate_application', { original_application: original, duplicated_application: null }, async (progress) => {
      const copy = await this.applications.duplicate(user, applicationId, (done, total) => progress.set({ progress: Math.floor((done / total) * 98) }));
      await progress.set({ progress: 99 });
      return { duplicated_application: await this.applications.serializeOne(copy) };
    });
    return serializeJob(job);
  }
}
