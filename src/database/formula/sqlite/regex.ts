import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

/** PostgreSQL's regular expression operator and functions. */
export const REGEX_SQLITE_FUNCTIONS: SqliteFunctions = {
  // PostgreSQL: `text ~ pattern` (here with JavaScript's regular expression syntax).
  regexp: { fn: (pattern: string | null, text: string | null) => (pattern == null || text == null ? null : new RegExp(pattern).test(text) ? 1 : 0) },
  // PostgreSQL: regexp_replace(source, pattern, replacement [, flags]), with PostgreSQL's pattern
  // syntax (translated, see pgRegExp) and replacement syntax (\1…\9, \& and \\).
  regexp_replace: { fn: regexpReplace, varargs: true },
};

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
