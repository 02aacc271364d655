import { civilFromDays, daysInMonth } from '../../fields/values/calendar';
import { RE2JS } from 're2js';
import type { SqliteFunctions } from '../../../core/database/sqlite-functions';
import { DAY_NAMES, MONTH_NAMES, NUMERIC_KEYS, parseDateTemplate, ROMAN_MONTHS } from './date-template';
import { daysFromCivil, fromZone, isoText, type WallClock, wallMicros } from './dates';

export const TO_TIMESTAMP_SQLITE_FUNCTIONS: SqliteFunctions = {
  // to_timestamp(text, template) read in a zone (NULL: UTC), NULL instead of an error (Baserow's try_cast_to_date_tz).
  formula_to_timestamp: { fn: parseInstant },
};

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
/** The plans' regular expressions, run by RE2 (linear time, with its linear-time lookbehinds): the text is any cell's. */
const planRegExps = new Map<string, RE2JS>();

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
  if (!regExp) {
    try {
      regExp = RE2JS.compile(plan.regex, RE2JS.DOTALL | RE2JS.LOOKBEHINDS);
    } catch {
      // Nested deeper than RE2 allows (a template of hundreds of fields; the formulas bound templates before): no date.
      return null;
    }
    planRegExps.set(plan.regex, regExp);
  }
  const match = regExp.exec(String(text));
  if (!match) return null;
  const wall = readDateCaptures(plan, match.slice(1));
  if (!wall || wall.year < 1 || wall.year > 9999) return null;
  const us = timeZone == null ? wallMicros(wall) : fromZone(wall, String(timeZone));
  return us === null ? null : isoText(us, !dateOnly);
}
