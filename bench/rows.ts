/**
 * Rows benchmark (`npm run bench`).
 *
 * Builds a table of BENCH_ROWS rows (default 100,000) with ten fields of mixed types (text, long
 * text, boolean, two numbers, date, single select, rating, e-mail, duration) through the public
 * API only: sign-up, the example database, `POST /api/database/tables/database/{id}/`, field
 * creation, then `POST /api/database/rows/table/{id}/batch/` with 200 rows per request. The
 * values come from a seeded PRNG, so every run builds the same table and the expected counts
 * are known in advance. It then measures:
 *  - insert: rows/s of the whole batch insertion (BENCH_INSERT_CONCURRENCY requests in flight);
 *  - list: `GET /api/database/rows/table/{id}/?size=100&filter__field_<amount>__higher_than=600
 *    &order_by=-field_<quantity>` (about 20 % of the rows match; the response carries the exact
 *    count) with 10 and 50 clients looping for BENCH_SECONDS after a 2 s warm-up: req/s, p50,
 *    p99; every response must be 200 with the expected count, anything else is an error;
 *  - saved_view: `GET /api/database/views/grid/{id}/?size=100` of a grid view saving the same
 *    selection (two filters in a filter group, a sort) with a decoration, measured like the list;
 *  - aggregations: `GET /api/database/views/grid/{id}/aggregations/` of that view (sum of the
 *    amounts, unique count of the quantities, checked against the generated values);
 *  - search: the same plus `&search=quokka` (a word in about 3 % of the names);
 *  - list_token: the list again with `Authorization: Token <database token key>` instead of the JWT;
 *    the insertion also alternates JWT and database token batches and reports both rates;
 *  - ws: 100 sockets subscribed to the table page; one row PATCH is timed from sending the
 *    request to the last socket receiving its `rows_updated` (BENCH_WS_RUNS runs after 3 warm-ups).
 * With BENCH_DB_INDEX=both (default) the three measurements run without indexes, then
 * `db_index` is switched on for the filtered and the sorted field through
 * `PATCH /api/database/fields/{id}/` and they run again; `on` creates both fields with
 * `db_index` (so the insertion maintains the indexes), `off` measures without.
 *
 * The server runs in a child process (ts-node --swc, like bench/ws.ts) on a fresh SQLite
 * database in a temporary folder, or, when DATABASE_URL points at a PostgreSQL server, on a
 * fresh database `rowspace_bench_<random>` created on that server and dropped afterwards. The
 * clients (this process) use node:http with keep-alive agents (one connection per client).
 *
 * Environment: DATABASE_URL, BENCH_ROWS (100000), BENCH_SECONDS (10), BENCH_CONCURRENCY
 * ("10,50"), BENCH_INSERT_CONCURRENCY (1), BENCH_DB_INDEX (both|on|off), BENCH_WS_SOCKETS (100),
 * BENCH_WS_RUNS (30). Prints one JSON document on stdout; progress goes to stderr.
 */
import { Client } from 'pg';
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ServerProcess, sqlitePathOf, startRowspace, stopServer } from './server';
import { prng } from '../test/support/fuzz';

export function envInt(key: string, def: number, min = 1): number {
  const raw = process.env[key];
  if (raw === undefined || raw.trim() === '') return def;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${key} must be a number >= ${min}, got "${raw}"`);
  return value;
}

export const ROWS = Math.floor(envInt('BENCH_ROWS', 100_000));
export const SECONDS = envInt('BENCH_SECONDS', 10, 0.1);
export const WARMUP_SECONDS = 2;
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '10,50').split(',').map((c) => Math.floor(Number(c)));
export const INSERT_CONCURRENCY = Math.floor(envInt('BENCH_INSERT_CONCURRENCY', 1));
const INDEX_MODE = (process.env.BENCH_DB_INDEX ?? 'both').toLowerCase();
const WS_SOCKETS = Math.floor(envInt('BENCH_WS_SOCKETS', 100));
const WS_RUNS = Math.floor(envInt('BENCH_WS_RUNS', 30));
const WS_WARMUP = 3;
const WS_TIMEOUT_MS = 10_000;
export const BATCH_SIZE = 200;
export const PAGE_SIZE = 100;
/** `filter__field_<amount>__higher_than`: amounts are uniform in [-1000, 1000), so 20 % are above. */
const FILTER_ABOVE = 600;
/** The search term, in about 3 % of the names and nowhere else. */
const SEARCH_TERM = 'quokka';
const SEARCH_SHARE = 0.03;
const SEED = 20240501;
/** Access tokens live 60 minutes; they are refreshed well before. */
const TOKEN_REFRESH_MS = 20 * 60_000;

if (!['both', 'on', 'off'].includes(INDEX_MODE)) throw new Error(`BENCH_DB_INDEX must be both, on or off, got "${INDEX_MODE}"`);
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1)) throw new Error(`BENCH_CONCURRENCY must list whole numbers, got "${process.env.BENCH_CONCURRENCY}"`);

export const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

// ---------------------------------------------------------------- server (child process)

/** A fresh database on the PostgreSQL server of `serverUrl`, dropped by `drop()`. */
export async function freshPostgres(serverUrl: string): Promise<{ url: string; version: string; drop(): Promise<void> }> {
  const { Client } = await import('pg');
  const admin = new URL(serverUrl);
  if (admin.pathname === '' || admin.pathname === '/') admin.pathname = '/postgres';
  const name = `rowspace_bench_${randomBytes(4).toString('hex')}`;
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const query = async (sql: string) => {
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`CREATE DATABASE ${name}`);
  const version = (await query('SHOW server_version')).rows[0].server_version as string;
  return { url: target.toString(), version, drop: async () => void (await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

// ---------------------------------------------------------------- HTTP client (this process)

interface Reply {
  status: number;
  text: string;
}

/** One request over `agent`; resolves once the whole body is read. `auth`: the `Authorization` header. */
export function send(agent: Agent, base: URL, method: string, path: string, body?: unknown, auth?: string): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = Buffer.byteLength(payload);
  }
  if (auth) headers.Authorization = auth;
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: base.hostname, port: base.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Keep-alive connections that are dropped after 4 s unused: Node's servers close a connection idle
 * for 5 s (keepAliveTimeout), and a request sent on it just then fails with ECONNRESET (when one
 * slow request keeps a load's other clients waiting, their connections sit idle that long).
 */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, timeout: 4000 });
}

/** The setup/measurement API of one server: JSON in, JSON out, errors on >= 400. */
export class Api {
  readonly base: URL;
  readonly agent = keepAliveAgent(16);
  token = '';
  /** A database token key with every permission on the bench user's workspace. */
  databaseTokenKey = '';
  private refreshToken = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(url: string) {
    this.base = new URL(url);
  }

  get jwtAuth(): string {
    return `JWT ${this.token}`;
  }

  get tokenAuth(): string {
    return `Token ${this.databaseTokenKey}`;
  }

  async call(method: string, path: string, body?: unknown, auth = this.token ? this.jwtAuth : undefined): Promise<any> {
    const reply = await send(this.agent, this.base, method, path, body, auth);
    if (reply.status >= 400) throw new Error(`${method} ${path}: ${reply.status} ${reply.text.slice(0, 500)}`);
    return reply.text ? JSON.parse(reply.text) : null;
  }

  /** Signs a new user up (which creates the example workspace and database) and keeps the tokens fresh. */
  async signUp(): Promise<void> {
    const signedUp = await this.call('POST', '/api/user/', {
      name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'password123', authenticate: true,
    });
    this.token = signedUp.access_token;
    this.refreshToken = signedUp.refresh_token;
    this.timer = setInterval(() => {
      this.call('POST', '/api/user/token-refresh/', { refresh_token: this.refreshToken })
        .then((refreshed) => (this.token = refreshed.access_token))
        .catch((error) => log(`token refresh failed: ${error}`));
    }, TOKEN_REFRESH_MS);
    this.timer.unref();
    const [workspace] = await this.call('GET', '/api/workspaces/');
    this.databaseTokenKey = (await this.call('POST', '/api/database/tokens/', { name: 'Bench', workspace: workspace.id })).key;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------- the table

export const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'gamma', 'harbor', 'indigo', 'juniper', 'kelvin', 'lumen', 'maple', 'nimbus', 'onyx', 'pepper', 'quartz', 'raven', 'sierra', 'tundra', 'umber', 'velvet', 'willow', 'xenon', 'yonder', 'zephyr'];
const LOREM = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do', 'eiusmod', 'tempor', 'incididunt', 'ut', 'labore', 'et', 'dolore', 'magna', 'aliqua'];
const STATUSES = [
  { value: 'Backlog', color: 'light-gray' },
  { value: 'Todo', color: 'light-blue' },
  { value: 'Doing', color: 'yellow' },
  { value: 'Review', color: 'light-orange' },
  { value: 'Done', color: 'green' },
];

interface Fields {
  name: number;
  notes: number;
  active: number;
  amount: number;
  quantity: number;
  due: number;
  status: number;
  stars: number;
  email: number;
  spent: number;
  statusOptions: number[];
}

/** What the measured queries must answer (the saved view's aggregations over the filtered rows). */
interface Expected {
  list: number;
  search: number;
  amountSum: number;
  uniqueQuantities: number;
}

interface Generated {
  /** Row index → amount in cents, to know the expected counts. */
  amountCents: Int32Array;
  quantity: Int32Array;
  searchHit: Uint8Array;
}

/** Creates the table and its ten fields; answers the table id and the field ids. */
async function createTable(api: Api, indexed: boolean): Promise<{ tableId: number; fields: Fields }> {
  const applications = await api.call('GET', '/api/applications/');
  const database = applications.find((a: any) => a.type === 'database');
  if (!database) throw new Error('the sign-up created no database application');
  const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Bench' });
  // A table created without data has Name (text, primary), Notes (long_text), Active (boolean) and 2 empty rows.
  const initial: any[] = await api.call('GET', `/api/database/fields/table/${table.id}/`);
  const byName = (name: string, type: string) => {
    const field = initial.find((f) => f.name === name && f.type === type);
    if (!field) throw new Error(`the new table has no ${type} field "${name}": ${JSON.stringify(initial.map((f) => [f.name, f.type]))}`);
    return field.id as number;
  };
  const create = (body: Record<string, unknown>) => api.call('POST', `/api/database/fields/table/${table.id}/`, body);
  const index = indexed ? { db_index: true } : {};
  const amount = await create({ name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true, ...index });
  const quantity = await create({ name: 'Quantity', type: 'number', number_decimal_places: 0, ...index });
  const due = await create({ name: 'Due', type: 'date', date_format: 'ISO', date_include_time: false });
  const status = await create({ name: 'Status', type: 'single_select', select_options: STATUSES });
  const stars = await create({ name: 'Stars', type: 'rating', max_value: 5 });
  const email = await create({ name: 'Email', type: 'email' });
  const spent = await create({ name: 'Time spent', type: 'duration', duration_format: 'h:mm' });
  if (indexed && !(amount.db_index && quantity.db_index)) throw new Error('db_index was not set on field creation');
  const statusOptions = (status.select_options as { id: number; value: string }[]).map((o) => o.id);
  if (statusOptions.length !== STATUSES.length) throw new Error(`single select has ${statusOptions.length} options`);
  // The two empty initial rows go, so the table has exactly ROWS rows.
  await deleteInitialRows(api, table.id);
  return {
    tableId: table.id,
    fields: {
      name: byName('Name', 'text'), notes: byName('Notes', 'long_text'), active: byName('Active', 'boolean'),
      amount: amount.id, quantity: quantity.id, due: due.id, status: status.id, stars: stars.id, email: email.id, spent: spent.id,
      statusOptions,
    },
  };
}

/** Deletes the rows of a table just created (a new table comes with two empty rows). */
export async function deleteInitialRows(api: Api, tableId: number): Promise<void> {
  const existing = await api.call('GET', `/api/database/rows/table/${tableId}/?size=200`);
  const ids = (existing.results as { id: number }[]).map((r) => r.id);
  if (!ids.length) return;
  try {
    await api.call('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: ids });
  } catch {
    for (const id of ids) await api.call('DELETE', `/api/database/rows/table/${tableId}/${id}/`);
  }
}

/** The deterministic rows, built in batches of BATCH_SIZE. */
function generateRows(fields: Fields): { batches: Record<string, unknown>[][]; generated: Generated } {
  const random = prng(SEED);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const generated: Generated = { amountCents: new Int32Array(ROWS), quantity: new Int32Array(ROWS), searchHit: new Uint8Array(ROWS) };
  const day0 = Date.UTC(2020, 0, 1);
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < ROWS; i++) {
    const hit = random() < SEARCH_SHARE;
    const name = hit ? `${pick(WORDS)} ${SEARCH_TERM} ${i}` : `${pick(WORDS)} ${pick(WORDS)} ${i}`;
    const cents = Math.floor(random() * 200_000) - 100_000;
    const quantity = Math.floor(random() * 1_000_000);
    const notes = random() < 0.2 ? null : Array.from({ length: 4 + Math.floor(random() * 12) }, () => pick(LOREM)).join(' ');
    generated.amountCents[i] = cents;
    generated.quantity[i] = quantity;
    generated.searchHit[i] = hit ? 1 : 0;
    const row = {
      [`field_${fields.name}`]: name,
      [`field_${fields.notes}`]: notes,
      [`field_${fields.active}`]: random() < 0.5,
      [`field_${fields.amount}`]: (cents / 100).toFixed(2),
      [`field_${fields.quantity}`]: quantity,
      [`field_${fields.due}`]: new Date(day0 + Math.floor(random() * 2000) * 86_400_000).toISOString().slice(0, 10),
      [`field_${fields.status}`]: random() < 0.1 ? null : pick(fields.statusOptions),
      [`field_${fields.stars}`]: Math.floor(random() * 6),
      [`field_${fields.email}`]: `${pick(WORDS)}.${i}@example.org`,
      [`field_${fields.spent}`]: Math.floor(random() * 6000) * 60,
    };
    if (i % BATCH_SIZE === 0) batches.push([]);
    batches[batches.length - 1].push(row);
  }
  return { batches, generated };
}

/**
 * Inserts every batch, INSERT_CONCURRENCY requests in flight, alternating the JWT and the
 * database token; answers the elapsed seconds and, per credential, the rows and the summed
 * request seconds.
 */
export async function insertRows(api: Api, tableId: number, batches: Record<string, unknown>[][], concurrency = INSERT_CONCURRENCY) {
  let next = 0;
  let done = 0;
  const byAuth = { jwt: { rows: 0, seconds: 0 }, token: { rows: 0, seconds: 0 } };
  const start = performance.now();
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      const batch = batches[index];
      const kind = index % 2 === 0 ? 'jwt' : 'token';
      const t0 = performance.now();
      const created = await api.call('POST', `/api/database/rows/table/${tableId}/batch/`, { items: batch }, kind === 'jwt' ? api.jwtAuth : api.tokenAuth);
      byAuth[kind].rows += batch.length;
      byAuth[kind].seconds += (performance.now() - t0) / 1000;
      if (created?.items?.length !== batch.length) throw new Error(`batch create answered ${created?.items?.length} rows for ${batch.length}`);
      done += 1;
      if (Math.floor((done * 10) / batches.length) > Math.floor(((done - 1) * 10) / batches.length)) log(`inserted ${done} of ${batches.length} batches`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return { seconds: (performance.now() - start) / 1000, byAuth };
}

// ---------------------------------------------------------------- load (list and search)

export function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index] * 100) / 100;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The `count` of a list response, read from the start of the body (parsing everything only if needed). */
function countOf(text: string): number | null {
  const match = /^\{\s*"count"\s*:\s*(\d+)/.exec(text.slice(0, 64));
  if (match) return Number(match[1]);
  try {
    const count = JSON.parse(text).count;
    return typeof count === 'number' ? count : null;
  } catch {
    return null;
  }
}

/** What a 200 answer must hold: null when it does, else the problem. */
export type AnswerCheck = (text: string) => string | null;

/** The answer's exact `count` must be `expected`. */
export const countIs =
  (expected: number): AnswerCheck =>
  (text) => {
    const count = countOf(text);
    return count === expected ? null : `count ${count}, expected ${expected}`;
  };

/** One request of a load, made afresh for each request (a new filter value, a new row to create). */
export interface LoadRequest {
  method?: string;
  path: string;
  body?: unknown;
  /** What this answer must hold, instead of the load's check. */
  check?: AnswerCheck;
}

/** A fixed GET path, or a maker called once per request (it keeps its own sequence, so a later load continues it). */
export type LoadTarget = string | (() => LoadRequest);

export interface LoadOptions {
  /** Seconds of unrecorded requests first (default WARMUP_SECONDS; 0 for none). */
  warmupSeconds?: number;
  /** Seconds measured (default SECONDS). */
  seconds?: number;
}

/**
 * `clients` workers, each with its own keep-alive connection, send `target` back to back: a
 * warm-up of WARMUP_SECONDS, then SECONDS measured. A response counts as an error unless it is
 * 200 and passes the check (the request's own, else `check`).
 */
export async function load(api: Api, target: LoadTarget, clients: number, check: AnswerCheck, credential: 'jwt' | 'token' = 'jwt', options: LoadOptions = {}) {
  const agent = keepAliveAgent(clients);
  const next = typeof target === 'string' ? () => ({ path: target }) as LoadRequest : target;
  const firstErrors: string[] = [];
  let warmupRequests = 0;
  const run = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const end = start + seconds * 1000;
    const worker = async () => {
      while (performance.now() < end) {
        const request = next();
        const t0 = performance.now();
        let problem: string | null = null;
        try {
          const reply = await send(agent, api.base, request.method ?? 'GET', request.path, request.body, credential === 'jwt' ? api.jwtAuth : api.tokenAuth);
          if (reply.status !== 200) problem = `status ${reply.status}: ${reply.text.slice(0, 200)}`;
          else problem = (request.check ?? check)(reply.text);
        } catch (error) {
          problem = String(error);
        }
        const latency = performance.now() - t0;
        if (!record) {
          if (!problem) warmupRequests += 1;
          continue;
        }
        if (problem) {
          errors += 1;
          if (firstErrors.length < 3) firstErrors.push(problem);
        } else latencies.push(latency);
      }
    };
    await Promise.all(Array.from({ length: clients }, worker));
    const elapsed = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    return { latencies, errors, elapsed, clientCpu: (cpu.user + cpu.system) / 1e6 / elapsed };
  };
  try {
    const warmup = options.warmupSeconds ?? WARMUP_SECONDS;
    if (warmup > 0) await run(warmup, false);
    const { latencies, errors, elapsed, clientCpu } = await run(options.seconds ?? SECONDS, true);
    return {
      clients,
      seconds: round(elapsed),
      requests: latencies.length + errors,
      errors,
      req_per_s: round(latencies.length / elapsed, 1),
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      max_ms: latencies.length ? round(Math.max(...latencies)) : null,
      /** CPU of this (client) process per wall-clock second: near 1 means the client, not the server, was the limit. */
      client_cpu: round(clientCpu),
      /** Answered requests of the warm-up (not in the figures above). */
      warmup_requests: warmupRequests,
      ...(firstErrors.length ? { first_errors: firstErrors } : {}),
    };
  } finally {
    agent.destroy();
  }
}

/** One request checked in depth: page size, filter, sort order and (for search) the term. */
async function verifyList(api: Api, path: string, fields: Fields, expectedCount: number, search: boolean): Promise<string[]> {
  const problems: string[] = [];
  let page: any;
  try {
    page = await api.call('GET', path);
  } catch (error) {
    return [String(error)];
  }
  if (page.count !== expectedCount) problems.push(`count ${page.count}, expected ${expectedCount}`);
  const rows: any[] = page.results ?? [];
  if (rows.length !== Math.min(PAGE_SIZE, expectedCount)) problems.push(`${rows.length} rows on the first page`);
  const quantities = rows.map((r) => Number(r[`field_${fields.quantity}`]));
  if (quantities.some((q, i) => i > 0 && q > quantities[i - 1])) problems.push('rows are not sorted by quantity descending');
  if (rows.some((r) => !(Number(r[`field_${fields.amount}`]) > FILTER_ABOVE))) problems.push(`a row has an amount <= ${FILTER_ABOVE}`);
  if (search && rows.some((r) => !String(r[`field_${fields.name}`]).includes(SEARCH_TERM))) problems.push(`a row's name lacks "${SEARCH_TERM}"`);
  return problems;
}

// ---------------------------------------------------------------- real time

export interface WsSample {
  fromRequest: number;
  afterResponse: number;
  http: number;
}

/**
 * Sockets subscribed to one table page, counting the `rows_updated` messages of the current run
 * (`measure`), or, between `startCounting` and `stopCounting`, every `rows_updated` without
 * parsing it (a load of writes fans out more messages than this process could parse).
 */
export class Audience {
  readonly sockets: WebSocket[] = [];
  private match: ((message: any) => boolean) | null = null;
  private received = 0;
  private last = 0;
  private done: (() => void) | null = null;
  private counting = false;
  private countedMessages = 0;

  startCounting(): void {
    this.countedMessages = 0;
    this.counting = true;
  }

  /** The `rows_updated` messages received since `startCounting`. */
  get counted(): number {
    return this.countedMessages;
  }

  /** Stops counting; answers the `rows_updated` messages received since `startCounting`. */
  stopCounting(): number {
    this.counting = false;
    return this.countedMessages;
  }

  async open(url: string, token: string, tableId: number, count: number): Promise<void> {
    const connect = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/core/?jwt_token=${token}`, { skipUTF8Validation: true });
        let state: 'auth' | 'page' | 'ready' = 'auth';
        const timer = setTimeout(() => reject(new Error(`socket stuck waiting for ${state}`)), WS_TIMEOUT_MS);
        ws.on('message', (data: Buffer) => {
          if (state === 'ready' && this.counting) {
            if (data.indexOf('"type":"rows_updated"') !== -1) this.countedMessages += 1;
            return;
          }
          const message = JSON.parse(data.toString());
          if (state === 'auth') {
            if (message.type !== 'authentication' || !message.success) return reject(new Error(`authentication failed: ${data}`));
            state = 'page';
            ws.send(JSON.stringify({ page: 'table', table_id: tableId }));
          } else if (state === 'page') {
            if (message.type === 'page_add' && message.page === 'table') {
              state = 'ready';
              clearTimeout(timer);
              resolve(ws);
            }
          } else if (this.match?.(message)) {
            this.received += 1;
            this.last = performance.now();
            if (this.received === this.sockets.length) this.done?.();
          }
        });
        ws.on('error', reject);
      });
    for (let opened = 0; opened < count; opened += 20) {
      this.sockets.push(...(await Promise.all(Array.from({ length: Math.min(20, count - opened) }, connect))));
    }
  }

  /** Runs `trigger`; answers the timings in ms, or null if not every socket got its message in time. */
  async measure(match: (message: any) => boolean, trigger: () => Promise<void>): Promise<WsSample | null> {
    this.received = 0;
    this.match = match;
    let timer: NodeJS.Timeout | undefined;
    const all = new Promise<boolean>((resolve) => {
      this.done = () => resolve(true);
      timer = setTimeout(() => resolve(false), WS_TIMEOUT_MS);
    });
    const start = performance.now();
    await trigger();
    const response = performance.now();
    const complete = await all;
    clearTimeout(timer);
    this.match = null;
    if (!complete) return null;
    return { fromRequest: this.last - start, afterResponse: Math.max(0, this.last - response), http: response - start };
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}

async function benchWs(api: Api, tableId: number, fields: Fields) {
  const audience = new Audience();
  try {
    return await wsRuns(api, tableId, fields, audience);
  } catch (error) {
    return { error: String(error) };
  } finally {
    audience.close();
  }
}

async function wsRuns(api: Api, tableId: number, fields: Fields, audience: Audience) {
  await audience.open(api.base.origin, api.token, tableId, WS_SOCKETS);
  const rowId = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=1&page=${Math.max(1, Math.floor(ROWS / 2))}`)).results[0].id;
  const key = `field_${fields.notes}`;
  const samples: WsSample[] = [];
  let incomplete = 0;
  for (let run = 0; run < WS_WARMUP + WS_RUNS; run++) {
    const marker = `ws run ${run} ${randomBytes(3).toString('hex')}`;
    const sample = await audience.measure(
      (m) => m.type === 'rows_updated' && m.table_id === tableId && Array.isArray(m.rows) && m.rows.some((r: any) => r.id === rowId && r[key] === marker),
      async () => void (await api.call('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, { [key]: marker })),
    );
    if (run < WS_WARMUP) continue;
    if (sample) samples.push(sample);
    else incomplete += 1;
  }
  const pick = (k: keyof WsSample) => ({ p50: percentile(samples.map((s) => s[k]), 50), p99: percentile(samples.map((s) => s[k]), 99) });
  return {
    sockets: WS_SOCKETS,
    runs: WS_RUNS,
    incomplete_runs: incomplete,
    fromRequestMs: pick('fromRequest'),
    afterResponseMs: pick('afterResponse'),
    httpMs: pick('http'),
  };
}

// ---------------------------------------------------------------- main

/**
 * A grid view saving the list's selection: a filter group (AND) with amount > FILTER_ABOVE and
 * quantity >= 0 (every row), sorted by quantity descending, with a background colour by the
 * status option; its rows endpoint is measured next to the ad-hoc list. Its footer aggregations
 * are the sum of the amounts and the unique count of the quantities.
 */
async function createSavedView(api: Api, tableId: number, fields: Fields): Promise<number> {
  const view = await api.call('POST', `/api/database/views/table/${tableId}/`, { name: 'Saved selection', type: 'grid' });
  const group = await api.call('POST', `/api/database/views/${view.id}/filter-groups/`, { filter_type: 'AND' });
  await api.call('POST', `/api/database/views/${view.id}/filters/`, { field: fields.amount, type: 'higher_than', value: String(FILTER_ABOVE), group: group.id });
  await api.call('POST', `/api/database/views/${view.id}/filters/`, { field: fields.quantity, type: 'higher_than_or_equal', value: '0', group: group.id });
  await api.call('POST', `/api/database/views/${view.id}/sortings/`, { field: fields.quantity, order: 'DESC' });
  await api.call('POST', `/api/database/views/${view.id}/decorations/`, { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: fields.status } });
  await api.call('PATCH', `/api/database/views/${view.id}/field-options/`, {
    field_options: { [fields.amount]: { aggregation_raw_type: 'sum' }, [fields.quantity]: { aggregation_raw_type: 'unique_count' } },
  });
  return view.id;
}

async function measureMode(api: Api, tableId: number, fields: Fields, expected: Expected, savedViewId: number) {
  const base = `/api/database/rows/table/${tableId}/?size=${PAGE_SIZE}&filter__field_${fields.amount}__higher_than=${FILTER_ABOVE}&order_by=-field_${fields.quantity}`;
  const queries = {
    list: { path: base, count: expected.list, credential: 'jwt' as const },
    saved_view: { path: `/api/database/views/grid/${savedViewId}/?size=${PAGE_SIZE}`, count: expected.list, credential: 'jwt' as const },
    list_token: { path: base, count: expected.list, credential: 'token' as const },
    search: { path: `${base}&search=${SEARCH_TERM}`, count: expected.search, credential: 'jwt' as const },
  };
  const result: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    const checks = await verifyList(api, query.path, fields, query.count, name === 'search');
    const levels: Record<string, unknown> = { expected_count: query.count, credential: query.credential, checks: checks.length ? checks : 'ok' };
    for (const clients of CONCURRENCY) {
      log(`${name} at ${clients} clients`);
      levels[`c${clients}`] = await load(api, query.path, clients, countIs(query.count), query.credential);
    }
    result[name] = levels;
  }
  const aggregations = `/api/database/views/grid/${savedViewId}/aggregations/`;
  const aggregationsCheck: AnswerCheck = (text) => {
    const body = JSON.parse(text) as Record<string, unknown>;
    const sum = Number(body[`field_${fields.amount}`]);
    const unique = body[`field_${fields.quantity}`];
    if (Math.abs(sum - expected.amountSum) > 0.005 || unique !== expected.uniqueQuantities) {
      return `sum ${sum} and unique_count ${String(unique)}, expected ${expected.amountSum} and ${expected.uniqueQuantities}`;
    }
    return null;
  };
  const first = await api.call('GET', aggregations);
  const aggregationLevels: Record<string, unknown> = { checks: aggregationsCheck(JSON.stringify(first)) ?? 'ok' };
  for (const clients of CONCURRENCY) {
    log(`aggregations at ${clients} clients`);
    aggregationLevels[`c${clients}`] = await load(api, aggregations, clients, aggregationsCheck);
  }
  result.aggregations = aggregationLevels;
  log(`ws with ${WS_SOCKETS} sockets`);
  result.ws = await benchWs(api, tableId, fields);
  return result;
}

export function machine() {
  const cpu = cpus();
  let commit: string | null = null;
  try {
    commit = execSync('git describe --always --dirty', { cwd: __dirname, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // Not a checkout.
  }
  return {
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpu: cpu[0]?.model ?? null,
    cpus: cpu.length,
    memory_gb: round(totalmem() / 2 ** 30, 1),
    loadavg: loadavg().map((l) => round(l)),
    commit,
  };
}

/**
 * Runs `work` against a fresh Rowspace (a throw-away SQLite folder, or a temporary PostgreSQL
 * database with DATABASE_URL, or `options.databaseUrl` when given: null for SQLite) with a
 * signed-up client; everything is removed afterwards, on Ctrl-C too.
 */
export async function withRowspace(
  name: string,
  work: (api: Api, postgres: { url: string; version: string } | null, server: { pid: number; dataDir: string; sqlitePath: string }) => Promise<void>,
  options: { databaseUrl?: string | null } = {},
): Promise<void> {
  const serverUrl = options.databaseUrl !== undefined ? options.databaseUrl : process.env.DATABASE_URL || null;
  const postgres = serverUrl ? await freshPostgres(serverUrl) : null;
  const dataDir = mkdtempSync(join(tmpdir(), `rowspace-bench-${name}-`));
  let server: ServerProcess | null = null;
  let api: Api | null = null;
  const cleanup = async () => {
    api?.close();
    if (server) await stopServer(server, 10_000);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    server?.child.kill('SIGKILL');
    void cleanup().finally(() => process.exit(130));
  });
  try {
    server = await startRowspace(dataDir, postgres?.url ?? null);
    api = new Api(server.url);
    await api.signUp();
    await work(api, postgres, { pid: server.child.pid!, dataDir, sqlitePath: sqlitePathOf(dataDir) });
  } finally {
    await cleanup();
  }
}

async function main(): Promise<void> {
  await withRowspace('rows', async (api, postgres) => {
    const indexedFromStart = INDEX_MODE === 'on';
    const { tableId, fields } = await createTable(api, indexedFromStart);
    const { batches, generated } = generateRows(fields);
    log(`inserting ${ROWS} rows in ${batches.length} batches, ${INSERT_CONCURRENCY} in flight`);
    const inserted = await insertRows(api, tableId, batches);
    const insertSeconds = inserted.seconds;
    const total = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=1`)).count;
    if (total !== ROWS) throw new Error(`the table has ${total} rows after inserting ${ROWS}`);

    let list = 0;
    let search = 0;
    let amountCents = 0;
    const quantities = new Set<number>();
    for (let i = 0; i < ROWS; i++) {
      if (generated.amountCents[i] > FILTER_ABOVE * 100) {
        list += 1;
        amountCents += generated.amountCents[i];
        quantities.add(generated.quantity[i]);
        if (generated.searchHit[i]) search += 1;
      }
    }
    const expected: Expected = { list, search, amountSum: amountCents / 100, uniqueQuantities: quantities.size };
    const savedViewId = await createSavedView(api, tableId, fields);

    const modes: Record<string, unknown> = {};
    if (INDEX_MODE !== 'on') {
      log('measuring without db_index');
      modes.no_index = await measureMode(api, tableId, fields, expected, savedViewId);
    }
    if (INDEX_MODE !== 'off') {
      let indexSeconds: number | null = null;
      let indexError: string | null = null;
      if (!indexedFromStart) {
        log('switching db_index on');
        const start = performance.now();
        try {
          for (const id of [fields.amount, fields.quantity]) {
            const field = await api.call('PATCH', `/api/database/fields/${id}/`, { db_index: true });
            if (field.db_index !== true) throw new Error(`PATCH db_index answered db_index ${JSON.stringify(field.db_index)}`);
          }
        } catch (error) {
          indexError = String(error);
        }
        indexSeconds = round((performance.now() - start) / 1000, 3);
      }
      if (indexError) modes.db_index = { error: indexError };
      else {
        log('measuring with db_index');
        modes.db_index = { indexed_fields: ['Amount (filtered)', 'Quantity (sorted)'], index_build_seconds: indexSeconds, ...(await measureMode(api, tableId, fields, expected, savedViewId)) };
      }
    }

    console.log(JSON.stringify({
      benchmark: 'rows: batch insert, filtered+sorted list with count, search, rows_updated fan-out',
      db: postgres ? 'postgres' : 'sqlite',
      ...(postgres ? { postgres_version: postgres.version } : {}),
      rows: ROWS,
      fields: ['text (primary, searched)', 'long_text', 'boolean', 'number 2 decimals (filtered)', 'number 0 decimals (sorted)', 'date', 'single_select (5 options)', 'rating', 'email', 'duration'],
      index_mode: INDEX_MODE,
      query: {
        list: `size=${PAGE_SIZE}&filter__field_<Amount>__higher_than=${FILTER_ABOVE}&order_by=-field_<Quantity>`,
        saved_view: `GET /api/database/views/grid/<id>/?size=${PAGE_SIZE}: a grid view saving the list's filter (with quantity >= 0, both in one filter group), sort and a background colour decoration`,
        aggregations: 'GET /api/database/views/grid/<id>/aggregations/ of that view: sum of Amount, unique_count of Quantity',
        search: `the same &search=${SEARCH_TERM}`,
        seconds: SECONDS,
        warmup_seconds: WARMUP_SECONDS,
      },
      insert: {
        rows_per_s: round(ROWS / insertSeconds, 1),
        seconds: round(insertSeconds, 3),
        batch_size: BATCH_SIZE,
        concurrency: INSERT_CONCURRENCY,
        // Batches alternate JWT and database token; rows per second of request time for each.
        jwt_rows_per_s: inserted.byAuth.jwt.seconds ? round(inserted.byAuth.jwt.rows / inserted.byAuth.jwt.seconds, 1) : null,
        token_rows_per_s: inserted.byAuth.token.seconds ? round(inserted.byAuth.token.rows / inserted.byAuth.token.seconds, 1) : null,
        db_index: indexedFromStart,
      },
      modes,
      machine: machine(),
    }, null, 2));
  });
}

// bench/formulas.ts imports the client, the load loop and the helpers above; only `npm run bench` runs this one.
if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** `size` made-up six-letter words (three consonant-vowel syllables): a term never matches inside another word. */
export function vocabulary(random: () => number, size: number): string[] {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  const syllable = () => consonants[Math.floor(random() * consonants.length)] + vowels[Math.floor(random() * vowels.length)];
  const words = new Set<string>();
  while (words.size < size) words.add(syllable() + syllable() + syllable());
  return [...words];
}

/**
 * Runs `work` on each database of `dbs` in turn; PostgreSQL is skipped (and said so) when the
 * server at `postgresUrl` does not answer. Answers the skipped databases with the reason.
 */
export async function onEachDatabase(dbs: string[], postgresUrl: string, work: (db: 'sqlite' | 'postgres') => Promise<void>): Promise<Record<string, string>> {
  const skipped: Record<string, string> = {};
  for (const db of dbs as ('sqlite' | 'postgres')[]) {
    const unreachable = db === 'postgres' ? await postgresReachable(postgresUrl) : null;
    if (unreachable) {
      skipped.postgres = `PostgreSQL at ${new URL(postgresUrl).host} is unreachable: ${unreachable}`;
      log(skipped.postgres);
      continue;
    }
    await work(db);
  }
  return skipped;
}

/** Fresh planner statistics of a user table on PostgreSQL (nothing on SQLite), before a benchmark reads it. */
export async function analyze(postgresUrl: string | null, tableId: number): Promise<void> {
  if (!postgresUrl) return;
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`ANALYZE "database_table_${tableId}"`);
  } finally {
    await client.end();
  }
}

/** null when PostgreSQL at `url` answers a connection, else why not. */
export async function postgresReachable(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return String(error);
  }
}
