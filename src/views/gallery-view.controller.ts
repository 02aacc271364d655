import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { requestUrl } from '../database/rows/rows.controller';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { GalleryViewService } from './gallery-view.service';
import type { GridRowsJson } from './grid-view.service';
import { GalleryRowsQuery } from './views.dto';

@ApiTags('Database table gallery view')
@Authentication('JWT')
@Controller('api/database/views/gallery')
export class GalleryViewController {
  constructor(private readonly gallery: GalleryViewService) {}

  @Get(':viewId')
  @Answer({ type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: Schemas.list('Row'), field_options: Schemas.object, row_metadata: Schemas.object } })
  @ApiOperation({
    operationId: 'list_database_table_gallery_view_rows',
    summary: 'Rows through a gallery view: limit/offset (100), count, search, adhoc filters and order_by, include=field_options,row_metadata.',
  })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: GalleryRowsQuery, @Req() req: Request): Promise<GridRowsJson> {
    return this.gallery.list(user, viewId, query, requestUrl(req));
  }
}
