import { DynamicQuery } from '../../core/validation/dynamic-query';
import { Field } from '../../core/validation/field';
import { FILTER_PARAMETER, FilteredRowsQuery } from '../../database/rows/rows.query';

/**
 * A calendar's rows: the range and paging are checked together by the service as Baserow's
 * ListCalendarRowsQueryParamsSerializer checks them (every error in one answer).
 */
@DynamicQuery(FILTER_PARAMETER)
export class CalendarRowsQuery extends FilteredRowsQuery {
  @Field({ kind: 'any', required: false, description: 'Required: the range starts at this ISO 8601 datetime (UTC when it has no offset).', example: '2024-01-01T00:00:00Z' })
  from_timestamp?: unknown;

  @Field({ kind: 'any', required: false, description: 'Required: the range ends before this ISO 8601 datetime; at most 45 days after `from_timestamp`.', example: '2024-02-01T00:00:00Z' })
  to_timestamp?: unknown;

  @Field({ kind: 'any', required: false, description: 'The IANA time zone whose days group a datetime field without a forced time zone (UTC when absent).', example: 'Europe/Amsterdam' })
  user_timezone?: unknown;

  @Field({ kind: 'any', required: false, description: 'Rows per day (40 by default, 1 to 100).' })
  limit?: unknown;

  @Field({ kind: 'any', required: false, description: 'Rows to skip per day (0 by default).' })
  offset?: unknown;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated: `field_options`, `row_metadata`.' })
  include?: string;

  @Field({ kind: 'any', required: false, description: 'At most this many linked rows per link cell (ignored when invalid).' })
  limit_linked_items?: unknown;
}

/** A shared calendar's rows: the same range and paging, filters AND the saved ones (no search). */
@DynamicQuery(FILTER_PARAMETER)
export class PublicCalendarRowsQuery extends CalendarRowsQuery {}
