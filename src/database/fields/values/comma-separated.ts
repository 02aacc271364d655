/**
 * Baserow's comma-separated lists (`core/utils.py`), which are Python's csv module with `"`
 * quoting and `\` escaping: how a file or link cell is written as a string of names, and how
 * list cells are exported as text.
 */

/**
 * `split_comma_separated_string`: items split at commas, as written (not trimmed); `"…"`
 * quotes an item holding commas (`""` is a quote inside), `\` escapes the next character.
 */
export function splitCommaSeparated(text: string): string[] {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && i + 1 < text.length) {
      item += text[++i];
    } else if (quoted) {
      if (char === '"' && text[i + 1] === '"') item += text[++i];
      else if (char === '"') quoted = false;
      else item += char;
    } else if (char === ',') {
      items.push(item);
      item = '';
      started = false;
      continue;
    } else if (char === '"' && !started) {
      quoted = true;
    } else {
      item += char;
    }
    started = true;
  }
  items.push(item);
  return items;
}

/**
 * `list_to_comma_separated_string`: items joined by `,` (no space), an item holding a comma,
 * a quote or a line break quoted (its quotes doubled), `\` escaped as `\\`; the whole trimmed,
 * and a single empty item written `""`, as Python's csv writer and `str.strip()` do.
 */
export function joinCommaSeparated(items: readonly string[]): string {
  if (items.length === 1 && items[0] === '') return '""';
  return items
    .map((item) => {
      const escaped = item.replace(/\\/g, '\\\\').replace(/"/g, '""');
      return /[",\r\n]/.test(item) ? `"${escaped}"` : escaped;
    })
    .join(',')
    .trim();
}
