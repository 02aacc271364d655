import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource, EntityManager } from 'typeorm';
import { AsyncSlot } from '../context/async-frame';
import { RequestContext } from '../context/request-context';
import { DomainEvent, DomainEventMap, DomainEventName } from '../events/domain-events';
import { Dialect } from './dialect';
import { DIALECT } from './tokens';
import { WriteVersions } from './write-versions';

interface Transaction {
  manager: EntityManager;
  events: DomainEvent[];
  /** Tables whose rows the transaction wrote. */
  rowTables: Set<number>;
  /** What the transaction's actor did (the actions module writes them before commit). */
  actions: RecordedAction[];
}

/**
 * One action of a transaction (see `src/actions/`): its type, the scope its undo is found in,
 * what its undo and redo need, and who did it in which undo session and action group.
 */
export interface RecordedAction {
  type: string;
  scope: string;
  params: Record<string, unknown>;
  workspaceId: number | null;
  userId: number | null;
  clientSessionId: string | null;
  actionGroupId: string | null;
  /** Absent: done now; an undo or redo of an earlier action (recorded for the audit log only). */
  command?: 'UNDO' | 'REDO';
  /** The client's address (audit log). */
  ipAddress: string | null;
  /** The actor's e-mail when no user id names them (a failed sign-in). */
  userEmail?: string | null;
}

/**
 * One write = one transaction. `run` opens it (or joins the one already open), `manager`
 * is what repositories query through, and `record` buffers domain events that are
 * dispatched only after the outermost transaction commits.
 */
@Injectable()
export class UnitOfWork {
  private readonly current = new AsyncSlot<Transaction>('transaction');
  private readonly logger = new Logger(UnitOfWork.name);
  private readonly commitHooks: ((events: readonly DomainEvent[]) => Promise<void>)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly emitter: EventEmitter2,
    private readonly versions: WriteVersions,
  ) {}

  /** The transaction's entity manager inside `run`, the data source's outside. */
  get manager(): EntityManager {
    return this.current.get()?.manager ?? this.dataSource.manager;
  }

  /** Whether the caller runs inside a transaction (caches only keep what was read outside one). */
  get inTransaction(): boolean {
    return this.current.get() !== undefined;
  }

  /**
   * Runs `work` outside the caller's transaction: what it writes commits on its own, and what
   * it reads is what is committed. On SQLite, whose one connection has one writer, its writes
   * wait until the caller's transaction has ended, so the transaction must not await them.
   */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.current.exit(() => this.dialect.outside(work));
  }

  /**
   * A read of user tables that may scan many rows (a page of rows and its count, search,
   * aggregations, adjacent rows, exports). Inside a transaction it runs there (it must see the
   * transaction's own writes); outside, it reads what is committed, on SQLite in a read worker
   * so that a long scan does not hold up the event loop. Rows as the driver answers them.
   */
  read<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const tx = this.current.get();
    if (tx) return tx.manager.query(sql, params);
    return this.dialect.read(this.dataSource, sql, params) as Promise<T[]>;
  }

  /**
   * `work` in one transaction (or in the caller's). With `dropEvents`, the events it records are
   * not dispatched: a chunk of a long write that builds something nobody sees yet.
   */
  async run<T>(work: () => Promise<T>, options: { dropEvents?: boolean } = {}): Promise<T> {
    if (this.current.get()) return work();
    const events: DomainEvent[] = [];
    const rowTables = new Set<number>();
    const actions: RecordedAction[] = [];
    let result: T;
    try {
      result = await this.dialect.transaction(this.dataSource, (manager) =>
        this.current.run({ manager, events, rowTables, actions }, async () => {
          const value = await work();
          // What a chunk of a long write records is dropped: nothing of it is visible yet.
          const recorded = options.dropEvents ? [] : events.slice();
          for (const hook of this.commitHooks) await hook(recorded);
          return value;
        }),
      );
    } finally {
      // Rolled back too: on SQLite's one connection, reads outside it saw its rows.
      this.versions.rowsChanged(rowTables);
      await this.versions.announced();
    }
    if (!options.dropEvents) await this.dispatch(events);
    return result;
  }

  /** Counts a write of the table's rows: cached counts of it are not read again once the transaction ends. */
  rowsChanged(tableId: number): void {
    const tx = this.current.get();
    if (tx) tx.rowTables.add(tableId);
    else this.versions.rowsChanged([tableId]);
  }

  /**
   * Work every outermost transaction does last, before it commits, inside it (what a module
   * derives from the transaction's writes, e.g. the full-text index from the rows it changed,
   * the webhook calls and notifications its events cause), given the events it recorded (none
   * for a chunk of a long write, whose events are dropped).
   */
  beforeCommit(hook: (events: readonly DomainEvent[]) => Promise<void>): void {
    this.commitHooks.push(hook);
  }

  /** Buffers an action of the transaction: written by a before-commit hook, dropped on rollback. */
  recordAction(action: RecordedAction): void {
    const tx = this.current.get();
    if (!tx) throw new Error(`Action ${action.type} recorded outside a unit of work.`);
    tx.actions.push(action);
  }

  /** The actions recorded so far in the transaction, taken off its buffer (for the before-commit hook that writes them). */
  takeActions(): RecordedAction[] {
    const tx = this.current.get();
    return tx ? tx.actions.splice(0) : [];
  }

  record<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const tx = this.current.get();
    if (!tx) throw new Error(`Domain event ${name} recorded outside a unit of work.`);
    const { userId, webSocketId, sendWebhookEvents } = RequestContext.current();
    tx.events.push({ name, payload, actor: sendWebhookEvents === false ? { userId, webSocketId, sendWebhookEvents } : { userId, webSocketId } });
  }

  /**
   * Records an event of the system rather than of the requesting user (Baserow's `user=None`:
   * trash restores): no socket is excluded from its messages.
   */
  recordAsSystem<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const tx = this.current.get();
    if (!tx) throw new Error(`Domain event ${name} recorded outside a unit of work.`);
    tx.events.push({ name, payload, actor: { userId: null, webSocketId: null } });
  }

  private async dispatch(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      try {
        await this.emitter.emitAsync(event.name, event);
      } catch (error) {
        this.logger.error(`Listener of ${event.name} failed`, error instanceof Error ? error.stack : String(error));
      }
    }
  }
}
