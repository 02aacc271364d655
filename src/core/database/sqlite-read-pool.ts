import type { Worker } from 'node:worker_threads';
import { QueryFailedError } from 'typeorm';
import type { ReadAnswer, ReadRequest } from './sqlite-read-worker';
import { moduleFile, spawnWorker } from '../workers/spawn-worker';

/** The worker's file next to this one (`.js` when compiled, `.ts` under ts-node and jest). */
const WORKER_FILE = moduleFile(__dirname, 'sqlite-read-worker');

/**
 * A read whose last run took less than this is quick: it runs on the main connection when that
 * holds no open transaction (a worker's round trip would cost more), else it may use the worker
 * kept for quick reads.
 */
const FAST_READ_MS = 3;
/** How many statements' last durations are remembered. */
const DURATIONS_KEPT = 500;

interface Job {
  sql: string;
  /** The statement as its duration is remembered (see statementKey). */
  key: string;
  params: unknown[];
  resolve(rows: Record<string, unknown>[]): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: (Job & { id: number; quick: boolean }) | null;
}

/**
 * Worker threads that read the SQLite database, each with its own read-only connection to the
 * file (WAL lets them read while the main connection writes), so a long scan runs off the
 * event loop: other requests, writes and socket messages go on meanwhile. Reads queue for the
 * next free worker (of two or more, one is kept for quick reads); workers start on first use,
 * one more whenever all are busy, up to `size`. Rows come back as the main connection's driver
 * answers them (objects keyed by column name).
 */
export class SqliteReadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly durations = new Map<string, number>();
  private nextId = 1;
  private served = 0;
  private closed = false;
  /** Set when workers cannot start (a read-only connection refused, say): reads then fail with it. */
  private broken: Error | null = null;

  constructor(
    private readonly path: string,
    readonly size: number,
    /** The files of SQL functions each worker adds to its connection, as the main connection has them. */
    private readonly functions: readonly string[] = [],
  ) {}

  /** Workers started, reading now; reads waiting for one, answered so far. */
  get stats(): { workers: number; busy: number; queued: number; served: number } {
    return { workers: this.slots.length, busy: this.slots.filter((slot) => slot.job).length, queued: this.queue.length, served: this.served };
  }

  /**
   * Whether a worker is ready to read. When none has started, the first one starts now: until
   * it is ready (a start takes tens of milliseconds, more on a busy machine), reads run on the
   * main connection, waiting for an open transaction to end rather than for the worker.
   */
  ready(): boolean {
    if (this.slots.some((slot) => slot.ready)) return true;
    if (!this.slots.length && !this.closed && !this.broken) this.spawn();
    return false;
  }

  /**
   * Whether a read of `sql` is better run on the main connection (when that holds no open
   * transaction): it ran quickly the last time, so a worker would only add its round trip (and
   * might be busy with a long scan).
   */
  betterOnMain(sql: string): boolean {
    return this.knownQuick(statementKey(sql));
  }

  /** Remembers how long a read took on the main connection (one that became slow goes to the workers next time). */
  ranOnMain(sql: string, ms: number): void {
    this.remember(statementKey(sql), ms);
  }

  /** Starts every worker now (tests and benchmarks that want them warm); resolves once they are ready. */
  async start(): Promise<void> {
    while (this.slots.length < this.size) this.spawn();
    await Promise.all(this.slots.map((slot) => (slot.ready ? undefined : new Promise<void>((resolve) => slot.worker.once('message', () => resolve())))));
  }

  /** Whether workers could not start: reads are better run on the main connection. */
  get failed(): boolean {
    return this.broken !== null;
  }

  query(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    if (this.closed) return Promise.reject(new Error('The SQLite read pool is closed.'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ sql, key: statementKey(sql), params, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops the workers; reads still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The SQLite read pool is closed.'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /**
   * Starts queued reads on free workers. Reads that were slow the last time (long scans) use
   * all workers but one, which is kept for quick reads (a small page, a metadata read while a
   * transaction is open, a read not seen yet), so they do not wait behind long scans.
   */
  private dispatch(): void {
    const lanes = Math.max(1, this.size - 1);
    for (let i = 0; i < this.queue.length; ) {
      const quick = this.quick(this.queue[i].key);
      if (!quick && this.slots.filter((s) => s.job && !s.job.quick).length >= lanes) {
        i++;
        continue;
      }
      const slot = this.slots.find((s) => s.ready && !s.job);
      if (!slot) {
        if (this.slots.length < this.size && !this.slots.some((s) => !s.ready)) this.spawn();
        return;
      }
      const job = { ...this.queue.splice(i, 1)[0], id: this.nextId++, quick };
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, sql: job.sql, params: job.params } satisfies ReadRequest);
    }
  }

  /** Whether a read may take the worker kept for quick reads: it was quick last time, or has not run yet. */
  private quick(key: string): boolean {
    const ms = this.durations.get(key);
    return ms === undefined || ms < FAST_READ_MS;
  }

  /** Whether a read was quick the last time it ran (an unknown one might scan for long). */
  private knownQuick(key: string): boolean {
    const ms = this.durations.get(key);
    return ms !== undefined && ms < FAST_READ_MS;
  }

  private spawn(): void {
    // A worker's young generation kept small: its rows are garbage as soon as they are posted,
    // and V8's default lets each worker grow by tens of megabytes before collecting them.
    const worker = spawnWorker(WORKER_FILE, { path: this.path, functions: this.functions }, { maxYoungGenerationSizeMb: 8 });
    const slot: Slot = { worker, ready: false, job: null };
    this.slots.push(slot);
    worker.on('message', (message: ReadAnswer | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        // Starting, or reading, a worker keeps the process alive; an idle one does not.
        worker.unref();
      } else this.answer(slot, message);
      this.dispatch();
    });
    worker.on('error', (error) => this.lose(slot, error));
    worker.on('exit', () => this.lose(slot, new Error('A SQLite read worker stopped.')));
  }

  private answer(slot: Slot, message: ReadAnswer): void {
    const job = slot.job;
    slot.job = null;
    slot.worker.unref();
    if (!job || job.id !== message.id) return;
    this.served += 1;
    this.remember(job.key, message.ms);
    if ('error' in message) {
      job.reject(new QueryFailedError(job.sql, job.params, Object.assign(new Error(message.error.message), { code: message.error.code })));
      return;
    }
    const rows = 'json' in message ? (JSON.parse(message.json) as unknown[][]) : message.rows.map((row) => row.map(fromClone));
    const { columns } = message;
    job.resolve(
      rows.map((row) => {
        const object: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) object[columns[i]] = row[i];
        return object;
      }),
    );
  }

  /** A worker that failed or stopped: its read fails, the others go on, and a new one may start. */
  private lose(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.job?.reject(error);
    slot.job = null;
    if (this.closed) return;
    if (!slot.ready && !this.slots.some((s) => s.ready)) {
      // Not one worker has started: stop trying, and fail what waits (callers read on the main connection).
      this.broken = Object.assign(new Error(`SQLite read workers cannot start: ${error.message}`), { cause: error });
      for (const job of this.queue.splice(0)) job.reject(this.broken);
      return;
    }
    this.dispatch();
  }

  private remember(key: string, ms: number): void {
    this.durations.delete(key);
    this.durations.set(key, ms);
    if (this.durations.size > DURATIONS_KEPT) this.durations.delete(this.durations.keys().next().value!);
  }
}

/** A statement as its duration is remembered: the pages of one list (LIMIT and OFFSET written in the text) take alike. */
function statementKey(sql: string): string {
  return sql.replace(/\b(LIMIT|OFFSET) \d+/g, '$1 ?');
}

/** A blob arrives as a Uint8Array (structured clone): the driver answers a Buffer. */
function fromClone(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}
