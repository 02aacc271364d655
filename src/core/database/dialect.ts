import type { DataSource, EntityManager } from 'typeorm';
import { Mutex, SqliteConnection } from './sqlite-connection';

/**
 * The column kinds user tables are built from. Each dialect maps them to its own SQL
 * types; field types only ever name a kind.
 */
export type ColumnKind = 'text' | 'integer' | 'decimal' | 'real' | 'boolean' | 'date' | 'datetime' | 'order' | 'json';

/** A column of a user table: a `field_<id>` column or a system column. */
export interface ColumnDefinition {
  name: string;
  kind: ColumnKind;
  /** For `decimal`: digits after the point. */
  scale?: number;
}

/** Connections of the database pool, for the metrics: all, idle, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this interface,
 * so no other code branches on the database kind.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Runs `work` in one transaction (SQLite has a single writer, so its transactions are queued). */
  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Runs `work` apart from the caller's transaction, so that what it writes commits on its own.
   * On SQLite, whose one connection has one writer, its writes wait until that transaction has
   * ended: work that must not wait for it is not awaited inside it.
   */
  outside<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A read outside any transaction, of what is committed: on PostgreSQL a pooled connection, on
   * SQLite a read worker off the event loop (see SqliteConnection). Rows as the driver answers them.
   */
  read(dataSource: DataSource, sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops what the dialect started (SQLite's read workers); the data source closes after. */
  close(): Promise<void>;
  /**
   * Runs `work` while no other instance runs its own (a PostgreSQL advisory lock), so two
   * instances starting together don't both migrate. SQLite has one instance: it just runs.
   */
  exclusively<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T>;
  /** The clause locking the selected rows until the transaction ends (SQLite serialises writers already). */
  readonly forUpdate: string;
  /** Case-insensitive LIKE; `\\` escapes `%`, `_` and itself in the pattern (see escapeLike). */
  ilike(expression: string, param: string): string;
  /** The placeholder of the n-th (1-based) bound value of a raw query. */
  placeholder(index: number): string;
  /** The placeholder of the n-th bound value that may appear more than once (see `Sql`'s `numbered`). */
  numberedPlaceholder(index: number): string;
  /** Bound values of numbered placeholders as the driver takes them. */
  numberedBindings(params: unknown[]): unknown[];
  /** A JS value as the driver binds it (SQLite has no booleans). */
  bind(value: unknown): unknown;
  /**
   * A decimal (as text) compared with a number column: SQLite's columns are REAL, and a number
   * bound as text is converted on every comparison; PostgreSQL's numeric takes the exact text.
   */
  decimal(text: string): unknown;
  /** The SQL type of a column kind. */
  columnType(column: ColumnDefinition): string;
  /** The auto-incrementing row id column, starting at 1 in every table. */
  readonly rowIdColumn: string;
  /** Row `order` as stored: PostgreSQL numeric(40,20), SQLite fixed-width text (exact, and sorts right). */
  orderToDb(scaled: bigint): string;
  /** A stored `order` back to its value scaled by 10^20. */
  orderFromDb(raw: unknown): bigint;
  /** A stored `order` as the API shows it (`formatOrder(orderFromDb(raw))`, without the arithmetic: rows are read by the thousand). */
  orderText(raw: unknown): string;
  /** An expression casting a column to text, as a cell reads in search and conversions. */
  castText(expression: string): string;
  /**
   * What a list of texts (`value` of the rows of `from` matching `where`, in `order`) sorts by,
   * item by item and alike on both databases (by the texts' bytes; an empty list first): a
   * multiple select cell by its options' values. On SQLite the key function of the formula
   * module's SQLite functions (formula_array_sort_key), on PostgreSQL an array.
   */
  textListSortKey(from: string, where: string, order: string, value: string): string;
  /** The ids (`value`, integers) of the rows of `from` matching `where`, in `order`, joined by commas; NULL for none (a group-by's key). */
  idListKey(from: string, where: string, order: string, value: string): string;
  /** A statement making the table's next row id follow its largest id (after rows were inserted with ids), if one is needed. */
  syncRowIdSequence(table: string): string | null;
  /**
   * A decimal column as text with exactly `places` decimals, as the API shows it (`1.50`):
   * PostgreSQL's numeric keeps its scale; SQLite stores REAL and formats it.
   */
  decimalText(expression: string, places: number): string;
  /**
   * Whether the text `expression` contains `word` as a whole word, case-insensitively
   * (Baserow's `~* '\\m<word>\\M'`). `bind` binds a value and answers its placeholder.
   */
  containsWord(expression: string, word: string, bind: (value: unknown) => string): string;
  /** The day of month (1–31) of a stored datetime, seen in the IANA time zone `timeZone`. */
  dayOfMonthIn(expression: string, timeZone: string, bind: (value: unknown) => string): string;
  /** The connection pool's use now. */
  poolStats(dataSource: DataSource): PoolStats;
  /**
   * A statement taking a lock held until the transaction ends, on the pair (`scope`, `id`), so
   * writers of the same thing take turns (PostgreSQL advisory lock); null where writers are
   * serialised already (SQLite).
   */
  transactionLock(scope: number, id: number): string | null;
  /** A subquery of the given ids bound as one value (any number of them): `x IN <idsIn>`. */
  idsIn(ids: readonly number[], bind: (value: unknown) => string): string;
}

const ORDER_SCALE = 20;

/** The advisory lock id of Rowspace's start-up work (any fixed 64-bit number, "rowspace" in ASCII). */
const ADVISORY_LOCK_KEY = '8245940780429042533';

function parseScaled(text: string): bigint {
  const [whole, fraction = ''] = text.trim().split('.');
  return BigInt(whole || '0') * 10n ** BigInt(ORDER_SCALE) + BigInt((fraction + '0'.repeat(ORDER_SCALE)).slice(0, ORDER_SCALE) || '0');
}

function formatScaled(scaled: bigint, wholeWidth = 0): string {
  const base = 10n ** BigInt(ORDER_SCALE);
  const whole = (scaled / base).toString().padStart(wholeWidth, '0');
  const fraction = (scaled % base).toString().padStart(ORDER_SCALE, '0');
  return `${whole}.${fraction}`;
}

/** Row `order` as the API shows it: a decimal string with 20 places. */
export function formatOrder(scaled: bigint): string {
  return formatScaled(scaled);
}

/** Parses a decimal order string of the API (or a database) into its scaled value. */
export function parseOrder(text: string): bigint {
  return parseScaled(text);
}

/** A term as a LIKE pattern matching it literally. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const ORDER_ONE = 10n ** BigInt(ORDER_SCALE);

/** Minutes the IANA zone is ahead of UTC at `at`. */
function zoneOffsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((local - Math.floor(at.getTime() / 60000) * 60000) / 60000);
}

export class SqliteDialect implements Dialect {
  readonly name = 'sqlite' as const;
  readonly rowIdColumn = '"id" INTEGER PRIMARY KEY AUTOINCREMENT';
  /** Transactions of a dialect without a connection (one built for SQL text only) queue on this lock. */
  private readonly lock = new Mutex();

  /** `connection`: the app's one connection, taken in turns, and its read workers. */
  constructor(readonly connection: SqliteConnection | null = null) {}

  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.connection ? this.connection.transaction(work) : this.lock.run(() => dataSource.transaction(work));
  }

  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.connection ? this.connection.outside(work) : work();
  }

  read(dataSource: DataSource, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.connection ? this.connection.read(sql, params) : dataSource.query(sql, params);
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }

  readonly forUpdate = '';

  exclusively<T>(_dataSource: DataSource, work: () => Promise<T>): Promise<T> {
    return work();
  }

  ilike(expression: string, param: string): string {
    // SQLite's LIKE is case-insensitive for ASCII letters, as its lower() is (without ICU): the
    // lower() once called on both sides changed no result and made scans 1.75 times slower.
    return `${expression} LIKE ${param} ESCAPE '\\'`;
  }

  placeholder(): string {
    return '?';
  }

  numberedPlaceholder(index: number): string {
    return `?${index}`;
  }

  numberedBindings(params: unknown[]): unknown[] {
    // better-sqlite3 binds `?N` from one object keyed by N.
    return params.length ? [Object.fromEntries(params.map((value, i) => [i + 1, value]))] : [];
  }

  bind(value: unknown): unknown {
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value;
  }

  decimal(text: string): unknown {
    return Number(text);
  }

  columnType(column: ColumnDefinition): string {
    switch (column.kind) {
      case 'integer':
      case 'boolean':
        return 'INTEGER';
      // SQLite has no exact decimal type: numbers are REAL (15 significant digits).
      case 'decimal':
      case 'real':
        return 'REAL';
      // Dates and datetimes are canonical ISO text (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS.sssZ`),
      // which compare and sort chronologically.
      default:
        return 'TEXT';
    }
  }

  orderToDb(scaled: bigint): string {
    // 20 whole digits, zero-padded, so text order is numeric order.
    return formatScaled(scaled, 20);
  }

  orderFromDb(raw: unknown): bigint {
    return parseScaled(String(raw));
  }

  orderText(raw: unknown): string {
    // Stored as 20 zero-padded whole digits and 20 decimals: the API drops the padding.
    const text = String(raw);
    return /^\d{20}\.\d{20}$/.test(text) ? text.replace(/^0+(?=\d+\.)/, '') : formatOrder(parseScaled(text));
  }

  castText(expression: string): string {
    return `CAST(${expression} AS TEXT)`;
  }

  textListSortKey(from: string, where: string, order: string, value: string): string {
    return `formula_array_sort_key((SELECT json_group_array(json_object('value', s."v")) FROM (SELECT ${value} AS "v" FROM ${from} WHERE ${where} ORDER BY ${order}) s), 'text')`;
  }

  idListKey(from: string, where: string, order: string, value: string): string {
    return `(SELECT group_concat(s."v", ',') FROM (SELECT ${value} AS "v" FROM ${from} WHERE ${where} ORDER BY ${order}) s)`;
  }

  syncRowIdSequence(): null {
    // AUTOINCREMENT keeps sqlite_sequence at the largest id inserted, explicit ids included.
    return null;
  }

  decimalText(expression: string, places: number): string {
    // printf() turns NULL into 0; an empty cell stays NULL. A formula's NaN (the text 'NaN') is written as it is.
    return `CASE WHEN ${expression} IS NULL THEN NULL WHEN ${expression} = 'NaN' THEN 'NaN' ELSE printf('%.${Math.max(0, Math.min(10, Math.trunc(places)))}f', ${expression}) END`;
  }

  containsWord(expression: string, word: string, bind: (value: unknown) => string): string {
    // No regular expressions in SQLite: GLOB on the lower-cased text with the word between
    // non-word characters (ASCII letters, digits, _ and every non-ASCII character are word
    // characters) or the text's ends.
    const literal = word.toLowerCase().replace(/[*?[]/g, (c) => `[${c}]`);
    const boundary = '[^a-z0-9_\u0080-\uffff]';
    const text = `lower(${expression})`;
    const patterns = [literal, `${literal}${boundary}*`, `*${boundary}${literal}`, `*${boundary}${literal}${boundary}*`];
    return `(${patterns.map((p) => `${text} GLOB ${bind(p)}`).join(' OR ')})`;
  }

  dayOfMonthIn(expression: string, timeZone: string, bind: (value: unknown) => string): string {
    // SQLite knows no time zones: the zone's offset now stands for its offset at every instant
    // (exact for zones without daylight saving time).
    return `CAST(strftime('%d', ${expression}, ${bind(`${zoneOffsetMinutes(timeZone, new Date())} minutes`)}) AS INTEGER)`;
  }

  idsIn(ids: readonly number[], bind: (value: unknown) => string): string {
    return `(SELECT "value" FROM json_each(${bind(JSON.stringify(ids))}))`;
  }

  transactionLock(): null {
    return null;
  }

  poolStats(): PoolStats {
    // One connection; transactions and writes queue for it (see SqliteConnection).
    const queued = this.connection?.queued ?? this.lock.queued;
    return { total: 1, idle: queued > 0 ? 0 : 1, waiting: Math.max(0, queued - 1) };
  }
}

export class PostgresDialect implements Dialect {
  readonly name = 'postgres' as const;
  readonly rowIdColumn = '"id" SERIAL PRIMARY KEY';

  transaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return dataSource.transaction(work);
  }

  outside<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  read(dataSource: DataSource, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return dataSource.query(sql, params);
  }

  async close(): Promise<void> {}

  readonly forUpdate = ' FOR UPDATE';

  async exclusively<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
    // A session lock: held by this one connection until unlocked, whatever connections `work` uses.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }

  ilike(expression: string, param: string): string {
    return `${expression} ILIKE ${param}`;
  }

  placeholder(index: number): string {
    return `$${index}`;
  }

  numberedPlaceholder(index: number): string {
    return `$${index}`;
  }

  numberedBindings(params: unknown[]): unknown[] {
    return params;
  }

  bind(value: unknown): unknown {
    return value;
  }

  decimal(text: string): unknown {
    return text;
  }

  columnType(column: ColumnDefinition): string {
    switch (column.kind) {
      case 'integer':
        return 'integer';
      case 'boolean':
        return 'boolean';
      case 'decimal':
        return `numeric(${50 + (column.scale ?? 0)}, ${column.scale ?? 0})`;
      case 'real':
        return 'double precision';
      case 'date':
        return 'date';
      case 'datetime':
        return 'timestamptz';
      case 'order':
        return 'numeric(40, 20)';
      case 'json':
        return 'jsonb';
      default:
        return 'text';
    }
  }

  orderToDb(scaled: bigint): string {
    return formatScaled(scaled);
  }

  orderFromDb(raw: unknown): bigint {
    return parseScaled(String(raw));
  }

  orderText(raw: unknown): string {
    // numeric(40, 20) reads back with its 20 decimals already.
    const text = String(raw);
    return /^\d+\.\d{20}$/.test(text) ? text : formatOrder(parseScaled(text));
  }

  castText(expression: string): string {
    return `CAST(${expression} AS TEXT)`;
  }

  textListSortKey(from: string, where: string, order: string, value: string): string {
    return `ARRAY(SELECT (${value}) COLLATE "C" FROM ${from} WHERE ${where} ORDER BY ${order})`;
  }

  idListKey(from: string, where: string, order: string, value: string): string {
    return `(SELECT string_agg(CAST(${value} AS text), ',' ORDER BY ${order}) FROM ${from} WHERE ${where})`;
  }

  syncRowIdSequence(table: string): string {
    return `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), COALESCE((SELECT MAX("id") FROM "${table}"), 0) + 1, false)`;
  }

  decimalText(expression: string): string {
    return `CAST(${expression} AS TEXT)`;
  }

  containsWord(expression: string, word: string, bind: (value: unknown) => string): string {
    const escaped = word.replace(/[\\^$.|?*+()[\]{}-]/g, (c) => `\\${c}`);
    return `${expression} ~* ${bind(`\\m${escaped}\\M`)}`;
  }

  dayOfMonthIn(expression: string, timeZone: string, bind: (value: unknown) => string): string {
    return `CAST(EXTRACT(DAY FROM (${expression} AT TIME ZONE ${bind(timeZone)})) AS INTEGER)`;
  }

  idsIn(ids: readonly number[], bind: (value: unknown) => string): string {
    return `(SELECT unnest(CAST(${bind([...ids])} AS integer[])))`;
  }

  transactionLock(scope: number, id: number): string {
    return `SELECT pg_advisory_xact_lock(${Math.trunc(scope)}, ${Math.trunc(id)})`;
  }

  poolStats(dataSource: DataSource): PoolStats {
    const pool = (dataSource.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 };
  }
}

/** The dialect of a database kind; `connection` attaches SQLite's dialect to the app's connection. */
export function dialectFor(type: string, connection: SqliteConnection | null = null): Dialect {
  return type === 'postgres' ? new PostgresDialect() : new SqliteDialect(connection);
}
