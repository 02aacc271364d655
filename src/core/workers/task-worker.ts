import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors/api-error';

/**
 * One thread of the worker pool (see worker-pool.ts): runs one task at a time, a function a
 * module of the app exports, required by path on first use. A task answering a generator
 * (sync or async) streams: each item is posted on its own, the next one only once the pool
 * asks for it, so the main thread deserialises one item per turn of its event loop.
 */

export type TaskRequest = { type: 'call'; id: number; file: string; name: string; args: unknown[] } | { type: 'next'; id: number };

export interface SerializedError {
  name: string;
  message: string;
  /** An ApiError's code, status and detail: the main thread throws the same error. */
  api?: { code: string; status: number; detail: unknown };
}

export type TaskAnswer =
  | { id: number; value: unknown }
  | { id: number; item: unknown }
  | { id: number; done: true }
  | { id: number; error: SerializedError };

const port = parentPort!;
/** Streams waiting for the pool to ask for their next item. */
const pulls = new Map<number, () => void>();

function serialize(error: unknown): SerializedError {
  if (error instanceof ApiError) return { name: 'ApiError', message: error.message, api: { code: error.code, status: error.status, detail: error.detail } };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

function isGenerator(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  if (!value || typeof value !== 'object' || typeof (value as { next?: unknown }).next !== 'function') return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

async function run({ id, file, name, args }: Extract<TaskRequest, { type: 'call' }>): Promise<void> {
  try {
     
    const task = (require(file) as Record<string, unknown>)[name];
    if (typeof task !== 'function') throw new Error(`${file} exports no function ${name}.`);
    const result: unknown = await (task as (...a: unknown[]) => unknown)(...args);
    if (!isGenerator(result)) {
      port.postMessage({ id, value: result } satisfies TaskAnswer);
      return;
    }
    for await (const item of result) {
      const pulled = new Promise<void>((resolve) => pulls.set(id, resolve));
      port.postMessage({ id, item } satisfies TaskAnswer);
      await pulled;
    }
    port.postMessage({ id, done: true } satisfies TaskAnswer);
  } catch (error) {
    port.postMessage({ id, error: serialize(error) } satisfies TaskAnswer);
  } finally {
    pulls.delete(id);
  }
}

port.on('message', (message: TaskRequest) => {
  if (message.type === 'next') pulls.get(message.id)?.();
  else void run(message);
});

port.postMessage({ ready: true });
