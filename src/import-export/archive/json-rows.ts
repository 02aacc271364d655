import { yieldTurn } from '../../core/lifecycle/yield-turn';
import { ArchiveRefused } from '../import-export.errors';

const SLICE = 1 << 21;
const ROW_BATCH = 2000;

/**
 * Parses an exported application's JSON (`{…, "tables": [{…, "rows": [{…}, …]}]}`) without one
 * long `JSON.parse` holding the event loop: a scan (in slices) finds each table's rows, the
 * rest is parsed at once (small), and the rows one batch at a time, yielding in between.
 * Anything that is not valid JSON refuses the archive.
 */
export async function parseApplicationJson(text: string, name: string): Promise<Record<string, unknown>> {
  const refuse = (): never => {
    throw new ArchiveRefused('invalid', `The file ${name} is not valid JSON.`);
  };
  const stack: number[] = [];
  const keys: (string | null)[] = [];
  const expectKey: boolean[] = [];
  /** Per table (by index in `tables`), the rows array's bounds and the spans of its rows. */
  const rowArrays: { table: number; open: number; close: number; spans: [number, number][] }[] = [];
  let tableIndex = -1;
  let current: (typeof rowArrays)[number] | null = null;
  let rowStart = -1;
  const OBJ = 123; // {
  const ARR = 91; // [
  for (let i = 0; i < text.length; i++) {
    if (i % SLICE === 0 && i) await yieldTurn();
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: skip to its end; in key position its text is the key.
      let j = i + 1;
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j);
        if (d === 92) j++;
        else if (d === 34) break;
      }
      if (j >= text.length) refuse();
      const level = stack.length - 1;
      if (level >= 0 && stack[level] === OBJ && expectKey[level]) {
        keys[level] = j - i < 64 ? (JSON.parse(text.slice(i, j + 1)) as string) : null;
        expectKey[level] = false;
      }
      i = j;
    } else if (c === OBJ || c === ARR) {
      const depth = stack.length;
      if (c === OBJ && depth === 2 && stack[0] === OBJ && keys[0] === 'tables' && stack[1] === ARR) tableIndex++;
      if (c === ARR && depth === 3 && keys[0] === 'tables' && stack[1] === ARR && keys[2] === 'rows') {
        current = { table: tableIndex, open: i, close: -1, spans: [] };
        rowArrays.push(current);
      }
      if (c === OBJ && current && depth === 4) rowStart = i;
      stack.push(c);
      keys.push(null);
      expectKey.push(c === OBJ);
    } else if (c === 125 || c === 93) {
      if (!stack.length || stack.pop() !== (c === 125 ? OBJ : ARR)) refuse();
      keys.pop();
      expectKey.pop();
      const depth = stack.length;
      if (c === 125 && current && depth === 4 && rowStart >= 0) {
        current.spans.push([rowStart, i + 1]);
        rowStart = -1;
      }
      if (c === 93 && current && depth === 3) {
        current.close = i;
        current = null;
      }
    } else if (c === 44) {
      const level = stack.length - 1;
      if (level >= 0 && stack[level] === OBJ) expectKey[level] = true;
    }
  }
  if (stack.length) refuse();
  // The document without its rows, parsed at once.
  let skeleton = '';
  let from = 0;
  for (const rows of rowArrays) {
    skeleton += text.slice(from, rows.open + 1);
    from = rows.close;
  }
  skeleton += text.slice(from);
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(skeleton) as Record<string, unknown>;
  } catch {
    return refuse();
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) refuse();
  const tables = document.tables as Record<string, unknown>[];
  for (const rows of rowArrays) {
    const parsed: unknown[] = [];
    for (let k = 0; k < rows.spans.length; k += ROW_BATCH) {
      for (const [start, end] of rows.spans.slice(k, k + ROW_BATCH)) {
        try {
          parsed.push(JSON.parse(text.slice(start, end)));
        } catch {
          refuse();
        }
      }
      await yieldTurn();
    }
    // A rows array holding more than objects is not what an export writes.
    const inside = text.slice(rows.open + 1, rows.close);
    if (!rows.spans.length && inside.trim() !== '') refuse();
    if (tables?.[rows.table] && typeof tables[rows.table] === 'object') tables[rows.table].rows = parsed;
  }
  return document;
}
