/**
 * SQL functions PostgreSQL has built in and SQLite lacks, written in JavaScript and added to
 * every SQLite connection (better-sqlite3's `function`), so SQL built for both databases can
 * call them by one name. Each must be deterministic and answer NULL for NULL input, as
 * PostgreSQL's built-ins do. Add a function here, with its PostgreSQL twin noted.
 */
export type SqliteFunction = (...args: any[]) => unknown;

export const SQLITE_FUNCTIONS: Record<string, { fn: SqliteFunction; deterministic?: boolean; varargs?: boolean }> = {
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
  // PostgreSQL's upper/lower case every letter (SQLite's only ASCII ones).
  upper: { fn: (text: unknown) => (text == null || Buffer.isBuffer(text) ? text : String(text).toUpperCase()) },
  lower: { fn: (text: unknown) => (text == null || Buffer.isBuffer(text) ? text : String(text).toLowerCase()) },
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
