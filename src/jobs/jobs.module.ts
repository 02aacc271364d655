import { Module } from '@nestjs/common';
import { JobRepository } from './job.repository';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  controllers: [JobsController],
  providers: [JobRepository, JobsService],
  exports: [JobRepository, JobsService],
})
export class JobsModule {}
