import { localDay, wallToInstant } from '../../database/filters/date-filter-value/time-zones';
import { civilFromDays } from '../../database/fields/values/calendar';

const DAY_MS = 86_400_000;

/** One day of a calendar listing: its key (`YYYY-MM-DD`) and the half-open range of cell values it holds. */
export interface CalendarDay {
  key: string;
  /** Instants (ms) for instant cells; epoch day numbers for date cells. */
  start: number;
  end: number;
}

/** `YYYY-MM-DD` of an epoch day number. */
export function dayKey(day: number): string {
  const { year, month, day: d } = civilFromDays(day);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Baserow's `generate_per_day_intervals` for instants in `timeZone`: the first day starts at
 * `from`, each next one at the following local midnight, the last ends at `to`; each keyed by
 * the local date it starts on.
 */
export function instantDays(from: number, to: number, timeZone: string): CalendarDay[] {
  const days: CalendarDay[] = [];
  let start = from;
  while (start < to) {
    const day = localDay(start, timeZone);
    const nextMidnight = wallToInstant((day + 1) * DAY_MS, timeZone);
    const end = Math.min(nextMidnight, to);
    days.push({ key: dayKey(day), start, end });
    start = end;
  }
  return days;
}

/**
 * The same for dates: from the UTC date of `from` up to, not including, the UTC date of `to`
 * plus one day (Baserow adds the day so that `to`'s own date is in).
 */
export function dateDays(from: number, to: number): CalendarDay[] {
  const first = Math.floor(from / DAY_MS);
  const last = Math.floor((to + DAY_MS) / DAY_MS);
  const days: CalendarDay[] = [];
  for (let day = first; day < last; day++) days.push({ key: dayKey(day), start: day, end: day + 1 });
  return days;
}
