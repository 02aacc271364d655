import { civilFromDays, daysFromCivil, daysInMonth } from '../../fields/values/calendar';

// Errors: anything Baserow catches (ValueError, OverflowError, ParserError,
// ZoneInfoNotFoundError) becomes a FilterValueError, which maps to "no rows".

export class FilterValueError extends Error {}

export function invalid(reason: string): never {
  throw new FilterValueError(reason);
}

// ---------------------------------------------------------------------------------------
// Calendar dates as epoch day numbers (days since 1970-01-01), proleptic Gregorian.

export const DAY_MS = 86_400_000;
const MIN_DAY = daysFromCivil({ year: 1, month: 1, day: 1 });
export const MAX_DAY = daysFromCivil({ year: 9999, month: 12, day: 31 });

/** Python `date` range check (years 1..9999); outside → OverflowError/ValueError. */
export function checkDay(day: number): number {
  if (!Number.isFinite(day) || day < MIN_DAY || day > MAX_DAY) invalid('date out of range');
  return day;
}

/** Validating `date(y, m, d)` constructor. */
export function makeDay(y: number, m: number, d: number): number {
  if (y < 1 || y > 9999) invalid('year out of range');
  if (m < 1 || m > 12) invalid('month must be in 1..12');
  if (d < 1 || d > daysInMonth(y, m)) invalid('day is out of range for month');
  return daysFromCivil({ year: y, month: m, day: d });
}

/** Monday = 0 … Sunday = 6 (Python `date.weekday()`). */
function weekday(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

export function firstOfMonth(day: number): number {
  const c = civilFromDays(day);
  return daysFromCivil({ year: c.year, month: c.month, day: 1 });
}

export function firstOfYear(day: number): number {
  return daysFromCivil({ year: civilFromDays(day).year, month: 1, day: 1 });
}

/** dateutil `relativedelta(months=n)`: the day is clamped to the target month's length. */
export function addMonths(day: number, n: number): number {
  const c = civilFromDays(day);
  const total = c.year * 12 + (c.month - 1) + n;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  if (y < 1 || y > 9999) invalid('year out of range');
  return daysFromCivil({ year: y, month: m, day: Math.min(c.day, daysInMonth(y, m)) });
}

export function addYears(day: number, n: number): number {
  return addMonths(day, n * 12);
}

export function addDays(day: number, n: number): number {
  return checkDay(day + n);
}

/** `weekday=MO(-1)`: Monday on or before. */
export function mondayOnOrBefore(day: number): number {
  return day - weekday(day);
}

/** `weekday=MO(+1)`: Monday on or after. */
export function mondayOnOrAfter(day: number): number {
  return day + ((7 - weekday(day)) % 7);
}

export function isoWeekInfo(day: number): { isoYear: number; week: number } {
  const thursday = day - weekday(day) + 3;
  const isoYear = civilFromDays(thursday).year;
  const week = Math.floor((thursday - daysFromCivil({ year: isoYear, month: 1, day: 1 })) / 7) + 1;
  return { isoYear, week };
}

/** Monday of ISO week 1 of `isoYear`. */
export function isoWeekOneMonday(isoYear: number): number {
  return mondayOnOrBefore(daysFromCivil({ year: isoYear, month: 1, day: 4 }));
}

export function dayToString(day: number): string {
  const { year: y, month: m, day: d } = civilFromDays(day);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
