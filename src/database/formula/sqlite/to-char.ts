import { civilFromDays } from '../../fields/values/calendar';
import type { SqliteFunctions } from '../../../core/database/sqlite-functions';
import { DAY_NAMES, MONTH_NAMES, parseDateTemplate, ROMAN_MONTHS } from './date-template';
import { daysFromCivil, inZone, instantMicros, type WallClock, zeroPad } from './dates';

export const TO_CHAR_SQLITE_FUNCTIONS: SqliteFunctions = {
  // to_char(value AT TIME ZONE zone, template); NULL for an unknown zone.
  formula_to_char: { fn: formatInstant },
};

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
