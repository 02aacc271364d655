import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The values an async context carries (who acts, the open transaction, the SQLite turn, the hidden
 * build...), in ONE AsyncLocalStorage rather than one each: on Node 20 every promise created
 * copies the store of every enabled AsyncLocalStorage, so each store costs every promise.
 *
 * A frame is immutable: setting a slot makes a copy of the caller's frame with that slot changed,
 * so a slot behaves exactly as an AsyncLocalStorage of its own would (`run`, `exit`, `enterWith`
 * change that slot only, for the same stretch of code).
 */
type Frame = Readonly<Record<symbol, unknown>>;

const storage = new AsyncLocalStorage<Frame>();
const EMPTY: Frame = Object.freeze({});

function framed(key: symbol, value: unknown): Frame {
  const frame: Record<symbol, unknown> = { ...(storage.getStore() ?? EMPTY) };
  frame[key] = value;
  return frame;
}

/** One value of the async context, as an AsyncLocalStorage of its own would hold it. */
export class AsyncSlot<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  /** The value of the caller's async context (undefined outside `run`). */
  get(): T | undefined {
    return storage.getStore()?.[this.key] as T | undefined;
  }

  /** Runs `fn` (and what it starts) with this slot set to `value`, the other slots as they are. */
  run<R>(value: T, fn: () => R): R {
    return storage.run(framed(this.key, value), fn);
  }

  /** Runs `fn` (and what it starts) with this slot unset, the other slots as they are. */
  exit<R>(fn: () => R): R {
    if (this.get() === undefined) return fn();
    return storage.run(framed(this.key, undefined), fn);
  }

  /** Sets the slot for the rest of the caller's synchronous run and what it starts from here on. */
  enterWith(value: T): void {
    storage.enterWith(framed(this.key, value));
  }
}
