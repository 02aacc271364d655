import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { BlacklistedTokenEntity } from './blacklisted-token.entity';

@Injectable()
export class TokenRepository {
  constructor(private readonly db: UnitOfWork) {}

  async isBlacklisted(jti: string): Promise<boolean> {
    return (await this.db.manager.getRepository(BlacklistedTokenEntity).countBy({ jti })) > 0;
  }

  async blacklist(entry: BlacklistedTokenEntity): Promise<void> {
    await this.db.manager.getRepository(BlacklistedTokenEntity).insert(entry);
  }

  /** Forgets blacklisted tokens that have expired anyway. */
  async purgeExpired(now: Date): Promise<void> {
    await this.db.manager.getRepository(BlacklistedTokenEntity).delete({ expiresAt: LessThan(now) });
  }
}
