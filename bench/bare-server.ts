/**
 * The ceiling of bench/compare.ts: a bare `node:http` server with the database driver only
 * (better-sqlite3, or a `pg` Pool of 20 like Rowspace's), no framework, no authentication, that
 * does the work of Rowspace's row endpoints on the same database and the same user table
 * Rowspace created (`database_table_<id>`: `id`, `order`, `created_on`, `updated_on`,
 * `created_by_id`, `last_modified_by_id`, `trashed`, `field_<id>`…), with the same WHERE and
 * ORDER BY (so the same indexes serve it), answering JSON shaped like Rowspace's:
 *
 *   GET  /list?gt=N[&count=0]   100 live rows with `num_a > N` (N bound as a number), sorted by
 *                               `num_b` DESC NULLS LAST, `order`, `id`, with the exact COUNT
 *                               (`{count, next, previous, results}`), or without it (count=0)
 *   GET  /search?q=T&mode=compat  100 live rows where a text column contains T (LIKE on SQLite,
 *                               ASCII case-insensitive; ILIKE on PostgreSQL), by `order`, `id`,
 *                               with the exact COUNT
 *   GET  /search?q=T&mode=fts   the same through a full-text index (FTS5 on SQLite, a tsvector
 *                               with a GIN index on PostgreSQL), prefix match of the word T; the
 *                               index is a side table built by `POST /fts` and dropped by
 *                               `DELETE /fts`; while it is there, row creates and PATCHes
 *                               write the rows' entries in the same transaction
 *   GET  /scan?q=T              100 live rows whose `scan` column contains T, with the exact COUNT
 *   POST /rows                  one row (body `{field_<id>: value…}`): MAX(order), INSERT …
 *                               RETURNING, in one transaction
 *   POST /rows/batch            `{items: [...]}` the same for all rows in one INSERT
 *   PATCH /rows/<id>            the row before, UPDATE … RETURNING, in one transaction; then
 *                               `before_rows_update` and `rows_updated` to every socket
 *                               subscribed to the table page
 *   WS   /ws/core/             `authentication` on connect, `{"page":"table","table_id":…}`
 *                               answered `page_add` (Rowspace's protocol, any token accepted)
 *
 * Rowspace versions its cached counts in its own memory: rows this server writes are not seen in
 * them, so the comparison writes only after every list case has run.
 * Configuration: BARE_CONFIG (JSON, see BareConfig). Started by bench/compare.ts as a child
 * process (forkServer); it reports `{url}` over IPC once it listens.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import Database, { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { Pool, PoolClient, types } from 'pg';
import WebSocket, { WebSocketServer } from 'ws';

export type BareColumnKind = 'text' | 'number' | 'boolean' | 'date';

export interface BareColumn {
  name: string;
  kind: BareColumnKind;
  /** Decimal places of a number column (its JSON is text with exactly these decimals). */
  places?: number;
}

export interface BareConfig {
  sqlitePath: string | null;
  databaseUrl: string | null;
  tableId: number;
  columns: BareColumn[];
  /** Column of `/list`'s `gt` filter, and its sort column (descending). */
  filter: string;
  sort: string;
  /** Columns `/search` looks in, and `/scan`'s one column. */
  search: string[];
  scan: string;
  /** The user written into created_by_id / last_modified_by_id. */
  userId: number;
  /** Base of the `next` links. */
  publicUrl: string;
}

const PAGE_SIZE = 100;
type Row = Record<string, unknown>;
interface Page {
  count: number | null;
  rows: Row[];
}

/** What the two drivers do; the HTTP layer above is the same for both. */
interface Store {
  list(gt: number, withCount: boolean): Promise<Page>;
  search(term: string, mode: 'compat' | 'fts'): Promise<Page>;
  scan(term: string): Promise<Page>;
  create(items: Row[]): Promise<Row[]>;
  /** The row before and after, or null when there is no such live row. */
  update(id: number, values: Row): Promise<{ before: Row; after: Row } | null>;
  buildFts(): Promise<void>;
  dropFts(): Promise<void>;
  close(): Promise<void>;
}

const config: BareConfig = JSON.parse(process.env.BARE_CONFIG ?? 'null');
const table = `"database_table_${config.tableId}"`;
const ftsTable = `"bare_fts_${config.tableId}"`;
const q = (name: string) => `"${name}"`;
const byName = new Map(config.columns.map((c) => [c.name, c]));
const escapeLike = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Rowspace's timestamps: ISO with microseconds (SQLite text; PostgreSQL reads it into timestamptz). */
const now = () => new Date().toISOString().replace('Z', '000Z');

/** A cell of a request as the column stores it (number columns take numbers or numeric text). */
function cellValue(column: BareColumn, value: unknown, sqlite: boolean): unknown {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'number': {
      const number = Number(value);
      if (!Number.isFinite(number)) throw new BadRequest(`${column.name}: not a number`);
      return sqlite ? number : String(value);
    }
    case 'boolean':
      return sqlite ? (value ? 1 : 0) : Boolean(value);
    default:
      if (typeof value !== 'string') throw new BadRequest(`${column.name}: not text`);
      return value;
  }
}

/** A stored row as Rowspace answers it: `id`, `order`, then the fields. */
function serialize(row: Row, sqlite: boolean): Row {
  const out: Row = { id: row.id, order: sqlite ? String(row.order).replace(/^0+(?=\d+\.)/, '') : row.order };
  for (const column of config.columns) {
    const value = row[column.name];
    if (value === null || value === undefined) out[column.name] = column.kind === 'boolean' ? false : null;
    else if (column.kind === 'boolean') out[column.name] = sqlite ? value === 1 : value;
    else if (column.kind === 'number' && sqlite) out[column.name] = (value as number).toFixed(column.places ?? 0);
    else out[column.name] = value;
  }
  return out;
}

class BadRequest extends Error {}

/** The text of a row's full-text entry: its searched columns, as the side table is built. */
function ftsBody(row: Row): string {
  return config.search.map((c) => (row[c] == null ? '' : String(row[c]))).join(' ');
}

/** Order values for `count` new rows after the largest one (whole numbers, as Rowspace appends). */
function nextOrders(max: unknown, count: number): number[] {
  const start = max === null || max === undefined ? 0 : Math.floor(Number(String(max).split('.')[0]));
  return Array.from({ length: count }, (_, i) => start + i + 1);
}

// ---------------------------------------------------------------- SQLite

class SqliteStore implements Store {
  private readonly db: SqliteDatabase;
  private readonly statements = new Map<string, Statement>();
  /** Whether the FTS side table is there (then writes keep it up to date). */
  private fts = false;

  constructor(path: string) {
    this.db = new Database(path);
    // Rowspace's connection settings.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private page(where: string, orderBy: string, params: unknown[], withCount: boolean): Page {
    const count = withCount ? (this.prepare(`SELECT COUNT(*) AS count FROM ${table} WHERE ${where}`).get(...params) as { count: number }).count : null;
    const rows = this.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT ${PAGE_SIZE}`).all(...params) as Row[];
    return { count, rows: rows.map((r) => serialize(r, true)) };
  }

  async list(gt: number, withCount: boolean): Promise<Page> {
    return this.page(`"trashed" = FALSE AND ${q(config.filter)} > ?`, `${q(config.sort)} DESC NULLS LAST, "order" ASC, "id" ASC`, [gt], withCount);
  }

  async search(term: string, mode: 'compat' | 'fts'): Promise<Page> {
    if (mode === 'fts') {
      const match = `"${term.replace(/"/g, '""')}"*`;
      return this.page(`"trashed" = FALSE AND "id" IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ?)`, '"order" ASC, "id" ASC', [match], true);
    }
    const pattern = escapeLike(term);
    const where = config.search.map((c) => `${q(c)} LIKE ? ESCAPE '\\'`).join(' OR ');
    return this.page(`"trashed" = FALSE AND (${where})`, '"order" ASC, "id" ASC', config.search.map(() => pattern), true);
  }

  async scan(term: string): Promise<Page> {
    return this.page(`"trashed" = FALSE AND ${q(config.scan)} LIKE ? ESCAPE '\\'`, '"order" ASC, "id" ASC', [escapeLike(term)], true);
  }

  async create(items: Row[]): Promise<Row[]> {
    const names = config.columns.map((c) => c.name);
    const width = 5 + names.length;
    const statement = this.prepare(
      `INSERT INTO ${table} ("order", "created_on", "updated_on", "created_by_id", "last_modified_by_id", ${names.map(q).join(', ')}) VALUES ` +
        Array.from({ length: items.length }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ') +
        ' RETURNING *',
    );
    const params: unknown[] = [];
    const values = items.map((item) => names.map((name) => cellValue(byName.get(name)!, item[name], true)));
    return this.db.transaction(() => {
      const max = (this.prepare(`SELECT MAX("order") AS max FROM ${table} WHERE "trashed" = FALSE`).get() as { max: unknown }).max;
      const orders = nextOrders(max, items.length);
      const stamp = now();
      values.forEach((cells, i) => params.push(`${String(orders[i]).padStart(20, '0')}.00000000000000000000`, stamp, stamp, config.userId, config.userId, ...cells));
      const rows = statement.all(...params) as Row[];
      if (this.fts) for (const row of rows) this.prepare(`INSERT INTO ${ftsTable} (rowid, body) VALUES (?, ?)`).run(row.id, ftsBody(row));
      return rows.map((r) => serialize(r, true));
    })();
  }

  async update(id: number, values: Row): Promise<{ before: Row; after: Row } | null> {
    const names = Object.keys(values);
    const cells = names.map((name) => cellValue(byName.get(name)!, values[name], true));
    const update = this.prepare(
      `UPDATE ${table} SET ${names.map((n) => `${q(n)} = ?`).join(', ')}, "updated_on" = ?, "last_modified_by_id" = ? WHERE "id" = ? AND "trashed" = FALSE RETURNING *`,
    );
    return this.db.transaction(() => {
      const before = this.prepare(`SELECT * FROM ${table} WHERE "id" = ? AND "trashed" = FALSE`).get(id) as Row | undefined;
      if (!before) return null;
      const after = update.get(...cells, now(), config.userId, id) as Row;
      if (this.fts) {
        this.prepare(`DELETE FROM ${ftsTable} WHERE rowid = ?`).run(id);
        this.prepare(`INSERT INTO ${ftsTable} (rowid, body) VALUES (?, ?)`).run(id, ftsBody(after));
      }
      return { before: serialize(before, true), after: serialize(after, true) };
    })();
  }

  async buildFts(): Promise<void> {
    this.db.exec(`DROP TABLE IF EXISTS ${ftsTable}`);
    this.db.exec(`CREATE VIRTUAL TABLE ${ftsTable} USING fts5(body, tokenize = 'unicode61')`);
    const body = config.search.map((c) => `COALESCE(${q(c)}, '')`).join(" || ' ' || ");
    this.db.exec(`INSERT INTO ${ftsTable} (rowid, body) SELECT "id", ${body} FROM ${table} WHERE "trashed" = FALSE`);
    this.statements.clear();
    this.fts = true;
  }

  async dropFts(): Promise<void> {
    this.db.exec(`DROP TABLE IF EXISTS ${ftsTable}`);
    this.statements.clear();
    this.fts = false;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

// ---------------------------------------------------------------- PostgreSQL

class PostgresStore implements Store {
  private readonly pool: Pool;
  /** Whether the tsvector side table is there (then writes keep it up to date). */
  private fts = false;

  constructor(url: string) {
    // Dates as text, as Rowspace reads them.
    for (const oid of [1082, 1114, 1184]) types.setTypeParser(oid, (value: string) => value);
    this.pool = new Pool({ connectionString: url, max: 20, options: '-c TimeZone=UTC' });
  }

  private async page(where: string, orderBy: string, params: unknown[], withCount: boolean): Promise<Page> {
    // One after the other, as Rowspace runs them (in parallel they would hold two connections).
    const count = withCount ? await this.pool.query(`SELECT COUNT(*) AS count FROM ${table} WHERE ${where}`, params) : null;
    const rows = await this.pool.query(`SELECT * FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT ${PAGE_SIZE}`, params);
    return { count: count ? Number(count.rows[0].count) : null, rows: rows.rows.map((r) => serialize(r, false)) };
  }

  list(gt: number, withCount: boolean): Promise<Page> {
    return this.page(`"trashed" = FALSE AND ${q(config.filter)} > $1`, `${q(config.sort)} DESC NULLS LAST, "order" ASC, "id" ASC`, [gt], withCount);
  }

  search(term: string, mode: 'compat' | 'fts'): Promise<Page> {
    if (mode === 'fts') {
      const query = `${term.replace(/[^\p{L}\p{N}_]+/gu, ' ').trim().split(/\s+/).filter(Boolean).map((w) => `${w}:*`).join(' & ') || "''"}`;
      // = ANY(ARRAY(…)): the planner cannot estimate a prefix tsquery and, with IN (…), walks the
      // whole `order` index; this way it looks the few matching ids up by primary key.
      return this.page(`"trashed" = FALSE AND "id" = ANY(ARRAY(SELECT "id" FROM ${ftsTable} WHERE "tsv" @@ to_tsquery('simple', $1)))`, '"order" ASC, "id" ASC', [query], true);
    }
    const where = config.search.map((c) => `${q(c)} ILIKE $1`).join(' OR ');
    return this.page(`"trashed" = FALSE AND (${where})`, '"order" ASC, "id" ASC', [escapeLike(term)], true);
  }

  scan(term: string): Promise<Page> {
    return this.page(`"trashed" = FALSE AND ${q(config.scan)} ILIKE $1`, '"order" ASC, "id" ASC', [escapeLike(term)], true);
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  create(items: Row[]): Promise<Row[]> {
    const names = config.columns.map((c) => c.name);
    const values = items.map((item) => names.map((name) => cellValue(byName.get(name)!, item[name], false)));
    return this.transaction(async (client) => {
      const max = (await client.query(`SELECT MAX("order") AS max FROM ${table} WHERE "trashed" = FALSE`)).rows[0].max;
      const orders = nextOrders(max, items.length);
      const stamp = now();
      const params: unknown[] = [];
      const tuples = values.map((cells, i) => {
        const row = [String(orders[i]), stamp, stamp, config.userId, config.userId, ...cells];
        const start = params.length;
        params.push(...row);
        return `(${row.map((_, j) => `$${start + j + 1}`).join(', ')})`;
      });
      const inserted = await client.query(
        `INSERT INTO ${table} ("order", "created_on", "updated_on", "created_by_id", "last_modified_by_id", ${names.map(q).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`,
        params,
      );
      if (this.fts) for (const row of inserted.rows) await this.writeFts(client, row);
      return inserted.rows.map((r) => serialize(r, false));
    });
  }

  update(id: number, values: Row): Promise<{ before: Row; after: Row } | null> {
    const names = Object.keys(values);
    const cells = names.map((name) => cellValue(byName.get(name)!, values[name], false));
    return this.transaction(async (client) => {
      const before = (await client.query(`SELECT * FROM ${table} WHERE "id" = $1 AND "trashed" = FALSE FOR UPDATE`, [id])).rows[0];
      if (!before) return null;
      const sets = names.map((n, i) => `${q(n)} = $${i + 1}`).join(', ');
      const after = (
        await client.query(
          `UPDATE ${table} SET ${sets}, "updated_on" = $${names.length + 1}, "last_modified_by_id" = $${names.length + 2} WHERE "id" = $${names.length + 3} RETURNING *`,
          [...cells, now(), config.userId, id],
        )
      ).rows[0];
      if (this.fts) await this.writeFts(client, after);
      return { before: serialize(before, false), after: serialize(after, false) };
    });
  }

  private async writeFts(client: PoolClient, row: Row): Promise<void> {
    await client.query(`INSERT INTO ${ftsTable} ("id", "tsv") VALUES ($1, to_tsvector('simple', $2)) ON CONFLICT ("id") DO UPDATE SET "tsv" = EXCLUDED."tsv"`, [row.id, ftsBody(row)]);
  }

  async buildFts(): Promise<void> {
    const body = config.search.map((c) => `COALESCE(${q(c)}, '')`).join(" || ' ' || ");
    await this.pool.query(`DROP TABLE IF EXISTS ${ftsTable}`);
    await this.pool.query(`CREATE TABLE ${ftsTable} ("id" integer PRIMARY KEY, "tsv" tsvector NOT NULL)`);
    await this.pool.query(`INSERT INTO ${ftsTable} SELECT "id", to_tsvector('simple', ${body}) FROM ${table} WHERE "trashed" = FALSE`);
    await this.pool.query(`CREATE INDEX ON ${ftsTable} USING gin ("tsv")`);
    await this.pool.query(`ANALYZE ${ftsTable}`);
    this.fts = true;
  }

  async dropFts(): Promise<void> {
    await this.pool.query(`DROP TABLE IF EXISTS ${ftsTable}`);
    this.fts = false;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

// ---------------------------------------------------------------- HTTP and WebSocket

const store: Store = config.databaseUrl ? new PostgresStore(config.databaseUrl) : new SqliteStore(config.sqlitePath!);
/** Sockets subscribed to the table page. */
const audience = new Set<WebSocket>();

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch {
        reject(new BadRequest('invalid JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** The request's known columns only (anything else is refused, so no name reaches SQL unchecked). */
function fieldsOf(body: unknown): Row {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('expected an object');
  for (const key of Object.keys(body)) if (!byName.has(key)) throw new BadRequest(`unknown field ${key}`);
  return body as Row;
}

/** Rowspace's list answer: the count (when computed), the next page's link, the rows. */
function listAnswer(page: Page, path: string): Row {
  const more = page.count === null ? page.rows.length === PAGE_SIZE : page.count > PAGE_SIZE;
  const next = more ? `${config.publicUrl}${path}${path.includes('?') ? '&' : '?'}page=2` : null;
  return page.count === null ? { next, previous: null, results: page.rows } : { count: page.count, next, previous: null, results: page.rows };
}

function broadcast(message: unknown): void {
  const text = JSON.stringify(message);
  for (const ws of audience) if (ws.readyState === WebSocket.OPEN) ws.send(text);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bare');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/list') {
    const gt = Number(url.searchParams.get('gt'));
    if (!Number.isFinite(gt)) throw new BadRequest('gt must be a number');
    return reply(res, 200, listAnswer(await store.list(gt, url.searchParams.get('count') !== '0'), req.url!));
  }
  if (req.method === 'GET' && (path === '/search' || path === '/scan')) {
    const term = url.searchParams.get('q') ?? '';
    const mode = url.searchParams.get('mode') === 'fts' ? 'fts' : 'compat';
    return reply(res, 200, listAnswer(path === '/scan' ? await store.scan(term) : await store.search(term, mode), req.url!));
  }
  if (req.method === 'POST' && path === '/rows') {
    const [row] = await store.create([fieldsOf(await readJson(req))]);
    return reply(res, 200, row);
  }
  if (req.method === 'POST' && path === '/rows/batch') {
    const body = await readJson(req);
    if (!Array.isArray(body?.items) || body.items.length === 0 || body.items.length > 200) throw new BadRequest('items: 1 to 200 rows');
    return reply(res, 200, { items: await store.create(body.items.map(fieldsOf)) });
  }
  const patch = /^\/rows\/(\d+)$/.exec(path);
  if (req.method === 'PATCH' && patch) {
    const values = fieldsOf(await readJson(req));
    if (!Object.keys(values).length) throw new BadRequest('nothing to update');
    const id = Number(patch[1]);
    const result = await store.update(id, values);
    if (!result) return reply(res, 404, { error: 'ERROR_ROW_DOES_NOT_EXIST' });
    broadcast({ type: 'before_rows_update', table_id: config.tableId, row_ids: [id], rows: [result.before] });
    broadcast({
      type: 'rows_updated', table_id: config.tableId, rows_before_update: [result.before], rows: [result.after], metadata: {},
      updated_field_ids: Object.keys(values).map((k) => Number(k.replace('field_', ''))),
    });
    return reply(res, 200, result.after);
  }
  if (path === '/fts' && (req.method === 'POST' || req.method === 'DELETE')) {
    const start = performance.now();
    await (req.method === 'POST' ? store.buildFts() : store.dropFts());
    return reply(res, 200, { seconds: (performance.now() - start) / 1000 });
  }
  reply(res, 404, { error: 'not found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    if (res.headersSent) return;
    if (error instanceof BadRequest) reply(res, 400, { error: error.message });
    else reply(res, 500, { error: String(error) });
  });
});
// Node's defaults, as Rowspace's server has them (keepAliveTimeout 5 s: a connection whose next
// request waits behind more than 5 s of synchronous work is closed with that request unread, and
// its client sees ECONNRESET; both servers do that when SQLite scans saturate them).

const wss = new WebSocketServer({ server, path: '/ws/core/' });
wss.on('connection', (ws) => {
  ws.send(JSON.stringify({ type: 'authentication', success: true, web_socket_id: null }));
  ws.on('message', (data) => {
    let frame: any;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (frame?.page === 'table' && frame.table_id === config.tableId) {
      audience.add(ws);
      ws.send(JSON.stringify({ type: 'page_add', page: 'table', parameters: { table_id: config.tableId } }));
    }
  });
  ws.on('close', () => audience.delete(ws));
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.send?.({ url: `http://127.0.0.1:${address.port}` });
});

const stop = () => {
  for (const ws of audience) ws.terminate();
  server.close();
  void store.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
