import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ApplicationJobsService } from './application-jobs.service';
import { ApplicationRepository } from './application.repository';
import { ApplicationTypeRegistry } from './application-type';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { ApplicationEntity } from './application.entity';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [ApplicationEntity] }), WorkspacesModule, JobsModule],
  controllers: [ApplicationsController],
  providers: [ApplicationRepository, ApplicationTypeRegistry, ApplicationsService, ApplicationJobsService],
  exports: [ApplicationJobsService, ApplicationRepository, ApplicationTypeRegistry, ApplicationsService],
})
export class ApplicationsModule {}
