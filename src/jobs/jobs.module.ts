import { Module } from '@nestjs/common';
import { JobRepository } from './job.repository';
import { JobRunner } from './job-runner';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';
import { LiveJobs } from './live-jobs';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { JobEntity } from './job.entity';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [JobEntity] })],
  controllers: [JobsController],
  providers: [JobRepository, JobsService, JobRunner, LiveJobs],
  exports: [JobRepository, JobsService, JobRunner],
})
export class JobsModule {}
