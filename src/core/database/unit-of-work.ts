import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from '../context/request-context';
import { DomainEvent, DomainEventMap, DomainEventName } from '../events/domain-events';
import { Dialect } from './dialect';
import { DIALECT } from './tokens';

interface Transaction {
  manager: EntityManager;
  events: DomainEvent[];
}

/**
 * One write = one transaction. `run` opens it (or joins the one already open), `manager`
 * is what repositories query through, and `record` buffers domain events that are
 * dispatched only after the outermost transaction commits.
 */
@Injectable()
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<Transaction>();
  private readonly logger = new Logger(UnitOfWork.name);
  private readonly commitHooks: (() => Promise<void>)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly emitter: EventEmitter2,
  ) {}

  /** The transaction's entity manager inside `run`, the data source's outside. */
  get manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  /** Whether the caller runs inside a transaction (caches only keep what was read outside one). */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Runs `work` outside the caller's transaction: what it writes commits on its own (a job's
   * progress, seen by pollers while the job's transaction is still open). On SQLite, with its
   * one connection, it runs on the same connection, so the transaction sees it anyway.
   */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.current.exit(work);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    const events: DomainEvent[] = [];
    const result = await this.dialect.transaction(this.dataSource, (manager) =>
      this.current.run({ manager, events }, async () => {
        const value = await work();
        for (const hook of this.commitHooks) await hook();
        return value;
      }),
    );
    await this.dispatch(events);
    return result;
  }

  /**
   * Work every outermost transaction does last, before it commits, inside it (what a module
   * derives from the transaction's writes, e.g. the full-text index from the rows it changed).
   */
  beforeCommit(hook: () => Promise<void>): void {
    this.commitHooks.push(hook);
  }

  record<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const tx = this.current.getStore();
    if (!tx) throw new Error(`Domain event ${name} recorded outside a unit of work.`);
    const { userId, webSocketId } = RequestContext.current();
    tx.events.push({ name, payload, actor: { userId, webSocketId } });
  }

  /**
   * Records an event of the system rather than of the requesting user (Baserow's `user=None`:
   * trash restores): no socket is excluded from its messages.
   */
  recordAsSystem<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const tx = this.current.getStore();
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
