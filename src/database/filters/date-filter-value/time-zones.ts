import { daysFromCivil } from '../../fields/values/calendar';
import { DAY_MS, dayToString, makeDay } from './days';

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

export function wallParts(ms: number, timeZone: string): WallParts {
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

export function localDay(ms: number, timeZone: string): number {
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
export function startOfDayMs(day: number, timeZone: string): number {
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
export function wallToInstant(wallMs: number, timeZone: string): number {
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
