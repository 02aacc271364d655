import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { KanbanRowsJson, KanbanViewService } from './kanban-view.service';
import { KanbanRowsQuery } from './views.dto';

@ApiTags('Database table kanban view')
@Authentication('JWT')
@Controller('api/database/views/kanban')
export class KanbanViewController {
  constructor(private readonly kanban: KanbanViewService) {}

  @Get(':viewId')
  @Answer({
    type: 'object',
    properties: {
      rows: { type: 'object', additionalProperties: { type: 'object', properties: { count: { type: 'integer' }, results: Schemas.list('Row') } } },
      field_options: Schemas.object,
      row_metadata: Schemas.object,
    },
  })
  @ApiOperation({
    operationId: 'list_database_table_kanban_view_rows',
    summary: 'Rows of a kanban view per option of its single select field (`"null"`: none): `limit` (40), `offset`, `select_option=<id|null>[,limit[,offset]]`, include=field_options,row_metadata.',
  })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: KanbanRowsQuery, @Req() req: Request): Promise<KanbanRowsJson> {
    // `select_option` repeats: every occurrence counts (the query pipe keeps one).
    return this.kanban.list(user, viewId, { ...query, select_option: req.query.select_option });
  }
}
