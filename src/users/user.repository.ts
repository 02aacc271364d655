import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { UserEntity } from './user.entity';

@Injectable()
export class UserRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(UserEntity);
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ email });
  }

  findByIds(ids: number[]): Promise<UserEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.repo.createQueryBuilder('u').where('u.id IN (:...ids)', { ids }).getMany();
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  create(values: Partial<UserEntity>): Promise<UserEntity> {
    return this.repo.save(this.repo.create(values));
  }

  save(user: UserEntity): Promise<UserEntity> {
    return this.repo.save(user);
  }

  update(id: number, values: Partial<UserEntity>): Promise<unknown> {
    return this.repo.update({ id }, values);
  }

  /** Accounts whose deletion was scheduled before `before`. */
  findScheduledForDeletionBefore(before: Date): Promise<UserEntity[]> {
    return this.repo
      .createQueryBuilder('u')
      .where('u.deletion_scheduled_at IS NOT NULL AND u.deletion_scheduled_at < :before', { before: before.toISOString() })
      .getMany();
  }

  delete(id: number): Promise<unknown> {
    return this.repo.delete({ id });
  }
}
