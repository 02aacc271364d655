/**
 * Computed-fields benchmark (run by `npm run bench` after bench/rows.ts, or alone with
 * `npm run bench:formulas`).
 *
 * In one server, through the public API only, it builds:
 *  - Categories: CATEGORIES rows with a number `Value`;
 *  - Plain and Formulas: the same base fields (Name, Status text, Amount 2 decimals, Quantity,
 *    Created and Due dates, Link to Categories) and the same BENCH_ROWS rows (seeded PRNG; 5 % of
 *    the rows link nowhere); Formulas also has five formula fields, created before its rows:
 *      Total   field('Amount') * field('Quantity')
 *      Label   concat(field('Name'), ' ', field('Status'))
 *      Size    if(field('Amount') > 100, 'big', 'small')
 *      Days    date_diff('dd', field('Created'), field('Due'))
 *      Linked  sum(lookup('Link', 'Value'))
 *    and measures:
 *  - insert: `POST /api/database/rows/table/{id}/batch/` with 200 rows per request, alternating one
 *    batch into Plain and the same batch into Formulas, so both grow side by side under the same
 *    conditions; rows/s of request time per table and the ratio Formulas/Plain of the seconds;
 *  - list: `GET /api/database/rows/table/{id}/?size=100` (the exact count included) with
 *    BENCH_FORMULA_CONCURRENCY clients (10) for BENCH_SECONDS after a 2 s warm-up, per table;
 *  - list_sorted: the same ordered by a number, Amount descending on Plain and the formula Total
 *    descending on Formulas (a stored formula should sort like any number column).
 *    Every formula cell of a sample of pages is checked against the generated values first.
 *  - cascade: Cascade source has BENCH_CASCADE_ROWS rows (10,000, or BENCH_ROWS if smaller) linking
 *    to one row of Cascade target (plus a tenth as many linking to another row), a lookup of the
 *    target's Value and a rollup `sum` of it. One socket is subscribed to the source table's page
 *    (`/ws/core/?jwt_token=…`, `{"page":"table","table_id":…}`). Each run PATCHes the hot target
 *    row's Value and times, from sending the PATCH: its response (patch_ms); the `rows_updated` of
 *    the source table carrying the new value for every linked row (rows_updated_ms); and the end of
 *    a read-back of every source row, started right after the response, in which every dependent
 *    cell shows the new value and the other rows kept theirs (consistent_ms; readback_ms is the
 *    read-back alone). If the first read-back is not yet consistent it is repeated until it is.
 *    BENCH_CASCADE_RUNS runs (5) after one warm-up.
 * `aims` restates the issue's aims against these figures: list req/s of Formulas within 10 % of
 * Plain, batch create within 2x of Plain's seconds, the p50 over the runs of max(patch_ms,
 * rows_updated_ms) under one second (stated for SQLite; a run without its rows_updated or without
 * a consistent read-back fails it).
 * The links are created with `has_related_field: false`, so a target row's own JSON does not carry
 * the 10,000 ids linking to it (that would measure serialising them, not the cascade).
 *
 * Server, databases and clients as in bench/rows.ts: a child process on a fresh SQLite database
 * in a temporary folder, or on a fresh PostgreSQL database when DATABASE_URL is set.
 *
 * Environment: DATABASE_URL, BENCH_ROWS (100000), BENCH_SECONDS (10), BENCH_FORMULA_CONCURRENCY
 * ("10"), BENCH_CASCADE_ROWS (min(10000, BENCH_ROWS)), BENCH_CASCADE_RUNS (5). Prints one JSON
 * document on stdout; progress goes to stderr.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { prng } from '../test/support/fuzz';
import { AnswerCheck, Api, BATCH_SIZE, PAGE_SIZE, ROWS, SECONDS, WARMUP_SECONDS, WORDS, countIs, envInt, load, log, machine, percentile, round, send, withRowspace } from './rows';

const CONCURRENCY = (process.env.BENCH_FORMULA_CONCURRENCY ?? '10').split(',').map((c) => Math.floor(Number(c)));
const CASCADE_ROWS = Math.floor(envInt('BENCH_CASCADE_ROWS', Math.min(10_000, ROWS)));
/** Rows of the source table linking to the other target row: they must not change. */
const CASCADE_OTHER_ROWS = Math.floor(CASCADE_ROWS / 10);
const CASCADE_RUNS = Math.floor(envInt('BENCH_CASCADE_RUNS', 5));
const CASCADE_WARMUP = 1;
const CASCADE_TIMEOUT_MS = 120_000;
const CATEGORIES = 100;
const NO_LINK_SHARE = 0.05;
/** The largest page the rows endpoint serves (ROW_PAGE_SIZE_LIMIT's default), for read-backs. */
const READ_PAGE = 200;
const READ_CONCURRENCY = 4;
const SEED = 20240611;
const STATUSES = ['Backlog', 'Todo', 'Doing', 'Review', 'Done'];
const DAY_MS = 86_400_000;

if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1)) throw new Error(`BENCH_FORMULA_CONCURRENCY must list whole numbers, got "${process.env.BENCH_FORMULA_CONCURRENCY}"`);

const FORMULAS = {
  Total: "field('Amount') * field('Quantity')",
  Label: "concat(field('Name'), ' ', field('Status'))",
  Size: "if(field('Amount') > 100, 'big', 'small')",
  Days: "date_diff('dd', field('Created'), field('Due'))",
  Linked: "sum(lookup('Link', 'Value'))",
} as const;
type FormulaName = keyof typeof FORMULAS;

// ---------------------------------------------------------------- tables

/** A new table of the bench database with no rows; answers its id and its fields by name. */
async function newTable(api: Api, databaseId: number, name: string): Promise<{ id: number; field: Record<string, number> }> {
  const table = await api.call('POST', `/api/database/tables/database/${databaseId}/`, { name });
  const existing = await api.call('GET', `/api/database/rows/table/${table.id}/?size=200`);
  const ids = (existing.results as { id: number }[]).map((r) => r.id);
  if (ids.length) await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: ids });
  const fields: { id: number; name: string }[] = await api.call('GET', `/api/database/fields/table/${table.id}/`);
  return { id: table.id, field: Object.fromEntries(fields.map((f) => [f.name, f.id])) };
}

async function addField(api: Api, table: { id: number; field: Record<string, number> }, body: Record<string, unknown>): Promise<any> {
  const field = await api.call('POST', `/api/database/fields/table/${table.id}/`, body);
  table.field[field.name] = field.id;
  return field;
}

async function insertAll(api: Api, tableId: number, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_SIZE) {
    const items = rows.slice(i, i + BATCH_SIZE);
    const created = await api.call('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
    if (created?.items?.length !== items.length) throw new Error(`batch create answered ${created?.items?.length} rows for ${items.length}`);
  }
}

/** Every row of a table, READ_CONCURRENCY pages in flight. */
async function readAll(api: Api, tableId: number, expected: number): Promise<any[]> {
  const pages = Math.max(1, Math.ceil(expected / READ_PAGE));
  const out: any[][] = new Array(pages);
  let next = 0;
  const worker = async () => {
    while (next < pages) {
      const page = ++next;
      out[page - 1] = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=${READ_PAGE}&page=${page}`)).results;
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, pages) }, worker));
  return out.flat();
}

// ---------------------------------------------------------------- (a) formulas next to no formulas

/** What row i of Plain and Formulas holds. */
interface Source {
  name: string;
  status: string;
  cents: number;
  quantity: number;
  created: number;
  days: number;
  category: number | null;
}

function generate(): Source[] {
  const random = prng(SEED);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const day0 = Date.UTC(2020, 0, 1);
  return Array.from({ length: ROWS }, (_, i) => ({
    name: `${pick(WORDS)} ${pick(WORDS)} #${i}`,
    status: pick(STATUSES),
    cents: Math.floor(random() * 200_000) - 100_000,
    quantity: Math.floor(random() * 100),
    created: day0 + Math.floor(random() * 2000) * DAY_MS,
    days: Math.floor(random() * 400) - 30,
    category: random() < NO_LINK_SHARE ? null : Math.floor(random() * CATEGORIES),
  }));
}

/** Category c's Value. */
const categoryValue = (c: number) => round((c + 1) * 1.25, 2);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function rowBody(table: { field: Record<string, number> }, source: Source, categoryIds: number[]): Record<string, unknown> {
  const f = table.field;
  return {
    [`field_${f.Name}`]: source.name,
    [`field_${f.Status}`]: source.status,
    [`field_${f.Amount}`]: (source.cents / 100).toFixed(2),
    [`field_${f.Quantity}`]: source.quantity,
    [`field_${f.Created}`]: isoDate(source.created),
    [`field_${f.Due}`]: isoDate(source.created + source.days * DAY_MS),
    [`field_${f.Link}`]: source.category === null ? [] : [categoryIds[source.category]],
  };
}

/** The problems with the formula cells of `rows` (at most a few of each kind). */
function checkFormulaRows(rows: any[], table: { field: Record<string, number> }, sources: Source[]): string[] {
  const problems = new Map<string, string>();
  const f = table.field;
  const note = (what: string, detail: string) => problems.has(what) || problems.set(what, detail);
  const number = (value: unknown) => (value === null || value === undefined || value === '' ? NaN : Number(value));
  for (const row of rows) {
    const index = Number(/#(\d+)$/.exec(String(row[`field_${f.Name}`]))?.[1]);
    const source = sources[index];
    if (!source) {
      note('name', `row ${row.id} has an unexpected name ${JSON.stringify(row[`field_${f.Name}`])}`);
      continue;
    }
    const amount = source.cents / 100;
    const expected: Record<FormulaName, number | string> = {
      Total: round(amount * source.quantity, 2),
      Label: `${source.name} ${source.status}`,
      Size: amount > 100 ? 'big' : 'small',
      Days: source.days,
      Linked: source.category === null ? 0 : categoryValue(source.category),
    };
    for (const [name, want] of Object.entries(expected) as [FormulaName, number | string][]) {
      const got = row[`field_${f[name]}`];
      const ok = typeof want === 'number' ? Math.abs(number(got) - want) < 0.005 : got === want;
      if (!ok) note(name, `${name} of row ${row.id} (#${index}) is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
  }
  return [...problems.values()];
}

/** Samples pages of Formulas (first, last, five spread between) and checks every formula cell. */
async function verifyFormulas(api: Api, table: { id: number; field: Record<string, number> }, sources: Source[]): Promise<string[]> {
  const pages = Math.ceil(ROWS / READ_PAGE);
  const sample = [...new Set([1, pages, ...[1, 2, 3, 4, 5].map((k) => Math.max(1, Math.round((k * pages) / 6)))])];
  const problems: string[] = [];
  let checked = 0;
  for (const page of sample) {
    const rows = (await api.call('GET', `/api/database/rows/table/${table.id}/?size=${READ_PAGE}&page=${page}`)).results as any[];
    checked += rows.length;
    problems.push(...checkFormulaRows(rows, table, sources));
  }
  if (!checked) problems.push('no rows read');
  return [...new Set(problems)].slice(0, 10);
}

/** A 200 answer of the sorted list must hold the whole count and a page in descending order of `key`. */
const sortedBy =
  (key: string): AnswerCheck =>
  (text) => {
    const body = JSON.parse(text);
    if (body.count !== ROWS) return `count ${body.count}, expected ${ROWS}`;
    const values = (body.results as any[]).map((r) => Number(r[key]));
    if (values.length !== Math.min(PAGE_SIZE, ROWS)) return `${values.length} rows on the page`;
    if (values.some((v, i) => Number.isNaN(v) || (i > 0 && v > values[i - 1]))) return `rows are not in descending order of ${key}`;
    return null;
  };

async function benchFormulas(api: Api, databaseId: number) {
  const categories = await newTable(api, databaseId, 'Categories');
  await addField(api, categories, { name: 'Value', type: 'number', number_decimal_places: 2 });
  await insertAll(api, categories.id, Array.from({ length: CATEGORIES }, (_, c) => ({
    [`field_${categories.field.Name}`]: `Category ${c}`,
    [`field_${categories.field.Value}`]: categoryValue(c).toFixed(2),
  })));
  const categoryIds = (await readAll(api, categories.id, CATEGORIES)).map((r) => r.id as number);
  if (categoryIds.length !== CATEGORIES) throw new Error(`Categories has ${categoryIds.length} rows`);

  const tables = { plain: await newTable(api, databaseId, 'Plain'), formulas: await newTable(api, databaseId, 'Formulas') };
  for (const table of Object.values(tables)) {
    await addField(api, table, { name: 'Status', type: 'text' });
    await addField(api, table, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
    await addField(api, table, { name: 'Quantity', type: 'number', number_decimal_places: 0 });
    await addField(api, table, { name: 'Created', type: 'date', date_format: 'ISO', date_include_time: false });
    await addField(api, table, { name: 'Due', type: 'date', date_format: 'ISO', date_include_time: false });
    await addField(api, table, { name: 'Link', type: 'link_row', link_row_table_id: categories.id, has_related_field: false });
  }
  const formulaTypes: Record<string, unknown> = {};
  for (const [name, formula] of Object.entries(FORMULAS)) {
    const field = await addField(api, tables.formulas, { name, type: 'formula', formula });
    formulaTypes[name] = field.error ? { formula_type: field.formula_type, error: field.error } : field.formula_type;
    if (field.formula_type === 'invalid' || field.error) throw new Error(`formula ${name} = ${formula} is invalid: ${field.error}`);
  }

  const sources = generate();
  const timing = { plain: 0, formulas: 0 };
  const batches = Math.ceil(ROWS / BATCH_SIZE);
  log(`inserting ${ROWS} rows into Plain and into Formulas in ${batches} batches each, alternating`);
  for (let b = 0; b < batches; b++) {
    const slice = sources.slice(b * BATCH_SIZE, (b + 1) * BATCH_SIZE);
    for (const kind of ['plain', 'formulas'] as const) {
      const items = slice.map((s) => rowBody(tables[kind], s, categoryIds));
      const t0 = performance.now();
      const created = await api.call('POST', `/api/database/rows/table/${tables[kind].id}/batch/`, { items });
      timing[kind] += (performance.now() - t0) / 1000;
      if (created?.items?.length !== items.length) throw new Error(`batch create into ${kind} answered ${created?.items?.length} rows for ${items.length}`);
    }
    if (Math.floor(((b + 1) * 10) / batches) > Math.floor((b * 10) / batches)) log(`inserted ${b + 1} of ${batches} batch pairs`);
  }
  for (const table of Object.values(tables)) {
    const total = (await api.call('GET', `/api/database/rows/table/${table.id}/?size=1`)).count;
    if (total !== ROWS) throw new Error(`table ${table.id} has ${total} rows after inserting ${ROWS}`);
  }
  log('checking formula cells');
  const checks = await verifyFormulas(api, tables.formulas, sources);

  const queries = {
    list: { plain: `/api/database/rows/table/${tables.plain.id}/?size=${PAGE_SIZE}`, formulas: `/api/database/rows/table/${tables.formulas.id}/?size=${PAGE_SIZE}` },
    list_sorted: {
      plain: `/api/database/rows/table/${tables.plain.id}/?size=${PAGE_SIZE}&order_by=-field_${tables.plain.field.Amount}`,
      formulas: `/api/database/rows/table/${tables.formulas.id}/?size=${PAGE_SIZE}&order_by=-field_${tables.formulas.field.Total}`,
    },
  };
  const listed: Record<string, Record<string, unknown>> = {};
  for (const [name, paths] of Object.entries(queries)) {
    const result: Record<string, any> = {};
    for (const kind of ['plain', 'formulas'] as const) {
      const key = name === 'list' ? null : `field_${kind === 'plain' ? tables.plain.field.Amount : tables.formulas.field.Total}`;
      const levels: Record<string, any> = {};
      for (const clients of CONCURRENCY) {
        log(`${name} of ${kind} at ${clients} clients`);
        levels[`c${clients}`] = await load(api, paths[kind], clients, key ? sortedBy(key) : countIs(ROWS));
      }
      result[kind] = levels;
    }
    const ratios: Record<string, number | null> = {};
    for (const clients of CONCURRENCY) {
      const plain = result.plain[`c${clients}`].req_per_s;
      ratios[`c${clients}`] = plain ? round(result.formulas[`c${clients}`].req_per_s / plain, 3) : null;
    }
    listed[name] = { ...result, formulas_over_plain_req_per_s: ratios };
  }

  return {
    formulas: FORMULAS,
    formula_types: formulaTypes,
    checks: checks.length ? checks : 'ok',
    insert: {
      batch_size: BATCH_SIZE,
      // Rows per second of request time of each table's batches (they alternate, one in flight).
      plain: { rows_per_s: round(ROWS / timing.plain, 1), seconds: round(timing.plain, 3) },
      formulas: { rows_per_s: round(ROWS / timing.formulas, 1), seconds: round(timing.formulas, 3) },
      formulas_over_plain_seconds: round(timing.formulas / timing.plain, 3),
    },
    list: listed.list,
    list_sorted: listed.list_sorted,
  };
}

// ---------------------------------------------------------------- (b) the cascade

/** One socket on a table page, collecting the ids of the rows `rows_updated` reports as `accept`ed. */
class TablePageSocket {
  private ws: WebSocket | null = null;
  private tableId = 0;
  private accept: ((row: any) => boolean) | null = null;
  private seen = new Set<number>();
  private wanted = 0;
  private bytes = 0;
  private messages = 0;
  private unexpected = 0;
  private done: ((at: number) => void) | null = null;

  async open(api: Api, tableId: number): Promise<void> {
    this.ws = await new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${api.base.origin.replace(/^http/, 'ws')}/ws/core/?jwt_token=${api.token}`);
      let state: 'auth' | 'page' | 'ready' = 'auth';
      const timer = setTimeout(() => reject(new Error(`socket stuck waiting for ${state}`)), 10_000);
      ws.on('message', (data: Buffer) => {
        if (state === 'ready') return this.receive(data);
        const message = JSON.parse(data.toString());
        if (state === 'auth') {
          if (message.type !== 'authentication' || !message.success) return reject(new Error(`authentication failed: ${data}`));
          state = 'page';
          ws.send(JSON.stringify({ page: 'table', table_id: tableId }));
        } else if (message.type === 'page_add' && message.page === 'table') {
          state = 'ready';
          clearTimeout(timer);
          resolve(ws);
        }
      });
      ws.on('error', reject);
    });
    this.tableId = tableId;
  }

  private receive(data: Buffer): void {
    if (!this.accept) return;
    const message = JSON.parse(data.toString());
    if (message.type !== 'rows_updated' || message.table_id !== this.tableId) return;
    this.messages += 1;
    this.bytes += data.length;
    for (const row of message.rows ?? []) {
      if (this.accept(row)) this.seen.add(row.id);
      else this.unexpected += 1;
    }
    if (this.seen.size >= this.wanted) this.done?.(performance.now());
  }

  /** Starts collecting; the promise answers when `wanted` rows were accepted (the time), or null after the timeout. */
  expect(wanted: number, accept: (row: any) => boolean): Promise<number | null> {
    this.seen = new Set();
    this.wanted = wanted;
    this.bytes = 0;
    this.messages = 0;
    this.unexpected = 0;
    this.accept = accept;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), CASCADE_TIMEOUT_MS);
      this.done = (at) => {
        clearTimeout(timer);
        this.done = null;
        resolve(at);
      };
    });
  }

  /** What the run's messages held. */
  stop() {
    this.accept = null;
    this.done = null;
    return { messages: this.messages, bytes: this.bytes, rows_matched: this.seen.size, rows_not_matching: this.unexpected };
  }

  close(): void {
    this.ws?.terminate();
  }
}

async function benchCascade(api: Api, databaseId: number) {
  const target = await newTable(api, databaseId, 'Cascade target');
  await addField(api, target, { name: 'Value', type: 'number', number_decimal_places: 2 });
  await insertAll(api, target.id, [
    { [`field_${target.field.Name}`]: 'hot', [`field_${target.field.Value}`]: '1.00' },
    { [`field_${target.field.Name}`]: 'other', [`field_${target.field.Value}`]: '2.00' },
  ]);
  const [hot, other] = (await readAll(api, target.id, 2)).map((r) => r.id as number);
  const source = await newTable(api, databaseId, 'Cascade source');
  const link = await addField(api, source, { name: 'Link', type: 'link_row', link_row_table_id: target.id, has_related_field: false });
  const lookup = await addField(api, source, { name: 'Looked up', type: 'lookup', through_field_name: 'Link', target_field_name: 'Value' });
  const rollup = await addField(api, source, { name: 'Rolled up', type: 'rollup', through_field_id: link.id, target_field_id: target.field.Value, rollup_function: 'sum' });
  for (const field of [lookup, rollup]) {
    if (field.formula_type === 'invalid' || field.error) throw new Error(`${field.type} ${field.name} is invalid: ${field.error}`);
  }

  // CASCADE_ROWS rows link to the hot row, CASCADE_OTHER_ROWS (shuffled among them) to the other one.
  const random = prng(SEED + 1);
  const targets = [...Array<number>(CASCADE_ROWS).fill(hot), ...Array<number>(CASCADE_OTHER_ROWS).fill(other)];
  for (let i = targets.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [targets[i], targets[j]] = [targets[j], targets[i]];
  }
  log(`inserting ${targets.length} cascade source rows (${CASCADE_ROWS} linked to the PATCHed row)`);
  await insertAll(api, source.id, targets.map((t, i) => ({ [`field_${source.field.Name}`]: `source ${i}`, [`field_${link.id}`]: [t] })));
  const total = targets.length;

  const lookupKey = `field_${lookup.id}`;
  const rollupKey = `field_${rollup.id}`;
  /** A source row shows `value` (for its target) in the lookup and in the rollup. */
  const shows = (row: any, targetId: number, value: number) => {
    const looked = row[lookupKey];
    return (
      Array.isArray(looked) && looked.length === 1 && looked[0]?.id === targetId && Math.abs(Number(looked[0]?.value) - value) < 0.005 &&
      Math.abs(Number(row[rollupKey]) - value) < 0.005
    );
  };
  /** The problems of a read-back after the hot row got `value` (the other row keeps 2.00). */
  const readBack = async (value: number) => {
    const rows = await readAll(api, source.id, total);
    const problems: string[] = [];
    if (rows.length !== total) problems.push(`${rows.length} rows read, expected ${total}`);
    let hotStale = 0;
    let otherWrong = 0;
    for (const row of rows) {
      const linked = row[`field_${link.id}`]?.[0]?.id;
      if (linked === hot && !shows(row, hot, value)) hotStale += 1;
      if (linked === other && !shows(row, other, 2)) otherWrong += 1;
    }
    if (hotStale) problems.push(`${hotStale} of ${CASCADE_ROWS} linked rows do not show ${value.toFixed(2)} in the lookup and the rollup`);
    if (otherWrong) problems.push(`${otherWrong} of ${CASCADE_OTHER_ROWS} rows linked to the other row do not show 2.00`);
    return problems;
  };
  const initial = await readBack(1);
  if (initial.length) throw new Error(`the cascade source is wrong before any PATCH: ${initial.join('; ')}`);

  const socket = new TablePageSocket();
  await socket.open(api, source.id);
  const samples: any[] = [];
  const failures: string[] = [];
  try {
    for (let run = 0; run < CASCADE_WARMUP + CASCADE_RUNS; run++) {
      const value = round(100 + run + 0.25, 2);
      log(`cascade run ${run + 1} of ${CASCADE_WARMUP + CASCADE_RUNS}${run < CASCADE_WARMUP ? ' (warm-up)' : ''}`);
      const arrived = socket.expect(CASCADE_ROWS, (row) => shows(row, hot, value));
      const start = performance.now();
      const reply = await send(api.agent, api.base, 'PATCH', `/api/database/rows/table/${target.id}/${hot}/`, { [`field_${target.field.Value}`]: value.toFixed(2) }, api.jwtAuth);
      const responded = performance.now();
      if (reply.status !== 200) throw new Error(`PATCH of the target row answered ${reply.status} ${reply.text.slice(0, 300)}`);
      let reads = 0;
      let readbackMs = 0;
      let problems: string[];
      let consistentAt: number | null = null;
      do {
        const t0 = performance.now();
        problems = await readBack(value);
        reads += 1;
        readbackMs = performance.now() - t0;
        if (!problems.length) consistentAt = performance.now();
      } while (problems.length && performance.now() - start < CASCADE_TIMEOUT_MS);
      const at = await arrived;
      const message = socket.stop();
      const sample = {
        patch_ms: round(responded - start),
        rows_updated_ms: at === null ? null : round(at - start),
        consistent_ms: consistentAt === null ? null : round(consistentAt - start),
        readback_ms: round(readbackMs),
        read_backs: reads,
        rows_updated: message,
      };
      if (problems.length) failures.push(`run ${run}: ${problems.join('; ')}`);
      if (at === null) failures.push(`run ${run}: rows_updated with the new value for the ${CASCADE_ROWS} linked rows not received within ${CASCADE_TIMEOUT_MS / 1000} s (${JSON.stringify(message)})`);
      if (run >= CASCADE_WARMUP) samples.push(sample);
    }
  } finally {
    socket.close();
  }
  const stat = (key: 'patch_ms' | 'rows_updated_ms' | 'consistent_ms') => {
    const values = samples.map((s) => s[key]).filter((v): v is number => v !== null);
    return { p50: percentile(values, 50), max: values.length ? Math.max(...values) : null };
  };
  return {
    linked_rows: CASCADE_ROWS,
    other_rows: CASCADE_OTHER_ROWS,
    dependent_fields: { lookup: `lookup('Link', 'Value')`, rollup: 'rollup sum of Value through Link' },
    runs: CASCADE_RUNS,
    warmup_runs: CASCADE_WARMUP,
    checks: failures.length ? failures.slice(0, 10) : 'ok',
    patch_ms: stat('patch_ms'),
    rows_updated_ms: stat('rows_updated_ms'),
    consistent_ms: stat('consistent_ms'),
    samples,
  };
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  await withRowspace('formulas', async (api, postgres) => {
    const applications = await api.call('GET', '/api/applications/');
    const database = applications.find((a: any) => a.type === 'database');
    if (!database) throw new Error('the sign-up created no database application');

    const formulas = await benchFormulas(api, database.id);
    log(`cascade through ${CASCADE_ROWS} linked rows`);
    const cascade = await benchCascade(api, database.id);

    // A run's cascade time: max(PATCH response, rows_updated arrival); null when a run never got
    // its rows_updated or never read back consistent (then the aim is not met).
    const cascadeRuns = cascade.samples.map((s: any) => (s.rows_updated_ms === null || s.consistent_ms === null ? null : Math.max(s.patch_ms, s.rows_updated_ms)));
    const cascadeMs = cascadeRuns.includes(null) ? null : percentile(cascadeRuns as number[], 50);
    const cascadeMaxMs = cascadeRuns.includes(null) ? null : Math.max(...(cascadeRuns as number[]));
    if (formulas.checks !== 'ok') log(`formula cells are wrong: ${([] as string[]).concat(formulas.checks).join(' | ')}`);
    if (cascade.checks !== 'ok') log(`cascade checks failed: ${([] as string[]).concat(cascade.checks).join(' | ')}`);
    const c10 = `c${CONCURRENCY[0]}`;
    const listRatio = (formulas.list.formulas_over_plain_req_per_s as Record<string, number | null>)[c10];
    console.log(JSON.stringify({
      benchmark: 'formulas: batch create and list of a table with 5 stored formula fields next to the same table without; a lookup+rollup cascade from one PATCH',
      db: postgres ? 'postgres' : 'sqlite',
      ...(postgres ? { postgres_version: postgres.version } : {}),
      rows: ROWS,
      base_fields: ['Name (text, primary)', 'Status (text)', 'Amount (number, 2 decimals)', 'Quantity (number)', 'Created (date)', 'Due (date)', `Link (link_row to ${CATEGORIES} categories, ${NO_LINK_SHARE * 100} % empty)`],
      query: {
        list: `GET /api/database/rows/table/<id>/?size=${PAGE_SIZE}`,
        list_sorted: 'the same &order_by=-field_<Amount> on Plain, -field_<Total> (formula) on Formulas',
        seconds: SECONDS,
        warmup_seconds: WARMUP_SECONDS,
      },
      ...formulas,
      cascade,
      aims: {
        list_costs_nothing: { formulas_over_plain_req_per_s: listRatio, met: listRatio === null ? null : listRatio >= 0.9, threshold: 'within 10 % of Plain' },
        batch_create_within_2x: { formulas_over_plain_seconds: formulas.insert.formulas_over_plain_seconds, met: formulas.insert.formulas_over_plain_seconds <= 2 },
        // Met by the p50 over the runs of max(PATCH response, rows_updated arrival), each run verified by a consistent read-back.
        cascade_under_1s: { rows: CASCADE_ROWS, p50_ms: cascadeMs, max_ms: cascadeMaxMs, met: cascadeMs === null ? false : cascadeMs < 1000, stated_for: 'sqlite' },
      },
      machine: machine(),
    }, null, 2));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
