import { RE2JS } from 're2js';
import type { SqliteFunctions } from '../../../core/database/sqlite-functions';
import { FORMULA_ERROR_TEXT } from '../error-value';

/**
 * PostgreSQL's regular expression operator and functions, evaluated by RE2 (re2js): in time
 * linear in the text, whatever the pattern, so a hostile pattern (`(a+)+$`) cannot hold the
 * event loop as a backtracking engine (JavaScript's RegExp) would.
 */
export const REGEX_SQLITE_FUNCTIONS: SqliteFunctions = {
  // PostgreSQL: `text ~ pattern`.
  regexp: { fn: (pattern: string | null, text: string | null) => (pattern == null || text == null ? null : pgRegExp(String(pattern)).test(String(text)) ? 1 : 0) },
  // PostgreSQL: regexp_replace(source, pattern, replacement [, flags]), with PostgreSQL's pattern
  // syntax (translated, see pgRegExp) and replacement syntax (\1…\9, \& and \\). A fifth
  // argument (ours) bounds the result: when it could pass that many characters (the bound of
  // FormulaDialect.regexReplace) it is the formula error text, and the replacing stops there;
  // with it an invalid pattern is the error text too (PostgreSQL's twin: formula_regexp_replace).
  regexp_replace: { fn: regexpReplace, varargs: true },
};

/** PostgreSQL's POSIX character classes, as bracket contents (ASCII). */
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

/**
 * PostgreSQL's escapes RE2 lacks or reads otherwise, as RE2. `\m` (start of a word) and `\M`
 * (end of one) are a boundary with a word character after or before it: RE2 has no
 * lookahead, so both look behind (re2js's linear-time lookbehinds). In PostgreSQL `\b` is a
 * backspace, `\B` a backslash and `\Z` the very end of the text.
 */
const PG_ESCAPES: Record<string, string> = { m: '\\b(?<!\\w)', M: '\\b(?<=\\w)', y: '\\b', Y: '\\B', A: '\\A', Z: '\\z', b: '\\x08', B: '\\\\', e: '\\x1b' };
/** The same inside brackets, where only the character escapes apply. */
const PG_CLASS_ESCAPES: Record<string, string> = { b: '\\x08', B: '\\\\', e: '\\x1b' };

/** A compiled pattern, or why it is no valid pattern (thrown again for each use, as PostgreSQL fails each call). */
const regExpCache = new Map<string, RE2JS | Error>();

/**
 * A PostgreSQL regular expression (ARE) with its flags, compiled by RE2: POSIX classes
 * (`[[:alpha:]]`), `\m \M \y \Y \A \Z`, PostgreSQL's character escapes (`\b`, `\B`, `\e`,
 * `\uXXXX`, `\x…`), and `.` matching newlines (unless flag `n`); flags `g`, `i`, `n` (`c` is
 * the default). Throws, as PostgreSQL does, for an invalid pattern or flag.
 *
 * What RE2 cannot run in linear time is refused as an invalid pattern: back-references
 * (`(a)\1`) and lookahead (`(?=…)`, `(?!…)`); lookbehind without capturing groups works.
 * Classes (`\w`, `[[:alpha:]]`, `\m`) are ASCII, where PostgreSQL follows the database's
 * locale. Alternatives are leftmost-first (as Perl), where PostgreSQL's regular expressions
 * take the longest match in some patterns (`a|ab` on `ab`).
 */
export function pgRegExp(pattern: string, flags = ''): RE2JS {
  const key = `${flags}/${pattern}`;
  let cached = regExpCache.get(key);
  if (!cached) {
    try {
      cached = compile(pattern, flags);
    } catch (error) {
      cached = new Error(`invalid regular expression: ${(error as Error).message}`);
    }
    if (regExpCache.size > 500) regExpCache.clear();
    regExpCache.set(key, cached);
  }
  if (cached instanceof Error) throw cached;
  return cached;
}

function compile(pattern: string, flags: string): RE2JS {
  let re2 = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1];
      const hex = /^(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{1,8})/.exec(pattern.slice(i + 1, i + 10))?.[0];
      if (hex) {
        re2 += `\\x{${hex.slice(1)}}`;
        i += hex.length;
        continue;
      }
      re2 += (inClass ? PG_CLASS_ESCAPES : PG_ESCAPES)[next] ?? c + next;
      i++;
    } else if (inClass && pattern.startsWith('[:', i)) {
      const end = pattern.indexOf(':]', i + 2);
      const name = end < 0 ? '' : pattern.slice(i + 2, end);
      if (!(name in POSIX_CLASSES)) throw new Error(`invalid character class ${name}`);
      re2 += POSIX_CLASSES[name];
      i = end + 1;
    } else {
      if (c === '[' && !inClass) {
        inClass = true;
        re2 += c;
        // A `]` right after `[` or `[^` is a literal in PostgreSQL.
        if (pattern[i + 1] === '^') re2 += pattern[++i];
        if (pattern[i + 1] === ']') re2 += '\\' + pattern[++i];
        continue;
      }
      if (c === ']' && inClass) inClass = false;
      re2 += c;
    }
  }
  let re2Flags = 0;
  for (const flag of flags) {
    if (flag === 'i') re2Flags |= RE2JS.CASE_INSENSITIVE;
    else if (flag !== 'c' && flag !== 'n' && flag !== 'g') throw new Error(`invalid regular expression option: "${flag}"`);
  }
  re2Flags |= flags.includes('n') ? RE2JS.MULTILINE : RE2JS.DOTALL;
  // Lookbehinds make re2js leave its fastest engine: asked for only when the pattern has one.
  if (re2.includes('(?<=') || re2.includes('(?<!')) re2Flags |= RE2JS.LOOKBEHINDS;
  return RE2JS.compile(re2, re2Flags);
}

/** Thrown by the replacer to stop replacing once the result is past its bound. */
const TOO_LONG = Symbol('too long');

/** Length in characters (code points), as SQL's length() counts them. */
function charLength(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) surrogates++;
  }
  return text.length - surrogates;
}

function regexpReplace(...args: (string | number | null)[]): string | null {
  const [text, pattern, replacement, flags = '', maxLength = null] = args;
  if (text == null || pattern == null || replacement == null || flags == null) return null;
  const source = String(text);
  const flagText = String(flags);
  const bounded = maxLength != null;
  let regExp: RE2JS;
  try {
    regExp = pgRegExp(String(pattern), flagText);
  } catch (error) {
    // The formula's regex_replace (bounded) answers a pattern it cannot run as Baserow's try_regexp_replace: the error text.
    if (bounded) return FORMULA_ERROR_TEXT;
    throw error;
  }
  const template = String(replacement);
  const max = Number(maxLength);
  const textLength = bounded ? charLength(source) : 0;
  if (textLength > max) return FORMULA_ERROR_TEXT;
  // The rule of PostgreSQL's twin (FormulaDialect.regexReplace): the result's length, and its
  // bound (the text without its matches, the replacement for each match, the matches for each
  // backslash) within ten times it.
  const backslashes = template.split('\\').length - 1;
  let matches = 0;
  let matched = 0;
  let written = 0;
  let tail = 0;
  const replacer = (match: string, ...rest: unknown[]): string => {
    // The captures come before the match offset (the first number).
    const at = rest.findIndex((arg) => typeof arg === 'number');
    const groups = rest.slice(0, at) as (string | undefined)[];
    // PostgreSQL's replacement: \1…\9 a group, \& the match, \\ a backslash; anything else as written.
    const out = backslashes ? template.replace(/\\([1-9&\\])/g, (_, ref: string) => (ref === '&' ? match : ref === '\\' ? '\\' : (groups[Number(ref) - 1] ?? ''))) : template;
    if (bounded) {
      matches++;
      matched += charLength(match);
      // What is written so far: twice the bound in UTF-16 units is past it in characters, so past the bound too: stop.
      written += (rest[at] as number) - tail + out.length;
      tail = (rest[at] as number) + match.length;
      if (written > 2 * max) throw TOO_LONG;
    }
    return out;
  };
  try {
    const matcher = regExp.matcher(source);
    const result = flagText.includes('g') ? matcher.replaceAll(replacer) : matcher.replaceFirst(replacer);
    if (!bounded) return result;
    if (textLength - matched + matches * charLength(template) + backslashes * matched > 10 * max) return FORMULA_ERROR_TEXT;
    return charLength(result) > max ? FORMULA_ERROR_TEXT : result;
  } catch (error) {
    if (error === TOO_LONG) return FORMULA_ERROR_TEXT;
    throw error;
  }
}
