import { INT32_MAX } from '../../core/validation/ids';

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
const WORD_CHARS = '\\p{L}\\p{M}\\p{N}';
/** What Baserow turns into spaces: non-word characters, and `-`/`.` unless after a space (or the start) and before a digit. */
const SEPARATORS = new RegExp(`[^${WORD_CHARS}\\s.\\-]|[.\\-](?!\\p{Nd})|(?<=\\S)[.\\-]`, 'gu');
/** A signed number's sign and digits, or a word. */
const TOKEN = new RegExp(`-\\p{Nd}+|[${WORD_CHARS}]+`, 'gu');

/** PostgreSQL's longest lexeme, in bytes (`MAXSTRLEN`). */
export const MAX_WORD_BYTES = 2047;
/** PostgreSQL's last word position in a tsvector (`MAXENTRYPOS - 1`): later words all stand there. */
export const MAX_POSITION = 16383;
/** The distinct words of one cell, in bytes, below PostgreSQL's limit of a tsvector (1 MB); the rest of a longer cell is not indexed. */
export const MAX_CELL_WORD_BYTES = 1_000_000;

/** The words of a text, in order (repeated words repeated). */
export function searchWords(text: string): string[] {
  // Final sigma as sigma: JavaScript lower-cases a word-final Σ to ς, PostgreSQL always to σ.
  const cleaned = text.normalize('NFC').toLowerCase().replace(/ς/g, 'σ').replace(SEPARATORS, ' ');
  const words: string[] = [];
  for (const match of cleaned.matchAll(TOKEN)) {
    const word = match[0];
    if (word.length * 3 > MAX_WORD_BYTES && Buffer.byteLength(word) > MAX_WORD_BYTES) continue;
    words.push(word);
  }
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

/** The numeric value of a decimal digit of any script (they come in runs of ten, 0 first). */
function digitValue(char: string): number {
  const code = char.codePointAt(0)!;
  let start = code;
  while (start > 0 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
  return (code - start) % 10;
}

/**
 * The row id a search also matches (Baserow's `add_exact_id_search`): the stripped term read
 * as Python's `int()` reads it (an optional sign, digits of any script, single `_` between
 * digits), unless it starts with `0` (`0006` is not row 6). Null when it names no row.
 */
export function exactRowId(term: string): number | null {
  const stripped = term.trim();
  if (stripped === '' || stripped.startsWith('0')) return null;
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(stripped);
  if (!match || match[1] === '-') return null;
  let value = 0;
  for (const char of match[2].replace(/_/g, '')) {
    value = value * 10 + digitValue(char);
    if (value > INT32_MAX) return null;
  }
  return value >= 1 ? value : null;
}
