import { ALL, dayInterval, none, rangeOf } from './conditions';
import { DAY_MS, FilterValueError, addDays, addMonths, addYears, checkDay, firstOfMonth, firstOfYear, mondayOnOrAfter, mondayOnOrBefore } from './days';
import { parseDateOrDateTime, pyInt } from './iso-parsing';
import { isValidTimeZone, localDay } from './time-zones';
import { DateFilterCondition, DateFilterOperator, DateInterval, MultiStepDateFilterType, OPERATOR_SET } from './types';

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

export function resolveMultiStep(
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
