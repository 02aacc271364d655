import { civilFromDays, daysFromCivil } from '../../fields/values/calendar';
import { ALL, dayInterval, none, rangeOf } from './conditions';
import { DAY_MS, FilterValueError, addDays, addMonths, addYears, checkDay, firstOfMonth, firstOfYear, invalid, isoWeekInfo, isoWeekOneMonday } from './days';
import { parseDateOrDateTime, pyInt } from './iso-parsing';
import { isValidTimeZone, localDay } from './time-zones';
import { DateFilterCondition, DateInterval, LegacyDateFilterType } from './types';

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

export function resolveLegacy(
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
