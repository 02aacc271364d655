import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Field } from '../../core/validation/field';
import { Answer } from '../../openapi/decorators';
import type { UserEntity } from '../../users/user.entity';
import { requestUrl } from '../rows/rows.controller';
import { ROW_HISTORY_PAGE_LIMIT, RowHistoryPage, RowHistoryService } from './row-history.service';

export class RowHistoryQuery {
  @Field({ kind: 'int', min: 1, max: ROW_HISTORY_PAGE_LIMIT, fallback: ROW_HISTORY_PAGE_LIMIT, required: false, description: 'Entries per page (at most 200).' })
  limit?: number;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Entries to skip.' })
  offset?: number;
}

const ENTRY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'action_type', 'user', 'timestamp', 'before', 'after', 'fields_metadata'],
  properties: {
    id: { type: 'integer' },
    action_type: { type: 'string', example: 'update_rows' },
    action_command_type: { type: 'string', enum: ['DO', 'UNDO', 'REDO'] },
    user: { type: 'object', properties: { id: { type: 'integer', nullable: true }, name: { type: 'string' } } },
    timestamp: { type: 'string', format: 'date-time' },
    before: { type: 'object', additionalProperties: true, description: 'The changed cells before, `field_<id>` keys.' },
    after: { type: 'object', additionalProperties: true, description: 'The changed cells after, `field_<id>` keys.' },
    fields_metadata: { type: 'object', additionalProperties: true, description: 'Per changed field: `id`, `type` and what the type needs to show the values.' },
  },
};

@ApiTags('Database table rows')
@Authentication('JWT')
@Controller('api/database/rows')
export class RowHistoryController {
  constructor(private readonly history: RowHistoryService) {}

  @Get('table/:tableId/:rowId/history')
  @Answer({
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer' },
      next: { type: 'string', nullable: true },
      previous: { type: 'string', nullable: true },
      results: { type: 'array', items: ENTRY_SCHEMA },
    },
  })
  @ApiOperation({ operationId: 'get_database_table_row_history', summary: "A row's change history, newest first." })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Query() query: RowHistoryQuery, @Req() req: Request): Promise<RowHistoryPage> {
    return this.history.list(user, tableId, rowId, query, requestUrl(req));
  }
}
