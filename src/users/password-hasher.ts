import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/**
 * argon2id for a user's or a shared view's password at OWASP's recommended parameters (19 MiB,
 * 2 passes, 1 lane): about 30 ms a hash here, where argon2's default (64 MiB, 3 passes, 4
 * lanes) took 120 ms of every sign-up, sign-in and password change.
 */
const LOGIN_COST = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id for the password of a cell (password fields): a value a table holds, set by the
 * hundred in batches and imports, never the key to an account. 8 MiB over 2 passes on one
 * lane costs a few milliseconds (argon2's default cost a quarter of a second under load: 200
 * cells took over a minute), and still makes a leaked hash slow to guess.
 */
const CELL_COST = { type: argon2.argon2id, memoryCost: 8 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * Passwords are hashed with argon2id, on libuv's thread pool (never the event loop). A hash
 * names its own parameters, so `verify` checks hashes of any cost.
 */
@Injectable()
export class PasswordHasher {
  /** A user's or a shared view's password (see LOGIN_COST). */
  hash(password: string): Promise<string> {
    return argon2.hash(password, LOGIN_COST);
  }

  /** The password of a cell (see CELL_COST). */
  hashCell(password: string): Promise<string> {
    return argon2.hash(password, CELL_COST);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
