import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { AsyncSlot } from '../context/async-frame';
import { UnitOfWork } from './unit-of-work';
import { yieldTurn } from '../lifecycle/yield-turn';

/** `LONG_WRITE_CHUNK_ROWS` is the chunk of rows of up to this many fields. */
const CHUNK_FIELDS = 5;


/**
 * A long write (an import, a table created from data, a duplication, a template install) in
 * chunks: each chunk is a short transaction of its own, and between two chunks the writer is
 * free (SQLite's one connection is taken in turns, first come first served), so an interactive
 * write waits at most one chunk. The caller keeps the whole all or nothing: what it builds stays
 * hidden until its last chunk, or it undoes its committed chunks when it fails.
 */
@Injectable()
export class LongWrite {
  private readonly logger = new Logger(LongWrite.name);

  constructor(
    private readonly db: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Rows per chunk (`LONG_WRITE_CHUNK_ROWS`), for rows of up to five fields. */
  get chunkRows(): number {
    return this.config.longWriteChunkRows;
  }

  /** Rows per chunk of rows with this many fields: a chunk's time grows with its cells, so wider rows come fewer at a time. */
  rowsPerChunk(fields: number): number {
    return Math.max(1, Math.floor((this.config.longWriteChunkRows * CHUNK_FIELDS) / Math.max(CHUNK_FIELDS, fields)));
  }

  /** Whether the caller may write in chunks: not inside a transaction of its own caller's, which must stay one. */
  get chunked(): boolean {
    return !this.db.inTransaction;
  }

  /**
   * One chunk in its own transaction, then a turn for others. `hidden`: what it builds is not
   * visible yet, so the events it records are dropped (the last chunk records the real ones).
   */
  async chunk<T>(work: () => Promise<T>, options: { hidden?: boolean } = {}): Promise<T> {
    if (this.db.inTransaction) return work();
    const start = performance.now();
    const result = await this.db.run(work, { dropEvents: options.hidden });
    // How long the chunk held the writer (tune LONG_WRITE_CHUNK_ROWS by it: it is what an interactive write may wait).
    this.logger.debug(`chunk of a long write: ${Math.round(performance.now() - start)} ms`);
    await yieldTurn();
    return result;
  }
}

interface Building {
  tables: Set<number>;
  applications: Set<number>;
}

/**
 * What the long write of the current async context builds hidden: its own work may reach those
 * tables and applications (a link field checks the table it links), no one else's does.
 */
export class HiddenBuilds {
  private static readonly scope = new AsyncSlot<Building>('building');

  /** Runs `work` in a scope of its own, or in the caller's. */
  static run<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.get()) return work();
    return this.scope.run({ tables: new Set(), applications: new Set() }, work);
  }

  static addTable(id: number): void {
    this.scope.get()?.tables.add(id);
  }

  static addApplication(id: number): void {
    this.scope.get()?.applications.add(id);
  }

  /** Whether the caller builds something hidden (what it reads then is not for caches). */
  static get active(): boolean {
    const store = this.scope.get();
    return !!store && (store.tables.size > 0 || store.applications.size > 0);
  }

  /** Ids of the hidden tables the caller builds ([0] when none: an IN list is never empty). */
  static tables(): number[] {
    const ids = [...(this.scope.get()?.tables ?? [])];
    return ids.length ? ids : [0];
  }

  static applications(): number[] {
    const ids = [...(this.scope.get()?.applications ?? [])];
    return ids.length ? ids : [0];
  }
}
