import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { THUMBNAILS } from '../../files/content';
import { FileStorage } from '../../files/storage/file-storage';
import { UserFileRepository } from '../../files/user-file.repository';
import { userFileName } from '../../files/user-file.entity';
import { thumbnailKey, userFileKey } from '../../files/user-files.service';
import { FileReferencesRepository } from './file-references.repository';

const BATCH = 200;

/** Answers which of the given user file names something outside the cells and the row history still names. */
export type FileKeeper = (names: string[]) => Promise<Set<string>>;

/**
 * Deletes user files nothing names any more: no file cell (of any row, trashed rows and
 * fields included), no row history entry. Only files uploaded longer ago than the trash
 * retention go, so a file just uploaded and not yet put in a cell, or named by something
 * trashed that could still be restored, stays.
 */
@Injectable()
export class UnusedUserFilesService {
  private readonly logger = new Logger(UnusedUserFilesService.name);
  private readonly keepers: FileKeeper[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: UserFileRepository,
    private readonly references: FileReferencesRepository,
    private readonly storage: FileStorage,
    private readonly db: UnitOfWork,
  ) {}

  /** Another module's references to user files (a snapshot's cells): the names it answers stay. */
  keep(keeper: FileKeeper): void {
    this.keepers.push(keeper);
  }

  /** Every hour; answers the names deleted. */
  @Cron(CronExpression.EVERY_HOUR)
  async deleteUnused(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - this.config.hoursUntilTrashPermanentlyDeleted * 3600 * 1000);
    const deleted: string[] = [];
    const fields = await this.references.fileFields();
    let history: Set<string> | null = null;
    for (let afterId = 0; ; ) {
      const candidates = await this.files.listUploadedBefore(cutoff, afterId, BATCH);
      if (!candidates.length) break;
      afterId = candidates[candidates.length - 1].id;
      const names = candidates.map((file) => userFileName(file));
      const used = new Set<string>();
      for (const field of fields) for (const name of await this.references.namedInCells(field, names)) used.add(name);
      for (const keeper of this.keepers) for (const name of await keeper(names)) used.add(name);
      const unused: typeof candidates = [];
      for (const file of candidates) {
        const name = userFileName(file);
        if (used.has(name)) continue;
        history ??= await this.references.namedInHistory();
        if (!history.has(name)) unused.push(file);
      }
      if (!unused.length) continue;
      await this.db.run(() => this.files.delete(unused.map((file) => file.id)));
      for (const file of unused) {
        const name = userFileName(file);
        const keys = [userFileKey(name), ...Object.keys(THUMBNAILS).map((size) => thumbnailKey(size, name))];
        for (const key of keys) await this.storage.delete(key).catch((error: Error) => this.logger.warn(`Could not delete ${key}: ${error.message}`));
        deleted.push(name);
      }
    }
    if (deleted.length) this.logger.log(`Deleted ${deleted.length} unused user files.`);
    return deleted;
  }
}
