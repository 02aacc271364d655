import { MAX_DAY, checkDay, dayToString, invalid } from './days';
import { startOfDayMs } from './time-zones';
import { DateFilterCondition, DateInterval } from './types';

// Building conditions.

export const ALL: DateFilterCondition = Object.freeze({ kind: 'all' }) as DateFilterCondition;

export function none(reason: string): DateFilterCondition {
  return { kind: 'none', reason };
}

/** Interval over local calendar days [fromDay, toDay) (either side optional). */
export function dayInterval(fromDay: number | undefined, toDay: number | undefined, timeZone: string): DateInterval {
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

export function rangeOf(intervals: DateInterval[], negate: boolean, timeZone: string): DateFilterCondition {
  return { kind: 'range', ranges: intervals, negate, timeZone };
}
