import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { requestUrl } from '../../database/rows/rows.controller';
import { Answer } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import type { GridRowsJson } from '../grid-view.service';
import { GridRowsQuery } from '../views.dto';
import { TimelineViewService } from './timeline-view.service';

export const TIMELINE_ROWS_ANSWER = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: Schemas.list('Row'),
    field_options: Schemas.object,
    row_metadata: Schemas.object,
  },
};

@ApiTags('Database table timeline view')
@Authentication('JWT')
@Controller('api/database/views/timeline')
export class TimelineViewController {
  constructor(private readonly timeline: TimelineViewService) {}

  @Get(':viewId')
  @Answer(TIMELINE_ROWS_ANSWER)
  @ApiOperation({
    operationId: 'list_database_table_timeline_view_rows',
    summary:
      'Rows of a timeline view whose start and end date fields are valid: page/size or limit/offset, count, exclude_count, search, order_by, filters (replacing the saved ones), include_fields, exclude_fields, include=field_options,row_metadata.',
  })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: GridRowsQuery, @Req() req: Request): Promise<GridRowsJson> {
    return this.timeline.list(user, viewId, query, requestUrl(req));
  }
}
