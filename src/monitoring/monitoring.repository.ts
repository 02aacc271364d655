import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Dialect, PoolStats } from '../core/database/dialect';
import { DIALECT } from '../core/database/tokens';

/** What the health checks and metrics ask the database. */
@Injectable()
export class MonitoringRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  /** A round trip to the database. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  poolStats(): PoolStats {
    return this.dialect.poolStats(this.dataSource);
  }
}
