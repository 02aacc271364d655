import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser, PublicViewToken } from '../../auth/decorators';
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

const PUBLIC_EXPORT_JOB_SCHEMA = { ...EXPORT_JOB_SCHEMA, properties: { ...EXPORT_JOB_SCHEMA.properties, id: { type: 'string', description: 'The signed job id (`get_public_view_export_job` reads it).' } } };

/**
 * Baserow premium's export of a publicly shared view: started by anyone who may open the shared
 * view (its password token when it has one), read by the signed job id it answers.
 */
@ApiTags('Database table view export')
@Authentication('JWT', 'PublicView')
@Controller('api/database/view')
export class PublicViewExportController {
  constructor(private readonly exports: ExportService) {}

  @Post(':slug/export-public-view')
  @HttpCode(200)
  @Answer(PUBLIC_EXPORT_JOB_SCHEMA)
  @ApiOperation({ operationId: 'export_publicly_shared_view', summary: 'Starts an export of a shared view that allows public export (its visible fields, its filters, and the request\'s filters and order).' })
  exportPublicView(
    @CurrentUser() user: UserEntity | undefined,
    @PublicViewToken() token: string | null,
    @Param('slug') slug: string,
    @Body() body: ExportTableDto,
  ): Promise<Record<string, unknown>> {
    return this.exports.exportPublicView({ userId: user?.id ?? null, token }, slug, body);
  }

  @Get('get-public-view-export/:job_id')
  @Authentication()
  @Answer(PUBLIC_EXPORT_JOB_SCHEMA)
  @ApiOperation({ operationId: 'get_public_view_export_job', summary: 'A public view export job by its signed id: its progress, state and, once finished, the `url` of the file.' })
  getPublic(@Param('job_id') jobId: string): Promise<Record<string, unknown>> {
    return this.exports.getPublic(jobId);
  }
}
