/**
 * PostgreSQL's date/time templates (formatting.c), parsed once for both to_char (to-char.ts)
 * and to_timestamp (to-timestamp.ts).
 */

/** A node of a PostgreSQL date/time template (to_char / to_timestamp). */
export type DateTemplateNode = { kind: 'field'; key: string; fm: boolean; th: 'TH' | 'th' | null } | { kind: 'space' | 'separator' | 'char'; text: string };

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
export const NUMERIC_KEYS = new Set(['CC', 'DDD', 'DD', 'D', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5', 'FF6', 'HH24', 'HH12', 'HH', 'IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J', 'MI', 'MM', 'MS', 'Q', 'SSSSS', 'SSSS', 'SS', 'US', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y']);

/** A PostgreSQL separator character (any printable ASCII but letters and digits). */
const isSeparatorChar = (c: string) => c > ' ' && c < '\x7f' && !/[A-Za-z0-9]/.test(c);

/** Parses a template as PostgreSQL's parse_format: patterns, FM/TM prefixes, TH/th/SP suffixes, "quoted" text and \". */
export function parseDateTemplate(template: string): DateTemplateNode[] {
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

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const ROMAN_MONTHS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];
