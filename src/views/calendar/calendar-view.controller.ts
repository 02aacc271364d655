import { Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser, Public } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import type { ViewJson } from '../view-json.service';
import { CalendarRowsQuery } from './calendar.dto';
import { CalendarRowsJson, CalendarViewService } from './calendar-view.service';

export const CALENDAR_ROWS_ANSWER = {
  type: 'object',
  properties: {
    rows: {
      type: 'object',
      description: 'Per day (`YYYY-MM-DD`) of the range: how many rows fall on it and a page of them.',
      additionalProperties: { type: 'object', properties: { count: { type: 'integer' }, results: Schemas.list('Row') } },
    },
    field_options: Schemas.object,
    row_metadata: Schemas.object,
  },
};

@ApiTags('Database table calendar view')
@Authentication('JWT')
@Controller('api/database/views/calendar')
export class CalendarViewController {
  constructor(private readonly calendar: CalendarViewService) {}

  // Declared first: Express's router would give `{slug}.ics` to `:viewId` otherwise.
  @Get(':icalSlug.ics')
  @Public()
  @Header('Content-Type', 'text/calendar; charset=utf-8')
  @Header('Cache-Control', 'max-age=1800')
  @Answer({ type: 'string', format: 'binary' }, { contentType: 'text/calendar' })
  @ApiOperation({
    operationId: 'calendar_ical_feed',
    summary: "The iCal feed of a calendar view whose feed is public (`ical_public`), at the view's `ical_feed_url`: one event per row with a date.",
  })
  feed(@Param('icalSlug') icalSlug: string): Promise<string> {
    return this.calendar.icalFeed(icalSlug);
  }

  @Get(':viewId')
  @Answer(CALENDAR_ROWS_ANSWER)
  @ApiOperation({
    operationId: 'list_database_table_calendar_view_rows',
    summary:
      'Rows of a calendar view per day of its date field from `from_timestamp` to `to_timestamp` (required, at most 45 days apart), in `user_timezone` for a datetime without a forced time zone: `limit` (40, at most 100) and `offset` per day, search, filters (replacing the saved ones), include=field_options,row_metadata.',
  })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: CalendarRowsQuery): Promise<CalendarRowsJson> {
    return this.calendar.list(user, viewId, query);
  }

  @Post(':viewId/ical_slug_rotate')
  @HttpCode(200)
  @Answer(Schemas.object)
  @ApiOperation({
    operationId: 'rotate_calendar_view_ical_feed_slug',
    summary: "Gives a calendar view's iCal feed a new slug: the old `ical_feed_url` stops working. Answers the view.",
  })
  rotate(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewJson> {
    return this.calendar.rotateIcalSlug(user, viewId);
  }

}
