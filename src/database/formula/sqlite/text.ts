import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

/** PostgreSQL's text functions SQLite lacks (their PostgreSQL twins named by each). */
export const TEXT_SQLITE_FUNCTIONS: SqliteFunctions = {
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
};

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
