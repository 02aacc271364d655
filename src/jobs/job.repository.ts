import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { JobEntity, JobState } from './job.entity';
import { LiveJobs } from './live-jobs';

/** Jobs as stored, with what this instance knows better about the ones running here (see LiveJobs). */
@Injectable()
export class JobRepository {
  constructor(
    private readonly db: UnitOfWork,
    private readonly live: LiveJobs,
  ) {}

  private get repo() {
    return this.db.manager.getRepository(JobEntity);
  }

  async find(id: number): Promise<JobEntity | null> {
    return this.live.overlay(await this.repo.findOneBy({ id }));
  }

  async ofUser(userId: number): Promise<JobEntity[]> {
    return (await this.repo.find({ where: { userId }, order: { id: 'DESC' } })).map((job) => this.live.overlay(job));
  }

  create(values: Partial<JobEntity>): Promise<JobEntity> {
    const now = new Date();
    return this.repo.save(this.repo.create({ createdOn: now, updatedOn: now, ...values }));
  }

  update(id: number, values: Partial<JobEntity>): Promise<unknown> {
    return this.repo.update({ id }, { ...values, updatedOn: new Date() } as Parameters<typeof this.repo.update>[1]);
  }

  /** The user's pending and running jobs of a type (a job cancelled here but not stored as such yet is not running). */
  async countRunning(userId: number, type: string): Promise<number> {
    const rows = await this.repo
      .createQueryBuilder('j')
      .select('j.id', 'id')
      .where('j.user_id = :userId AND j.type = :type AND j.state IN (:...states)', { userId, type, states: ['pending', 'started'] })
      .getRawMany<{ id: number }>();
    return rows.filter((row) => this.live.get(Number(row.id))?.state !== 'cancelled').length;
  }

  /** Cancels the user's pending and running jobs of a type (their work stops at its next progress report). */
  async cancelRunning(userId: number, type: string): Promise<void> {
    this.live.cancel((job) => job.userId === userId && job.type === type);
    await this.repo
      .createQueryBuilder()
      .update(JobEntity)
      .set({ state: 'cancelled', updatedOn: new Date() })
      .where('user_id = :userId AND type = :type AND state IN (:...states)', { userId, type, states: ['pending', 'started'] })
      .execute();
  }

  /** How many jobs are in each state (states without jobs are left out). */
  async countByState(): Promise<Partial<Record<JobState, number>>> {
    const rows = await this.repo.createQueryBuilder('j').select('j.state', 'state').addSelect('COUNT(*)', 'count').groupBy('j.state').getRawMany<{ state: JobState; count: string | number }>();
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  }
}
