/**
 * Scale benchmark (`npm run bench:scale`): one table of BENCH_SCALE_ROWS rows (default 1,000,000;
 * a comma-separated list, e.g. `100000,1000000`, runs each size and prints how every figure grows)
 * on SQLite and on PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432; a
 * temporary database is created and dropped; skipped when unreachable).
 *
 * For each database and size, a fresh Rowspace (bench/server.ts, BENCH_SERVER=dist for the built
 * server) gets a table of five fields: Name (text, two made-up words and the row number), Notes
 * (long text, nine words), Active (boolean), num_a (0–999), num_b (0–999,999). The words come
 * from a vocabulary of 50,000 six-letter words, so the rows of every word are known. Measured:
 *  - seed: the rows through the table import (`POST /api/database/tables/{id}/import/async/` with
 *    JSON `data`, BENCH_SCALE_PART rows per part, since one body of a million rows is larger than
 *    the request limit): seconds, rows/s, the server's peak resident memory. If an import part
 *    fails, the output says so and the remaining rows go in through batch create;
 *  - index: `db_index` switched on for num_a and num_b (the seconds it took);
 *  - list_count_uncached: 100 rows with `num_a > N` sorted by num_b descending with the exact
 *    count, N new for every request (the count cache never answers): req/s, p50, p99;
 *  - list_count_cached: the same request again and again (the count cached);
 *  - count_all_uncached, count_all_cached: `size=1` of the whole table right after a write (its
 *    count not cached), then the same again (cached): the median of 5 of each;
 *  - search_compat: a new word per request (`search_mode=compat`, a scan);
 *  - search_full_text_first: the first `full-text-with-count` search, which builds the index;
 *    search_full_text: then a new word per request;
 *  - aggregation: `GET /api/database/views/grid/{view}/aggregation/{num_b}/?type=sum&include=total`
 *    with the ad-hoc filter `num_a > N`, N new per request (sum and total checked);
 *  - export: the whole table as CSV (`POST /api/database/export/table/{id}/` to the job's end):
 *    seconds, rows/s, file size, the server's peak resident memory (every line counted).
 * Every answer is checked (counts, sums, page sizes); a failed request counts as an error.
 *
 * Output: one JSON line per case `{case, db, rows, unit, value, …}` on stdout, then a summary line
 * with, per case and database, the value at each size and the growth factor from the smallest
 * size to the largest; a readable table on stderr.
 *
 * Environment: BENCH_SCALE_ROWS (1000000), BENCH_SCALE_DBS (sqlite,postgres), BENCH_SCALE_PART
 * (100000), BENCH_SCALE_SECONDS (5), BENCH_SCALE_CLIENTS (10), BENCH_SCALE_SLOW_CLIENTS (2, for
 * the scans: compat search and aggregation), BENCH_SCALE_CASES (a regular expression of case
 * names), DATABASE_URL, BENCH_SERVER=dist.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prng } from '../test/support/fuzz';
import { analyze, AnswerCheck, Api, LoadRequest, countIs, deleteInitialRows, envInt, insertRows, load, log, machine, round, onEachDatabase, vocabulary, withRowspace } from './rows';

const SIZES = (process.env.BENCH_SCALE_ROWS ?? '1000000').split(',').map((s) => Math.floor(Number(s.trim())));
const DBS = (process.env.BENCH_SCALE_DBS ?? 'sqlite,postgres').split(',').map((d) => d.trim().toLowerCase());
const PART = Math.floor(envInt('BENCH_SCALE_PART', 100_000));
const SECONDS = envInt('BENCH_SCALE_SECONDS', 5, 0.1);
const CLIENTS = Math.floor(envInt('BENCH_SCALE_CLIENTS', 10));
const SLOW_CLIENTS = Math.floor(envInt('BENCH_SCALE_SLOW_CLIENTS', 2));
const CASES = new RegExp(process.env.BENCH_SCALE_CASES || '.');
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432';
const VOCABULARY = 50_000;
const PAGE_SIZE = 100;
const BATCH = 200;
const SEED = 20261128;
const REPEATED_ABOVE = 500;
const MB = 1024 * 1024;

if (SIZES.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error(`BENCH_SCALE_ROWS lists row counts >= 1000, got "${process.env.BENCH_SCALE_ROWS}"`);
if (DBS.some((d) => d !== 'sqlite' && d !== 'postgres')) throw new Error(`BENCH_SCALE_DBS lists sqlite and/or postgres, got "${process.env.BENCH_SCALE_DBS}"`);

// ---------------------------------------------------------------- the data

export interface Fields {
  name: number;
  notes: number;
  active: number;
  numA: number;
  numB: number;
}

/** What the generated rows hold, to check every answer. */
export interface Truth {
  rows: number;
  words: string[];
  /** Rows whose Name or Notes holds word i. */
  wordRows: Int32Array;
  /** Per num_a value: the rows and the sum of their num_b. */
  numACount: Float64Array;
  numBSum: Float64Array;
}


/** The rows, generated part by part (a million rows are never all in memory), in the table's field order. */
export function rowSource(rows: number): { truth: Truth; next: (count: number) => unknown[][] } {
  const random = prng(SEED);
  const words = vocabulary(random, VOCABULARY);
  const truth: Truth = { rows, words, wordRows: new Int32Array(words.length), numACount: new Float64Array(1000), numBSum: new Float64Array(1000) };
  let i = 0;
  const pick = () => Math.floor(random() * words.length);
  const next = (count: number) => {
    const out: unknown[][] = [];
    for (const end = Math.min(rows, i + count); i < end; i++) {
      const nameWords = [pick(), pick()];
      const notesWords = Array.from({ length: 9 }, pick);
      for (const w of new Set([...nameWords, ...notesWords])) truth.wordRows[w] += 1;
      const a = Math.floor(random() * 1000);
      const b = Math.floor(random() * 1_000_000);
      truth.numACount[a] += 1;
      truth.numBSum[a] += b;
      out.push([`${words[nameWords[0]]} ${words[nameWords[1]]} ${i}`, notesWords.map((w) => words[w]).join(' '), random() < 0.5, a, b]);
    }
    return out;
  };
  return { truth, next };
}

/** Rows with num_a > n, and the sum of their num_b. */
export function above(truth: Truth, n: number): { count: number; sum: number } {
  let count = 0;
  let sum = 0;
  for (let a = Math.floor(n) + 1; a < 1000; a++) {
    count += truth.numACount[a];
    sum += truth.numBSum[a];
  }
  return { count, sum };
}

export async function createTable(api: Api): Promise<{ tableId: number; fields: Fields }> {
  const database = (await api.call('GET', '/api/applications/')).find((a: { type: string }) => a.type === 'database');
  const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Scale' });
  const initial: { id: number; name: string }[] = await api.call('GET', `/api/database/fields/table/${table.id}/`);
  const byName = (name: string) => initial.find((f) => f.name === name)!.id;
  const create = async (name: string) => (await api.call('POST', `/api/database/fields/table/${table.id}/`, { name, type: 'number', number_decimal_places: 0 })).id as number;
  const fields: Fields = { name: byName('Name'), notes: byName('Notes'), active: byName('Active'), numA: await create('num_a'), numB: await create('num_b') };
  await deleteInitialRows(api, table.id);
  return { tableId: table.id, fields };
}

// ---------------------------------------------------------------- measuring helpers

/** The resident memory of process `pid` in bytes (Linux), or null. */
export function rss(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Runs `work` while sampling the server's memory every 50 ms: its result, seconds, peak and growth in MB. */
export async function sampled<T>(pid: number, work: () => Promise<T>) {
  const before = rss(pid);
  let peak = before ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid) ?? 0)), 50);
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, rss_before_mb: before === null ? null : round(before / MB, 1), peak_rss_mb: before === null ? null : round(peak / MB, 1) };
  } finally {
    clearInterval(timer);
  }
}

async function job(api: Api, path: string): Promise<any> {
  for (;;) {
    const state = await api.call('GET', path);
    if (['finished', 'failed', 'cancelled', 'expired'].includes(state.state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: round(performance.now() - start) };
}

interface Line {
  case: string;
  db: string;
  rows: number;
  unit: string;
  value: number | null;
  [key: string]: unknown;
}

const lines: Line[] = [];

function emit(line: Line): void {
  // The machine's 1-minute load average when the figure was taken.
  line.load1 = round(loadavg()[0]);
  lines.push(line);
  console.log(JSON.stringify(line));
  if (line.errors) log(`${line.db} ${line.rows}: ${line.case}: ${line.errors} failed requests, first: ${JSON.stringify(line.first_errors)}`);
}

/** A load of `clients` for SECONDS: its req/s as the line's value, and the latencies. */
async function loadCase(api: Api, name: string, db: string, rows: number, clients: number, target: () => LoadRequest, extra: Record<string, unknown> = {}): Promise<void> {
  log(`${db} ${rows}: ${name} at ${clients} clients`);
  const result = await load(api, target, clients, countIs(-1), 'jwt', { seconds: SECONDS, warmupSeconds: Math.min(2, SECONDS / 2) });
  emit({
    case: name, db, rows, unit: 'req/s', value: result.req_per_s, clients, p50_ms: result.p50_ms, p99_ms: result.p99_ms, max_ms: result.max_ms,
    requests: result.requests, errors: result.errors, client_cpu: result.client_cpu, ...(result.first_errors ? { first_errors: result.first_errors } : {}), ...extra,
  });
}

/** Runs the case `name` (if BENCH_SCALE_CASES wants it); a case that fails prints an error line and the others go on. */
async function step(name: string, db: string, rows: number, work: () => Promise<void>): Promise<void> {
  if (!CASES.test(name)) return;
  try {
    await work();
  } catch (error) {
    log(`${db} ${rows}: ${name} failed: ${String(error)}`);
    emit({ case: name, db, rows, unit: 'error', value: null, error: String(error).slice(0, 1000) });
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// ---------------------------------------------------------------- seeding

/** The rows into the table through the import, part by part; through batch create from the first part that fails. */
export async function seed(api: Api, pid: number, db: string, tableId: number, fields: Fields, rows: number): Promise<Truth> {
  const source = rowSource(rows);
  const parts: number[] = [];
  let importError: string | null = null;
  let batched = 0;
  const measured = await sampled(pid, async () => {
    for (let done = 0; done < rows; ) {
      const data = source.next(PART);
      if (!importError) {
        const start = performance.now();
        try {
          const started = await api.call('POST', `/api/database/tables/${tableId}/import/async/`, { data });
          const finished = await job(api, `/api/jobs/${started.id}/`);
          if (finished.state !== 'finished') throw new Error(`the import job ended ${finished.state}: ${finished.human_readable_error ?? finished.error}`);
          const failing = Object.keys(finished.report?.failing_rows ?? {});
          if (failing.length) throw new Error(`the import refused ${failing.length} rows: ${JSON.stringify(finished.report.failing_rows).slice(0, 300)}`);
          parts.push(round((performance.now() - start) / 1000, 2));
          done += data.length;
          log(`${db} ${rows}: imported ${done} rows`);
          continue;
        } catch (error) {
          importError = `part ${parts.length + 1} (rows ${done + 1}–${done + data.length}): ${String(error).slice(0, 500)}`;
          log(`${db} ${rows}: the import failed, the remaining rows go in through batch create: ${importError}`);
          // A failed import job writes nothing (all-or-nothing); the table must still hold `done` rows.
          const count = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=1`)).count;
          if (count !== done) throw new Error(`after the failed import part the table holds ${count} rows, expected ${done}`);
        }
      }
      const batches: Record<string, unknown>[][] = [];
      const keys = ['name', 'notes', 'active', 'numA', 'numB'] as const;
      for (let b = 0; b < data.length; b += BATCH) {
        batches.push(data.slice(b, b + BATCH).map((row) => Object.fromEntries(row.map((cell, k) => [`field_${fields[keys[k]]}`, cell]))));
      }
      await insertRows(api, tableId, batches, 2);
      batched += data.length;
      done += data.length;
      log(`${db} ${rows}: batch-created ${done} rows`);
    }
  });
  emit({
    case: 'seed', db, rows, unit: 'rows/s', value: round(rows / measured.seconds), seconds: round(measured.seconds, 1),
    method: importError ? (batched === rows ? 'batch create (the import failed)' : 'import, then batch create (an import part failed)') : `import of JSON data, ${PART} rows per part`,
    import_parts_seconds: parts, ...(importError ? { import_error: importError, batch_created_rows: batched } : {}),
    server_rss_before_mb: measured.rss_before_mb, server_peak_rss_mb: measured.peak_rss_mb,
  });
  return source.truth;
}

// ---------------------------------------------------------------- one database, one size

async function scaleOn(db: 'sqlite' | 'postgres', rows: number): Promise<void> {
  await withRowspace(
    `scale-${db}`,
    async (api, postgres, server) => {
      const { tableId, fields } = await createTable(api);
      const truth = await seed(api, server.pid, db, tableId, fields, rows);
      const total = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=1`)).count;
      if (total !== rows) throw new Error(`the table holds ${total} rows after seeding ${rows}`);
      await analyze(postgres?.url ?? null, tableId);
      const rowsPath = `/api/database/rows/table/${tableId}/`;

      await step('index', db, rows, async () => {
        const index = await timed(async () => {
          for (const id of [fields.numA, fields.numB]) {
            const field = await api.call('PATCH', `/api/database/fields/${id}/`, { db_index: true });
            if (field.db_index !== true) throw new Error(`PATCH db_index answered ${JSON.stringify(field.db_index)}`);
          }
        });
        await analyze(postgres?.url ?? null, tableId);
        emit({ case: 'index', db, rows, unit: 'ms', value: index.ms, note: 'db_index switched on for num_a and num_b (two PATCHes)' });
      });

      // A new fractional N per request: the count cache never has it; about half the rows match on average.
      let k = 0;
      const nextN = () => ((k++ * 388_357 + 12_345) % 1_000_000) / 1000;
      const listPath = (n: number) => `${rowsPath}?size=${PAGE_SIZE}&filter__field_${fields.numA}__higher_than=${n}&order_by=-field_${fields.numB}`;
      const pageOf = (expected: number): AnswerCheck => (text) => {
        const page = JSON.parse(text);
        if (page.count !== expected) return `count ${page.count}, expected ${expected}`;
        return page.results?.length === Math.min(PAGE_SIZE, expected) ? null : `${page.results?.length} rows on the page`;
      };
      await step('list_count_uncached', db, rows, () => loadCase(api, 'list_count_uncached', db, rows, CLIENTS, () => {
        const n = nextN();
        return { path: listPath(n), check: pageOf(above(truth, n).count) };
      }, { query: `size=${PAGE_SIZE}&filter__field_<num_a>__higher_than=<N new each time>&order_by=-field_<num_b>, exact count; indexed` }));
      const repeated = above(truth, REPEATED_ABOVE).count;
      await step('list_count_cached', db, rows, () => loadCase(api, 'list_count_cached', db, rows, CLIENTS, () => ({ path: listPath(REPEATED_ABOVE), check: pageOf(repeated) }), {
        query: `the same request with N = ${REPEATED_ABOVE} every time (count cached after the first)`,
      }));

      await step('count_all', db, rows, async () => {
        const cold: number[] = [];
        const warm: number[] = [];
        for (let run = 0; run < 5; run++) {
          // A row created and deleted: the cached counts of the table are gone.
          const created = await api.call('POST', rowsPath, {});
          await api.call('DELETE', `${rowsPath}${created.id}/`);
          for (const into of [cold, warm]) {
            const answer = await timed(() => api.call('GET', `${rowsPath}?size=1`));
            if (answer.result.count !== rows) throw new Error(`count_all: ${answer.result.count}, expected ${rows}`);
            into.push(answer.ms);
          }
        }
        emit({ case: 'count_all_uncached', db, rows, unit: 'ms', value: round(median(cold)), runs: cold, note: 'GET ?size=1 of the whole table right after a write (count not cached): median of 5' });
        emit({ case: 'count_all_cached', db, rows, unit: 'ms', value: round(median(warm)), runs: warm, note: 'the same request again (count cached): median of 5' });
      });

      let w = 0;
      const nextWord = (start: number) => () => (start + (w++ * 7919 + 13)) % truth.words.length;
      const searchTarget = (mode: string, word: () => number) => (): LoadRequest => {
        const i = word();
        return { path: `${rowsPath}?size=${PAGE_SIZE}&search=${truth.words[i]}&search_mode=${mode}`, check: countIs(truth.wordRows[i]) };
      };
      await step('search_compat', db, rows, () =>
        loadCase(api, 'search_compat', db, rows, SLOW_CLIENTS, searchTarget('compat', nextWord(0)), { note: 'a new word per request, a scan of Name and Notes (about 11 × rows / 50,000 matches)' }),
      );

      await step('search_full_text', db, rows, async () => {
        const word = truth.words.length - 1;
        const first = await timed(() => api.call('GET', `${rowsPath}?size=${PAGE_SIZE}&search=${truth.words[word]}&search_mode=full-text-with-count`));
        if (first.result.count !== truth.wordRows[word]) throw new Error(`the first full-text search counted ${first.result.count}, expected ${truth.wordRows[word]}`);
        emit({ case: 'search_full_text_first', db, rows, unit: 'ms', value: first.ms, note: 'the first full-text search of the table (it builds the index)' });
        await loadCase(api, 'search_full_text', db, rows, CLIENTS, searchTarget('full-text-with-count', nextWord(25_000)), { note: 'search_mode=full-text-with-count, a new word per request' });
      });

      await step('aggregation', db, rows, async () => {
        const view = await api.call('POST', `/api/database/views/table/${tableId}/`, { name: 'Scale', type: 'grid' });
        const aggregationPath = (n: number) => `/api/database/views/grid/${view.id}/aggregation/${fields.numB}/?type=sum&include=total&filter__field_${fields.numA}__higher_than=${n}`;
        await loadCase(api, 'aggregation', db, rows, SLOW_CLIENTS, () => {
          const n = nextN();
          const expected = above(truth, n);
          return {
            path: aggregationPath(n),
            check: (text) => {
              const body = JSON.parse(text);
              return Number(body.value) === expected.sum && body.total === expected.count ? null : `sum ${body.value} total ${body.total}, expected ${expected.sum} and ${expected.count}`;
            },
          };
        }, { query: 'sum of num_b over num_a > N (N new per request, not cached), include=total' });
      });

      await step('export', db, rows, async () => {
        log(`${db} ${rows}: export`);
        const exported = await sampled(server.pid, async () => {
          const started = await api.call('POST', `/api/database/export/table/${tableId}/`, { exporter_type: 'csv' });
          return job(api, `/api/database/export/${started.id}/`);
        });
        if (exported.result.state !== 'finished') throw new Error(`the export ended ${exported.result.state}: ${JSON.stringify(exported.result).slice(0, 300)}`);
        const file = readFileSync(join(server.dataDir, 'media', 'export_files', exported.result.exported_file_name));
        let newlines = 0;
        for (let at = file.indexOf(10); at !== -1; at = file.indexOf(10, at + 1)) newlines += 1;
        if (newlines !== rows + 1) throw new Error(`the export holds ${newlines} lines for ${rows} rows and a header`);
        emit({
          case: 'export', db, rows, unit: 'rows/s', value: round(rows / exported.seconds), seconds: round(exported.seconds, 1), file_mb: round(file.length / MB, 1),
          server_rss_before_mb: exported.rss_before_mb, server_peak_rss_mb: exported.peak_rss_mb, note: 'CSV of the whole table, to the export job\'s end',
        });
      });
      emit({ case: 'rss_after', db, rows, unit: 'MB', value: round((rss(server.pid) ?? 0) / MB, 1), note: 'the server\'s resident memory after every case' });
    },
    { databaseUrl: db === 'postgres' ? POSTGRES_URL : null },
  );
}


/** Per case and database: the value at each size and the factor from the smallest size to the largest. */
function growth() {
  const byKey = new Map<string, Line[]>();
  for (const line of lines) byKey.set(`${line.case}|${line.db}`, [...(byKey.get(`${line.case}|${line.db}`) ?? []), line]);
  return [...byKey.values()].map((group) => {
    const sorted = [...group].sort((a, b) => a.rows - b.rows);
    const [first, last] = [sorted[0], sorted[sorted.length - 1]];
    return {
      case: first.case, db: first.db, unit: first.unit,
      values: Object.fromEntries(sorted.map((l) => [l.rows, l.value])),
      ...(sorted.length > 1 && first.value && last.value !== null ? { growth: round(last.value / first.value, 2), rows_growth: round(last.rows / first.rows, 2) } : {}),
    };
  });
}

function table(summary: ReturnType<typeof growth>): string {
  const header = ['case', 'db', ...SIZES.map(String), 'growth', 'unit'];
  const rows = summary.map((s) => [s.case, s.db, ...SIZES.map((n) => String((s.values as Record<number, number | null>)[n] ?? '–')), s.growth === undefined ? '' : `×${s.growth}`, s.unit]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [format(header), ...rows.map(format)].join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const before = machine();
  const skipped = await onEachDatabase(DBS, POSTGRES_URL, async (db) => {
    for (const rows of SIZES) await scaleOn(db, rows);
  });
  const summary = growth();
  console.log(JSON.stringify({
    benchmark: 'scale: one table of each size on each database',
    sizes: SIZES, seconds_per_load: SECONDS, clients: CLIENTS, slow_clients: SLOW_CLIENTS, import_part_rows: PART,
    server: process.env.BENCH_SERVER === 'dist' ? 'dist/main.js' : 'ts-node --swc src/main.ts',
    failed_requests: lines.filter((l) => l.errors).map((l) => `${l.case} ${l.db} ${l.rows}: ${l.errors}`),
    skipped, elapsed_seconds: round((performance.now() - started) / 1000, 1),
    machine: { ...machine(), loadavg_before: before.loadavg },
    summary,
  }));
  process.stderr.write(`\n${table(summary)}\n`);
}

// bench/instances.ts seeds its table with the helpers above; only `npm run bench:scale` runs this.
if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
