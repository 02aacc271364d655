import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { UserEntity } from '../users/user.entity';
import { SettingsEntity } from './settings.entity';

@Injectable()
export class SettingsRepository {
  constructor(private readonly db: UnitOfWork) {}

  find(): Promise<SettingsEntity | null> {
    return this.db.manager.getRepository(SettingsEntity).findOneBy({ id: 1 });
  }

  /** Creates the settings row unless another request just did. */
  async createIfMissing(values: Partial<SettingsEntity>): Promise<void> {
    await this.db.manager.getRepository(SettingsEntity).createQueryBuilder().insert().values({ ...values, id: 1 }).orIgnore().execute();
  }

  async update(values: Partial<SettingsEntity>): Promise<void> {
    await this.db.manager.getRepository(SettingsEntity).update({ id: 1 }, values);
  }

  /**
   * Inside a sign-up's transaction: the admin sign-up page is over, and the settings row stays
   * locked until the transaction ends (PostgreSQL; SQLite has one writer), so concurrent
   * sign-ups count the accounts one after the other and only the first becomes staff.
   */
  async closeAdminSignup(): Promise<void> {
    await this.db.manager.getRepository(SettingsEntity).update({ id: 1 }, { showAdminSignupPage: false });
  }

  async hasUsers(): Promise<boolean> {
    return (await this.db.manager.getRepository(UserEntity).count({ take: 1 })) > 0;
  }
}
