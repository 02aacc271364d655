import { Injectable } from '@nestjs/common';
import type * as Argon2 from 'argon2';
import { lazy } from '../core/lazy';

/** The native binding, loaded on the first hash or check rather than at start-up. */
const argon2 = lazy(() => require('argon2') as typeof Argon2);

/**
 * argon2id for a user's or a shared view's password at OWASP's recommended parameters (19 MiB,
 * 2 passes, 1 lane): about 30 ms a hash here, where argon2's default (64 MiB, 3 passes, 4
 * lanes) took 120 ms of every sign-up, sign-in and password change.
 */
const LOGIN_COST = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id for the password of a cell (password fields): a value a table holds, set by the
 * hundred in batches and imports, never the key to an account. 8 MiB over 2 passes on one
 * lane costs a few milliseconds (argon2's default cost a quarter of a second under load: 200
 * cells took over a minute), and still makes a leaked hash slow to guess.
 */
const CELL_COST = { memoryCost: 8 * 1024, timeCost: 2, parallelism: 1 } as const;

/** libuv's thread pool, where argon2 runs its hashes (UV_THREADPOOL_SIZE, 4 by default). */
const POOL_SIZE = Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4);

/**
 * At most `size` tasks at once, the others waiting in arrival order: a batch or an import of
 * thousands of password cells keeps at most one hash per pool thread in flight, so the pool's
 * queue never holds thousands of hashes ahead of a sign-in's, a file read or a DNS lookup.
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      // The slot passes to the next waiter as is (the count stays), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/** Cell hashes of every batch and import share the pool's threads (one process-wide bound). */
const CELL_SLOTS = new Slots(POOL_SIZE);

/**
 * Passwords are hashed with argon2id, on libuv's thread pool (never the event loop). A hash
 * names its own parameters, so `verify` checks hashes of any cost.
 */
@Injectable()
export class PasswordHasher {
  /** A user's or a shared view's password (see LOGIN_COST). */
  hash(password: string): Promise<string> {
    return argon2().hash(password, { ...LOGIN_COST, type: argon2().argon2id });
  }

  /** The password of a cell (see CELL_COST). */
  hashCell(password: string): Promise<string> {
    return CELL_SLOTS.run(() => argon2().hash(password, { ...CELL_COST, type: argon2().argon2id }));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2().verify(hash, password);
    } catch {
      return false;
    }
  }
}
