import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { DiskFileStorage } from './storage/disk-file-storage';
import { FileStorage } from './storage/file-storage';

/** File storage (disk by default) for user files, thumbnails and exports. */
@Global()
@Module({
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): FileStorage => new DiskFileStorage(config.mediaRoot, config.mediaUrl),
    },
  ],
  exports: [FileStorage],
})
export class FilesModule {}
