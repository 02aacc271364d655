import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer } from '../../openapi/decorators';
import type { UserEntity } from '../../users/user.entity';
import { ExportTableDto } from './export.dto';
import { ExportService } from './export.service';

const EXPORT_JOB_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    table: { type: 'integer', nullable: true },
    view: { type: 'integer', nullable: true },
    exporter_type: { type: 'string' },
    state: { type: 'string', enum: ['pending', 'exporting', 'finished', 'failed', 'cancelled'] },
    status: { type: 'string', description: 'DEPRECATED: use state.' },
    exported_file_name: { type: 'string', nullable: true },
    created_at: { type: 'string', format: 'date-time' },
    progress_percentage: { type: 'integer' },
    url: { type: 'string', format: 'uri', nullable: true },
  },
};

@ApiTags('Database table export')
@Authentication('JWT')
@Controller('api/database/export')
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  @Post('table/:tableId')
  @HttpCode(200)
  @Answer(EXPORT_JOB_SCHEMA)
  @ApiOperation({ operationId: 'export_table', summary: 'Starts an export of a table (or, with `view_id`, of one of its views) to CSV, JSON, XML or Excel.' })
  exportTable(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: ExportTableDto): Promise<Record<string, unknown>> {
    return this.exports.exportTable(user, tableId, body);
  }

  @Get(':jobId')
  @Answer(EXPORT_JOB_SCHEMA)
  @ApiOperation({ operationId: 'get_export_job', summary: 'An export job: its progress, state and, once finished, the `url` of the file.' })
  get(@CurrentUser() user: UserEntity, @IdParam('jobId') jobId: number): Promise<Record<string, unknown>> {
    return this.exports.get(user, jobId);
  }
}
