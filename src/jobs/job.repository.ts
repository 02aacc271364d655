import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { JobEntity } from './job.entity';

@Injectable()
export class JobRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(JobEntity);
  }

  find(id: number): Promise<JobEntity | null> {
    return this.repo.findOneBy({ id });
  }

  ofUser(userId: number): Promise<JobEntity[]> {
    return this.repo.find({ where: { userId }, order: { id: 'DESC' } });
  }

  create(values: Partial<JobEntity>): Promise<JobEntity> {
    const now = new Date();
    return this.repo.save(this.repo.create({ createdOn: now, updatedOn: now, ...values }));
  }

  update(id: number, values: Partial<JobEntity>): Promise<unknown> {
    return this.repo.update({ id }, { ...values, updatedOn: new Date() } as Parameters<typeof this.repo.update>[1]);
  }

  countRunning(userId: number, type: string): Promise<number> {
    return this.repo
      .createQueryBuilder('j')
      .where('j.user_id = :userId AND j.type = :type AND j.state IN (:...states)', { userId, type, states: ['pending', 'started'] })
      .getCount();
  }
}
