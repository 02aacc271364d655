import { civilFromDays, daysFromCivil, daysInMonth, isLeap, Ymd } from './calendar';
import { ParseResult, failed, parsed } from './common';

/**
 * Date cells. Baserow's serializer field is DRF's `DateField` (date-only fields) or
 * `DateTimeField` (`date_include_time`), with the ISO-8601 input format, so what is accepted
 * is Django's `parse_date` / `parse_datetime`: first Python 3.11's `date/datetime.fromisoformat`,
 * then Django's looser regex. Notable consequences, all reproduced here:
 * - a date-only field rejects datetime strings ("2020-01-01T10:00Z" is a wrong format);
 * - a datetime field accepts a bare date (midnight UTC) and any single separator character
 *   between date and time ("2020-01-01x10:00"), ISO week dates ("2020-W01-1"), basic format
 *   ("20200101T1000"), hour-only times, and any number of fraction digits (truncated to µs);
 * - naive datetimes are UTC (Baserow's TIME_ZONE); offsets are converted to UTC.
 *
 * Canonical values use microsecond precision because Baserow keeps it (PostgreSQL
 * timestamptz) and echoes it: `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS.ffffffZ` (fixed width,
 * so text order is time order).
 */

export const DATE_FORMAT_ERROR = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
export const DATETIME_FORMAT_ERROR =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
export const DATETIME_OVERFLOW_ERROR = 'Datetime value out of range.';

interface ParsedDateTime extends Ymd {
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** Offset east of UTC in microseconds; null for a naive datetime. */
  offset: number | null;
}

const US_PER_DAY = 86_400_000_000;

/** Python's `date(y, m, d)` range checks. */
function validDate(d: Ymd): boolean {
  return d.year >= 1 && d.year <= 9999 && d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= daysInMonth(d.year, d.month);
}

/** `date.fromisocalendar`: Monday of ISO week 1 is the Monday on or before January 4th. */
function isoWeekToDate(year: number, week: number, weekday: number): Ymd | null {
  if (week < 1 || week > 53 || weekday < 1 || weekday > 7) return null;
  const jan1 = daysFromCivil({ year, month: 1, day: 1 });
  const jan1Weekday = (((jan1 + 3) % 7) + 7) % 7; // 0 = Monday (1970-01-01 was a Thursday)
  if (week === 53 && !(jan1Weekday === 3 || (jan1Weekday === 2 && isLeap(year)))) return null;
  const jan4 = jan1 + 3;
  const week1Monday = jan4 - ((((jan4 + 3) % 7) + 7) % 7);
  return civilFromDays(week1Monday + (week - 1) * 7 + weekday - 1);
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** `count` ASCII digits at `pos` (CPython's parse_digits), or null. */
function digitsAt(s: string, pos: number, count: number): number | null {
  if (pos + count > s.length) return null;
  let n = 0;
  for (let i = pos; i < pos + count; i++) {
    if (!isDigit(s[i])) return null;
    n = n * 10 + (s.charCodeAt(i) - 48);
  }
  return n;
}

/**
 * CPython 3.11 `parse_isoformat_date` on `s[0:len]`: YYYY-MM-DD, YYYYMMDD, YYYY-Www[-D],
 * YYYYWww[D]. Like C, it does not insist on consuming all of `len` for calendar dates.
 */
function isoformatDate(s: string, len: number): Ymd | null {
  const year = digitsAt(s, 0, 4);
  if (year === null) return null;
  let p = 4;
  const sep = s[p] === '-';
  if (sep) p++;
  if (s[p] === 'W') {
    p++;
    const week = digitsAt(s, p, 2);
    if (week === null) return null;
    p += 2;
    let weekday = 1;
    if (p < len) {
      if (sep && s[p++] !== '-') return null;
      const d = digitsAt(s, p, 1);
      if (d === null) return null;
      weekday = d;
    }
    const result = isoWeekToDate(year, week, weekday);
    return result && validDate(result) ? result : null;
  }
  const month = digitsAt(s, p, 2);
  if (month === null) return null;
  p += 2;
  if (sep && s[p++] !== '-') return null;
  const day = digitsAt(s, p, 2);
  if (day === null) return null;
  const result = { year, month, day };
  return validDate(result) ? result : null;
}

/** Python 3.11 `date.fromisoformat`. */
function dateFromIsoformat(s: string): Ymd | null {
  return s.length === 7 || s.length === 8 || s.length === 10 ? isoformatDate(s, s.length) : null;
}

/** CPython 3.11 `_find_isoformat_datetime_separator`. */
function isoformatSeparator(s: string): number {
  const len = s.length;
  if (len === 7) return 7;
  if (s[4] === '-') {
    if (s[5] !== 'W') return 10;
    if (len < 8) return -1;
    if (len > 8 && s[8] === '-') {
      if (len === 9) return -1;
      return len > 10 && isDigit(s[10]) ? 8 : 10;
    }
    return 8;
  }
  if (s[4] !== 'W') return 8;
  let idx = 7;
  while (idx < len && isDigit(s[idx])) idx++;
  if (idx < 9) return idx;
  return idx % 2 === 0 ? 7 : 8;
}

interface HmsResult {
  /** <0 error, 0 consumed everything, 1 stopped before the end (CPython's return codes). */
  rv: number;
  values: [number, number, number, number];
}

/** CPython 3.11 `parse_hh_mm_ss_ff` on `s[start:end]`; reading past `end` sees the next char (or NUL). */
function hhmmssff(s: string, start: number, end: number): HmsResult {
  const values: [number, number, number, number] = [0, 0, 0, 0];
  const at = (i: number): string => (i < s.length ? s[i] : '\0');
  let p = start;
  let hasSep = true;
  for (let i = 0; i < 3; i++) {
    const v = digitsAt(s, p, 2);
    if (v === null) return { rv: -3, values };
    values[i] = v;
    p += 2;
    const c = at(p++);
    if (i === 0) hasSep = c === ':';
    if (p >= end) return { rv: c !== '\0' ? 1 : 0, values };
    if (hasSep && c === ':') continue;
    if (c === '.' || c === ',') break;
    if (hasSep) return { rv: -4, values };
    p--;
  }
  // Reached after a '.'/',' or after three fields (then whatever follows is read as the
  // fraction: "10:00:00:5" is 10:00:00.5 in CPython).
  const toParse = Math.min(end - p, 6);
  if (toParse <= 0) return { rv: -3, values }; // "10:00:00." (undefined behaviour in C; rejected)
  const us = digitsAt(s, p, toParse);
  if (us === null) return { rv: -3, values };
  values[3] = us * 10 ** (6 - toParse);
  p += toParse;
  while (isDigit(at(p))) p++;
  return { rv: at(p) !== '\0' ? 1 : 0, values };
}

/** CPython 3.11 `parse_isoformat_time` on `s[start:]`. */
function isoformatTime(s: string, start: number): Omit<ParsedDateTime, keyof Ymd> | null {
  let tzPos = start;
  do {
    if (s[tzPos] === 'Z' || s[tzPos] === '+' || s[tzPos] === '-') break;
  } while (++tzPos < s.length);
  const time = hhmmssff(s, start, tzPos);
  if (time.rv < 0) return null;
  const [hour, minute, second, microsecond] = time.values;
  if (tzPos >= s.length) return time.rv === 1 ? null : { hour, minute, second, microsecond, offset: null };
  if (s[tzPos] === 'Z') return tzPos + 1 === s.length ? { hour, minute, second, microsecond, offset: 0 } : null;
  const sign = s[tzPos] === '-' ? -1 : 1;
  const tz = hhmmssff(s, tzPos + 1, s.length);
  if (tz.rv !== 0) return null;
  const [th, tm, ts, tus] = tz.values;
  const seconds = th * 3600 + tm * 60 + ts;
  // CPython: a zero seconds offset is UTC even with a fraction; otherwise |offset| < 24h.
  const offset = seconds === 0 ? 0 : sign * (seconds * 1_000_000 + tus);
  if (Math.abs(offset) >= US_PER_DAY) return null;
  return { hour, minute, second, microsecond, offset };
}

/** Python 3.11 `datetime.fromisoformat` (ASCII input). */
function datetimeFromIsoformat(s: string): ParsedDateTime | null {
  if (s.length < 7 || /[^\p{ASCII}]/u.test(s)) return null;
  const sepAt = isoformatSeparator(s);
  if (sepAt < 0) return null;
  const date = isoformatDate(s, sepAt);
  if (!date) return null;
  if (s.length <= sepAt) return { ...date, hour: 0, minute: 0, second: 0, microsecond: 0, offset: null };
  const time = isoformatTime(s, sepAt + 1);
  return time ? { ...date, ...time } : null;
}

// Django's fallbacks (`re.match` + `$`, which also matches before a final newline).
const DJANGO_DATE_RE = /^(\d{4})-(\d{1,2})-(\d{1,2})\n?$/;
const DJANGO_DATETIME_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?\n?$/;

/** Django's `parse_date`. */
function djangoParseDate(s: string): Ymd | null {
  const iso = dateFromIsoformat(s);
  if (iso) return iso;
  const m = DJANGO_DATE_RE.exec(s);
  if (!m) return null;
  const date = { year: +m[1], month: +m[2], day: +m[3] };
  return validDate(date) ? date : null;
}

/** Django's `parse_datetime`. */
function djangoParseDatetime(s: string): ParsedDateTime | null {
  const iso = datetimeFromIsoformat(s);
  if (iso && iso.hour < 24 && iso.minute < 60 && iso.second < 60) return iso;
  const m = DJANGO_DATETIME_RE.exec(s);
  if (!m) return null;
  let offset: number | null = null;
  const tz = m[8];
  if (tz === 'Z') offset = 0;
  else if (tz !== undefined) {
    const minutes = 60 * Number(tz.slice(1, 3)) + (tz.length > 3 ? Number(tz.slice(-2)) : 0);
    if (minutes >= 1440) return null;
    offset = (tz[0] === '-' ? -minutes : minutes) * 60_000_000;
  }
  const result: ParsedDateTime = {
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: +m[4],
    minute: +m[5],
    second: m[6] === undefined ? 0 : +m[6],
    microsecond: m[7] === undefined ? 0 : Number(m[7].padEnd(6, '0')),
    offset,
  };
  return validDate(result) && result.hour < 24 && result.minute < 60 && result.second < 60 ? result : null;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function formatYmd(d: Ymd): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** UTC instant as (days since epoch, µs of the day). */
function toUtc(dt: ParsedDateTime): { days: number; us: number } {
  const us = ((dt.hour * 60 + dt.minute) * 60 + dt.second) * 1_000_000 + dt.microsecond - (dt.offset ?? 0);
  const days = daysFromCivil(dt) + Math.floor(us / US_PER_DAY);
  return { days, us: ((us % US_PER_DAY) + US_PER_DAY) % US_PER_DAY };
}

function formatInstant(days: number, us: number, micro: 'always' | 'nonzero'): string {
  const date = formatYmd(civilFromDays(days));
  const seconds = Math.floor(us / 1_000_000);
  const fraction = us % 1_000_000;
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  const frac = micro === 'always' || fraction !== 0 ? `.${pad(fraction, 6)}` : '';
  return `${date}T${time}${frac}Z`;
}

/**
 * A request value for a date field → `YYYY-MM-DD` (date-only) or `YYYY-MM-DDTHH:MM:SS.ffffffZ`
 * in UTC, or null. Non-strings (numbers, booleans, objects) are a wrong format, as in DRF.
 */
export function parseDateValue(value: unknown, opts: { includeTime: boolean }): ParseResult<string | null> {
  if (value === null || value === undefined) return parsed(null);
  if (!opts.includeTime) {
    const date = typeof value === 'string' ? djangoParseDate(value) : null;
    return date ? parsed(formatYmd(date)) : failed(DATE_FORMAT_ERROR);
  }
  const dt = typeof value === 'string' ? djangoParseDatetime(value) : null;
  if (!dt) return failed(DATETIME_FORMAT_ERROR);
  const { days, us } = toUtc(dt);
  const year = civilFromDays(days).year;
  // `astimezone(utc)` raises OverflowError out of years 1..9999 → DRF's 'overflow'.
  if (year < 1 || year > 9999) return failed(DATETIME_OVERFLOW_ERROR, 'overflow');
  return parsed(formatInstant(days, us, 'always'));
}

// What storage hands back: ISO strings (ours, JS toISOString) and PostgreSQL's text output.
const STORED_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

// A valid date as stored for a date-only field, or a UTC instant as stored for a datetime.
const PLAIN_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PLAIN_INSTANT_RE = /^((\d{4})-(\d{2})-(\d{2}))T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{6}))?Z$/;

function validDay(year: string, month: string, day: string): boolean {
  const y = +year, m = +month, d = +day;
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/**
 * The common cases of `formatDateValue` without the calendar arithmetic (a listing formats every
 * cell): a valid `YYYY-MM-DD` of a date-only field is answered as stored, and a stored UTC
 * instant loses only zero microseconds. Null for anything else.
 */
function plainStoredDate(raw: string, includeTime: boolean): string | null {
  if (!includeTime) {
    const m = PLAIN_DATE_RE.exec(raw);
    return m && validDay(m[1], m[2], m[3]) ? raw : null;
  }
  const m = PLAIN_INSTANT_RE.exec(raw);
  if (!m || !validDay(m[2], m[3], m[4])) return null;
  const fraction = m[8] && m[8] !== '000000' ? `.${m[8]}` : '';
  return `${m[1]}T${m[5]}:${m[6]}:${m[7]}${fraction}Z`;
}

/**
 * A stored value → the response: `2020-02-01` for date-only fields; for datetimes ISO UTC
 * with `Z`, microseconds only when non-zero (DRF's `isoformat()`): `2020-02-01T01:23:00Z`,
 * `2020-02-01T01:23:00.123000Z`. Agrees with `toApiDateTime` for `Date` values.
 * (node-postgres turns `date` columns into local-midnight Dates: read those as text.)
 */
export function formatDateValue(raw: string | Date | null | undefined, includeTime: boolean): string | null {
  return (typeof raw === 'string' ? plainStoredDate(raw, includeTime) : null) ?? formatDateValueExactly(raw, includeTime);
}

/** `formatDateValue` through the calendar arithmetic, for every input (exported for the tests of the shortcut). */
export function formatDateValueExactly(raw: string | Date | null | undefined, includeTime: boolean): string | null {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return null;
    const ms = raw.getTime();
    const days = Math.floor(ms / 86_400_000);
    const us = (ms - days * 86_400_000) * 1000;
    return includeTime ? formatInstant(days, us, 'nonzero') : formatYmd(civilFromDays(days));
  }
  const m = STORED_RE.exec(raw.trim());
  if (!m) return raw;
  let offset = 0;
  if (m[8] && m[8] !== 'Z') {
    const minutes = 60 * Number(m[8].slice(1, 3)) + (m[8].length > 3 ? Number(m[8].slice(-2)) : 0);
    offset = (m[8][0] === '-' ? -minutes : minutes) * 60_000_000;
  }
  const { days, us } = toUtc({
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: m[4] === undefined ? 0 : +m[4],
    minute: m[5] === undefined ? 0 : +m[5],
    second: m[6] === undefined ? 0 : +m[6],
    microsecond: m[7] === undefined ? 0 : Number(m[7].slice(0, 6).padEnd(6, '0')),
    offset,
  });
  return includeTime ? formatInstant(days, us, 'nonzero') : formatYmd(civilFromDays(days));
}
