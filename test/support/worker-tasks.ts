import { ApiError } from '../../src/core/errors/api-error';

/* Tasks the worker pool's tests run in worker threads. */

export function add(a: number, b: number): number {
  return a + b;
}

/** Busy for `ms` milliseconds (a task overrunning a shorter time budget). */
export function spin(ms: number): number {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n;
}

/** Holds `mb` megabytes of arrays on the heap (a task overrunning a smaller memory budget). */
export function allocate(mb: number): number {
  const kept: number[][] = [];
  // 131,072 doubles are a megabyte.
  for (let i = 0; i < mb; i++) kept.push(new Array<number>(131_072).fill(i + 0.5));
  return kept.length;
}

export function refuse(): never {
  throw new ApiError('ERROR_TEST_REFUSED', 418, { why: 'because' });
}

export async function* count(n: number): AsyncGenerator<number> {
  for (let i = 0; i < n; i++) yield i;
}
