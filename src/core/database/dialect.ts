import type { DataSource, EntityManager } from 'typeorm';

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this interface,
 * so no other code branches on the database kind.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Runs `work` in one transaction (SQLite has a single writer, so its transactions are queued). */
  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T>;
  /** Case-insensitive LIKE. */
  ilike(expression: string, param: string): string;
}

/** A FIFO lock: SQLite has one connection, so concurrent transactions must wait their turn. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

export class SqliteDialect implements Dialect {
  readonly name = 'sqlite' as const;
  private readonly lock = new Mutex();

  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.lock.run(() => dataSource.transaction(work));
  }

  ilike(expression: string, param: string): string {
    // SQLite's LIKE is case-insensitive for ASCII; lower() on both sides covers the rest.
    return `lower(${expression}) LIKE lower(${param})`;
  }
}

export class PostgresDialect implements Dialect {
  readonly name = 'postgres' as const;

  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return dataSource.transaction(work);
  }

  ilike(expression: string, param: string): string {
    return `${expression} ILIKE ${param}`;
  }
}

export function dialectFor(type: string): Dialect {
  return type === 'postgres' ? new PostgresDialect() : new SqliteDialect();
}
