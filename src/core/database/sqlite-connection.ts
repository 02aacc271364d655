import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { AsyncSlot } from '../context/async-frame';
import type { SqliteReadPool } from './sqlite-read-pool';

/** A FIFO lock: SQLite has one connection, so concurrent transactions must wait their turn. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Callers holding or waiting for the lock. */
  queued = 0;

  /** Resolves once the caller holds the lock, with the function that lets it go (once). */
  async acquire(): Promise<() => void> {
    this.queued += 1;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.queued -= 1;
      release();
    };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** One holder's use of the connection: a unit of work's transaction, one TypeORM opened itself, or a single write. */
class Turn {
  /** A transaction TypeORM began itself (a save() outside a unit of work): it ends with its commit or rollback. */
  constructor(readonly ownTransaction = false) {}
}

/** The better-sqlite3 connection under TypeORM's runner (its `inTransaction` is the truth the runner's flags follow). */
interface RawConnection {
  inTransaction: boolean;
  prepare(sql: string): { reader: boolean; readonly: boolean };
}

/** TypeORM's runner with what this class reads and writes of it (its flags are public in the JavaScript). */
type Runner = Omit<QueryRunner, 'query' | 'isTransactionActive'> & {
  query(sql: string, params?: unknown[], structured?: boolean): Promise<unknown>;
  isTransactionActive: boolean;
  transactionDepth: number;
};

/** How many statements' kind (read or not) is remembered. */
const KINDS_KEPT = 1000;

/**
 * SQLite's one connection, shared by every request, taken in turns: a unit of work's
 * transaction holds it from BEGIN to COMMIT, and every other write made meanwhile (a
 * repository save() outside a unit of work, a job's bookkeeping) waits for the turn to end
 * rather than slip into that transaction and share its fate. TypeORM's runner is wrapped so
 * that this holds whichever way a write reaches the connection.
 *
 * Reads outside a transaction see what is committed, as on PostgreSQL: on the connection when
 * no turn is open (it then holds nothing uncommitted), else on a read worker (`pool`), whose
 * own connection sees the last commit. Without workers they run on the connection at once,
 * seeing what an open transaction has written so far.
 */
export class SqliteConnection {
  private readonly logger = new Logger('SqliteConnection');
  private readonly turns = new Mutex();
  private readonly holder = new AsyncSlot<Turn>('turn');
  private current: Turn | null = null;
  private endCurrent: (() => void) | null = null;
  private readonly runner: Runner;
  private readonly original: Pick<Runner, 'query' | 'startTransaction' | 'commitTransaction' | 'rollbackTransaction'>;
  private readonly kinds = new Map<string, boolean>();

  constructor(
    private readonly dataSource: DataSource,
    readonly pool: SqliteReadPool | null,
    /** Told of every statement a read worker runs (the main connection's are seen by `WriteVersions`). */
    private readonly observe: (sql: string) => void = () => undefined,
  ) {
    this.runner = dataSource.createQueryRunner() as unknown as Runner;
    const runner = this.runner;
    this.original = {
      query: runner.query.bind(runner),
      startTransaction: runner.startTransaction.bind(runner),
      commitTransaction: runner.commitTransaction.bind(runner),
      rollbackTransaction: runner.rollbackTransaction.bind(runner),
    };
    let active = runner.isTransactionActive;
    // Who does not hold the turn sees no transaction: a save() then begins its own, which waits.
    Object.defineProperty(runner, 'isTransactionActive', {
      configurable: true,
      get: () => (this.holds() ? active : false),
      set: (value: boolean) => (active = value),
    });
    // A transaction begun through the data source outside a unit of work holds a turn of its own.
    const manager = dataSource.manager;
    const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
    manager.transaction = ((...args: unknown[]) => (this.holds() ? transaction(...args) : this.exclusively(() => transaction(...args)))) as EntityManager['transaction'];
    runner.query = (sql: string, params?: unknown[], structured?: boolean) => this.query(sql, params ?? [], structured ?? false);
    runner.startTransaction = (level?: Parameters<QueryRunner['startTransaction']>[0]) => this.startTransaction(level);
    runner.commitTransaction = () => this.endTransaction(this.original.commitTransaction);
    runner.rollbackTransaction = () => this.endTransaction(this.original.rollbackTransaction);
  }

  /** Callers holding or waiting for the connection (the metrics' pool figures). */
  get queued(): number {
    return this.turns.queued;
  }

  /** Runs `work` in a transaction, holding the connection until it ends (nested calls share the caller's). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.exclusively(() => this.dataSource.transaction(work));
  }

  /** Runs `work` apart from the caller's turn: its writes wait until the turn has ended. */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.holder.exit(work);
  }

  /**
   * A read outside any transaction (a page of rows, its count, aggregations, an export): on a
   * read worker, so a long scan leaves the event loop free. A read that ran quickly the last
   * time runs on the connection instead when that holds no open transaction (as do all reads
   * while the workers are starting): a worker's round trip would cost it more than it saves.
   */
  async read(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const pool = this.pool;
    if (pool && !pool.failed && pool.ready() && (this.current || !pool.betterOnMain(sql))) {
      try {
        this.observe(sql);
        return await pool.query(sql, params);
      } catch (error) {
        if (!pool.failed) throw error;
      }
    }
    const start = performance.now();
    const rows = (await this.query(sql, params, false)) as Record<string, unknown>[];
    pool?.ranOnMain(sql, performance.now() - start);
    return rows;
  }

  /** Stops the read workers. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  /** Whether the caller's async context holds the connection's current turn. */
  private holds(): boolean {
    const turn = this.holder.get();
    return turn !== undefined && turn === this.current;
  }

  private async take(turn: Turn): Promise<void> {
    const release = await this.turns.acquire();
    this.current = turn;
    this.endCurrent = () => {
      this.settle();
      this.current = null;
      this.endCurrent = null;
      release();
    };
  }

  private async exclusively<T>(work: () => Promise<T>): Promise<T> {
    // Nested in the caller's turn; not in a transaction TypeORM began itself, which is no caller's.
    if (this.holds() && !this.current!.ownTransaction) return work();
    const turn = new Turn();
    await this.take(turn);
    try {
      return await this.holder.run(turn, work);
    } finally {
      this.endCurrent?.();
    }
  }

  private async query(sql: string, params: unknown[], structured: boolean): Promise<unknown> {
    if (this.holds()) return this.original.query(sql, params, structured);
    if (!this.isRead(sql)) return this.exclusively(() => this.original.query(sql, params, structured));
    if (!this.current || !this.pool || this.pool.failed) return this.original.query(sql, params, structured);
    // A transaction is open and no worker is ready yet: read once it has ended.
    if (!this.pool.ready()) return this.exclusively(() => this.original.query(sql, params, structured));
    // A transaction is open: read what is committed, as any other connection would.
    let rows: Record<string, unknown>[];
    try {
      rows = await this.pool.query(sql, params);
    } catch (error) {
      if (!this.pool.failed) throw error;
      return this.original.query(sql, params, structured);
    }
    if (!structured) return rows;
    const result = new QueryResult();
    result.raw = rows;
    result.records = rows;
    return result;
  }

  private async startTransaction(level?: Parameters<QueryRunner['startTransaction']>[0]): Promise<void> {
    if (this.holds()) return this.original.startTransaction(level);
    // TypeORM begins a transaction of its own (a save() outside a unit of work). The rest of the
    // save runs in the async context entered here, so it holds the turn until its commit or rollback
    // (TypeORM's persistence starts in an async step of its own, so the caller's context is left as it was).
    const turn = new Turn(true);
    this.holder.enterWith(turn);
    await this.take(turn);
    try {
      await this.original.startTransaction(level);
    } catch (error) {
      this.endCurrent?.();
      throw error;
    }
  }

  private async endTransaction(end: () => Promise<void>): Promise<void> {
    try {
      await end();
    } finally {
      const turn = this.holder.get();
      if (turn?.ownTransaction && turn === this.current && !this.connection()?.inTransaction) this.endCurrent?.();
    }
  }

  /**
   * At the end of a turn the connection holds no transaction, and the runner knows it: SQLite
   * rolls back by itself on some errors (the runner's ROLLBACK then fails and leaves its flags
   * set), and a transaction left open would swallow the next turn's writes.
   */
  private settle(): void {
    const connection = this.connection();
    if (connection?.inTransaction) {
      this.logger.error('A turn on the SQLite connection ended with its transaction open: rolled back.');
      (connection as unknown as { exec(sql: string): void }).exec('ROLLBACK');
    }
    this.runner.isTransactionActive = false;
    this.runner.transactionDepth = 0;
  }

  /** The better-sqlite3 connection (none once the data source is destroyed). */
  private connection(): RawConnection | undefined {
    return (this.dataSource.driver as unknown as { databaseConnection?: RawConnection }).databaseConnection;
  }

  /** Whether a statement only reads (answers rows and writes nothing); unknown SQL counts as a write. */
  private isRead(sql: string): boolean {
    let read = this.kinds.get(sql);
    if (read === undefined) {
      try {
        const statement = this.connection()!.prepare(sql);
        read = statement.reader && statement.readonly;
      } catch {
        // It will fail when run, in turn with the writes.
        return false;
      }
      if (this.kinds.size >= KINDS_KEPT) this.kinds.delete(this.kinds.keys().next().value!);
      this.kinds.set(sql, read);
    }
    return read;
  }
}
