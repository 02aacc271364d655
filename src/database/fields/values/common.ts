import type { FieldError } from '../../../core/errors/api-error';

/**
 * Shared pieces of the cell value parsers: the result type, and the few Python behaviours
 * (`str()`, `float()`) that leak into Baserow's accepted inputs and error messages.
 */

/** A parsed request value, or the errors DRF would put in that field's leaf. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export const parsed = <T>(value: T): ParseResult<T> => ({ ok: true, value });

export const failed = (error: string, code = 'invalid'): { ok: false; errors: FieldError[] } => ({
  ok: false,
  errors: [{ error, code }],
});

/** DRF's message for `null` sent to a field that does not allow it. */
export const NULL_NOT_ALLOWED: FieldError = { error: 'This field may not be null.', code: 'null' };

/**
 * Python's `repr(float)`: the shortest round-trip digits (as JS), but in scientific notation
 * below 1e-4 and from 1e16 up, with a two-digit exponent (`1e-05`, `1e+16`), and `.0` on
 * integral values.
 */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || '0'}`;
}

function pythonStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${body}${quote}`;
}

function pythonRepr(value: unknown): string {
  return typeof value === 'string' ? pythonStrRepr(value) : pythonStr(value);
}

/**
 * Python's `str()` of a JSON-decoded request value, as it appears in Baserow messages
 * (`"The value [1, 2] is not a valid duration."`). JSON integers are Python ints (all their
 * digits); JS cannot tell `1.0` from `1`, so integral numbers below 1e21 (what JSON.stringify
 * writes in full) print as ints.
 */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : pythonFloatRepr(value);
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonStrRepr(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

/** Python's whitespace (`str.isspace()`): JS `\s` without the BOM, plus \x1c-\x1f and \x85. */
const PY_SPACE = '[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_SPACE_CHAR = new RegExp(`^${PY_SPACE}$`);

/**
 * Python's `str.strip()`, by a scan from each end: the regular expression `\s+$` retries at
 * every blank of an inner run (40,000 blanks between two letters took 9 s).
 */
export function pythonStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE_CHAR.test(s[start])) start++;
  while (end > start && PY_SPACE_CHAR.test(s[end - 1])) end--;
  return s.slice(start, end);
}

const PY_FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const PY_FLOAT_SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python's `float(str)`: surrounding whitespace, `_` between digits, `inf`/`infinity`/`nan`
 * in any case. Returns null where Python raises ValueError. (ASCII digits only.)
 */
export function pythonFloat(text: string): number | null {
  const s = pythonStrip(text);
  const special = PY_FLOAT_SPECIAL_RE.exec(s);
  if (special) {
    if (special[2].toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!PY_FLOAT_RE.test(s)) return null;
  return Number(s.replace(/_/g, ''));
}

/** Code points, as Python's `len()` counts them. */
export function pythonLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
