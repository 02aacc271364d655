import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { repeatEvery } from '../core/lifecycle/repeat-every';
import { isoMicros } from '../database/rows/row.repository';
import { AuditRepository } from './audit.repository';

/**
 * Baserow's `clean_up_audit_log_entries`: every BASEROW_ENTERPRISE_AUDIT_LOG_CLEANUP_INTERVAL_MINUTES,
 * the entries done before midnight (UTC) BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS days ago are
 * deleted. The undo stack (`core_action`) is cleaned on its own, much shorter, schedule.
 */
@Injectable()
export class AuditCleanupService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuditCleanupService.name);
  private stop = (): void => undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: UnitOfWork,
    private readonly repo: AuditRepository,
  ) {}

  onModuleInit(): void {
    this.stop = repeatEvery(this.config.auditLogCleanupIntervalMinutes, () => this.run(), (error) => this.logger.warn(`Cleaning the audit log failed: ${error.message}`));
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** One pass, as of `now`; answers how many entries were deleted. */
  async run(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.auditLogRetentionDays * 24 * 60 * 60 * 1000);
    cutoff.setUTCHours(0, 0, 0, 0);
    return this.db.run(() => this.repo.deleteBefore(isoMicros(cutoff)));
  }
}
