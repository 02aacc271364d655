import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** A change of versions, as instances tell each other (see `Caches`). */
export type VersionChange = { kind: 'metadata' } | { kind: 'rows'; tableIds: number[] };

/**
 * Tables whose writes leave every cache valid: user rows (`database_table_<id>`, link tables, the
 * full-text index of each table) are versioned per table by the row writes themselves
 * (`UnitOfWork.rowsChanged`), and these logs are read by no cache. A write to any other table, or any statement not recognised as a
 * read or a write of one of these, is a metadata write.
 */
const ROW_DATA_TABLE = /^database_(table|relation|search)_\d+$/;
const UNCACHED_TABLES = new Set([
  'job',
  'database_rowhistory',
  'database_rowcomment',
  'database_rowcommentsnotificationmode',
  'core_userfile',
  'trash_entry',
  'database_trashedrows',
  // The full-text index's registry and marks, written with the rows (see database/search).
  'database_search_index',
  'database_search_pending',
  // A webhook's call log and the outbox of calls to make, written with row changes and deliveries.
  'database_tablewebhookcall',
  'database_webhookdelivery',
  // What a write did (undo, audit), and the notifications and mentions it caused: no cache reads them.
  'core_action',
  'baserow_enterprise_auditlogentry',
  'notification',
  'notification_recipient',
  'notification_email_state',
  'database_richtextfieldmention',
  // Single sign-ons started and SAML assertions used: no cache reads them.
  'sso_pending_sign_in',
  'sso_used_assertion',
]);

const READ = /^\s*(SELECT|PRAGMA|EXPLAIN|SHOW|SET|VALUES)\b/i;
const WITH = /^\s*WITH\b/i;
const WRITE_KEYWORD = /\b(INSERT|UPDATE|DELETE)\b/i;
const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;
const ROLLBACK = /^\s*ROLLBACK\s*;?\s*$/i;
const SAVEPOINT = /^\s*(SAVEPOINT|RELEASE|ROLLBACK\s+TO)\b/i;
const DML_TARGET = /^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?(\w+)"?/i;

export type StatementKind = 'read' | 'begin' | 'commit' | 'rollback' | 'savepoint' | 'rows' | 'metadata';

/** What a statement is, from its text: only a write of user rows or of an uncached log is not a metadata write. */
export function statementKind(sql: string): StatementKind {
  if (READ.test(sql)) return 'read';
  if (WITH.test(sql)) return WRITE_KEYWORD.test(sql) ? 'metadata' : 'read';
  if (BEGIN.test(sql)) return 'begin';
  if (SAVEPOINT.test(sql)) return 'savepoint';
  if (COMMIT.test(sql)) return 'commit';
  if (ROLLBACK.test(sql)) return 'rollback';
  const target = DML_TARGET.exec(sql)?.[1];
  if (target && (ROW_DATA_TABLE.test(target) || UNCACHED_TABLES.has(target))) return 'rows';
  return 'metadata';
}

const TRACKED = Symbol('write-versions');
type TrackedRunner = QueryRunner & { [TRACKED]?: { metadataWritten: boolean } };

/**
 * The versions caches are keyed by, so none is ever served stale: one for metadata (users,
 * workspaces, tables, fields, views, tokens…), bumped after every transaction that wrote any of
 * it commits or rolls back, and one per table's rows, bumped after a row write (see
 * `UnitOfWork.rowsChanged`). Metadata writes are recognised from the SQL every query runner
 * sends, so no writer can forget to announce one. Also counts the statements sent.
 */
export class WriteVersions {
  private metadataVersion = 0;
  private readonly rowVersions = new Map<number, number>();
  private readonly listeners = new Set<(change: VersionChange, local: boolean) => void | Promise<void>>();
  /** Announcements of changes to the other instances still under way (see `announced`). */
  private readonly announcing = new Set<Promise<void>>();
  private sharedRunner: (() => TrackedRunner | undefined) | null = null;
  /** Statements sent to the database by this process. */
  statements = 0;

  /** Counts a statement about to be sent, on the main connection or a read worker (the statement-count test listens here). */
  observe(_sql: string): void {
    this.statements += 1;
  }

  get metadata(): number {
    return this.metadataVersion;
  }

  rowsOf(tableId: number): number {
    return this.rowVersions.get(tableId) ?? 0;
  }

  /**
   * The metadata version a read through `manager` may be cached under, or null when the read
   * may see metadata written but not yet committed (its transaction wrote some; on SQLite's one
   * connection, any open transaction did).
   */
  metadataFor(manager: EntityManager): number | null {
    const runner = (manager.queryRunner as TrackedRunner | undefined) ?? this.sharedRunner?.();
    return runner?.[TRACKED]?.metadataWritten ? null : this.metadataVersion;
  }

  /** Listens to changes: `local` when this process made them (the caches tell other instances). */
  onChange(listener: (change: VersionChange, local: boolean) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Bumps the table's row versions after their write's transaction ended. */
  rowsChanged(tableIds: Iterable<number>): void {
    const ids = [...new Set(tableIds)];
    if (!ids.length) return;
    this.apply({ kind: 'rows', tableIds: ids }, true);
  }

  /** Applies a change: this process's, or (`local` false) another instance's received through Redis. */
  apply(change: VersionChange, local = false): void {
    if (change.kind === 'metadata') this.metadataVersion += 1;
    else for (const id of change.tableIds) this.rowVersions.set(id, this.rowsOf(id) + 1);
    for (const listener of this.listeners) {
      const announcement = listener(change, local);
      if (!announcement) continue;
      this.announcing.add(announcement);
      void announcement.finally(() => this.announcing.delete(announcement));
    }
  }

  /**
   * Resolves once every change made so far has been told to the other instances (a publish to
   * Redis, which hands it to their subscriptions before it answers): a transaction awaits it
   * before its request answers, so the caller's next request, to any instance, sees the change.
   */
  async announced(): Promise<void> {
    if (this.announcing.size) await Promise.all(this.announcing);
  }

  private metadataChanged(): void {
    this.apply({ kind: 'metadata' }, true);
  }

  /** Watches every statement the data source's query runners send (call once, after the migrations). */
  install(dataSource: DataSource): void {
    const driver = dataSource.driver as { createQueryRunner(mode: string): TrackedRunner; queryRunner?: TrackedRunner };
    const create = driver.createQueryRunner.bind(driver);
    driver.createQueryRunner = (mode: string) => this.track(create(mode));
    if (dataSource.options.type === 'better-sqlite3') this.sharedRunner = () => driver.queryRunner;
  }

  private track(runner: TrackedRunner): TrackedRunner {
    if (runner[TRACKED]) return runner;
    const state = { metadataWritten: false };
    runner[TRACKED] = state;
    const query = runner.query.bind(runner) as (sql: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;
    runner.query = (async (sql: string, parameters?: unknown[], structured?: boolean) => {
      this.observe(sql);
      const kind = statementKind(sql);
      try {
        return await query(sql, parameters, structured);
      } finally {
        // Also when the statement failed: a failed COMMIT rolls back, and either way the
        // versions move on (a rollback too: on SQLite's one connection, reads outside the
        // transaction saw its uncommitted metadata and may have been cached).
        if (kind === 'metadata') {
          if (runner.isTransactionActive) state.metadataWritten = true;
          else this.metadataChanged();
        } else if ((kind === 'commit' || kind === 'rollback') && state.metadataWritten) {
          state.metadataWritten = false;
          this.metadataChanged();
        }
      }
    }) as QueryRunner['query'];
    return runner;
  }
}
