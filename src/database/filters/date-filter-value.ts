import { civilFromDays, daysFromCivil, daysInMonth, isLeap } from '../fields/values/calendar';

/**
 * Date filter values → UTC time ranges (pure module: no Nest, no TypeORM, no npm deps).
 *
 * Turns the string `value` of a Baserow date view filter into a condition that the SQL
 * layer can apply to a stored date (`YYYY-MM-DD`) or timestamp (UTC instant) column.
 * Behaviour mirrors Baserow 1.35 (`backend/.../views/view_filters.py`):
 *
 * API
 * ---
 *   resolveDateFilter(filterType, value, now, includeTime, { defaultTimezone? }) → DateFilterCondition
 *     - filterType:  one of MULTI_STEP_DATE_FILTER_TYPES or LEGACY_DATE_FILTER_TYPES (else throws).
 *     - value:       the raw filter value string.
 *     - now:         the current instant (Baserow: `datetime.now(tz)`).
 *     - includeTime: true when the column stores instants (date field with
 *                    `date_include_time`, created_on, last_modified, datetime formulas);
 *                    false for date-only columns storing `YYYY-MM-DD`.
 *     - defaultTimezone: the field's `date_force_timezone`; used by legacy filters whose value
 *                    has no `tz?` prefix (null/undefined → UTC).
 *   matchesDateFilter(condition, storedValue, includeTime) → boolean   (in-memory evaluator,
 *     same semantics as the SQL described below; handy for row checks and tests)
 *   isDateFilterType / isMultiStepDateFilterType / isLegacyDateFilterType, isValidTimeZone,
 *   localDateString(instant, tz), startOfDayInTimeZone('YYYY-MM-DD', tz).
 *
 * DateFilterCondition
 * -------------------
 *   { kind: 'all' }    the filter is ignored: every row matches (NULLs included).
 *   { kind: 'none', reason }   no row matches (Baserow's `Q(pk__in=[])` for unusable values).
 *   { kind: 'range', ranges, negate, timeZone }
 *       The row matches when the value is NOT NULL and lies in at least one interval
 *       (`ranges` has exactly one interval for every type except `date_equals_week`, which can
 *       yield two: the quirky "ISO week number AND calendar year" test, see below).
 *       With `negate: true` (date_is_not, date_not_equal) the row matches when the value is
 *       NULL or lies in none of the intervals (Baserow negates `isnull=False AND range`).
 *       Interval bounds (any of them may be absent = unbounded):
 *         timestamp columns (includeTime=true): `value >= from` (`>` when fromExclusive) and
 *           `value < to` (`<=` when toInclusive). The exclusive/inclusive flags only appear for
 *           legacy filters whose value carries a time (`2024-01-01 10:00`), which Baserow
 *           compares against the exact instant.
 *         date columns (includeTime=false): `value >= fromDate` and `value < toDate`
 *           (`YYYY-MM-DD` strings in the filter's timezone compare correctly as text).
 *       Day-based intervals carry both forms (fromDate/toDate are calendar dates in `timeZone`,
 *       from/to the UTC instants at which those local days start, DST-aware).
 *       SQL: `col IS NOT NULL AND ((col >= :from AND col < :to) OR ...)`; negate → `NOT (...)`.
 *   { kind: 'day_of_month', day, timeZone }   (date_equals_day_of_month)
 *       The day of month of the value, in `timeZone` for timestamp columns, equals `day`
 *       (any month/year); NULL never matches. SQL: PostgreSQL
 *       `EXTRACT(DAY FROM (col AT TIME ZONE :tz)) = :day`; date columns `EXTRACT(DAY FROM col)`
 *       / SQLite `CAST(substr(col, 9, 2) AS INTEGER) = :day`. SQLite cannot convert time zones,
 *       so for timestamp columns register a UDF (better-sqlite3 `db.function`) built on
 *       `localDateString(new Date(col), tz)` and compare its day part.
 *
 * Confirmed Baserow behaviours
 * ----------------------------
 * Multi-step (`date_is`, `date_is_not`, `date_is_before`, `date_is_on_or_before`,
 * `date_is_after`, `date_is_on_or_after`, `date_is_within`), value `tz?value?operator`:
 *   - Must have exactly three `?`-separated parts; anything else (including the empty string,
 *     a bare timezone or `tz?value`) is invalid. Empty timezone part → UTC.
 *   - Invalid value, timezone or operator → no rows (never a validation error); for the
 *     negated `date_is_not` that becomes all rows.
 *   - Empty value part with `exact_date`, `nr_days_ago`, `nr_days_from_now` → filter ignored.
 *     Other `nr_*` operators treat an empty value as 0; operators without a number ignore it.
 *   - `date_is_within` does not accept `today`. Within = from today to the end of the
 *     operator's period when it ends in the future, else from its start up to today inclusive.
 *   - Weeks start on Monday (dateutil `MO`). `one_week_ago` = the previous Mon–Sun week;
 *     `nr_weeks_*` = the whole week containing today ± n weeks; `nr_months_*`/`nr_years_*` =
 *     the whole month/year; `one_month_ago` = the previous calendar month, etc.
 *   - `exact_date` accepts ISO dates (also `YYYYMMDD`, `YYYY-MM`, `YYYY`, week and ordinal
 *     dates) and ISO datetimes (dateutil `isoparse`, any date/time separator, optional offset);
 *     a datetime is reduced to its calendar date in the filter's timezone.
 * Legacy (`date_equal` … `date_equals_day_of_month`), value `tz?value`, `tz` or `value`:
 *   - More than one `?` → treated as an empty value in UTC. `?value` (empty tz) is an invalid
 *     timezone. A bare value that is a timezone name means "timezone, no value". A bare value
 *     otherwise uses the field's `date_force_timezone` (else UTC).
 *   - Empty value → ignored (all rows), except for date_equals_today / date_before_today /
 *     date_after_today / date_equals_week / date_equals_month / date_equals_year, which never
 *     use the value. `date_after_days_ago` also ignores `0`.
 *   - Invalid timezone/value → no rows (date_not_equal: all rows). `date_within_weeks` and
 *     `date_within_months` reject 0; day of month must be 1..31.
 *   - A value with a time on a timestamp column compares against that exact instant; a date
 *     compares against the local calendar date (`TruncDate(col, tz)`).
 *   - date_equals_week = "ISO week number == this ISO week AND calendar year == this year"
 *     (Django `__week` + `__year`), so around New Year it can match early-January and
 *     late-December days of the same calendar year.
 *   - Month arithmetic is dateutil relativedelta: Jan 31 + 1 month = Feb 28/29.
 * Values outside Python's date range (years 1..9999) make the filter match nothing.
 */

export const DATE_FILTER_OPERATORS = [
  'today',
  'yesterday',
  'tomorrow',
  'one_week_ago',
  'one_month_ago',
  'one_year_ago',
  'this_week',
  'this_month',
  'this_year',
  'next_week',
  'next_month',
  'next_year',
  'nr_days_ago',
  'nr_weeks_ago',
  'nr_months_ago',
  'nr_years_ago',
  'nr_days_from_now',
  'nr_weeks_from_now',
  'nr_months_from_now',
  'nr_years_from_now',
  'exact_date',
] as const;
export type DateFilterOperator = (typeof DATE_FILTER_OPERATORS)[number];

export const MULTI_STEP_DATE_FILTER_TYPES = [
  'date_is',
  'date_is_not',
  'date_is_before',
  'date_is_on_or_before',
  'date_is_after',
  'date_is_on_or_after',
  'date_is_within',
] as const;
export type MultiStepDateFilterType = (typeof MULTI_STEP_DATE_FILTER_TYPES)[number];

export const LEGACY_DATE_FILTER_TYPES = [
  'date_equal',
  'date_not_equal',
  'date_before',
  'date_before_or_equal',
  'date_after',
  'date_after_or_equal',
  'date_after_days_ago',
  'date_equals_today',
  'date_before_today',
  'date_after_today',
  'date_within_days',
  'date_within_weeks',
  'date_within_months',
  'date_equals_days_ago',
  'date_equals_months_ago',
  'date_equals_years_ago',
  'date_equals_week',
  'date_equals_month',
  'date_equals_year',
  'date_equals_day_of_month',
] as const;
export type LegacyDateFilterType = (typeof LEGACY_DATE_FILTER_TYPES)[number];

export type DateFilterType = MultiStepDateFilterType | LegacyDateFilterType;

export interface DateInterval {
  /** Lower bound as a UTC instant (timestamp columns); inclusive unless `fromExclusive`. */
  from?: Date;
  /** Upper bound as a UTC instant (timestamp columns); exclusive unless `toInclusive`. */
  to?: Date;
  fromExclusive?: boolean;
  toInclusive?: boolean;
  /** Inclusive lower calendar date `YYYY-MM-DD` in the filter's time zone (date columns). */
  fromDate?: string;
  /** Exclusive upper calendar date `YYYY-MM-DD` in the filter's time zone (date columns). */
  toDate?: string;
}

export type DateFilterCondition =
  | { kind: 'all' }
  | { kind: 'none'; reason: string }
  | { kind: 'range'; ranges: DateInterval[]; negate: boolean; timeZone: string }
  | { kind: 'day_of_month'; day: number; timeZone: string };

export interface DateFilterOptions {
  /** The field's `date_force_timezone`; legacy filters use it when the value has no tz. */
  defaultTimezone?: string | null;
}

const MULTI_STEP_SET: ReadonlySet<string> = new Set(MULTI_STEP_DATE_FILTER_TYPES);
const LEGACY_SET: ReadonlySet<string> = new Set(LEGACY_DATE_FILTER_TYPES);
const OPERATOR_SET: ReadonlySet<string> = new Set(DATE_FILTER_OPERATORS);

export function isMultiStepDateFilterType(type: string): type is MultiStepDateFilterType {
  return MULTI_STEP_SET.has(type);
}

export function isLegacyDateFilterType(type: string): type is LegacyDateFilterType {
  return LEGACY_SET.has(type);
}

export function isDateFilterType(type: string): type is DateFilterType {
  return MULTI_STEP_SET.has(type) || LEGACY_SET.has(type);
}

// ---------------------------------------------------------------------------------------
// Errors: anything Baserow catches (ValueError, OverflowError, ParserError,
// ZoneInfoNotFoundError) becomes a FilterValueError, which maps to "no rows".

class FilterValueError extends Error {}

function invalid(reason: string): never {
  throw new FilterValueError(reason);
}

// ---------------------------------------------------------------------------------------
// Calendar dates as epoch day numbers (days since 1970-01-01), proleptic Gregorian.

const DAY_MS = 86_400_000;
const MIN_DAY = daysFromCivil({ year: 1, month: 1, day: 1 });
const MAX_DAY = daysFromCivil({ year: 9999, month: 12, day: 31 });

/** Python `date` range check (years 1..9999); outside → OverflowError/ValueError. */
function checkDay(day: number): number {
  if (!Number.isFinite(day) || day < MIN_DAY || day > MAX_DAY) invalid('date out of range');
  return day;
}

/** Validating `date(y, m, d)` constructor. */
function makeDay(y: number, m: number, d: number): number {
  if (y < 1 || y > 9999) invalid('year out of range');
  if (m < 1 || m > 12) invalid('month must be in 1..12');
  if (d < 1 || d > daysInMonth(y, m)) invalid('day is out of range for month');
  return daysFromCivil({ year: y, month: m, day: d });
}

/** Monday = 0 … Sunday = 6 (Python `date.weekday()`). */
function weekday(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

function firstOfMonth(day: number): number {
  const c = civilFromDays(day);
  return daysFromCivil({ year: c.year, month: c.month, day: 1 });
}

function firstOfYear(day: number): number {
  return daysFromCivil({ year: civilFromDays(day).year, month: 1, day: 1 });
}

/** dateutil `relativedelta(months=n)`: the day is clamped to the target month's length. */
function addMonths(day: number, n: number): number {
  const c = civilFromDays(day);
  const total = c.year * 12 + (c.month - 1) + n;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  if (y < 1 || y > 9999) invalid('year out of range');
  return daysFromCivil({ year: y, month: m, day: Math.min(c.day, daysInMonth(y, m)) });
}

function addYears(day: number, n: number): number {
  return addMonths(day, n * 12);
}

function addDays(day: number, n: number): number {
  return checkDay(day + n);
}

/** `weekday=MO(-1)`: Monday on or before. */
function mondayOnOrBefore(day: number): number {
  return day - weekday(day);
}

/** `weekday=MO(+1)`: Monday on or after. */
function mondayOnOrAfter(day: number): number {
  return day + ((7 - weekday(day)) % 7);
}

function isoWeekInfo(day: number): { isoYear: number; week: number } {
  const thursday = day - weekday(day) + 3;
  const isoYear = civilFromDays(thursday).year;
  const week = Math.floor((thursday - daysFromCivil({ year: isoYear, month: 1, day: 1 })) / 7) + 1;
  return { isoYear, week };
}

/** Monday of ISO week 1 of `isoYear`. */
function isoWeekOneMonday(isoYear: number): number {
  return mondayOnOrBefore(daysFromCivil({ year: isoYear, month: 1, day: 4 }));
}

function dayToString(day: number): string {
  const { year: y, month: m, day: d } = civilFromDays(day);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------
// Time zones (Intl only).

const formatterCache = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatterCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatterCache.set(timeZone, f);
  }
  return f;
}

/**
 * True when Python's `zoneinfo.ZoneInfo(name)` would accept the name, approximated as: Intl
 * knows it, and it looks like a case-correct IANA key (Linux zoneinfo lookups are
 * case-sensitive, Intl's are not; offset strings like `+01:00` are not zone keys).
 */
export function isValidTimeZone(name: string): boolean {
  if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  if (!name.split('/').every((segment) => /^[A-Z]/.test(segment))) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

interface WallParts {
  day: number;
  /** milliseconds since local midnight, whole seconds */
  msOfDay: number;
}

function wallParts(ms: number, timeZone: string): WallParts {
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  let y = 0;
  let m = 0;
  let d = 0;
  let hh = 0;
  let mm = 0;
  let ss = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        y = Number(p.value);
        break;
      case 'month':
        m = Number(p.value);
        break;
      case 'day':
        d = Number(p.value);
        break;
      case 'hour':
        hh = Number(p.value) % 24;
        break;
      case 'minute':
        mm = Number(p.value);
        break;
      case 'second':
        ss = Number(p.value);
        break;
      case 'era':
        bc = /^B/i.test(p.value);
        break;
    }
  }
  if (bc) y = 1 - y;
  return { day: daysFromCivil({ year: y, month: m, day: d }), msOfDay: ((hh * 60 + mm) * 60 + ss) * 1000 };
}

/** UTC offset (ms, whole seconds) of `timeZone` at instant `ms`. */
function offsetMs(ms: number, timeZone: string): number {
  const w = wallParts(ms, timeZone);
  return w.day * DAY_MS + w.msOfDay - Math.floor(ms / 1000) * 1000;
}

function localDay(ms: number, timeZone: string): number {
  return wallParts(ms, timeZone).day;
}

/** The calendar date `YYYY-MM-DD` of an instant in `timeZone`. */
export function localDateString(instant: Date, timeZone: string): string {
  return dayToString(localDay(instant.getTime(), timeZone));
}

/**
 * First instant whose local date in `timeZone` is `day` (what `TruncDate(col, tz) >= day`
 * means); handles days that do not start at 00:00 because of a DST gap.
 */
function startOfDayMs(day: number, timeZone: string): number {
  const guess = day * DAY_MS;
  let t = guess - offsetMs(guess, timeZone);
  for (let i = 0; i < 2; i++) {
    const next = guess - offsetMs(t, timeZone);
    if (next === t) break;
    t = next;
  }
  if (localDay(t, timeZone) === day && localDay(t - 1, timeZone) < day) return t;
  let lo = guess - 2 * DAY_MS;
  let hi = guess + 2 * DAY_MS;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDay(mid, timeZone) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** UTC instant at which the local day `YYYY-MM-DD` starts in `timeZone`. */
export function startOfDayInTimeZone(date: string, timeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`Invalid date ${date}`);
  return new Date(startOfDayMs(makeDay(Number(m[1]), Number(m[2]), Number(m[3])), timeZone));
}

/**
 * Local wall time (ms since epoch as if UTC) → instant, like `naive.replace(tzinfo=tz)`
 * with fold=0: ambiguous times take the earlier instant, non-existent times use the offset
 * in force before the transition.
 */
function wallToInstant(wallMs: number, timeZone: string): number {
  const offsets = new Set([
    offsetMs(wallMs - DAY_MS, timeZone),
    offsetMs(wallMs, timeZone),
    offsetMs(wallMs + DAY_MS, timeZone),
  ]);
  let best: number | undefined;
  for (const o of offsets) {
    const candidate = wallMs - o;
    const w = wallParts(candidate, timeZone);
    if (w.day * DAY_MS + w.msOfDay === Math.floor(wallMs / 1000) * 1000 && (best === undefined || candidate < best)) {
      best = candidate;
    }
  }
  return best ?? wallMs - offsetMs(wallMs - DAY_MS, timeZone);
}

// ---------------------------------------------------------------------------------------
// ISO 8601 parsing, following dateutil's `isoparser` (parse_isodate / isoparse).

interface ParsedDatePrefix {
  y: number;
  m: number;
  d: number;
  /** day number when already resolved (week / ordinal dates) */
  resolved?: number;
  pos: number;
}

function intOf(s: string): number {
  if (!/^\d+$/.test(s)) invalid(`invalid literal for int(): '${s}'`);
  return Number(s);
}

function parseIsoDateCommon(s: string): ParsedDatePrefix {
  const len = s.length;
  if (len < 4) invalid('ISO string too short');
  const y = intOf(s.slice(0, 4));
  let pos = 4;
  if (pos >= len) return { y, m: 1, d: 1, pos };
  const hasSep = s[pos] === '-';
  if (hasSep) pos += 1;
  if (len - pos < 2) invalid('Invalid common month');
  const m = intOf(s.slice(pos, pos + 2));
  pos += 2;
  if (pos >= len) {
    if (hasSep) return { y, m, d: 1, pos };
    invalid('Invalid ISO format');
  }
  if (hasSep) {
    if (s[pos] !== '-') invalid('Invalid separator in ISO string');
    pos += 1;
  }
  if (len - pos < 2) invalid('Invalid common day');
  const d = intOf(s.slice(pos, pos + 2));
  return { y, m, d, pos: pos + 2 };
}

function parseIsoDateUncommon(s: string): ParsedDatePrefix {
  if (s.length < 4) invalid('ISO string too short');
  const y = intOf(s.slice(0, 4));
  const hasSep = s[4] === '-';
  let pos = 4 + (hasSep ? 1 : 0);
  let resolved: number;
  if (s[pos] === 'W') {
    pos += 1;
    const week = intOf(s.slice(pos, pos + 2));
    pos += 2;
    let dayNo = 1;
    if (s.length > pos) {
      if ((s[pos] === '-') !== hasSep) invalid('Inconsistent use of dash separator');
      pos += hasSep ? 1 : 0;
      dayNo = intOf(s.slice(pos, pos + 1));
      pos += 1;
    }
    if (!(week > 0 && week < 54)) invalid('Invalid week');
    if (!(dayNo > 0 && dayNo < 8)) invalid('Invalid weekday');
    if (y < 1) invalid('year out of range');
    resolved = isoWeekOneMonday(y) + (week - 1) * 7 + (dayNo - 1);
  } else {
    if (s.length - pos < 3) invalid('Invalid ordinal day');
    const ordinal = intOf(s.slice(pos, pos + 3));
    pos += 3;
    if (ordinal < 1 || ordinal > 365 + (isLeap(y) ? 1 : 0)) invalid('Invalid ordinal day');
    if (y < 1) invalid('year out of range');
    resolved = daysFromCivil({ year: y, month: 1, day: 1 }) + ordinal - 1;
  }
  checkDay(resolved);
  const c = civilFromDays(resolved);
  return { y: c.year, m: c.month, d: c.day, resolved, pos };
}

function parseIsoDatePrefix(s: string): ParsedDatePrefix {
  try {
    return parseIsoDateCommon(s);
  } catch (e) {
    if (!(e instanceof FilterValueError)) throw e;
    return parseIsoDateUncommon(s);
  }
}

function prefixToDay(p: ParsedDatePrefix): number {
  return p.resolved ?? makeDay(p.y, p.m, p.d);
}

/** dateutil `isoparser().parse_isodate`: a pure date, nothing may follow. */
function parseIsoDate(s: string): number {
  const p = parseIsoDatePrefix(s);
  if (p.pos < s.length) invalid('String contains unknown ISO components');
  return prefixToDay(p);
}

interface ParsedIsoDateTime {
  /** local wall time as ms since epoch (as if UTC) */
  wallMs: number;
  /** explicit UTC offset in ms, or null for a naive datetime */
  offset: number | null;
}

function parseTzOffset(s: string): number {
  if (s === 'Z' || s === 'z') return 0;
  if (![3, 5, 6].includes(s.length)) invalid('Time zone offset must be 1, 3, 5 or 6 characters');
  let sign: number;
  if (s[0] === '-') sign = -1;
  else if (s[0] === '+') sign = 1;
  else invalid('Time zone offset requires sign');
  const hours = intOf(s.slice(1, 3));
  const minutes = s.length === 3 ? 0 : intOf(s.slice(s[3] === ':' ? 4 : 3));
  if (hours === 0 && minutes === 0) return 0;
  if (minutes > 59) invalid('Invalid minutes in time zone offset');
  if (hours > 23) invalid('Invalid hours in time zone offset');
  return sign * (hours * 60 + minutes) * 60_000;
}

/** dateutil `_parse_isotime`: returns [h, m, s, ms] and an optional offset. */
function parseIsoTime(t: string): { h: number; mi: number; s: number; ms: number; offset: number | null } {
  const len = t.length;
  const comps = [0, 0, 0, 0];
  let offset: number | null = null;
  let pos = 0;
  let comp = -1;
  if (len < 2) invalid('ISO time too short');
  let hasSep = false;
  while (pos < len && comp < 5) {
    comp += 1;
    if ('-+Zz'.includes(t[pos])) {
      offset = parseTzOffset(t.slice(pos));
      pos = len;
      break;
    }
    if (comp === 1 && t[pos] === ':') {
      hasSep = true;
      pos += 1;
    } else if (comp === 2 && hasSep) {
      if (t[pos] !== ':') invalid('Inconsistent use of colon separator');
      pos += 1;
    }
    if (comp < 3) {
      comps[comp] = intOf(t.slice(pos, pos + 2));
      pos += 2;
    } else if (comp === 3) {
      const frac = /^[.,]([0-9]+)/.exec(t.slice(pos));
      if (!frac) continue;
      const digits = frac[1].slice(0, 6).padEnd(6, '0');
      comps[3] = Math.floor(Number(digits) / 1000);
      pos += frac[0].length;
    }
  }
  if (pos < len) invalid('Unused components in ISO string');
  if (comps[0] === 24 && (comps[1] !== 0 || comps[2] !== 0 || comps[3] !== 0)) {
    invalid('Hour may only be 24 at 24:00:00.000');
  }
  return { h: comps[0], mi: comps[1], s: comps[2], ms: comps[3], offset };
}

/** dateutil `isoparse` (any single character may separate date and time). */
function parseIsoDateTime(s: string): ParsedIsoDateTime {
  const p = parseIsoDatePrefix(s);
  let h = 0;
  let mi = 0;
  let sec = 0;
  let ms = 0;
  let offset: number | null = null;
  if (s.length > p.pos) {
    ({ h, mi, s: sec, ms, offset } = parseIsoTime(s.slice(p.pos + 1)));
  }
  let day = prefixToDay(p);
  if (h === 24) {
    h = 0;
    day = addDays(day, 1);
  }
  if (h > 23) invalid('hour must be in 0..23');
  if (mi > 59) invalid('minute must be in 0..59');
  if (sec > 59) invalid('second must be in 0..59');
  return { wallMs: day * DAY_MS + ((h * 60 + mi) * 60 + sec) * 1000 + ms, offset };
}

/** A parsed date-or-datetime filter value, resolved in the filter's time zone. */
type ParsedValue = { kind: 'date'; day: number } | { kind: 'datetime'; instant: number; wallMs: number };

/** `parse_isodate(v)`, falling back to `isoparse(v)` made aware in `timeZone`. */
function parseDateOrDateTime(value: string, timeZone: string): ParsedValue {
  // dateutil only accepts ASCII input (UnicodeEncodeError is a ValueError).
  if (/[^\p{ASCII}]/u.test(value)) invalid('non-ASCII value');
  try {
    return { kind: 'date', day: parseIsoDate(value) };
  } catch (e) {
    if (!(e instanceof FilterValueError)) throw e;
  }
  const dt = parseIsoDateTime(value);
  if (dt.offset === null) {
    return { kind: 'datetime', instant: wallToInstant(dt.wallMs, timeZone), wallMs: dt.wallMs };
  }
  const instant = dt.wallMs - dt.offset;
  const w = wallParts(instant, timeZone);
  return { kind: 'datetime', instant, wallMs: w.day * DAY_MS + w.msOfDay + (instant - Math.floor(instant / 1000) * 1000) };
}

/** Python `int(str)`: optional surrounding whitespace, sign, digits (with `_` separators). */
function pyInt(s: string): number {
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(s)) invalid(`invalid literal for int(): '${s}'`);
  const n = Number(s.replace(/[\s_]/g, ''));
  if (!Number.isSafeInteger(n)) invalid('number too large');
  return n;
}

// ---------------------------------------------------------------------------------------
// Building conditions.

const ALL: DateFilterCondition = Object.freeze({ kind: 'all' }) as DateFilterCondition;

function none(reason: string): DateFilterCondition {
  return { kind: 'none', reason };
}

/** Interval over local calendar days [fromDay, toDay) (either side optional). */
function dayInterval(fromDay: number | undefined, toDay: number | undefined, timeZone: string): DateInterval {
  const interval: DateInterval = {};
  if (fromDay !== undefined) {
    checkDay(fromDay);
    interval.fromDate = dayToString(fromDay);
    interval.from = new Date(startOfDayMs(fromDay, timeZone));
  }
  if (toDay !== undefined) {
    if (toDay > MAX_DAY + 1) invalid('date out of range');
    if (toDay <= MAX_DAY) interval.toDate = dayToString(toDay);
    else interval.toDate = '10000-01-01';
    interval.to = new Date(startOfDayMs(toDay, timeZone));
  }
  return interval;
}

function rangeOf(intervals: DateInterval[], negate: boolean, timeZone: string): DateFilterCondition {
  return { kind: 'range', ranges: intervals, negate, timeZone };
}

// ---------------------------------------------------------------------------------------
// Multi-step filters.

interface DayBounds {
  lower: number;
  upper: number;
}

function operatorBounds(op: DateFilterOperator, d: number): DayBounds {
  switch (op) {
    case 'today':
    case 'nr_days_ago':
    case 'nr_days_from_now':
    case 'exact_date':
      return { lower: d, upper: d + 1 };
    case 'yesterday':
      return { lower: d - 1, upper: d };
    case 'tomorrow':
      return { lower: d + 1, upper: d + 2 };
    case 'one_week_ago':
      return { lower: mondayOnOrBefore(d) - 7, upper: mondayOnOrBefore(d) };
    case 'this_week':
    case 'nr_weeks_ago':
    case 'nr_weeks_from_now':
      return { lower: mondayOnOrBefore(d), upper: mondayOnOrAfter(d + 1) };
    case 'next_week':
      return { lower: mondayOnOrAfter(d + 1), upper: mondayOnOrAfter(d + 1) + 7 };
    case 'one_month_ago':
      return { lower: addMonths(firstOfMonth(d), -1), upper: firstOfMonth(d) };
    case 'this_month':
    case 'nr_months_ago':
    case 'nr_months_from_now':
      return { lower: firstOfMonth(d), upper: addMonths(firstOfMonth(d), 1) };
    case 'next_month':
      return { lower: addMonths(firstOfMonth(d), 1), upper: addMonths(firstOfMonth(d), 2) };
    case 'one_year_ago':
      return { lower: addYears(firstOfYear(d), -1), upper: firstOfYear(d) };
    case 'this_year':
    case 'nr_years_ago':
    case 'nr_years_from_now':
      return { lower: firstOfYear(d), upper: addYears(firstOfYear(d), 1) };
    case 'next_year':
      return { lower: addYears(firstOfYear(d), 1), upper: addYears(firstOfYear(d), 2) };
  }
}

/** The "filter date" of a relative operator: today in `timeZone` shifted by the value. */
function relativeOperatorDay(op: DateFilterOperator, value: string, today: number): number {
  const n = () => pyInt(value === '' ? '0' : value);
  switch (op) {
    case 'nr_days_ago':
      return addDays(today, -n());
    case 'nr_days_from_now':
      return addDays(today, n());
    case 'nr_weeks_ago':
      return addDays(today, -7 * n());
    case 'nr_weeks_from_now':
      return addDays(today, 7 * n());
    case 'nr_months_ago':
      return addMonths(today, -n());
    case 'nr_months_from_now':
      return addMonths(today, n());
    case 'nr_years_ago':
      return addYears(today, -n());
    case 'nr_years_from_now':
      return addYears(today, n());
    default:
      return today;
  }
}

function resolveMultiStep(
  type: MultiStepDateFilterType,
  rawValue: string,
  now: Date,
): DateFilterCondition {
  const negate = type === 'date_is_not';
  // NotViewFilterTypeMixin negates Q(pk__in=[]) → every row.
  const fail = (reason: string): DateFilterCondition => (negate ? ALL : none(reason));
  const value = rawValue.trim();

  const parts = value.split('?');
  if (parts.length !== 3) {
    return fail(parts.length === 2 ? 'missing operator' : 'expected "<timezone>?<value>?<operator>"');
  }
  const [tzPart, filterValue, operator] = parts;
  const timeZone = tzPart === '' ? 'UTC' : tzPart;
  if (!isValidTimeZone(timeZone)) return fail(`unknown timezone ${timeZone}`);
  if (!OPERATOR_SET.has(operator) || (type === 'date_is_within' && operator === 'today')) {
    return fail(`invalid operator ${operator}`);
  }
  const op = operator as DateFilterOperator;
  if (filterValue === '' && (op === 'exact_date' || op === 'nr_days_ago' || op === 'nr_days_from_now')) {
    return ALL;
  }

  try {
    const nowMs = now.getTime();
    const today = checkDay(localDay(nowMs, timeZone));
    let bounds: DayBounds;
    if (op === 'exact_date') {
      const parsed = parseDateOrDateTime(filterValue, timeZone);
      // A datetime becomes its local date in `timeZone` (`filter_date.date()`; Django's
      // DateTimeField subclasses DateField, so this applies to timestamp columns too).
      const day = parsed.kind === 'date' ? parsed.day : checkDay(Math.floor(parsed.wallMs / DAY_MS));
      bounds = operatorBounds(op, day);
    } else {
      bounds = operatorBounds(op, relativeOperatorDay(op, filterValue, today));
    }
    checkDay(bounds.lower);
    checkDay(bounds.upper);

    let interval: DateInterval;
    switch (type) {
      case 'date_is':
      case 'date_is_not':
        interval = dayInterval(bounds.lower, bounds.upper, timeZone);
        break;
      case 'date_is_before':
        interval = dayInterval(undefined, bounds.lower, timeZone);
        break;
      case 'date_is_on_or_before':
        interval = dayInterval(undefined, bounds.upper, timeZone);
        break;
      case 'date_is_after':
        interval = dayInterval(bounds.upper, undefined, timeZone);
        break;
      case 'date_is_on_or_after':
        interval = dayInterval(bounds.lower, undefined, timeZone);
        break;
      case 'date_is_within':
        interval =
          today < bounds.upper
            ? dayInterval(today, bounds.upper, timeZone)
            : dayInterval(bounds.lower, today + 1, timeZone);
        break;
    }
    return rangeOf([interval], negate, timeZone);
  } catch (e) {
    if (e instanceof FilterValueError) return fail(e.message);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------
// Legacy filters.

/** Types whose value is never "empty" because they do not read it (EmptyFilterValueMixin). */
const LEGACY_VALUELESS: ReadonlySet<LegacyDateFilterType> = new Set<LegacyDateFilterType>([
  'date_equals_today',
  'date_before_today',
  'date_after_today',
  'date_equals_week',
  'date_equals_month',
  'date_equals_year',
]);

function splitLegacyValue(value: string, defaultTimezone: string | null | undefined): { timeZone: string; filterValue: string } {
  let tz: string | null | undefined;
  let filterValue: string;
  if (value.includes('?')) {
    const parts = value.split('?');
    if (parts.length !== 2) {
      // The separator appears more than once: Baserow gives up on both parts.
      return { timeZone: 'UTC', filterValue: '' };
    }
    [tz, filterValue] = parts;
  } else if (isValidTimeZone(value)) {
    tz = value;
    filterValue = '';
  } else {
    tz = defaultTimezone;
    filterValue = value;
  }
  if (tz === null || tz === undefined) return { timeZone: 'UTC', filterValue };
  if (!isValidTimeZone(tz)) invalid(`unknown timezone ${JSON.stringify(tz)}`);
  return { timeZone: tz, filterValue };
}

/** `get_is_within_filter_query_dict`: between today and the target date, both inclusive. */
function withinDays(target: number, today: number, timeZone: string): DateInterval {
  return target >= today ? dayInterval(today, target + 1, timeZone) : dayInterval(target, today + 1, timeZone);
}

/** Dates of calendar year `year` whose ISO week number is `week` (Django `__week` + `__year`). */
function isoWeekInYearIntervals(week: number, year: number, timeZone: string): DateInterval[] {
  const yearStart = daysFromCivil({ year, month: 1, day: 1 });
  const yearEnd = daysFromCivil({ year: year + 1, month: 1, day: 1 });
  const spans: Array<[number, number]> = [];
  for (const isoYear of [year - 1, year, year + 1]) {
    const monday = isoWeekOneMonday(isoYear) + (week - 1) * 7;
    if (isoWeekInfo(monday).isoYear !== isoYear) continue; // that ISO year has no such week
    const from = Math.max(monday, yearStart);
    const to = Math.min(monday + 7, yearEnd);
    if (from < to) spans.push([from, to]);
  }
  return spans.map(([from, to]) => dayInterval(from, to, timeZone));
}

function resolveLegacy(
  type: LegacyDateFilterType,
  rawValue: string,
  now: Date,
  includeTime: boolean,
  defaultTimezone: string | null | undefined,
): DateFilterCondition {
  const negate = type === 'date_not_equal';
  const fail = (reason: string): DateFilterCondition => (negate ? ALL : none(reason));

  try {
    const { timeZone, filterValue } = splitLegacyValue(rawValue.trim(), defaultTimezone);

    if (type === 'date_equals_day_of_month') {
      if (filterValue === '') return ALL;
      const day = pyInt(filterValue);
      if (day < 1 || day > 31) invalid('day of month must be 1..31');
      return { kind: 'day_of_month', day, timeZone };
    }

    if (!LEGACY_VALUELESS.has(type)) {
      if (filterValue === '') return ALL;
      if (type === 'date_after_days_ago' && filterValue === '0') return ALL;
    }

    const today = checkDay(localDay(now.getTime(), timeZone));
    const one = (interval: DateInterval) => rangeOf([interval], negate, timeZone);

    switch (type) {
      case 'date_equal':
      case 'date_not_equal':
      case 'date_before':
      case 'date_before_or_equal':
      case 'date_after':
      case 'date_after_or_equal': {
        const parsed = parseDateOrDateTime(filterValue, timeZone);
        if (parsed.kind === 'datetime' && includeTime) {
          const at = new Date(parsed.instant);
          switch (type) {
            case 'date_equal':
            case 'date_not_equal':
              return one({ from: at, to: at, toInclusive: true });
            case 'date_before':
              return one({ to: at });
            case 'date_before_or_equal':
              return one({ to: at, toInclusive: true });
            case 'date_after':
              return one({ from: at, fromExclusive: true });
            case 'date_after_or_equal':
              return one({ from: at });
          }
        }
        const day = parsed.kind === 'date' ? parsed.day : checkDay(Math.floor(parsed.wallMs / DAY_MS));
        switch (type) {
          case 'date_equal':
          case 'date_not_equal':
            return one(dayInterval(day, day + 1, timeZone));
          case 'date_before':
            return one(dayInterval(undefined, day, timeZone));
          case 'date_before_or_equal':
            return one(dayInterval(undefined, day + 1, timeZone));
          case 'date_after':
            return one(dayInterval(day + 1, undefined, timeZone));
          case 'date_after_or_equal':
            return one(dayInterval(day, undefined, timeZone));
        }
        break;
      }
      case 'date_after_days_ago':
        return one(dayInterval(addDays(today, -pyInt(filterValue)), undefined, timeZone));
      case 'date_equals_today':
        return one(dayInterval(today, today + 1, timeZone));
      case 'date_before_today':
        return one(dayInterval(undefined, today, timeZone));
      case 'date_after_today':
        return one(dayInterval(today + 1, undefined, timeZone));
      case 'date_within_days':
        return one(withinDays(addDays(today, pyInt(filterValue)), today, timeZone));
      case 'date_within_weeks': {
        const weeks = pyInt(filterValue);
        if (weeks === 0) invalid('Number of weeks cannot be 0');
        return one(withinDays(addDays(today, 7 * weeks), today, timeZone));
      }
      case 'date_within_months': {
        const months = pyInt(filterValue);
        if (months === 0) invalid('Number of months cannot be 0');
        return one(withinDays(addMonths(today, months), today, timeZone));
      }
      case 'date_equals_days_ago': {
        const day = addDays(today, -pyInt(filterValue));
        return one(dayInterval(day, day + 1, timeZone));
      }
      case 'date_equals_months_ago': {
        const first = firstOfMonth(addMonths(today, -pyInt(filterValue)));
        return one(dayInterval(first, addMonths(first, 1), timeZone));
      }
      case 'date_equals_years_ago': {
        const first = firstOfYear(addYears(today, -pyInt(filterValue)));
        return one(dayInterval(first, addYears(first, 1), timeZone));
      }
      case 'date_equals_week': {
        const { week } = isoWeekInfo(today);
        return rangeOf(isoWeekInYearIntervals(week, civilFromDays(today).year, timeZone), negate, timeZone);
      }
      case 'date_equals_month': {
        const first = firstOfMonth(today);
        return one(dayInterval(first, addMonths(first, 1), timeZone));
      }
      case 'date_equals_year': {
        const first = firstOfYear(today);
        return one(dayInterval(first, addYears(first, 1), timeZone));
      }
    }
    throw new Error(`unhandled legacy date filter ${type}`);
  } catch (e) {
    if (e instanceof FilterValueError) return fail(e.message);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------
// Public entry points.

/**
 * Resolve a date filter value into a condition (see the file header for the semantics).
 * Throws only for a filter type that is not a date filter (a programming error); bad user
 * values never throw.
 */
export function resolveDateFilter(
  filterType: string,
  value: string | null | undefined,
  now: Date,
  includeTime: boolean,
  options: DateFilterOptions = {},
): DateFilterCondition {
  const raw = value === null || value === undefined ? '' : String(value);
  if (isMultiStepDateFilterType(filterType)) return resolveMultiStep(filterType, raw, now);
  if (isLegacyDateFilterType(filterType)) {
    return resolveLegacy(filterType, raw, now, includeTime, options.defaultTimezone);
  }
  throw new Error(`${filterType} is not a date filter type`);
}

function inInterval(interval: DateInterval, value: Date | string, includeTime: boolean): boolean {
  if (includeTime) {
    const t = (value instanceof Date ? value : new Date(value)).getTime();
    if (Number.isNaN(t)) return false;
    if (interval.from) {
      const f = interval.from.getTime();
      if (interval.fromExclusive ? t <= f : t < f) return false;
    }
    if (interval.to) {
      const u = interval.to.getTime();
      if (interval.toInclusive ? t > u : t >= u) return false;
    }
    return true;
  }
  const d = value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
  if (interval.fromDate !== undefined && d < interval.fromDate) return false;
  if (interval.toDate !== undefined && d >= interval.toDate) return false;
  return true;
}

/**
 * Evaluate a condition against one stored value: a UTC instant (Date or ISO string) for
 * timestamp columns, a `YYYY-MM-DD` string for date columns, null/undefined for empty.
 */
export function matchesDateFilter(
  condition: DateFilterCondition,
  value: Date | string | null | undefined,
  includeTime: boolean,
): boolean {
  switch (condition.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'day_of_month': {
      if (value === null || value === undefined) return false;
      if (includeTime) {
        const t = (value instanceof Date ? value : new Date(value)).getTime();
        if (Number.isNaN(t)) return false;
        return civilFromDays(localDay(t, condition.timeZone)).day === condition.day;
      }
      const d = value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
      return Number(d.slice(8, 10)) === condition.day;
    }
    case 'range': {
      if (value === null || value === undefined) return condition.negate;
      const inside = condition.ranges.some((r) => inInterval(r, value, includeTime));
      return condition.negate ? !inside : inside;
    }
  }
}
