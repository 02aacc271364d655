import { RE2JS } from 're2js';
import type { SqliteFunctions } from '../../../core/database/sqlite-functions';
import { zeroPad } from './dates';

export const INTERVAL_SQLITE_FUNCTIONS: SqliteFunctions = {
  // EXTRACT(EPOCH FROM CAST(text AS interval)) with years of 365 days (Baserow's durations), NULL instead of an error.
  formula_interval_seconds: { fn: intervalSeconds },
  // CAST(justify_hours(make_interval(secs => seconds)) AS text).
  formula_interval_text: { fn: intervalText },
};

// Interval input, as PostgreSQL reads `'1 day 2 hours'::interval` (a common subset): `@`, then
// quantities with units (each unit once) and/or `[-]h:mm[:ss[.f]]`, a bare number of seconds
// last, `ago` last. Years of 365 days and months of 30, as Baserow's durations count them.

/** One item of an interval text: a quantity and its unit, a time `h:mm:ss`, or bare seconds. */
export const INTERVAL_ITEM = '([+-]?(?:\\d{1,9}(?:\\.\\d*)?|\\.\\d{1,9}))[ \\t]*([a-zA-Z]+)|([+-]?)(\\d{1,9}):(\\d{1,9})(?::(\\d{1,9}(?:\\.\\d*)?))?|([+-]?(?:\\d{1,9}(?:\\.\\d*)?|\\.\\d{1,9}))';
/** A whole interval text: items separated by blanks or commas, optional `@` and `ago`. */
export const INTERVAL_TEXT = `^[ \\t]*@?[ \\t]*(?:(?:${INTERVAL_ITEM})[ \\t,]*)+(?:[aA][gG][oO][ \\t]*)?$`;

// Run by RE2 (linear time): a backtracking engine takes seconds on texts like `1:1` × 30.
const INTERVAL_TEXT_REGEXP = RE2JS.compile(INTERVAL_TEXT);
const INTERVAL_ITEMS_REGEXP = RE2JS.compile(INTERVAL_ITEM);

/** Unit words (lower case) and what each counts: months, days or seconds per unit; `slot` detects repeats. */
export const INTERVAL_UNITS: Record<string, { slot: string; months?: number; days?: number; seconds?: number }> = {};
for (const [words, unit] of [
  [['millennium', 'millennia', 'mil', 'mils'], { slot: 'millennium', months: 12000 }],
  [['century', 'centuries', 'cent', 'c'], { slot: 'century', months: 1200 }],
  [['decade', 'decades', 'dec', 'decs'], { slot: 'decade', months: 120 }],
  [['year', 'years', 'yr', 'yrs', 'y'], { slot: 'year', months: 12 }],
  [['month', 'months', 'mon', 'mons'], { slot: 'month', months: 1 }],
  [['week', 'weeks', 'w'], { slot: 'week', days: 7 }],
  [['day', 'days', 'd'], { slot: 'day', days: 1 }],
  [['hour', 'hours', 'hr', 'hrs', 'h'], { slot: 'hour', seconds: 3600 }],
  [['minute', 'minutes', 'min', 'mins', 'm'], { slot: 'minute', seconds: 60 }],
  [['second', 'seconds', 'sec', 'secs', 's'], { slot: 'second', seconds: 1 }],
  [['millisecond', 'milliseconds', 'ms', 'msec', 'msecs'], { slot: 'millisecond', seconds: 0.001 }],
  [['microsecond', 'microseconds', 'us', 'usec', 'usecs'], { slot: 'microsecond', seconds: 0.000001 }],
] as const) {
  for (const word of words) INTERVAL_UNITS[word] = unit;
}

const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** An interval as PostgreSQL keeps it: months, days and seconds apart (a year is 12 months, not 365 days). */
export interface IntervalParts {
  months: number;
  days: number;
  seconds: number;
}

/**
 * The seconds of an interval text (PostgreSQL's interval input, with whole years of 365 days
 * and months of 30 as Baserow's durations answer them); null when it is not one.
 */
function intervalSeconds(text: unknown): number | null {
  const parts = intervalParts(text);
  if (!parts) return null;
  const years = Math.trunc(parts.months / 12);
  return (years * 365 + (parts.months - years * 12) * 30 + parts.days) * 86400 + parts.seconds;
}

/** An interval text's months, whole days and seconds, as PostgreSQL's interval input keeps them; null when it is not one. */
export function intervalParts(text: unknown): IntervalParts | null {
  if (text == null) return null;
  const input = String(text);
  if (!INTERVAL_TEXT_REGEXP.test(input)) return null;
  let months = 0;
  let days = 0;
  let seconds = 0;
  const seen = new Set<string>();
  const items = [...INTERVAL_ITEMS_REGEXP.matchAll(input)];
  for (let i = 0; i < items.length; i++) {
    const [, quantity, word, sign, hours, minutes, secs, bare] = items[i];
    if (quantity !== undefined) {
      const unit = INTERVAL_UNITS[word.toLowerCase()];
      if (!unit || seen.has(unit.slot)) return null;
      seen.add(unit.slot);
      const value = Number(quantity);
      if (unit.months) {
        const whole = Math.trunc(value);
        months += whole * unit.months;
        // A fraction of years counts whole months (rounded); of months, 30-day days.
        if (unit.months >= 12) months += roundHalfAway((value - whole) * unit.months);
        else days += (value - whole) * 30;
      } else if (unit.days) days += value * unit.days;
      else seconds += value * unit.seconds!;
    } else if (hours !== undefined) {
      if (seen.has('hour') || seen.has('minute') || seen.has('second')) return null;
      seen.add('hour').add('minute').add('second');
      seconds += (sign === '-' ? -1 : 1) * (Number(hours) * 3600 + Number(minutes) * 60 + Number(secs ?? 0));
    } else {
      if (i !== items.length - 1 || seen.has('second')) return null;
      seen.add('second');
      seconds += Number(bare);
    }
  }
  const sign = /[aA][gG][oO][ \t]*$/.test(input) ? -1 : 1;
  // A fraction of a day is time of day.
  const wholeDays = Math.trunc(days);
  return { months: sign * months, days: sign * wholeDays, seconds: sign * (seconds + (days - wholeDays) * 86400) };
}

/** An interval as PostgreSQL writes it (its `postgres` style): `1 year 2 mons -3 days +04:05:06`. */
export function intervalPartsText({ months, days, seconds }: IntervalParts): string {
  const parts: string[] = [];
  let negativeBefore = false;
  const add = (value: number, unit: string) => {
    if (!value) return;
    parts.push(`${negativeBefore && value > 0 ? '+' : ''}${value} ${unit}${value === 1 ? '' : 's'}`);
    negativeBefore = value < 0;
  };
  add(Math.trunc(months / 12), 'year');
  add(months % 12, 'mon');
  add(days, 'day');
  if (seconds || !parts.length) {
    const us = Math.round(Math.abs(seconds) * 1_000_000);
    const secs = Math.floor(us / 1_000_000);
    const fraction = us % 1_000_000;
    const time = `${zeroPad(Math.floor(secs / 3600), 2)}:${zeroPad(Math.floor(secs / 60) % 60, 2)}:${zeroPad(secs % 60, 2)}${fraction ? '.' + zeroPad(fraction, 6).replace(/0+$/, '') : ''}`;
    parts.push(`${seconds < 0 ? '-' : negativeBefore ? '+' : ''}${time}`);
  }
  return parts.join(' ');
}

/** Seconds as PostgreSQL writes a justified interval: `1 day 02:03:04.5`, `2 days`, `-01:00:00`. */
function intervalText(value: unknown): string | null {
  if (value == null || !Number.isFinite(Number(value))) return null;
  const totalUs = Math.round(Number(value) * 1_000_000);
  const negative = totalUs < 0;
  const abs = Math.abs(totalUs);
  const days = Math.floor(abs / 86_400_000_000);
  const rest = abs - days * 86_400_000_000;
  const parts: string[] = [];
  if (days) parts.push(`${negative ? '-' : ''}${days} ${days === 1 && !negative ? 'day' : 'days'}`);
  if (rest || !days) {
    const secs = Math.floor(rest / 1_000_000);
    const fraction = rest % 1_000_000;
    const time = `${zeroPad(Math.floor(secs / 3600), 2)}:${zeroPad(Math.floor(secs / 60) % 60, 2)}:${zeroPad(secs % 60, 2)}${fraction ? '.' + zeroPad(fraction, 6).replace(/0+$/, '') : ''}`;
    parts.push(`${negative && rest ? '-' : ''}${time}`);
  }
  return parts.join(' ');
}
