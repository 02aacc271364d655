import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { SnapshotRepository } from './snapshot.repository';
import { SnapshotsService, STARTING_CREATE_MAX_AGE_MS } from './snapshots.service';

/**
 * Deletes, every hour, the snapshots that can no longer be used, with their documents: those
 * older than BASEROW_SNAPSHOT_EXPIRATION_TIME_DAYS (Baserow's `delete_expired_snapshots`), those
 * of applications deleted for good, those marked deleted whose removal was cut short, and
 * those whose `create_snapshot` job ended without finishing them.
 */
@Injectable()
export class SnapshotCleanup {
  private readonly logger = new Logger(SnapshotCleanup.name);

  constructor(
    private readonly repo: SnapshotRepository,
    private readonly snapshots: SnapshotsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Cron(CronExpression.EVERY_HOUR)
  async hourly(): Promise<void> {
    await this.deleteUnusable().catch((error: unknown) => this.logger.error('Deleting snapshots failed', error instanceof Error ? error.stack : String(error)));
  }

  /** Answers the ids of the snapshots deleted. */
  async deleteUnusable(now = new Date()): Promise<number[]> {
    const expiredBefore = new Date(now.getTime() - this.config.snapshots.expirationDays * 86_400_000);
    const staleBefore = new Date(now.getTime() - STARTING_CREATE_MAX_AGE_MS);
    const deleted: number[] = [];
    for (const snapshot of await this.repo.toDelete(expiredBefore, staleBefore)) {
      const unusable = snapshot.markForDeletion || snapshot.applicationId === null || snapshot.createdAt < expiredBefore;
      // Young enough and still being created by a running job: it is that job's.
      if (!unusable && (await this.snapshots.creating(snapshot))) continue;
      try {
        await this.snapshots.purge(snapshot);
        deleted.push(snapshot.id);
      } catch (error) {
        this.logger.warn(`Deleting snapshot ${snapshot.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (deleted.length) this.logger.log(`Deleted ${deleted.length} snapshot(s).`);
    return deleted;
  }
}
