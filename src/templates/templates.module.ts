import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { JobsModule } from '../jobs/jobs.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { TemplateCatalog } from './template-catalog';
import { TemplatePreviewEntity } from './template-preview.entity';
import { TemplatePreviewRepository } from './template-preview.repository';
import { TemplatePreviews } from './template-previews';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';

/**
 * `/api/templates/`: Rowspace's templates (files of serialized applications), their
 * installation, and their read-only preview workspaces.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [TemplatePreviewEntity] }), ApplicationsModule, WorkspacesModule, JobsModule],
  controllers: [TemplatesController],
  providers: [TemplateCatalog, TemplatesService, TemplatePreviewRepository, TemplatePreviews],
})
export class TemplatesModule {}
