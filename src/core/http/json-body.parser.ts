/**
 * A large JSON request body parsed in a worker thread (see JsonBodyGuard): JSON.parse of a
 * 37 MB body (a million-row import) took 1.3–2.6 s of the event loop, and handing the parsed
 * value back in one message would cost as much again. The worker parses the body and answers
 * it in pieces: first the body with its large lists emptied (`head`), then those lists' items
 * a chunk at a time, each deserialised on the main thread in a turn of its own.
 *
 * Structured clone (not JSON text) carries the pieces, so the value is exactly what JSON.parse
 * gives (`1e400` stays Infinity, a `__proto__` key stays an own key).
 */

/** What the worker posts: the parse error, or the head then the items of its emptied lists. */
export type JsonBodyPiece =
  | { error: string }
  /** `lists`: the top-level keys (or `null`: the body itself) whose lists were emptied and follow in pieces. */
  | { head: unknown; lists: (string | null)[] }
  | { list: string | null; items: unknown[] }
  /** A body nested deeper than DEEPEST_CLONED, as its text: the main thread parses it itself. */
  | { text: string };

/**
 * Nesting that a structured clone carries back: deserialising recurses once per level, and
 * tens of thousands of levels (`[[[…]]]`, a rich text document) overflow the main thread's
 * stack, where JSON.parse copes.
 */
const DEEPEST_CLONED = 1_000;

/** Whether `value` nests deeper than `limit` levels (a walk with its own stack, stopping early). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** A list with more items than this is sent in pieces. */
const STREAM_MIN_ITEMS = 512;
/** A piece holds at most this many items, and about this many characters of text. */
const PIECE_ITEMS = 1_024;
const PIECE_CHARS = 64 * 1024;

/** A cheap size estimate of an item (strings by length, one level into lists and objects). */
function weight(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let sum = 2;
  if (Array.isArray(value)) {
    for (const item of value) sum += typeof item === 'string' ? item.length + 3 : 9;
  } else {
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      sum += key.length + 4 + (typeof item === 'string' ? item.length + 3 : 9);
    }
  }
  return sum;
}

function* pieces(list: string | null, items: unknown[]): Generator<JsonBodyPiece> {
  let start = 0;
  while (start < items.length) {
    let end = start;
    let chars = 0;
    while (end < items.length && end - start < PIECE_ITEMS && chars < PIECE_CHARS) chars += weight(items[end++]);
    yield { list, items: items.slice(start, end) };
    // What was sent is released as it goes (the worker's heap is bounded).
    items.fill(null, start, end);
    start = end;
  }
}

/** The worker task: parses the UTF-8 bytes of a body and answers it in pieces. */
export function* parseJsonBodyInPieces(bytes: Uint8Array): Generator<JsonBodyPiece> {
  let value: unknown;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  try {
    value = JSON.parse(text);
  } catch (error) {
    yield { error: (error as Error).message };
    return;
  }
  if (nestsDeeperThan(value, DEEPEST_CLONED)) {
    yield { text };
    return;
  }
  const big = (item: unknown): item is unknown[] => Array.isArray(item) && item.length > STREAM_MIN_ITEMS;
  if (big(value)) {
    yield { head: [], lists: [null] };
    yield* pieces(null, value);
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    yield { head: value, lists: [] };
    return;
  }
  const body = value as Record<string, unknown>;
  // An own `__proto__` key is left in the head (reading it back by name would give the prototype).
  const lists = Object.keys(body).filter((key) => key !== '__proto__' && big(body[key]));
  const head = { ...body };
  for (const key of lists) head[key] = [];
  yield { head, lists };
  for (const key of lists) yield* pieces(key, body[key] as unknown[]);
}

/** Puts the pieces back together on the main thread: the parsed body, or the parse error's message. */
export async function assembleJsonBody(source: AsyncIterable<JsonBodyPiece>): Promise<{ value: unknown } | { error: string }> {
  let head: unknown = undefined;
  for await (const piece of source) {
    if ('error' in piece) return { error: piece.error };
    // Parsed already in the worker, so it parses.
    if ('text' in piece) return { value: JSON.parse(piece.text) as unknown };
    if ('head' in piece) {
      head = piece.head;
      continue;
    }
    const target = (piece.list === null ? head : (head as Record<string, unknown>)[piece.list]) as unknown[];
    // One item at a time, not a spread (a piece of thousands of arguments).
    for (const item of piece.items) target.push(item);
  }
  return { value: head };
}
