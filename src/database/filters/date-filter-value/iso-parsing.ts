import { civilFromDays, daysFromCivil, isLeap } from '../../fields/values/calendar';
import { DAY_MS, FilterValueError, addDays, checkDay, invalid, isoWeekOneMonday, makeDay } from './days';
import { wallParts, wallToInstant } from './time-zones';

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
export function parseDateOrDateTime(value: string, timeZone: string): ParsedValue {
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
export function pyInt(s: string): number {
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(s)) invalid(`invalid literal for int(): '${s}'`);
  const n = Number(s.replace(/[\s_]/g, ''));
  if (!Number.isSafeInteger(n)) invalid('number too large');
  return n;
}
