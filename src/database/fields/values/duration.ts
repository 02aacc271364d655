import { ParseResult, failed, parsed, pythonFloat, pythonStr } from './common';
import { quantizeDecimal } from './number';

/**
 * Duration cells, as Baserow's `DurationFieldSerializer` → `prepare_duration_value_for_db`
 * handles them (contrib/database/fields/utils/duration.py): numbers are seconds; strings are
 * first tried as a Python `float()` (so "90" is 90 *seconds* even for `h:mm`), then matched
 * against a list of patterns whose meaning depends on the format ("1:30" is 1h30 for
 * `h:mm`/`d h`/`d h:mm` but 1min30s for the others), then read as a PostgreSQL interval
 * found anywhere in the text ("1 day", "x 2 years"). A leading "-" negates (except for the
 * interval fallback). The total is rounded half away from zero to the format's smallest
 * unit, and must fit Python's timedelta.
 */

export const DURATION_FORMATS = [
  'h:mm',
  'h:mm:ss',
  'h:mm:ss.s',
  'h:mm:ss.ss',
  'h:mm:ss.sss',
  'd h',
  'd h:mm',
  'd h:mm:ss',
  'd h mm',
  'd h mm ss',
] as const;

export type DurationFormat = (typeof DURATION_FORMATS)[number];

export function isDurationFormat(value: unknown): value is DurationFormat {
  return (DURATION_FORMATS as readonly unknown[]).includes(value);
}

/** `rround(value, ndigits)`: half away from zero via truncation of value*10^n ± 0.5. */
function rround(value: number, ndigits: number): number {
  const scale = 10 ** ndigits;
  return Math.trunc(value * scale + (value >= 0 ? 0.5 : -0.5)) / scale;
}

/** Each format's `round_func`. */
export function roundDuration(seconds: number, format: DurationFormat): number {
  switch (format) {
    case 'h:mm':
    case 'd h:mm':
    case 'd h mm':
      return rround(seconds / 60, 0) * 60;
    case 'd h':
      return rround(seconds / 3600, 0) * 3600;
    case 'h:mm:ss.s':
      return rround(seconds, 1);
    case 'h:mm:ss.ss':
      return rround(seconds, 2);
    case 'h:mm:ss.sss':
      return rround(seconds, 3);
    default:
      return rround(seconds, 0);
  }
}

const secs = (days: string | undefined, hours: string | undefined, mins: string | undefined, s?: string): number => {
  // total_secs: int() of the unit digits, float() of the seconds (which may raise: "1x5").
  const seconds = s === undefined ? 0 : pythonFloat(s);
  if (seconds === null) throw new InvalidDuration();
  return Number(days ?? 0) * 86400 + Number(hours ?? 0) * 3600 + Number(mins ?? 0) * 60 + seconds;
};

class InvalidDuration extends Error {}

type Reader = (...groups: string[]) => number;
const dhm: Reader = (d, h, m) => secs(d, h, m);
const dms: Reader = (d, m, s) => secs(d, undefined, m, s);

// Python's `.` is "anything but \n"; `\d+.\d+` really does accept "1x5" (then float() fails).
const ANY = '[^\\n]';
const PATTERNS: { re: RegExp; default: Reader; byFormat?: Partial<Record<DurationFormat, Reader>> }[] = [
  // 1d 11:12:13.14, 1 11:12:13
  { re: new RegExp(`^(\\d+)(?:d\\s*|\\s+)(\\d+):(\\d+):(\\d+|\\d+${ANY}\\d+)$`), default: (d, h, m, s) => secs(d, h, m, s) },
  // 11:12:13.14
  { re: new RegExp(`^(\\d+):(\\d+):(\\d+|\\d+${ANY}\\d+)$`), default: (h, m, s) => secs(undefined, h, m, s) },
  // 1d 12h, 1 12h
  { re: /^(\d+)(?:d\s*|\s+)(\d+)h$/, default: (d, h) => secs(d, h, undefined) },
  { re: /^(\d+)h$/, default: (h) => secs(undefined, h, undefined) },
  { re: /^(\d+)d$/, default: (d) => secs(d, undefined, undefined) },
  // 1d 11:12
  {
    re: /^(\d+)(?:d\s*|\s+)(\d+):(\d+)$/,
    default: dms,
    byFormat: { 'h:mm': dhm, 'd h': dhm, 'd h:mm': dhm, 'd h mm': dhm },
  },
  // 1d 11:12.23
  { re: new RegExp(`^(\\d+)(?:d\\s*|\\s+)(\\d+):(\\d+${ANY}\\d+)$`), default: dms },
  // 11:12
  {
    re: /^(\d+):(\d+)$/,
    default: (m, s) => secs(undefined, undefined, m, s),
    byFormat: {
      'h:mm': (h, m) => secs(undefined, h, m),
      'd h': (h, m) => secs(undefined, h, m),
      'd h:mm': (h, m) => secs(undefined, h, m),
    },
  },
  // 11:12.134
  { re: new RegExp(`^(\\d+):(\\d+${ANY}\\d+)$`), default: (m, s) => secs(undefined, undefined, m, s) },
  // 1d 123
  {
    re: /^(\d+)(?:d\s*|\s+)(\d+)$/,
    default: (d, s) => secs(d, undefined, undefined, s),
    byFormat: {
      'h:mm': (d, m) => secs(d, undefined, m),
      'd h': (d, h) => secs(d, h, undefined),
      'd h:mm': (d, m) => secs(d, undefined, m),
      'd h mm': (d, m) => secs(d, undefined, m),
    },
  },
  // 1d 12.134
  { re: new RegExp(`^(\\d+)(?:d\\s*|\\s+)(\\d+${ANY}\\d+)$`), default: (d, s) => secs(d, undefined, undefined, s) },
  // 123 (only reachable with non-ASCII digits in Python, float() takes the rest)
  {
    re: /^(\d+)$/,
    default: (s) => secs(undefined, undefined, undefined, s),
    byFormat: {
      'h:mm': (m) => secs(undefined, undefined, m),
      'd h': (h) => secs(undefined, h, undefined),
      'd h:mm': (m) => secs(undefined, undefined, m),
      'd h mm': (m) => secs(undefined, undefined, m),
    },
  },
  { re: new RegExp(`^(\\d+${ANY}\\d+)$`), default: (s) => secs(undefined, undefined, undefined, s) },
];

// "1d 10h 20m 30s", "1d 30s", "2h 3m": every unit optional (so it also matches ""); tried first.
const UNITS_RE = new RegExp(`^(?:(\\d+)d\\s*)?(?:(\\d+)h\\s*)?(?:(\\d+)(?:m\\s*|\\s+))?(?:(\\d+|\\d+${ANY}\\d+)?s\\s*)?$`);
const INTERVAL_RE = /(-?\d+)\s+years?\s*|(-?\d+)\s+mons?\s*|(-?\d+)\s+days?\s*|((-?\d{1,2}):(\d{2}):(\d{2}))?/g;

/** Python `re.match(..., s)` with `$`, which also matches before one final "\n". */
function pyMatch(re: RegExp, s: string): RegExpExecArray | null {
  return re.exec(s) ?? (s.endsWith('\n') ? re.exec(s.slice(0, -1)) : null);
}

/** `postgres_interval_to_seconds`: years/mons/days/hh:mm:ss found anywhere in the text. */
function intervalSeconds(s: string): number | null {
  let total = 0;
  let valid = false;
  for (const m of s.matchAll(INTERVAL_RE)) {
    if (m[1]) total += Number(m[1]) * 365 * 86400;
    if (m[2]) total += Number(m[2]) * 30 * 86400;
    if (m[3]) total += Number(m[3]) * 86400;
    if (m[4]) total += Number(m[5]) * 3600 + Number(m[6]) * 60 + Number(m[7]);
    valid ||= Boolean(m[1] || m[2] || m[3] || m[4]);
  }
  return valid ? total : null;
}

/** Longest text read as a duration (a real one is a few dozen characters). */
const MAX_DURATION_TEXT_LENGTH = 200;

/**
 * `parse_duration_value`: a duration text in (or near) `format` → seconds, unrounded; null
 * when it is not a duration. Numeric strings are not special here (see `parseDuration`).
 */
export function parseDurationText(text: string, format: DurationFormat): number | null {
  // Longer is no duration: the patterns below backtrack on long digit runs (20,000 digits and
  // an "x" took 6 s), and Baserow's `postgres_interval_to_seconds` is quadratic in any engine.
  if (text.length > MAX_DURATION_TEXT_LENGTH) return null;
  let s = text;
  let multiplier = 1;
  if (s.startsWith('-')) {
    s = s.slice(1);
    multiplier = -1;
  }
  try {
    const units = pyMatch(UNITS_RE, s);
    if (units && units.slice(1).some((g) => g)) return secs(units[1], units[2], units[3], units[4]) * multiplier;
    for (const pattern of PATTERNS) {
      const m = pyMatch(pattern.re, s);
      if (m) return (pattern.byFormat?.[format] ?? pattern.default)(...m.slice(1)) * multiplier;
    }
  } catch (e) {
    if (e instanceof InvalidDuration) return null;
    throw e;
  }
  return intervalSeconds(s);
}

// timedelta.min / timedelta.max, in seconds.
const MIN_SECONDS = -999999999 * 86400;
const MAX_SECONDS = 1000000000 * 86400;

/** `timedelta(seconds=x)` keeps whole seconds and rounds the fraction to µs, half-even. */
function splitMicros(x: number): [whole: number, us: number] {
  let whole = Math.trunc(x);
  const scaled = (x - whole) * 1e6;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  let us = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  if (Math.abs(us) === 1_000_000) {
    whole += Math.sign(us);
    us = 0;
  }
  return [whole, us];
}

/** What `timedelta(seconds=x).total_seconds()` gives back (exact while whole*1e6 is a safe integer). */
function timedeltaSeconds(x: number): number {
  const [whole, us] = splitMicros(x);
  return Math.abs(whole) < 9e9 ? (whole * 1e6 + us) / 1e6 : x;
}

/**
 * A request value for a duration field → seconds rounded to the format (a float, as the API
 * answers it), or null. Booleans are numbers to Python (`true` is 1 second).
 */
export function parseDuration(value: unknown, format: DurationFormat): ParseResult<number | null> {
  if (value === null || value === undefined) return parsed(null);
  const invalid = () => failed(`The value ${pythonStr(value)} is not a valid duration.`);
  let total: number | null;
  if (typeof value === 'number') total = value;
  else if (typeof value === 'boolean') total = value ? 1 : 0;
  else if (typeof value === 'string') total = pythonFloat(value) ?? parseDurationText(value, format);
  // Lists and objects make Python's float() raise TypeError, a 500 in Baserow; invalid here.
  else return invalid();
  if (total === null || Number.isNaN(total)) return invalid();
  const rounded = roundDuration(total, format);
  if (!Number.isFinite(rounded) || rounded < MIN_SECONDS || rounded >= MAX_SECONDS) {
    return failed(`Value ${pythonStr(value)} is too large. The maximum is 999999999 days, 23:59:59.999999.`);
  }
  return parsed(timedeltaSeconds(rounded) + 0); // + 0 turns -0 into 0
}

/** `%0{width}.{places}f` of a non-negative µs amount, rounded like Python's float formatting. */
function fixedSeconds(wholeSeconds: number, us: number, places: number, width: number): string {
  // Python formats the float `s + us / 1e6` (exactly, half-even); its exact expansion is short.
  const exact = (wholeSeconds + us / 1e6).toFixed(60);
  return (quantizeDecimal(exact, places) ?? exact).padStart(width, '0');
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * `format_duration_value`: seconds → the format's text ("1:30", "1d 2h", "-0:01:05.5"),
 * as Baserow exports durations and shows them in text. Null stays null.
 */
export function formatDurationText(seconds: number | null | undefined, format: DurationFormat): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  const sign = seconds < 0 ? '-' : '';
  const [whole, us] = splitMicros(Math.abs(seconds));
  const d = Math.floor(whole / 86400);
  const h = Math.floor((whole % 86400) / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const hours = d * 24 + h;
  let text: string;
  switch (format) {
    case 'h:mm':
      text = `${hours}:${pad2(m)}`;
      break;
    case 'h:mm:ss':
      text = `${hours}:${pad2(m)}:${pad2(s)}`;
      break;
    case 'h:mm:ss.s':
      text = `${hours}:${pad2(m)}:${fixedSeconds(s, us, 1, 4)}`;
      break;
    case 'h:mm:ss.ss':
      text = `${hours}:${pad2(m)}:${fixedSeconds(s, us, 2, 5)}`;
      break;
    case 'h:mm:ss.sss':
      text = `${hours}:${pad2(m)}:${fixedSeconds(s, us, 3, 6)}`;
      break;
    case 'd h':
      text = `${d}d ${h}h`;
      break;
    case 'd h:mm':
      text = `${d}d ${h}:${pad2(m)}`;
      break;
    case 'd h:mm:ss':
      text = `${d}d ${h}:${pad2(m)}:${pad2(s)}`;
      break;
    case 'd h mm':
      text = `${d}d ${h}h ${pad2(m)}m`;
      break;
    case 'd h mm ss':
      text = `${d}d ${h}h ${pad2(m)}m ${pad2(s)}s`;
      break;
  }
  return sign + text;
}
