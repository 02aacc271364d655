import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { ListJobsQueryDto } from './jobs.dto';
import { JobsService } from './jobs.service';

@ApiTags('Jobs')
@Authentication('JWT')
@Controller('api/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @Answer({ type: 'object', properties: { jobs: Schemas.list('Job') } })
  @ApiOperation({ operationId: 'list_job', summary: "The user's jobs, newest first." })
  async list(@CurrentUser() user: UserEntity, @Query() query: ListJobsQueryDto): Promise<{ jobs: Record<string, unknown>[] }> {
    return { jobs: await this.jobs.list(user, query.states, query.job_ids) };
  }

  @Get(':jobId')
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'get_job', summary: 'One job, for polling its progress.' })
  get(@CurrentUser() user: UserEntity, @IdParam('jobId') id: number): Promise<Record<string, unknown>> {
    return this.jobs.get(user, id);
  }

  @Post(':jobId/cancel')
  @HttpCode(200)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'cancel_job', summary: 'Cancels a job that has not finished.' })
  cancel(@CurrentUser() user: UserEntity, @IdParam('jobId') id: number): Promise<Record<string, unknown>> {
    return this.jobs.cancel(user, id);
  }
}
