import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { FormulaService } from './formula.service';

/**
 * Formula cells are stored, so those that read the clock (now(), today()) are computed again
 * every FORMULA_NOW_REFRESH_MINUTES, one database per transaction.
 */
@Injectable()
export class FormulaClockService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FormulaClockService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly formulas: FormulaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const minutes = this.config.formulaNowRefreshMinutes;
    if (minutes > 0) {
      this.timer = setInterval(() => void this.refresh(), minutes * 60_000);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over every database with computed fields (not two at once). */
  refresh(): Promise<void> {
    this.running ??= this.refreshAll().finally(() => (this.running = null));
    return this.running;
  }

  private async refreshAll(): Promise<void> {
    for (const databaseId of await this.db.run(() => this.formulas.databasesWithComputedFields())) {
      try {
        const tables = await this.db.run(() => this.formulas.refreshClockFormulas(databaseId));
        if (tables.length) this.logger.debug(`Recomputed clock formulas of database ${databaseId}.`);
      } catch (error) {
        this.logger.error(`Recomputing clock formulas of database ${databaseId} failed: ${(error as Error).message}`);
      }
    }
  }
}
