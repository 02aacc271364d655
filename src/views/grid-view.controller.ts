import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { RowJson } from '../database/rows/rows.service';
import { requestUrl } from '../database/rows/rows.controller';
import type { UserEntity } from '../users/user.entity';
import { GridRowsJson, GridViewService } from './grid-view.service';
import { GridRowsQuery, RefreshGridRowsDto } from './views.dto';

@ApiTags('Database table grid view')
@Authentication('JWT')
@Controller('api/database/views/grid')
export class GridViewController {
  constructor(private readonly grid: GridViewService) {}

  @Get(':viewId')
  @Answer({ type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: Schemas.list('Row'), field_options: Schemas.object, row_metadata: Schemas.object } })
  @ApiOperation({
    operationId: 'list_database_table_grid_view_rows',
    summary: 'Rows through a grid view: page/size or limit/offset, count, exclude_count, search, adhoc filters and order_by, include=field_options,row_metadata.',
  })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: GridRowsQuery, @Req() req: Request): Promise<GridRowsJson> {
    return this.grid.list(user, viewId, query, requestUrl(req));
  }

  @Post(':viewId')
  @HttpCode(200)
  @Answer(Schemas.list('Row'))
  @ApiOperation({ operationId: 'filter_database_table_grid_view_rows', summary: 'The listed rows (and fields) as the view shows them.' })
  refresh(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: RefreshGridRowsDto): Promise<RowJson[]> {
    return this.grid.refresh(user, viewId, body.row_ids, body.field_ids);
  }
}
