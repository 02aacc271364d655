import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { JobsModule } from '../jobs/jobs.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { TemplateCatalog } from './template-catalog';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';

/** `/api/templates/`: Rowspace's templates (files of serialized applications) and their installation. */
@Module({
  imports: [ApplicationsModule, WorkspacesModule, JobsModule],
  controllers: [TemplatesController],
  providers: [TemplateCatalog, TemplatesService],
})
export class TemplatesModule {}
