/**
 * `json.dumps(value, sort_keys=True)` as Python writes it: what Baserow hashes and signs of a
 * manifest. Separators `", "` and `": "`, keys sorted by code point, every character outside
 * printable ASCII escaped as `\uXXXX` (lower-case hex, surrogate pairs beyond the BMP).
 * Numbers are integers in a manifest; a non-integer is written as JavaScript writes it.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
  }
  return 'null';
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function pythonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (SHORT[ch]) out += SHORT[ch];
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    // UTF-16 code units are what Python's ensure_ascii writes (a pair for characters beyond the BMP).
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}
