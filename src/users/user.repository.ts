import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../core/database/dialect';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { UserEntity } from './user.entity';

@Injectable()
export class UserRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get repo() {
    return this.db.manager.getRepository(UserEntity);
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The user, its row locked until the transaction ends (call inside `db.run`): read-modify-write without lost updates. */
  async findByIdForUpdate(id: number): Promise<UserEntity | null> {
    await this.db.manager.query(`SELECT id FROM "${this.repo.metadata.tableName}" WHERE id = ${this.dialect.placeholder(1)}${this.dialect.forUpdate}`, [id]);
    return this.findById(id);
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

  /** Whether any account exists (one row read, not a count of all). */
  async any(): Promise<boolean> {
    return (await this.repo.createQueryBuilder('u').select('u.id').limit(1).getRawOne()) !== undefined;
  }

  /** When the first account of the instance was made (null before any). */
  async firstJoinedAt(): Promise<Date | null> {
    const first = await this.repo.createQueryBuilder('u').orderBy('u.date_joined', 'ASC').addOrderBy('u.id', 'ASC').getOne();
    return first?.dateJoined ?? null;
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

  /** Whether another account (any state) is staff: the last one cannot delete itself. */
  async otherStaffExists(userId: number): Promise<boolean> {
    return (await this.repo.createQueryBuilder('u').where('u.is_staff = :staff AND u.id <> :userId', { staff: true, userId }).getCount()) > 0;
  }

  delete(id: number): Promise<unknown> {
    return this.repo.delete({ id });
  }
}
