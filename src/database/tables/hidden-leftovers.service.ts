import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { ApplicationRepository } from '../../applications/application.repository';
import { ApplicationsService } from '../../applications/applications.service';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { TrashService } from '../../trash/trash.service';
import { TableRepository } from '../table.repository';
import { TablesService } from './tables.service';

/** A hidden build older than this is no running job's: on PostgreSQL another instance may still be building a younger one. */
const LEFTOVER_AGE_HOURS = 24;

/**
 * What a long write left hidden when the process stopped mid-way (a crash, a kill): tables and
 * applications flagged trashed with no trash entry of their own. They are seen nowhere (no
 * listing, no access, not in the trash) and are deleted for good: at start, all of them on
 * SQLite (one process: no job runs yet), those older than a day on PostgreSQL (other instances
 * may be building); then every hour, those older than a day.
 */
@Injectable()
export class HiddenLeftovers implements OnApplicationBootstrap {
  private readonly logger = new Logger(HiddenLeftovers.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly tableRepo: TableRepository,
    private readonly tables: TablesService,
    private readonly applicationRepo: ApplicationRepository,
    private readonly applications: ApplicationsService,
    private readonly trash: TrashService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const cutoff = this.config.databaseUrl === null ? new Date() : this.dayAgo();
    // In the background: the server answers meanwhile (what it deletes is seen by no one).
    void this.deleteCreatedBefore(cutoff).catch((error: unknown) => this.logger.error('Deleting hidden leftovers failed', error instanceof Error ? error.stack : String(error)));
  }

  @Cron(CronExpression.EVERY_HOUR)
  async hourly(): Promise<void> {
    await this.deleteCreatedBefore(this.dayAgo());
  }

  /** Deletes for good the hidden tables and applications created before `cutoff`; answers how many. */
  async deleteCreatedBefore(cutoff: Date): Promise<{ tables: number; applications: number }> {
    const tables = await this.tableRepo.trashedCreatedBefore(cutoff);
    const leftoverTables = new Set(await this.trash.withoutEntry('table', tables.map((t) => t.id)));
    const applications = await this.applicationRepo.trashedCreatedBefore(cutoff);
    const leftoverApplications = new Set(await this.trash.withoutEntry('application', applications.map((a) => a.id)));
    for (const table of tables.filter((t) => leftoverTables.has(t.id) && !leftoverApplications.has(t.databaseId))) {
      await this.db.run(() => this.tables.deleteForGood(table), { dropEvents: true });
    }
    for (const application of applications.filter((a) => leftoverApplications.has(a.id))) {
      await this.db.run(() => this.applications.permanentlyDelete(application), { dropEvents: true });
    }
    const counts = { tables: leftoverTables.size, applications: leftoverApplications.size };
    if (counts.tables || counts.applications) this.logger.warn(`Deleted what long writes left hidden: ${counts.tables} table(s), ${counts.applications} application(s)`);
    return counts;
  }

  private dayAgo(): Date {
    return new Date(Date.now() - LEFTOVER_AGE_HOURS * 3600 * 1000);
  }
}
