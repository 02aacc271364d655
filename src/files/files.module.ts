import { Global, Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { MediaRoute } from './media-route';
import { removeStaleSpools } from './spool';
import { DiskFileStorage } from './storage/disk-file-storage';
import { FileStorage } from './storage/file-storage';
import { UserFileRepository } from './user-file.repository';
import { UserFilesController } from './user-files.controller';
import { UserFilesService } from './user-files.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { UserFileEntity } from './user-file.entity';

/**
 * Files: the storage (an S3-compatible bucket when S3_BUCKET is set, else the disk under
 * MEDIA_ROOT served at MEDIA_URL), user files with their thumbnails, and the media route.
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [UserFileEntity] })],
  controllers: [UserFilesController],
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      // The AWS SDK is loaded only when a bucket is configured.
      useFactory: async (config: AppConfig): Promise<FileStorage> =>
        config.s3 ? new (await import('./storage/s3-file-storage')).S3FileStorage(config.s3) : new DiskFileStorage(config.mediaRoot, config.mediaUrl),
    },
    UserFileRepository,
    UserFilesService,
    MediaRoute,
  ],
  exports: [FileStorage, UserFileRepository, UserFilesService, MediaRoute],
})
export class FilesModule implements OnApplicationBootstrap {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Uploads a crash interrupted leave their spooled file behind: gone at the next start (after a day, for instances sharing DATA_DIR). */
  async onApplicationBootstrap(): Promise<void> {
    const removed = await removeStaleSpools(this.config.uploadTmpDir, 24 * 3600 * 1000);
    if (removed) new Logger(FilesModule.name).log(`Removed ${removed} interrupted uploads.`);
  }
}
