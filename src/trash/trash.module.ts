import { Global, Module } from '@nestjs/common';
import { TrashController } from './trash.controller';
import { TrashRepository } from './trash.repository';
import { TrashService } from './trash.service';
import { TrashTypeRegistry } from './trash-type';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { TrashedRowsEntity, TrashEntryEntity } from './trash-entry.entity';

/**
 * The trash: entries, the registry of trashable types and the `/api/trash/` endpoints.
 * Global, because every module's delete records its entry here; each module registers the
 * types of what it trashes (workspaces, applications, tables, fields, views, rows, comments).
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [TrashEntryEntity, TrashedRowsEntity] })],
  controllers: [TrashController],
  providers: [TrashRepository, TrashService, TrashTypeRegistry],
  exports: [TrashService, TrashTypeRegistry],
})
export class TrashModule {}
