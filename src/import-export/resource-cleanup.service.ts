import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { repeatEvery } from '../core/lifecycle/repeat-every';
import { FileStorage } from '../files/storage/file-storage';
import { exportKey, importKey } from './import-export.entity';
import { ImportExportRepository } from './import-export.repository';
import { IMPORT_JOB_TYPE } from './workspace-import.service';

/** An unfinished export or upload older than this is abandoned (an export being written is not valid yet). */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Baserow's `mark_import_export_resources_for_deletion` and `delete_marked_import_export_resources`:
 * every BASEROW_IMPORT_EXPORT_RESOURCE_CLEANUP_INTERVAL_MINUTES, exports and uploads older than
 * BASEROW_IMPORT_EXPORT_RESOURCE_REMOVAL_AFTER_DAYS (and abandoned ones) are marked for deletion,
 * then the marked ones no running import uses lose their zip and their row.
 */
@Injectable()
export class ResourceCleanupService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ResourceCleanupService.name);
  private stop = (): void => undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: ImportExportRepository,
    private readonly storage: FileStorage,
  ) {}

  onModuleInit(): void {
    this.stop = repeatEvery(this.config.importExportCleanupIntervalMinutes, () => this.run(), (error) => this.logger.warn(`Cleaning import/export resources failed: ${error.message}`));
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** One pass, as of `now`; answers how many resources were deleted. */
  async run(now = new Date()): Promise<number> {
    const removal = new Date(now.getTime() - this.config.importExportRemovalAfterDays * 24 * 60 * 60 * 1000);
    await this.repo.markOldResources(removal, new Date(now.getTime() - ABANDONED_AFTER_MS));
    const inUse = new Set((await this.repo.runningJobs(IMPORT_JOB_TYPE)).map((job) => (job.data.resource as { id?: number } | undefined)?.id));
    let deleted = 0;
    for (const resource of await this.repo.markedResources()) {
      if (inUse.has(resource.id)) continue;
      try {
        await this.storage.delete(exportKey(resource));
        await this.storage.delete(importKey(resource));
      } catch (error) {
        this.logger.warn(`Could not delete the zip of resource ${resource.id}: ${(error as Error).message}`);
        continue;
      }
      await this.repo.deleteResource(resource.id);
      deleted++;
    }
    return deleted;
  }
}
