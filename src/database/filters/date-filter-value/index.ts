import { civilFromDays } from '../../fields/values/calendar';
import { resolveLegacy } from './legacy';
import { resolveMultiStep } from './multi-step';
import { localDay } from './time-zones';
import { DateFilterCondition, DateFilterOptions, DateInterval, isLegacyDateFilterType, isMultiStepDateFilterType } from './types';

/**
 * Date filter values → UTC time ranges (pure module: no Nest, no TypeORM, no npm deps).
 *
 * This file is the module's entry point; beside it: `types.ts` (filter types, operators and
 * condition shapes), `days.ts` (calendar days as numbers, Python's date errors), `time-zones.ts`,
 * `iso-parsing.ts` (dateutil's isoparser), `conditions.ts` (ranges over local days), and the
 * resolvers of `multi-step.ts` and `legacy.ts` filters.
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

export { isValidTimeZone, localDateString, startOfDayInTimeZone } from './time-zones';
export { DATE_FILTER_OPERATORS, MULTI_STEP_DATE_FILTER_TYPES, LEGACY_DATE_FILTER_TYPES, isMultiStepDateFilterType, isLegacyDateFilterType, isDateFilterType } from './types';
export type { DateFilterOperator, MultiStepDateFilterType, LegacyDateFilterType, DateFilterType, DateInterval, DateFilterCondition, DateFilterOptions } from './types';

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
