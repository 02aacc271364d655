import { civilFromDays, daysFromCivil as daysFromYmd } from '../../database/fields/values/calendar';

/**
 * SQL functions PostgreSQL has built in and SQLite lacks, written in JavaScript and added to
 * every SQLite connection (better-sqlite3's `function`), so SQL built for both databases can
 * call them by one name. Each must be deterministic and answer NULL for NULL input, as
 * PostgreSQL's built-ins do. Add a function here, with its PostgreSQL twin noted.
 */
export type SqliteFunction = (...args: any[]) => unknown;

export const SQLITE_FUNCTIONS: Record<string, { fn: SqliteFunction; deterministic?: boolean; varargs?: boolean }> = {
  // Formula dates, durations and numbers (the engine is at the end of this file). PostgreSQL twins:
  // EXTRACT(EPOCH FROM value) of a stored date or datetime (a date counts from its midnight UTC).
  formula_epoch: { fn: (stored: unknown) => epochSeconds(stored) },
  // to_timestamp(seconds) as SQLite stores a datetime (include_time 1) or its UTC date (0).
  formula_from_epoch: { fn: (seconds: unknown, includeTime: unknown) => (seconds == null || !Number.isFinite(Number(seconds)) ? null : isoText(Number(seconds) * 1_000_000, !!includeTime)) },
  // EXTRACT(YEAR | MONTH | DAY | SECOND FROM value AT TIME ZONE 'UTC').
  formula_date_part: { fn: datePart },
  // to_char(value AT TIME ZONE zone, template); NULL for an unknown zone.
  formula_to_char: { fn: formatInstant },
  // to_timestamp(text, template) read in a zone (NULL: UTC), NULL instead of an error (Baserow's try_cast_to_date_tz).
  formula_to_timestamp: { fn: parseInstant },
  // EXTRACT(EPOCH FROM CAST(text AS interval)) with years of 365 days (Baserow's durations), NULL instead of an error.
  formula_interval_seconds: { fn: intervalSeconds },
  // CAST(justify_hours(make_interval(secs => seconds)) AS text).
  formula_interval_text: { fn: intervalText },
  // value + make_interval(months => n) (in UTC), a date staying a date (include_time 0).
  formula_add_months: { fn: addMonths },
  // round(numeric, n), n < 0 rounding left of the point.
  formula_round: { fn: roundDecimal },
  // numeric a + b, a - b, a * b, a / b, mod(a, b), abs, trunc, ceil, floor, sign with PostgreSQL's NaN (here the text 'NaN'); a division by 0 is NaN.
  formula_numeric: { fn: numericOperation, varargs: true },
  // var_pop / var_samp / stddev_pop / stddev_samp, over json_group_array(value).
  formula_variance: { fn: variance },
  // PostgreSQL: `text ~ pattern` (here with JavaScript's regular expression syntax).
  regexp: { fn: (pattern: string | null, text: string | null) => (pattern == null || text == null ? null : new RegExp(pattern).test(text) ? 1 : 0) },
  // PostgreSQL: regexp_replace(source, pattern, replacement [, flags]), with PostgreSQL's pattern
  // syntax (translated, see pgRegExp) and replacement syntax (\1…\9, \& and \\).
  regexp_replace: { fn: regexpReplace, varargs: true },
  // PostgreSQL: split_part(text, delimiter, n) (n < 0 counts from the end, 0 is an error).
  split_part: { fn: splitPart },
  // PostgreSQL: reverse(text), by characters.
  reverse: { fn: (text: string | null) => (text == null ? null : Array.from(String(text)).reverse().join('')) },
  // PostgreSQL: left(text, n), right(text, n): n < 0 leaves all but |n| characters.
  left: { fn: (text: string | null, n: number | null) => (text == null || n == null ? null : sliceChars(String(text), Math.trunc(n), 'left')) },
  right: { fn: (text: string | null, n: number | null) => (text == null || n == null ? null : sliceChars(String(text), Math.trunc(n), 'right')) },
  // PostgreSQL: strpos(text, sub): 1-based character position of sub, 0 when absent (1 for '').
  strpos: { fn: strpos },
  // PostgreSQL's upper/lower case every letter, SQLite's only ASCII ones. Under their own names:
  // SQLite's built-ins stay for search and filters (a JavaScript call per row scans 3× slower).
  unicode_upper: { fn: (text: unknown) => (text == null || Buffer.isBuffer(text) ? text : String(text).toUpperCase()) },
  unicode_lower: { fn: (text: unknown) => (text == null || Buffer.isBuffer(text) ? text : String(text).toLowerCase()) },
  // Baserow's PostgreSQL functions try_encode_uri(text) and try_encode_uri_component(text).
  try_encode_uri: { fn: (text: string | null) => encodeUri(text, URI_KEPT) },
  try_encode_uri_component: { fn: (text: string | null) => encodeUri(text, URI_COMPONENT_KEPT) },
};

/** Adds SQLITE_FUNCTIONS to a better-sqlite3 connection. */
export function installSqliteFunctions(db: { function(name: string, options: Record<string, unknown>, fn: SqliteFunction): unknown }): void {
  for (const [name, { fn, deterministic = true, varargs = false }] of Object.entries(SQLITE_FUNCTIONS)) db.function(name, { deterministic, varargs }, fn);
}

/** The first (`left`) or last (`right`) n characters, or all but the last/first |n| when n < 0. */
function sliceChars(text: string, n: number, side: 'left' | 'right'): string {
  const chars = Array.from(text);
  const count = n >= 0 ? Math.min(n, chars.length) : Math.max(chars.length + n, 0);
  return (side === 'left' ? chars.slice(0, count) : chars.slice(chars.length - count)).join('');
}

function strpos(text: string | null, sub: string | null): number | null {
  if (text == null || sub == null) return null;
  const index = String(text).indexOf(String(sub));
  return index < 0 ? 0 : Array.from(String(text).slice(0, index)).length + 1;
}

function splitPart(text: string | null, delimiter: string | null, n: number | null): string | null {
  if (text == null || delimiter == null || n == null) return null;
  const field = Math.trunc(n);
  if (field === 0) throw new Error('field position must not be zero');
  const parts = String(delimiter) === '' ? (String(text) === '' ? [] : [String(text)]) : String(text).split(String(delimiter));
  return parts[field > 0 ? field - 1 : parts.length + field] ?? '';
}

/** Characters Baserow's try_encode_uri and try_encode_uri_component keep as they are. */
const URI_KEPT = /^[0-9a-zA-Z_.!~*'();,/?:@&=+$#-]$/;
const URI_COMPONENT_KEPT = /^[0-9a-zA-Z_.!~*'()-]$/;

/** Every other character as %xx of its UTF-8 bytes (lowercase hex, as Baserow's). */
function encodeUri(text: string | null, kept: RegExp): string | null {
  if (text == null) return null;
  return Array.from(String(text))
    .map((c) => (kept.test(c) ? c : [...Buffer.from(c, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')))
    .join('');
}

/** PostgreSQL's POSIX character classes, as JavaScript bracket contents (ASCII). */
const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  cntrl: '\\x00-\\x1f\\x7f',
  print: '\\x20-\\x7e',
  graph: '\\x21-\\x7e',
};

/** PostgreSQL's escapes JavaScript lacks (word boundaries, string anchors) as JavaScript. */
const PG_ESCAPES: Record<string, string> = { m: '\\b(?=\\w)', M: '\\b(?<=\\w)', y: '\\b', Y: '\\B', A: '^', Z: '$' };

const regExpCache = new Map<string, RegExp>();

/**
 * A PostgreSQL regular expression (ARE) with its flags as a JavaScript RegExp: POSIX classes
 * (`[[:alpha:]]`), `\m \M \y \Y \A \Z`, and `.` matching newlines (unless flag `n`); flags
 * `g`, `i`, `n` (`c` is the default). Throws, as PostgreSQL does, for an invalid pattern or flag.
 */
export function pgRegExp(pattern: string, flags = ''): RegExp {
  const key = `${flags}/${pattern}`;
  const cached = regExpCache.get(key);
  if (cached) return cached;
  let js = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1];
      js += !inClass && PG_ESCAPES[next] ? PG_ESCAPES[next] : c + next;
      i++;
    } else if (inClass && pattern.startsWith('[:', i)) {
      const end = pattern.indexOf(':]', i + 2);
      const name = end < 0 ? '' : pattern.slice(i + 2, end);
      if (!(name in POSIX_CLASSES)) throw new Error(`invalid regular expression: invalid character class ${name}`);
      js += POSIX_CLASSES[name];
      i = end + 1;
    } else {
      if (c === '[' && !inClass) {
        inClass = true;
        js += c;
        // A `]` right after `[` or `[^` is a literal in PostgreSQL.
        if (pattern[i + 1] === '^') js += pattern[++i];
        if (pattern[i + 1] === ']') js += '\\' + pattern[++i];
        continue;
      }
      if (c === ']' && inClass) inClass = false;
      js += c;
    }
  }
  let jsFlags = '';
  for (const flag of flags) {
    if (flag === 'g' || flag === 'i') jsFlags += flag;
    else if (flag !== 'c' && flag !== 'n') throw new Error(`invalid regular expression option: "${flag}"`);
  }
  jsFlags += flags.includes('n') ? 'm' : 's';
  const regExp = new RegExp(js, jsFlags);
  if (regExpCache.size > 500) regExpCache.clear();
  regExpCache.set(key, regExp);
  return regExp;
}

function regexpReplace(...args: (string | null)[]): string | null {
  const [text, pattern, replacement, flags = ''] = args;
  if (text == null || pattern == null || replacement == null || flags == null) return null;
  const regExp = pgRegExp(String(pattern), String(flags));
  regExp.lastIndex = 0;
  return String(text).replace(regExp, (match: string, ...rest: unknown[]) => {
    // The captures come before the match offset (the first number).
    const groups = rest.slice(0, rest.findIndex((arg) => typeof arg === 'number')) as (string | undefined)[];
    // PostgreSQL's replacement: \1…\9 a group, \& the match, \\ a backslash; anything else as written.
    return String(replacement).replace(/\\([1-9&\\])/g, (_, ref: string) => (ref === '&' ? match : ref === '\\' ? '\\' : (groups[Number(ref) - 1] ?? '')));
  });
}

// ---------------------------------------------------------------------------------------------
// Formula dates and durations: PostgreSQL's date/time templates (to_char, to_timestamp), its
// interval input and output, for Baserow's datetime_format(_tz), todate(_tz), date_interval and
// totext of durations. The SQLite functions below run them; the PostgreSQL SQL of `todate` and
// `date_interval` is built from the same plans (formula-dialect.ts), so both databases read
// the same texts alike.

/** A node of a PostgreSQL date/time template (to_char / to_timestamp). */
type DateTemplateNode = { kind: 'field'; key: string; fm: boolean; th: 'TH' | 'th' | null } | { kind: 'space' | 'separator' | 'char'; text: string };

// PostgreSQL's template patterns (formatting.c's DCH keywords), longest first so `HH24` wins over `HH`.
const DATE_KEYWORDS = [
  ...['A.D.', 'A.M.', 'AD', 'AM', 'B.C.', 'BC', 'CC', 'DAY', 'DDD', 'DD', 'DY', 'Day', 'Dy', 'D', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5', 'FF6', 'FX', 'HH24', 'HH12', 'HH'],
  ...['IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J', 'MI', 'MM', 'MONTH', 'MON', 'MS', 'Month', 'Mon', 'OF', 'P.M.', 'PM', 'Q', 'RM', 'SSSSS', 'SSSS', 'SS'],
  ...['TZH', 'TZM', 'TZ', 'US', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y'],
  ...['a.d.', 'a.m.', 'ad', 'am', 'b.c.', 'bc', 'cc', 'day', 'ddd', 'dd', 'dy', 'd', 'ff1', 'ff2', 'ff3', 'ff4', 'ff5', 'ff6', 'fx', 'hh24', 'hh12', 'hh'],
  ...['iddd', 'id', 'iw', 'iyyy', 'iyy', 'iy', 'i', 'j', 'mi', 'mm', 'month', 'mon', 'ms', 'of', 'p.m.', 'pm', 'q', 'rm', 'sssss', 'ssss', 'ss', 'tz'],
  ...['us', 'ww', 'w', 'y,yyy', 'yyyy', 'yyy', 'yy', 'y'],
].sort((a, b) => b.length - a.length);

/** Template patterns whose value is a number (PostgreSQL's `is_digit`), upper-cased. */
const NUMERIC_KEYS = new Set(['CC', 'DDD', 'DD', 'D', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5', 'FF6', 'HH24', 'HH12', 'HH', 'IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J', 'MI', 'MM', 'MS', 'Q', 'SSSSS', 'SSSS', 'SS', 'US', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y']);

/** A PostgreSQL separator character (any printable ASCII but letters and digits). */
const isSeparatorChar = (c: string) => c > ' ' && c < '\x7f' && !/[A-Za-z0-9]/.test(c);

/** Parses a template as PostgreSQL's parse_format: patterns, FM/TM prefixes, TH/th/SP suffixes, "quoted" text and \". */
function parseDateTemplate(template: string): DateTemplateNode[] {
  const nodes: DateTemplateNode[] = [];
  let i = 0;
  while (i < template.length) {
    let fm = false;
    const prefix = template.slice(i, i + 2);
    if (prefix === 'FM' || prefix === 'fm' || prefix === 'TM' || prefix === 'tm') {
      fm = prefix.toUpperCase() === 'FM';
      i += 2;
    }
    const key = DATE_KEYWORDS.find((k) => template.startsWith(k, i));
    if (key) {
      i += key.length;
      let th: 'TH' | 'th' | null = null;
      const suffix = template.slice(i, i + 2);
      if (suffix === 'TH' || suffix === 'th') {
        th = suffix;
        i += 2;
      } else if (suffix === 'SP') i += 2;
      nodes.push({ kind: 'field', key, fm, th });
      continue;
    }
    if (i >= template.length) break;
    if (template[i] === '"') {
      i++;
      while (i < template.length) {
        if (template[i] === '"') {
          i++;
          break;
        }
        if (template[i] === '\\' && i + 1 < template.length) i++;
        const ch = String.fromCodePoint(template.codePointAt(i)!);
        nodes.push({ kind: 'char', text: ch });
        i += ch.length;
      }
      continue;
    }
    if (template[i] === '\\' && template[i + 1] === '"') i++;
    const ch = String.fromCodePoint(template.codePointAt(i)!);
    nodes.push({ kind: isSeparatorChar(ch) ? 'separator' : /^[ \t\n\r\f\v]$/.test(ch) ? 'space' : 'char', text: ch });
    i += ch.length;
  }
  return nodes;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ROMAN_MONTHS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/** Wall-clock fields of a moment (a proleptic Gregorian calendar, as PostgreSQL's). */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

/** Days from 1970-01-01 to a civil date (proleptic Gregorian, any year). */
const daysFromCivil = (year: number, month: number, day: number): number => daysFromYmd({ year, month, day });

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysInMonth = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];

/** An instant (microseconds since 1970, UTC) as wall-clock fields. */
function wallClock(us: number): WallClock {
  const days = Math.floor(us / 86_400_000_000);
  const rest = us - days * 86_400_000_000;
  const { year, month, day } = civilFromDays(days);
  const seconds = Math.floor(rest / 1_000_000);
  return { year, month, day, hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60, microsecond: rest % 1_000_000 };
}

const wallMicros = (w: WallClock) => (daysFromCivil(w.year, w.month, w.day) * 86400 + w.hour * 3600 + w.minute * 60 + w.second) * 1_000_000 + w.microsecond;

const STORED_INSTANT = /^\s*(-?\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?\s*$/;

/** A stored date/datetime (ISO text, as SQLite keeps them) as microseconds since 1970 UTC; null when it is not one. */
function instantMicros(text: unknown): number | null {
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

const zeroPad = (n: number, width: number) => (n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0'));

/** Microseconds since 1970 UTC as the ISO text SQLite keeps: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS.ffffffZ`; null out of years 1..9999. */
function isoText(us: number, includeTime: boolean): string | null {
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
function inZone(us: number, timeZone: string): WallClock | null {
  const format = zoneFormat(timeZone);
  return format ? wallClock(us + zoneOffset(format, us)) : null;
}

/** A wall clock of a time zone as an instant (PostgreSQL's `timestamp AT TIME ZONE zone`). */
function fromZone(wall: WallClock, timeZone: string): number | null {
  const format = zoneFormat(timeZone);
  if (!format) return null;
  const local = wallMicros(wall);
  let us = local - zoneOffset(format, local);
  us = local - zoneOffset(format, us);
  return us;
}

const ordinal = (n: number, upper: boolean) => {
  const last2 = Math.abs(n) % 100;
  const last = Math.abs(n) % 10;
  const suffix = last2 >= 11 && last2 <= 13 ? 'th' : last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th';
  return upper ? suffix.toUpperCase() : suffix;
};

/** Cases a name as the pattern is written: `MONTH` upper, `Month` capitalised, `month` lower. */
const cased = (name: string, key: string) => (key === key.toUpperCase() ? name.toUpperCase() : key[0] === key[0].toUpperCase() ? name : name.toLowerCase());

/** ISO 8601 week-numbering year and week of a date. */
function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const days = daysFromCivil(year, month, day);
  const dow = (((days + 3) % 7) + 7) % 7; // Monday 0
  const thursday = days - dow + 3;
  const y = civilFromDays(thursday).year;
  return { year: y, week: Math.floor((thursday - daysFromCivil(y, 1, 1)) / 7) + 1 };
}

/** PostgreSQL's to_char of a wall clock (a `timestamp without time zone`). */
function formatDateTemplate(wall: WallClock, template: string): string {
  const { year, month, day, hour, minute, second, microsecond } = wall;
  const days = daysFromCivil(year, month, day);
  const dow = (((days + 4) % 7) + 7) % 7; // Sunday 0
  const doy = days - daysFromCivil(year, 1, 1) + 1;
  const displayYear = year > 0 ? year : 1 - year;
  let out = '';
  for (const node of parseDateTemplate(template)) {
    if (node.kind !== 'field') {
      out += node.text;
      continue;
    }
    const { key, fm, th } = node;
    const num = (value: number, width: number) => (fm ? String(value) : zeroPad(value, width)) + (th ? ordinal(value, th === 'TH') : '');
    const name = (value: string, width: number) => (fm ? value : value.padEnd(width, ' '));
    const upper = key.toUpperCase();
    const iso = () => isoWeek(year, month, day);
    switch (upper) {
      case 'Y,YYY':
        out += `${Math.floor(displayYear / 1000)},${zeroPad(displayYear % 1000, 3)}` + (th ? ordinal(displayYear, th === 'TH') : '');
        break;
      case 'YYYY':
        out += num(displayYear, 4);
        break;
      case 'YYY':
        out += num(displayYear % 1000, 3);
        break;
      case 'YY':
        out += num(displayYear % 100, 2);
        break;
      case 'Y':
        out += num(displayYear % 10, 1);
        break;
      case 'IYYY':
        out += num(iso().year, 4);
        break;
      case 'IYY':
        out += num(iso().year % 1000, 3);
        break;
      case 'IY':
        out += num(iso().year % 100, 2);
        break;
      case 'I':
        out += num(iso().year % 10, 1);
        break;
      case 'MM':
        out += num(month, 2);
        break;
      case 'MONTH':
        out += name(cased(MONTH_NAMES[month - 1], key), 9);
        break;
      case 'MON':
        out += cased(MONTH_NAMES[month - 1].slice(0, 3), key);
        break;
      case 'RM':
        out += name(key === 'rm' ? ROMAN_MONTHS[month - 1].toLowerCase() : ROMAN_MONTHS[month - 1], 4);
        break;
      case 'DD':
        out += num(day, 2);
        break;
      case 'DDD':
        out += num(doy, 3);
        break;
      case 'IDDD': {
        const w = iso();
        out += num((w.week - 1) * 7 + ((dow + 6) % 7) + 1, 3);
        break;
      }
      case 'D':
        out += num(dow + 1, 1);
        break;
      case 'ID':
        out += num(((dow + 6) % 7) + 1, 1);
        break;
      case 'DAY':
        out += name(cased(DAY_NAMES[dow], key), 9);
        break;
      case 'DY':
        out += cased(DAY_NAMES[dow].slice(0, 3), key);
        break;
      case 'W':
        out += num(Math.floor((day - 1) / 7) + 1, 1);
        break;
      case 'WW':
        out += num(Math.floor((doy - 1) / 7) + 1, 2);
        break;
      case 'IW':
        out += num(iso().week, 2);
        break;
      case 'Q':
        out += num(Math.floor((month - 1) / 3) + 1, 1);
        break;
      case 'CC':
        out += num(year > 0 ? Math.floor((year - 1) / 100) + 1 : -(Math.floor(-year / 100) + 1), 2);
        break;
      case 'J':
        out += num(days + 2440588, 1);
        break;
      case 'HH':
      case 'HH12':
        out += num(hour % 12 === 0 ? 12 : hour % 12, 2);
        break;
      case 'HH24':
        out += num(hour, 2);
        break;
      case 'MI':
        out += num(minute, 2);
        break;
      case 'SS':
        out += num(second, 2);
        break;
      case 'MS':
        out += num(Math.floor(microsecond / 1000), 3);
        break;
      case 'US':
        out += num(microsecond, 6);
        break;
      case 'FF1':
      case 'FF2':
      case 'FF3':
      case 'FF4':
      case 'FF5':
      case 'FF6': {
        const digits = Number(upper[2]);
        out += num(Math.floor(microsecond / 10 ** (6 - digits)), digits);
        break;
      }
      case 'SSSS':
      case 'SSSSS':
        out += num(hour * 3600 + minute * 60 + second, 1);
        break;
      case 'AM':
      case 'PM':
        out += key === key.toUpperCase() ? (hour >= 12 ? 'PM' : 'AM') : hour >= 12 ? 'pm' : 'am';
        break;
      case 'A.M.':
      case 'P.M.':
        out += key === key.toUpperCase() ? (hour >= 12 ? 'P.M.' : 'A.M.') : hour >= 12 ? 'p.m.' : 'a.m.';
        break;
      case 'AD':
      case 'BC':
        out += key === key.toUpperCase() ? (year > 0 ? 'AD' : 'BC') : year > 0 ? 'ad' : 'bc';
        break;
      case 'A.D.':
      case 'B.C.':
        out += key === key.toUpperCase() ? (year > 0 ? 'A.D.' : 'B.C.') : year > 0 ? 'a.d.' : 'b.c.';
        break;
      case 'OF':
      case 'TZH':
        out += '+00';
        break;
      case 'TZM':
        out += '00';
        break;
      default:
        // TZ, tz (no zone on a wall clock), FX: nothing.
        break;
    }
  }
  return out;
}

/** PostgreSQL's `to_char(instant AT TIME ZONE zone, template)` of a stored date/datetime; null for an unknown zone. */
function formatInstant(stored: unknown, template: unknown, timeZone: unknown): string | null {
  if (stored == null || template == null || timeZone == null) return null;
  const us = instantMicros(stored);
  if (us === null) return null;
  const wall = inZone(us, String(timeZone));
  return wall ? formatDateTemplate(wall, String(template)) : null;
}

/** What a capture group of a to_timestamp plan holds: its pattern key (upper-cased). */
export interface DateParseGroup {
  key: string;
}

/**
 * How to read a text with a template, as a regular expression both JavaScript and PostgreSQL
 * (ARE) run alike, and what each capture group holds. It follows PostgreSQL's to_timestamp
 * (non-FX mode): leading and trailing blanks of fields skipped, a template space or separator
 * matches one separator or nothing, a template character skips one input character, a number
 * takes as many digits as it finds when a non-digit follows in the template (or FM is given),
 * exactly its width otherwise; reading stops where the text ends. Null when the template uses
 * a pattern this does not read (FX, time zones, ISO weeks, Julian days, centuries).
 */
export interface DateParsePlan {
  regex: string;
  groups: DateParseGroup[];
}

const TEMPLATE_BLANK = '[ \\t\\n\\r\\f\\v]';
const TEMPLATE_SEPARATOR = '[!-/:-@\\[-`{-~]';
/** A case-insensitive pattern of a word, for regular expressions without an `i` flag. */
const anyCase = (word: string) => [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c === '.' ? '\\.' : c)).join('');

const PARSE_WIDTHS: Record<string, number> = { YYYY: 4, YYY: 3, YY: 2, Y: 1, MM: 2, DD: 2, DDD: 3, D: 1, HH: 2, HH12: 2, HH24: 2, MI: 2, SS: 2, MS: 3, US: 6, FF1: 1, FF2: 2, FF3: 3, FF4: 4, FF5: 5, FF6: 6, SSSS: 4, SSSSS: 5, Q: 1 };

const planCache = new Map<string, DateParsePlan | null>();
const planRegExps = new Map<string, RegExp>();

/** The plan of a template (cached); null when it uses a pattern the plans do not read. */
export function dateParsePlan(template: string): DateParsePlan | null {
  if (planCache.has(template)) return planCache.get(template)!;
  const nodes = parseDateTemplate(template);
  const groups: DateParseGroup[] = [];
  const parts: string[] = [];
  let plan: DateParsePlan | null = null;
  let supported = true;
  nodes.forEach((node, i) => {
    const first = i === 0;
    if (node.kind !== 'field') {
      const afterField = first || nodes[i - 1].kind === 'field';
      const skip = first ? `${TEMPLATE_BLANK}*` : '';
      if (node.kind === 'char') parts.push(`${skip}${afterField ? `(?:(?<=${TEMPLATE_BLANK})|(?<!${TEMPLATE_BLANK}).)` : '.'}`);
      else parts.push(`${skip}(?:${TEMPLATE_BLANK}|${TEMPLATE_SEPARATOR})?`);
      return;
    }
    const key = node.key.toUpperCase();
    const next = nodes[i + 1];
    const slurp = node.fm || node.th !== null || !next || (next.kind === 'field' ? !NUMERIC_KEYS.has(next.key.toUpperCase()) : !/^[0-9]$/.test(next.text));
    let field: string;
    if (key in PARSE_WIDTHS) {
      const width = PARSE_WIDTHS[key];
      field = slurp ? '([+-]?\\d+)' : width === 1 ? '(\\d)' : `(\\d{${width}}|[+-]\\d{${width - 1}})`;
      groups.push({ key });
      if (node.th) field += '(?:..|.?$)';
    } else if (key === 'Y,YYY') {
      field = `([+-]?\\d+),${TEMPLATE_BLANK}*(\\d{1,3}|[+-]\\d{1,2})`;
      groups.push({ key: 'Y,YYY' }, { key: 'Y,YYY' });
    } else if (key === 'MONTH' || key === 'MON') {
      field = `(${MONTH_NAMES.map((m) => anyCase(key === 'MON' ? m.slice(0, 3) : m)).join('|')})`;
      groups.push({ key });
    } else if (key === 'DAY' || key === 'DY') {
      field = `(?:${DAY_NAMES.map((d) => anyCase(key === 'DY' ? d.slice(0, 3) : d)).join('|')})`;
    } else if (key === 'RM') {
      field = `(${[...ROMAN_MONTHS].reverse().map(anyCase).join('|')})`;
      groups.push({ key });
    } else if (key === 'AM' || key === 'PM') {
      field = `(${anyCase('am')}|${anyCase('pm')})`;
      groups.push({ key: 'AM' });
    } else if (key === 'A.M.' || key === 'P.M.') {
      field = `(${anyCase('a.m.')}|${anyCase('p.m.')})`;
      groups.push({ key: 'AM' });
    } else if (key === 'AD' || key === 'BC') {
      field = `(${anyCase('ad')}|${anyCase('bc')})`;
      groups.push({ key: 'BC' });
    } else if (key === 'A.D.' || key === 'B.C.') {
      field = `(${anyCase('a.d.')}|${anyCase('b.c.')})`;
      groups.push({ key: 'BC' });
    } else {
      supported = false;
      field = '';
    }
    parts.push(`${TEMPLATE_BLANK}*${field}${TEMPLATE_BLANK}*`);
  });
  if (supported) plan = { regex: `^${parts.reduceRight((rest, part) => `(?:$|${part}${rest})`, '')}`, groups };
  if (planCache.size > 200) {
    planCache.clear();
    planRegExps.clear();
  }
  planCache.set(template, plan);
  return plan;
}

/** The fields read by a plan's captures (PostgreSQL's do_to_timestamp), before defaults. */
function readDateCaptures(plan: DateParsePlan, captures: readonly (string | null | undefined)[]): WallClock | null {
  let year = 0;
  let partial = false;
  let bc = false;
  let month = 0;
  let day = 0;
  let doy = 0;
  let hour = 0;
  let clock12 = false;
  let pm = false;
  let minute = 0;
  let second = 0;
  let ms = 0;
  let us = 0;
  let secondsOfDay = 0;
  const toInt = (text: string) => {
    const value = Number(text);
    return Math.abs(value) > 2147483647 ? null : value;
  };
  for (let g = 0; g < plan.groups.length; g++) {
    const text = captures[g];
    if (text == null) continue;
    const { key } = plan.groups[g];
    if (key === 'MONTH' || key === 'MON') {
      month = MONTH_NAMES.findIndex((m) => m.slice(0, 3).toLowerCase() === text.slice(0, 3).toLowerCase()) + 1;
      continue;
    }
    if (key === 'RM') {
      month = ROMAN_MONTHS.indexOf(text.toUpperCase()) + 1;
      continue;
    }
    if (key === 'AM') {
      clock12 = true;
      pm = text[0].toLowerCase() === 'p';
      continue;
    }
    if (key === 'BC') {
      bc = text[0].toLowerCase() === 'b';
      continue;
    }
    if (key === 'Y,YYY') {
      const thousands = toInt(text);
      const rest = toInt(captures[g + 1] ?? '');
      if (thousands === null || rest === null) return null;
      year = thousands * 1000 + rest;
      partial = false;
      g++;
      continue;
    }
    const value = toInt(text);
    if (value === null) return null;
    switch (key) {
      case 'YYYY':
        year = value;
        partial = false;
        break;
      case 'YYY':
      case 'YY':
      case 'Y':
        year = value;
        partial = text.length < 4;
        break;
      case 'MM':
        month = value;
        break;
      case 'DD':
        day = value;
        break;
      case 'DDD':
        doy = value;
        break;
      case 'HH':
      case 'HH12':
        hour = value;
        clock12 = true;
        break;
      case 'HH24':
        hour = value;
        break;
      case 'MI':
        minute = value;
        break;
      case 'SS':
        second = value;
        break;
      case 'MS':
        ms = value * (text.replace(/^[+-]/, '').length === 1 ? 100 : text.replace(/^[+-]/, '').length === 2 ? 10 : 1);
        break;
      case 'SSSS':
      case 'SSSSS':
        secondsOfDay = value;
        break;
      case 'D':
      case 'Q':
        break;
      default: {
        // US, FF1..FF6: a fraction of a second by its digits.
        const digits = text.replace(/^[+-]/, '').length;
        us = digits <= 6 ? value * 10 ** (6 - digits) : value;
      }
    }
  }
  if (partial) year = year < 70 ? year + 2000 : year < 100 ? year + 1900 : year < 520 ? year + 2000 : year < 1000 ? year + 1000 : year;
  let h = 0;
  let mi = 0;
  let s = 0;
  if (secondsOfDay) {
    h = Math.trunc(secondsOfDay / 3600);
    mi = Math.trunc((secondsOfDay % 3600) / 60);
    s = secondsOfDay % 60;
  }
  if (second) s = second;
  if (minute) mi = minute;
  if (hour) h = hour;
  if (clock12) {
    if (h < 1 || h > 12) return null;
    if (pm && h < 12) h += 12;
    else if (!pm && h === 12) h = 0;
  }
  let y = 0;
  if (year) {
    y = bc ? -year : year;
    if (y < 0) y++;
  }
  let m = month || 1;
  let d = day || 1;
  const dated = year !== 0 || month !== 0 || day !== 0 || doy !== 0;
  if (doy && (m <= 1 || d <= 1)) {
    if (y < 1) return null;
    const date = civilFromDays(daysFromCivil(y, 1, 1) - 1 + doy);
    y = date.year;
    m = date.month;
    d = date.day;
  }
  if (dated && (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m))) return null;
  const fraction = ms * 1000 + us;
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || fraction < 0 || fraction > 999999) return null;
  return { year: y, month: m, day: d, hour: h, minute: mi, second: s, microsecond: fraction };
}

/**
 * PostgreSQL's `to_timestamp(text, template)` (answering null instead of an error), read as a
 * wall clock of `timeZone` (`AT TIME ZONE`; UTC when null): the instant as stored ISO text,
 * only its date when `dateOnly`; null when it is not a date, not in years 1..9999 (Baserow's
 * bc_to_null), or the zone is unknown.
 */
function parseInstant(text: unknown, template: unknown, timeZone: unknown, dateOnly: unknown): string | null {
  if (text == null || template == null) return null;
  const plan = dateParsePlan(String(template));
  if (!plan) return null;
  let regExp = planRegExps.get(plan.regex);
  if (!regExp) planRegExps.set(plan.regex, (regExp = new RegExp(plan.regex, 's')));
  const match = regExp.exec(String(text));
  if (!match) return null;
  const wall = readDateCaptures(plan, match.slice(1));
  if (!wall || wall.year < 1 || wall.year > 9999) return null;
  const us = timeZone == null ? wallMicros(wall) : fromZone(wall, String(timeZone));
  return us === null ? null : isoText(us, !dateOnly);
}

// Interval input, as PostgreSQL reads `'1 day 2 hours'::interval` (a common subset): `@`, then
// quantities with units (each unit once) and/or `[-]h:mm[:ss[.f]]`, a bare number of seconds
// last, `ago` last. Years of 365 days and months of 30, as Baserow's durations count them.

/** One item of an interval text: a quantity and its unit, a time `h:mm:ss`, or bare seconds. */
export const INTERVAL_ITEM = '([+-]?(?:\\d{1,9}(?:\\.\\d*)?|\\.\\d{1,9}))[ \\t]*([a-zA-Z]+)|([+-]?)(\\d{1,9}):(\\d{1,9})(?::(\\d{1,9}(?:\\.\\d*)?))?|([+-]?(?:\\d{1,9}(?:\\.\\d*)?|\\.\\d{1,9}))';
/** A whole interval text: items separated by blanks or commas, optional `@` and `ago`. */
export const INTERVAL_TEXT = `^[ \\t]*@?[ \\t]*(?:(?:${INTERVAL_ITEM})[ \\t,]*)+(?:[aA][gG][oO][ \\t]*)?$`;

const INTERVAL_TEXT_REGEXP = new RegExp(INTERVAL_TEXT);
const INTERVAL_ITEMS_REGEXP = new RegExp(INTERVAL_ITEM, 'g');

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
  const items = [...input.matchAll(INTERVAL_ITEMS_REGEXP)];
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

/** round(numeric, n): half away from zero at the n-th decimal (n < 0: left of the point), by the decimal digits written; NULL beyond 1000 places. */
function roundDecimal(value: unknown, places: unknown): number | null {
  if (value == null || places == null) return null;
  const x = Number(value);
  const n = Math.trunc(Number(places));
  if (!Number.isFinite(x) || !Number.isFinite(n) || Math.abs(n) > 1000) return null;
  // Shifting the decimal point in the written digits (1.005 rounds to 1.01, not 1.00).
  const [mantissa, exponent = '0'] = String(Math.abs(x)).split('e');
  const scaled = Number(`${mantissa}e${Number(exponent) + n}`);
  if (!Number.isFinite(scaled) || scaled >= 1e21) return x;
  const rounded = Number(`${Math.round(scaled)}e${-n}`);
  return x < 0 ? -rounded : rounded;
}

/** A formula's number operation (see formula_numeric): NULL for NULL, 'NaN' for NaN or a division by zero. */
function numericOperation(op: unknown, a: unknown, b: unknown = 0): number | string | null {
  if (a == null || b == null) return null;
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  const result = numericResult(op, Number(a), Number(b));
  // PostgreSQL's numeric has no -0, and its NaN is the text 'NaN' here.
  return result === null ? null : Number.isNaN(result) ? 'NaN' : result === 0 ? 0 : result;
}

function numericResult(op: unknown, x: number, y: number): number | null {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? NaN : x / y;
    case 'mod':
      return y === 0 ? NaN : x % y;
    case 'abs':
      return Math.abs(x);
    case 'trunc':
      return Math.trunc(x);
    case 'ceil':
      return Math.ceil(x);
    case 'floor':
      return Math.floor(x);
    case 'sign':
      return Math.sign(x);
    default:
      return null;
  }
}

/** var_pop, var_samp, stddev_pop or stddev_samp of the numbers of a JSON array (nulls left out); NULL without enough of them. */
function variance(json: unknown, sample: unknown, root: unknown): number | null {
  if (json == null) return null;
  const values = (JSON.parse(String(json)) as unknown[]).filter((v) => v !== null).map(Number);
  const n = values.length;
  if (n === 0 || (sample && n < 2)) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const squares = values.reduce((a, b) => a + (b - mean) ** 2, 0);
  const result = squares / (sample ? n - 1 : n);
  return root ? Math.sqrt(result) : result;
}

/** Seconds since 1970 UTC of a stored date or datetime. */
function epochSeconds(stored: unknown): number | null {
  const us = instantMicros(stored);
  return us === null ? null : us / 1_000_000;
}
