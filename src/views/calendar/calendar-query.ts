import { ErrorTree, queryValidationError } from '../../core/errors/api-error';
import { isValidTimeZone } from '../../database/filters/date-filter-value/time-zones';
import { SEARCH_MODES } from '../../database/rows/rows.query';

/** Baserow's MAX_NUMBER_CALENDAR_DAYS: a listing covers at most this many whole days. */
export const MAX_CALENDAR_DAYS = 45;
const DAY_MS = 86_400_000;

/** A calendar listing's range and paging, checked as Baserow's ListCalendarRowsQueryParamsSerializer checks them. */
export interface CalendarRange {
  /** Instants (ms since the epoch, UTC). */
  from: number;
  to: number;
  /** Rows per day and rows skipped per day. */
  limit: number;
  offset: number;
  /** null: not given (UTC). */
  userTimezone: string | null;
  search: string | null;
  searchMode: string | null;
}

const INVALID_DATETIME = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
// Python's datetime.fromisoformat and Django's parse_datetime, as DRF's DateTimeField reads them.
const DATETIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d{0,6})?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const MIN_MS = Date.UTC(1, 0, 1) - 0;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An aware (or naive: UTC, Baserow's TIME_ZONE) datetime as an instant, or null when DRF would refuse it. */
export function parseDateTime(text: string): number | null {
  const m = DATETIME.exec(text.trim() === text ? text : '');
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  // A date alone is midnight; an hour needs minutes unless the whole thing is Python's ISO form.
  if (h !== undefined && mi === undefined && text.length !== 13) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, Math.floor(Number((frac ?? '0').padEnd(6, '0')) / 1000));
  if (wall.getUTCDate() !== day) return null;
  let offset = 0;
  if (tz && tz !== 'Z') {
    const digits = tz.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5) || '0');
    if (hours > 23 || minutes > 59) return null;
    offset = (tz[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  const instant = wall.getTime() - offset;
  return instant < MIN_MS || instant > MAX_MS ? null : instant;
}

/** DRF's IntegerField: an integer (surrounding blanks and a `.0` allowed), else undefined. */
function drfInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\s*[+-]?\d+(\.0*)?\s*$/.test(value)) return undefined;
  const n = Math.trunc(Number(value));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The query of `GET /api/database/views/calendar/{view_id}/` (and its public twin): 400 ERROR_QUERY_PARAMETER_VALIDATION as Baserow answers. */
export function parseCalendarRange(query: Record<string, unknown>): CalendarRange {
  const errors: ErrorTree = {};
  const single = (key: string): unknown => (Array.isArray(query[key]) ? (query[key] as unknown[]).at(-1) : query[key]);
  const instant = (key: string): number | null => {
    const raw = single(key);
    if (raw === undefined) {
      errors[key] = [{ error: 'This field is required.', code: 'required' }];
      return null;
    }
    const parsed = parseDateTime(String(raw));
    if (parsed === null) errors[key] = [{ error: INVALID_DATETIME, code: 'invalid' }];
    return parsed;
  };
  const from = instant('from_timestamp');
  const to = instant('to_timestamp');
  const int = (key: string, def: number, min: number, max?: number): number => {
    const raw = single(key);
    if (raw === undefined) return def;
    const value = drfInt(raw);
    if (value === undefined) errors[key] = [{ error: 'A valid integer is required.', code: 'invalid' }];
    else if (value < min) errors[key] = [{ error: `Ensure this value is greater than or equal to ${min}.`, code: 'min_value' }];
    else if (max !== undefined && value > max) errors[key] = [{ error: `Ensure this value is less than or equal to ${max}.`, code: 'max_value' }];
    return value ?? def;
  };
  const offset = int('offset', 0, 0);
  const limit = int('limit', 40, 1, 100);
  const zone = single('user_timezone');
  if (zone !== undefined && !isValidTimeZone(String(zone))) errors.user_timezone = [{ error: `"${String(zone)}" is not a valid choice.`, code: 'invalid_choice' }];
  const mode = single('search_mode');
  if (mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(String(mode))) errors.search_mode = [{ error: `"${String(mode)}" is not a valid choice.`, code: 'invalid_choice' }];
  if (Object.keys(errors).length) throw queryValidationError(errors);
  // The serializer's own validation, once every field is valid.
  if (from! > to!) throw queryValidationError({ non_field_errors: [{ error: 'from_timestamp must occur before to_timestamp', code: 'invalid' }] });
  if (Math.floor((to! - from!) / DAY_MS) > MAX_CALENDAR_DAYS) {
    throw queryValidationError({
      non_field_errors: [{ error: `the number of days between from_timestamp and to_timestamp must be less than ${MAX_CALENDAR_DAYS} days`, code: 'invalid' }],
    });
  }
  const search = single('search');
  return {
    from: from!,
    to: to!,
    limit,
    offset,
    userTimezone: zone === undefined ? null : String(zone),
    search: search === undefined ? null : String(search),
    searchMode: mode === undefined ? null : String(mode),
  };
}
