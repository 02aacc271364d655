import { Controller, Get, Header, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Public } from '../auth/decorators';
import { Errors } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';
import { Answer } from '../openapi/decorators';
import { FullHealth, HealthService } from './health.service';

@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get(['api/_health', '_health'])
  @Public()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Answer({ type: 'string', example: 'OK' }, { contentType: 'text/plain' })
  @ApiOperation({ operationId: 'health_check', summary: 'Answers plain `OK` while the instance is up.' })
  async check(): Promise<string> {
    await this.health.ping();
    return 'OK';
  }

  @Get('api/_health/full')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'full_health_check',
    summary: 'Runs every health check (database, disk, Redis when configured); staff only. `passing` is false when one fails.',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        passing: { type: 'boolean' },
        checks: { type: 'object', additionalProperties: { type: 'string' }, example: { DatabaseBackend: 'working', DiskUsage: 'working' } },
        celery_queue_size: { type: 'integer', description: 'Background jobs waiting to start.' },
        celery_export_queue_size: { type: 'integer' },
      },
    },
  })
  full(@CurrentUser() user: UserEntity): Promise<FullHealth> {
    if (!user.isStaff) throw Errors.notStaff();
    return this.health.full();
  }
}
