import { INT32_MAX } from '../../core/validation/ids';
import { pythonInt } from '../../core/validation/python-int';

/**
 * How full-text search (`search_mode=full-text-with-count`) reads text, the same on both
 * databases and for cells and search terms alike: Baserow's rules (`search/regexes.py` and
 * PostgreSQL's `simple` text search configuration after them), computed here so that neither
 * database's own parser (PostgreSQL's depends on its locale, SQLite's on its Unicode tables)
 * decides what a word is.
 *
 * - Text is NFC-normalised and lower-cased (ς as σ).
 * - Words are runs of letters, marks and digits of any script. Every other character separates
 *   words: punctuation, symbols, `_`, spaces, and `-` and `.`, except that a `-` at the start of
 *   the text or after a space and before a digit is the sign of a number (`-50` is one word,
 *   `10-20-2023` three, `5.234` two: `5` and `234`). After the sign only the digits belong to
 *   the number (`-5a` is `-5` and `a`, as PostgreSQL reads it).
 * - A search matches the cells holding its words in a row, the last one as a prefix
 *   (`Peter Ev` finds `peter evans`; `y` does not find `xyz`).
 * - Words longer than 2047 bytes are left out (PostgreSQL does not index them).
 */
/** PostgreSQL's longest lexeme, in bytes (`MAXSTRLEN`). */
export const MAX_WORD_BYTES = 2047;
/** PostgreSQL's last word position in a tsvector (`MAXENTRYPOS - 1`): later words all stand there. */
export const MAX_POSITION = 16383;
/** The distinct words of one cell, in bytes, below PostgreSQL's limit of a tsvector (1 MB); the rest of a longer cell is not indexed. */
export const MAX_CELL_WORD_BYTES = 1_000_000;

const OTHER = 0;
const WORD = 1;
const DIGIT = 2;
const SPACE = 3;
const DASH = 4;
const NON_ASCII = /[\u0080-\uffff]/;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const DECIMAL_DIGIT = /\p{Nd}/u;
const WHITESPACE = /\s/u;
/** The class of each ASCII character. */
const ASCII = new Uint8Array(128).map((_, code) => {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return WORD;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 45) return DASH;
  return code === 32 || (code >= 9 && code <= 13) ? SPACE : OTHER;
});

/** A character's class: a letter, mark or number (a decimal digit apart), a space, `-`, or anything else. */
function classAt(s: string, i: number): { kind: number; size: number } {
  if (i >= s.length) return { kind: OTHER, size: 1 };
  const code = s.charCodeAt(i);
  if (code < 128) return { kind: ASCII[code], size: 1 };
  const point = s.codePointAt(i)!;
  const char = String.fromCodePoint(point);
  const kind = DECIMAL_DIGIT.test(char) ? DIGIT : WORD_CHAR.test(char) ? WORD : WHITESPACE.test(char) ? SPACE : OTHER;
  return { kind, size: char.length };
}

/**
 * The words of a text, in order (repeated words repeated). One pass over the characters,
 * with Baserow's regular expressions' meaning: a `-` is the sign of a number when the
 * character before it is a space (or it starts the text) and a decimal digit follows it;
 * every other `-`, and every `.`, separates words.
 */
export function searchWords(text: string): string[] {
  // Final sigma as sigma: JavaScript lower-cases a word-final Σ to ς, PostgreSQL always to σ.
  const ascii = !NON_ASCII.test(text);
  const s = ascii ? text.toLowerCase() : text.normalize('NFC').toLowerCase().replace(/ς/g, 'σ');
  const words: string[] = [];
  const push = (from: number, to: number) => {
    const word = s.slice(from, to);
    if ((to - from) * 3 > MAX_WORD_BYTES && Buffer.byteLength(word) > MAX_WORD_BYTES) return;
    words.push(word);
  };
  let start = -1;
  let previous = SPACE;
  for (let i = 0; i < s.length; ) {
    let kind: number;
    let size = 1;
    const code = s.charCodeAt(i);
    if (code < 128) kind = ASCII[code];
    else ({ kind, size } = classAt(s, i));
    if (kind === WORD || kind === DIGIT) {
      if (start < 0) start = i;
    } else {
      if (start >= 0) {
        push(start, i);
        start = -1;
      }
      if (kind === DASH && previous === SPACE) {
        let end = i + 1;
        for (let next = classAt(s, end); next.kind === DIGIT; next = classAt(s, end)) end += next.size;
        if (end > i + 1) {
          push(i, end);
          previous = DIGIT;
          i = end;
          continue;
        }
      }
    }
    previous = kind;
    i += size;
  }
  if (start >= 0) push(start, s.length);
  return words;
}

/**
 * A cell's words as the index keeps them: the first MAX_POSITION with their positions
 * (phrases match there), then the other distinct words without (found alone, not in a
 * phrase: PostgreSQL gives them all the last position). Stops at MAX_CELL_WORD_BYTES of
 * distinct words.
 */
export interface CellWords {
  positioned: string[];
  rest: string[];
}

export function cellWords(text: string): CellWords {
  const words = searchWords(text);
  // Most cells: far below both limits (a word's bytes are at most 3 per UTF-16 unit).
  if (words.length <= MAX_POSITION && text.length * 3 <= MAX_CELL_WORD_BYTES) return { positioned: words, rest: [] };
  const seen = new Set<string>();
  let bytes = 0;
  const positioned: string[] = [];
  const rest: string[] = [];
  for (const word of words) {
    if (!seen.has(word)) {
      bytes += Buffer.byteLength(word);
      if (bytes > MAX_CELL_WORD_BYTES) break;
      seen.add(word);
      if (positioned.length >= MAX_POSITION) rest.push(word);
    }
    if (positioned.length < MAX_POSITION) positioned.push(word);
  }
  return { positioned, rest };
}

/**
 * The row id a search also matches (Baserow's `add_exact_id_search`): the stripped term read
 * as Python's `int()` reads it, unless it starts with `0` (`0006` is not row 6). Null when it
 * names no row.
 */
export function exactRowId(term: string): number | null {
  const stripped = term.trim();
  if (stripped.startsWith('0')) return null;
  const value = pythonInt(stripped);
  return value !== null && value >= 1 && value <= INT32_MAX ? value : null;
}
