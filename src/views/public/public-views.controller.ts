import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser, PublicViewToken } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { requestUrl } from '../../database/rows/rows.controller';
import { Answer, RequestBody } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import { PublicRowsRegistry } from './public-rows';
import { AggregationsQuery } from '../aggregations/aggregations.dto';
import { PublicGalleryRowsQuery, PublicGridRowsQuery, PublicKanbanRowsQuery, PublicLookupQuery, PublicViewAuthDto } from './public-views.dto';
import { PublicViewCaller, PublicViewsService } from './public-views.service';
import { CALENDAR_ROWS_ANSWER } from '../calendar/calendar-view.controller';
import { PublicCalendarRowsQuery } from '../calendar/calendar.dto';
import { parseCalendarRange } from '../calendar/calendar-query';
import { TIMELINE_ROWS_ANSWER } from '../timeline/timeline-view.controller';
import { GridRowsQuery } from '../views.dto';

const caller = (user: UserEntity | undefined, token: string | null): PublicViewCaller => ({ userId: user?.id ?? null, token });
const PAGE = (items: object) => ({ type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items } } });

/**
 * Views shared by their slug: open to anyone when the view is public (with its password token
 * when it has a password), and to the members of its workspace whether public or not.
 */
@ApiTags('Database table views')
@Authentication('JWT', 'PublicView')
@Controller('api/database/views')
export class PublicViewsController {
  constructor(
    private readonly publicViews: PublicViewsService,
    private readonly publicRows: PublicRowsRegistry,
  ) {}

  @Post(':slug/public/auth')
  @HttpCode(200)
  @RequestBody({ type: 'object', required: ['password'], properties: { password: { type: 'string' } } })
  @Answer({ type: 'object', properties: { access_token: { type: 'string' } } })
  @ApiOperation({ operationId: 'public_view_token_auth', summary: 'A never-expiring token for a password-protected shared view (`Baserow-View-Authorization: JWT <access_token>`).' })
  auth(@CurrentUser() user: UserEntity | undefined, @Param('slug') slug: string, @Body() body: PublicViewAuthDto): Promise<{ access_token: string }> {
    return this.publicViews.authenticate(slug, caller(user, null), body.password);
  }

  @Get(':slug/public/info')
  @Answer({ type: 'object', properties: { fields: Schemas.list('Field'), view: Schemas.object } })
  @ApiOperation({ operationId: 'get_public_view_info', summary: 'What a shared view page needs: its visible fields and the view (ids hidden, the slug as id).' })
  info(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string) {
    return this.publicViews.info(slug, caller(user, token));
  }

  @Get('grid/:slug/public/rows')
  @Answer(PAGE(Schemas.ref('Row')))
  @ApiOperation({
    operationId: 'public_list_database_table_grid_view_rows',
    summary:
      'Rows of a shared grid with its visible fields: page/size or limit/offset, count, search, order_by, group_by (with group_by_metadata), filters (AND the saved ones), include_fields, exclude_fields, include=field_options.',
  })
  gridRows(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: PublicGridRowsQuery, @Req() req: Request) {
    return this.publicRows.list('grid', slug, caller(user, token), query, requestUrl(req));
  }

  @Get('gallery/:slug/public/rows')
  @Answer(PAGE(Schemas.ref('Row')))
  @ApiOperation({
    operationId: 'public_list_database_table_gallery_view_rows',
    summary: 'Rows of a shared gallery with its visible fields: limit/offset (100), count, search, order_by, filters (AND the saved ones), include_fields, exclude_fields, include=field_options.',
  })
  galleryRows(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: PublicGalleryRowsQuery, @Req() req: Request) {
    return this.publicRows.list('gallery', slug, caller(user, token), query, requestUrl(req));
  }

  @Get('kanban/:slug/public/rows')
  @Answer({
    type: 'object',
    properties: {
      rows: { type: 'object', additionalProperties: { type: 'object', properties: { count: { type: 'integer' }, results: Schemas.list('Row') } } },
      field_options: Schemas.object,
    },
  })
  @ApiOperation({
    operationId: 'public_list_database_table_kanban_view_rows',
    summary: 'Rows of a shared kanban per option of its single select field (`"null"`: none), with its visible fields: `limit` (40), `offset`, `select_option=<id|null>[,limit[,offset]]`, filters (AND the saved ones), include=field_options.',
  })
  kanbanRows(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: PublicKanbanRowsQuery, @Req() req: Request) {
    // `select_option` repeats: every occurrence counts (the query pipe keeps one).
    return this.publicRows.list('kanban', slug, caller(user, token), { ...query, select_option: req.query.select_option }, requestUrl(req));
  }

  @Get('calendar/:slug/public/rows')
  @Answer(CALENDAR_ROWS_ANSWER)
  @ApiOperation({
    operationId: 'public_list_database_table_calendar_view_rows',
    summary:
      'Rows of a shared calendar per day of its date field from `from_timestamp` to `to_timestamp` (required, at most 45 days apart), in `user_timezone`, with its visible fields: `limit` (40) and `offset` per day, filters (AND the saved ones), include=field_options.',
  })
  calendarRows(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: PublicCalendarRowsQuery, @Req() req: Request) {
    // The range is checked before the slug is looked up (Baserow's query validation runs first).
    const range = parseCalendarRange(query);
    return this.publicRows.list('calendar', slug, caller(user, token), { ...query, range }, requestUrl(req));
  }

  @Get('timeline/:slug/public/rows')
  @Answer(TIMELINE_ROWS_ANSWER)
  @ApiOperation({
    operationId: 'public_list_database_table_timeline_view_rows',
    summary:
      'Rows of a shared timeline with its visible fields, once its date fields are valid: page/size or limit/offset, count, search, order_by, filters (AND the saved ones), include_fields, exclude_fields, include=field_options.',
  })
  timelineRows(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: GridRowsQuery, @Req() req: Request) {
    return this.publicRows.list('timeline', slug, caller(user, token), query, requestUrl(req));
  }

  @Get('grid/:slug/public/aggregations')
  @Answer({ type: 'object', description: '`field_<id>` → the aggregation of each visible field that has one, and `total` with `include=total`.', additionalProperties: true })
  @ApiOperation({
    operationId: 'get_database_table_public_grid_view_field_aggregations',
    summary: 'The aggregations of a shared grid’s visible fields whose options set `aggregation_raw_type`, over its saved filters AND the request’s, searched on visible fields.',
  })
  aggregations(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Query() query: AggregationsQuery) {
    return this.publicViews.aggregations(slug, caller(user, token), query);
  }

  @Get(':slug/row/:rowId')
  @Answer(Schemas.ref('Row'))
  @ApiOperation({ operationId: 'get_public_view_row', summary: 'One row the shared view shows, with its visible fields.' })
  row(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @IdParam('rowId') rowId: number) {
    return this.publicViews.row(slug, caller(user, token), rowId);
  }

  @Get(':slug/link-row-field-lookup/:fieldId')
  @Answer(PAGE({ type: 'object', properties: { id: { type: 'integer' }, value: { type: 'string' }, order: { type: 'string' } } }))
  @ApiOperation({ operationId: 'database_table_public_view_link_row_field_lookup', summary: 'For a visible link field: the linked rows the view’s rows link to (`{id, value, order}`), searched on their primary field, by page.' })
  lookup(
    @CurrentUser() user: UserEntity | undefined,
    @PublicViewToken() token: string | null,
    @Param('slug') slug: string,
    @IdParam('fieldId') fieldId: number,
    @Query() query: PublicLookupQuery,
    @Req() req: Request,
  ) {
    return this.publicViews.linkRowLookup(slug, caller(user, token), fieldId, query, requestUrl(req));
  }
}
