import { civilFromDays, daysFromCivil as daysFromYmd, daysInMonth } from '../../fields/values/calendar';
import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

// ---------------------------------------------------------------------------------------------
// Formula dates and durations: PostgreSQL's date/time templates (to_char, to_timestamp), its
// interval input and output, for Baserow's datetime_format(_tz), todate(_tz), date_interval and
// totext of durations. The SQLite functions of this folder run them; the PostgreSQL SQL of `todate`
// and `date_interval` is built from the same plans (formula-dialect.ts), so both databases read
// the same texts alike. This file: instants as SQLite stores them, wall clocks and time zones.

/** Formula dates (PostgreSQL twins noted). */
export const DATE_SQLITE_FUNCTIONS: SqliteFunctions = {
  // EXTRACT(EPOCH FROM value) of a stored date or datetime (a date counts from its midnight UTC).
  formula_epoch: { fn: (stored: unknown) => epochSeconds(stored) },
  // to_timestamp(seconds) as SQLite stores a datetime (include_time 1) or its UTC date (0).
  formula_from_epoch: { fn: (seconds: unknown, includeTime: unknown) => (seconds == null || !Number.isFinite(Number(seconds)) ? null : isoText(Number(seconds) * 1_000_000, !!includeTime)) },
  // EXTRACT(YEAR | MONTH | DAY | SECOND FROM value AT TIME ZONE 'UTC').
  formula_date_part: { fn: datePart },
  // value + make_interval(months => n) (in UTC), a date staying a date (include_time 0).
  formula_add_months: { fn: addMonths },
};

/** Wall-clock fields of a moment (a proleptic Gregorian calendar, as PostgreSQL's). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

/** Days from 1970-01-01 to a civil date (proleptic Gregorian, any year). */
export const daysFromCivil = (year: number, month: number, day: number): number => daysFromYmd({ year, month, day });

/** An instant (microseconds since 1970, UTC) as wall-clock fields. */
export function wallClock(us: number): WallClock {
  const days = Math.floor(us / 86_400_000_000);
  const rest = us - days * 86_400_000_000;
  const { year, month, day } = civilFromDays(days);
  const seconds = Math.floor(rest / 1_000_000);
  return { year, month, day, hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60, microsecond: rest % 1_000_000 };
}

export const wallMicros = (w: WallClock) => (daysFromCivil(w.year, w.month, w.day) * 86400 + w.hour * 3600 + w.minute * 60 + w.second) * 1_000_000 + w.microsecond;

const STORED_INSTANT = /^\s*(-?\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?\s*$/;

/** A stored date/datetime (ISO text, as SQLite keeps them) as microseconds since 1970 UTC; null when it is not one. */
export function instantMicros(text: unknown): number | null {
  if (text == null) return null;
  const m = STORED_INSTANT.exec(String(text));
  if (!m) return null;
  const fraction = m[7] ? Number(m[7].slice(0, 6).padEnd(6, '0')) : 0;
  let us = wallMicros({ year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0), microsecond: fraction });
  if (m[8] && m[8] !== 'Z') {
    const minutes = Number(m[8].slice(1, 3)) * 60 + (m[8].length > 3 ? Number(m[8].slice(-2)) : 0);
    us -= (m[8][0] === '-' ? -minutes : minutes) * 60_000_000;
  }
  return us;
}

export const zeroPad = (n: number, width: number) => (n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0'));

/** Microseconds since 1970 UTC as the ISO text SQLite keeps: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS.ffffffZ`; null out of years 1..9999. */
export function isoText(us: number, includeTime: boolean): string | null {
  if (!Number.isFinite(us)) return null;
  const w = wallClock(Math.round(us));
  if (w.year < 1 || w.year > 9999) return null;
  const date = `${zeroPad(w.year, 4)}-${zeroPad(w.month, 2)}-${zeroPad(w.day, 2)}`;
  return includeTime ? `${date}T${zeroPad(w.hour, 2)}:${zeroPad(w.minute, 2)}:${zeroPad(w.second, 2)}.${zeroPad(w.microsecond, 6)}Z` : date;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/** The IANA time zone's formatter (PostgreSQL's zone names, matched case-insensitively), null when unknown. */
function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  const key = timeZone.toLowerCase();
  if (!zoneFormats.has(key)) {
    let format: Intl.DateTimeFormat | null = null;
    try {
      format = timeZone.trim() === '' ? null : new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    } catch {
      format = null;
    }
    zoneFormats.set(key, format);
  }
  return zoneFormats.get(key)!;
}

/** The offset (microseconds, local minus UTC) of a time zone at an instant. */
function zoneOffset(format: Intl.DateTimeFormat, us: number): number {
  const ms = Math.floor(us / 1000);
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  const local = wallMicros({ year, month: +parts.month, day: +parts.day, hour: +parts.hour % 24, minute: +parts.minute, second: +parts.second, microsecond: 0 });
  return local - (ms - (((ms % 1000) + 1000) % 1000)) * 1000;
}

/** An instant as the wall clock of a time zone (PostgreSQL's `timestamptz AT TIME ZONE zone`). */
export function inZone(us: number, timeZone: string): WallClock | null {
  const format = zoneFormat(timeZone);
  return format ? wallClock(us + zoneOffset(format, us)) : null;
}

/** A wall clock of a time zone as an instant (PostgreSQL's `timestamp AT TIME ZONE zone`). */
export function fromZone(wall: WallClock, timeZone: string): number | null {
  const format = zoneFormat(timeZone);
  if (!format) return null;
  const local = wallMicros(wall);
  let us = local - zoneOffset(format, local);
  us = local - zoneOffset(format, us);
  return us;
}

/** A stored date or datetime plus whole months, as PostgreSQL adds them: the day kept, or the month's last day. */
function addMonths(stored: unknown, months: unknown, includeTime: unknown): string | null {
  const us = instantMicros(stored);
  if (us === null || months == null || !Number.isFinite(Number(months))) return null;
  const w = wallClock(us);
  const total = w.year * 12 + (w.month - 1) + Math.trunc(Number(months));
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  if (year < 1 || year > 9999) return null;
  return isoText(wallMicros({ ...w, year, month, day: Math.min(w.day, daysInMonth(year, month)) }), !!includeTime);
}

/** EXTRACT(YEAR | MONTH | DAY | SECOND FROM value AT TIME ZONE 'UTC') of a stored date or datetime. */
function datePart(part: unknown, stored: unknown): number | null {
  const us = instantMicros(stored);
  if (us === null) return null;
  const w = wallClock(us);
  switch (part) {
    case 'year':
      return w.year;
    case 'month':
      return w.month;
    case 'day':
      return w.day;
    case 'second':
      return w.second + w.microsecond / 1_000_000;
    default:
      return null;
  }
}

/** Seconds since 1970 UTC of a stored date or datetime. */
function epochSeconds(stored: unknown): number | null {
  const us = instantMicros(stored);
  return us === null ? null : us / 1_000_000;
}
