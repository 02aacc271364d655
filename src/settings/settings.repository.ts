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
  async createIfMissing(instanceId: string): Promise<void> {
    await this.db.manager.getRepository(SettingsEntity).createQueryBuilder().insert().values({ id: 1, instanceId }).orIgnore().execute();
  }

  async update(values: Partial<SettingsEntity>): Promise<void> {
    await this.db.manager.getRepository(SettingsEntity).update({ id: 1 }, values);
  }

  async hasUsers(): Promise<boolean> {
    return (await this.db.manager.getRepository(UserEntity).count({ take: 1 })) > 0;
  }
}
