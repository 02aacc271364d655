import { Module } from '@nestjs/common';
import { JobRepository } from './job.repository';
import { JobRunner } from './job-runner';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  controllers: [JobsController],
  providers: [JobRepository, JobsService, JobRunner],
  exports: [JobRepository, JobsService, JobRunner],
})
export class JobsModule {}
