import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

/**
 * The sort key of a stored array cell (a lookup, an array formula), so SQLite orders arrays as
 * PostgreSQL orders its arrays: item by item, an empty item after any value, a shorter array
 * first when it is the start of a longer one. Its PostgreSQL twin is an `ARRAY(…)` of the items
 * (texts `COLLATE "C"`, i.e. by their bytes; see formula-dialect.ts `arraySortKey`). The key is
 * a BLOB compared byte by byte: per item a tag (1: a value, 2: empty), then the value: a text's
 * UTF-8 bytes (a zero byte escaped as 0x00 0xFF) ended by 0x00 0x00, a number's double in 8
 * order-preserving bytes, a boolean's one byte.
 */
export const ARRAY_SORT_SQLITE_FUNCTIONS: SqliteFunctions = {
  formula_array_sort_key: { fn: arraySortKey },
};

type Kind = 'text' | 'number' | 'boolean' | 'select';

function arraySortKey(json: unknown, kind: unknown): Buffer | null {
  if (json === null || json === undefined) return null;
  let items: unknown;
  try {
    items = JSON.parse(String(json));
  } catch {
    return null;
  }
  if (!Array.isArray(items)) return null;
  const parts: Buffer[] = [];
  for (const item of items) {
    const raw = item && typeof item === 'object' ? (item as { value?: unknown }).value : undefined;
    const encoded = encode(kind as Kind, raw);
    parts.push(encoded === null ? Buffer.from([2]) : Buffer.concat([Buffer.from([1]), encoded]));
  }
  return Buffer.concat(parts);
}

function encode(kind: Kind, raw: unknown): Buffer | null {
  if (raw === null || raw === undefined) return null;
  if (kind === 'number') {
    const n = typeof raw === 'number' ? raw : Number(raw);
    if (typeof raw === 'string' && raw.trim() === '') return null;
    return Number.isFinite(n) ? orderedDouble(n) : null;
  }
  if (kind === 'boolean') return Buffer.from([raw === true || raw === 'true' || raw === 1 ? 1 : 0]);
  const text = kind === 'select' ? (raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : null) : raw;
  if (text === null || text === undefined) return null;
  const bytes = Buffer.from(String(text), 'utf8');
  const escaped: number[] = [];
  for (const byte of bytes) escaped.push(...(byte === 0 ? [0, 0xff] : [byte]));
  return Buffer.from([...escaped, 0, 0]);
}

/** A double's 8 bytes, big-endian, with the sign bit flipped (negatives: every bit), so bytes compare as the numbers do. */
function orderedDouble(n: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeDoubleBE(n === 0 ? 0 : n);
  if (buffer[0] & 0x80) for (let i = 0; i < 8; i++) buffer[i] = ~buffer[i] & 0xff;
  else buffer[0] |= 0x80;
  return buffer;
}
