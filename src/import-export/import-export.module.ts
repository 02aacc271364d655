import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { FilesModule } from '../files/files.module';
import { JobsModule } from '../jobs/jobs.module';
import { SettingsModule } from '../settings/settings.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ImportExportResourceEntity, TrustedSourceEntity } from './import-export.entity';
import { ImportExportRepository } from './import-export.repository';
import { ResourceCleanupService } from './resource-cleanup.service';
import { SigningKeysService } from './signing-keys.service';
import { WorkspaceExportService } from './workspace-export.service';
import { WorkspaceImportExportController } from './workspace-import-export.controller';
import { WorkspaceImportService } from './workspace-import.service';

/**
 * Workspace export and import in Baserow's format (Baserow's `core/import_export`): the zip, its
 * manifest and signature in `archive/`, the translation between Baserow's serialized database and
 * Rowspace's DatabaseDocument in `baserow/`, the jobs in the two services.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [ImportExportResourceEntity, TrustedSourceEntity] }), WorkspacesModule, ApplicationsModule, JobsModule, FilesModule, SettingsModule],
  controllers: [WorkspaceImportExportController],
  providers: [ImportExportRepository, SigningKeysService, WorkspaceExportService, WorkspaceImportService, ResourceCleanupService],
})
export class ImportExportModule {}
