/**
 * Instances benchmark (`npm run bench:instances`): Rowspace instances on one PostgreSQL database
 * and one Redis (real-time messages between instances), behind one port, compared with one
 * instance behind the same kind of port.
 *
 * A temporary database on DATABASE_URL (default postgres://postgres@127.0.0.1:5432) and REDIS_URL
 * (default redis://127.0.0.1:6379, with a channel prefix of this run's own). The first instance
 * (bench/server.ts; BENCH_SERVER=dist serves the built server) gets a table of
 * BENCH_INSTANCES_ROWS rows (bench/scale.ts's table and import) with `db_index` on num_a and num_b;
 * then BENCH_INSTANCES - 1 more instances start on the same database and Redis. Two proxies
 * (bench/round-robin-proxy.ts, child processes) each listen on one port: one in front of the first
 * instance only, one in front of all, HTTP requests and WebSocket upgrades going round-robin. Over
 * BENCH_INSTANCES_ROUNDS rounds, in alternating order, through each proxy:
 *  - read: BENCH_INSTANCES_CLIENTS clients repeat the indexed list (100 rows with num_a > 500
 *    sorted by num_b descending, exact count: cached by each instance after its first) for
 *    BENCH_INSTANCES_SECONDS: req/s (every count checked), and the CPU seconds the instances and
 *    the proxy used per wall-clock second (the machine's ceiling shows there);
 *  - baseline: the same clients on a route that reads no database (the sign-in options): what more
 *    instances give on this machine when neither PostgreSQL nor Rowspace's reads are involved;
 *  - fan-out: BENCH_INSTANCES_SOCKETS sockets subscribe to the table page through the proxy
 *    (spread over the instances), then BENCH_INSTANCES_WS_RUNS single row PATCHes through the
 *    proxy (each to the next instance): the time from sending the PATCH to the last socket
 *    receiving its `rows_updated`, p50 and p99.
 * The aims of issue 21: read throughput of all instances >= 2.4× one instance, fan-out p99 <= 1.5×.
 *
 * Output: one JSON line per measurement `{case, instances, round, …}`, then a summary line with
 * the ratios (all ÷ one) and the machine (CPU count, load averages before and after).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { analyze, AnswerCheck, Api, Audience, WsSample, countIs, envInt, freshPostgres, load, log, machine, percentile, round } from './rows';
import { above, createTable, median, seed } from './scale';
import { ServerProcess, forkServer, startRowspace, stopServer } from './server';

const INSTANCES = Math.floor(envInt('BENCH_INSTANCES', 3, 2));
const ROWS = Math.floor(envInt('BENCH_INSTANCES_ROWS', 100_000, 1000));
const SECONDS = envInt('BENCH_INSTANCES_SECONDS', 5, 0.1);
const CLIENTS = Math.floor(envInt('BENCH_INSTANCES_CLIENTS', 30));
const ROUNDS = Math.floor(envInt('BENCH_INSTANCES_ROUNDS', 2));
const SOCKETS = Math.floor(envInt('BENCH_INSTANCES_SOCKETS', 150));
const WS_RUNS = Math.floor(envInt('BENCH_INSTANCES_WS_RUNS', 30));
const WS_WARMUP = 3;
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PAGE_SIZE = 100;
const ABOVE = 500;
const TICKS_PER_SECOND = 100;
/** A request that reads nothing from the database: the ceiling of instances behind the proxy on this machine. */
const BASELINE_PATH = '/api/auth-provider/login-options/';

/** CPU seconds (user + system) process `pid` has used, from /proc (Linux), or null. */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds per wall-clock second of each process while `work` runs. */
async function cpuShare<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; cpu: (number | null)[] }> {
  const before = pids.map(cpuSeconds);
  const start = performance.now();
  const result = await work();
  const elapsed = (performance.now() - start) / 1000;
  const cpu = pids.map((pid, i) => {
    const now = cpuSeconds(pid);
    return now === null || before[i] === null ? null : round((now - before[i]!) / elapsed);
  });
  return { result, cpu };
}

interface Proxy {
  name: 'one' | 'all';
  server: ServerProcess;
  api: Api;
  instances: ServerProcess[];
}

async function startProxy(name: 'one' | 'all', instances: ServerProcess[], token: string): Promise<Proxy> {
  const server = await forkServer(require.resolve('./round-robin-proxy'), instances.map((i) => i.url));
  const api = new Api(server.url);
  api.token = token;
  return { name, server, api, instances };
}

const lines: Record<string, unknown>[] = [];
function emit(line: Record<string, unknown>): void {
  // The machine's 1-minute load average when the figure was taken.
  line.load1 = round(loadavg()[0]);
  lines.push(line);
  console.log(JSON.stringify(line));
}

async function readCase(name: 'read' | 'baseline', proxy: Proxy, round: number, path: string, check: AnswerCheck): Promise<number> {
  log(`${name} through ${proxy.name} (${proxy.instances.length} instance${proxy.instances.length > 1 ? 's' : ''}), round ${round + 1}`);
  const pids = [...proxy.instances.map((i) => i.child.pid!), proxy.server.child.pid!];
  const { result, cpu } = await cpuShare(pids, () => load(proxy.api, path, CLIENTS, check, 'jwt', { seconds: SECONDS, warmupSeconds: Math.min(2, SECONDS / 2) }));
  emit({
    case: name, path, instances: proxy.instances.length, round: round + 1, unit: 'req/s', value: result.req_per_s, clients: CLIENTS, p50_ms: result.p50_ms, p99_ms: result.p99_ms,
    errors: result.errors, ...(result.first_errors ? { first_errors: result.first_errors } : {}),
    instance_cpu: cpu.slice(0, -1), proxy_cpu: cpu[cpu.length - 1], client_cpu: result.client_cpu,
  });
  return result.req_per_s;
}

async function fanOutCase(proxy: Proxy, round: number, tableId: number, notes: number, rowId: number): Promise<number[]> {
  log(`fan-out through ${proxy.name}, round ${round + 1}`);
  const before = await proxy.api.call('GET', '/__proxy__/stats');
  const audience = new Audience();
  try {
    await audience.open(proxy.api.base.origin, proxy.api.token, tableId, SOCKETS);
    const after = await proxy.api.call('GET', '/__proxy__/stats');
    const spread = (after.sockets as number[]).map((n, i) => n - before.sockets[i]);
    const key = `field_${notes}`;
    const samples: WsSample[] = [];
    let incomplete = 0;
    for (let run = 0; run < WS_WARMUP + WS_RUNS; run++) {
      const marker = `fan-out ${proxy.name} ${round} ${run} ${randomBytes(3).toString('hex')}`;
      const sample = await audience.measure(
        (m) => m.type === 'rows_updated' && m.table_id === tableId && Array.isArray(m.rows) && m.rows.some((r: any) => r.id === rowId && r[key] === marker),
        async () => void (await proxy.api.call('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, { [key]: marker })),
      );
      if (run < WS_WARMUP) continue;
      if (sample) samples.push(sample);
      else incomplete += 1;
    }
    const ms = samples.map((s) => s.fromRequest);
    emit({
      case: 'fan_out', instances: proxy.instances.length, round: round + 1, unit: 'ms (PATCH sent to the last socket\'s rows_updated)',
      p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99), http_p50_ms: percentile(samples.map((s) => s.http), 50),
      sockets: SOCKETS, sockets_per_instance: spread, runs: WS_RUNS, incomplete_runs: incomplete,
    });
    return ms;
  } finally {
    audience.close();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const before = machine();
  const postgres = await freshPostgres(POSTGRES_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'rowspace-bench-instances-'));
  const env = { REDIS_URL, REDIS_CHANNEL_PREFIX: `rowspace_bench_${randomBytes(4).toString('hex')}` };
  const servers: ServerProcess[] = [];
  const proxies: Proxy[] = [];
  let api: Api | null = null;
  try {
    servers.push(await startRowspace(dataDir, postgres.url, env));
    api = new Api(servers[0].url);
    await api.signUp();
    const { tableId, fields } = await createTable(api);
    const truth = await seed(api, servers[0].child.pid!, 'postgres', tableId, fields, ROWS);
    for (const id of [fields.numA, fields.numB]) await api.call('PATCH', `/api/database/fields/${id}/`, { db_index: true });
    await analyze(postgres.url, tableId);
    log(`starting ${INSTANCES - 1} more instances`);
    servers.push(...(await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startRowspace(dataDir, postgres.url, env)))));
    proxies.push(await startProxy('one', servers.slice(0, 1), api.token), await startProxy('all', servers, api.token));

    const path = `/api/database/rows/table/${tableId}/?size=${PAGE_SIZE}&filter__field_${fields.numA}__higher_than=${ABOVE}&order_by=-field_${fields.numB}`;
    const expected = above(truth, ABOVE).count;
    const rowId = (await api.call('GET', `/api/database/rows/table/${tableId}/?size=1`)).results[0].id as number;
    const reads = { one: [] as number[], all: [] as number[] };
    const baseline = { one: [] as number[], all: [] as number[] };
    const fanOut = { one: [] as number[], all: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? proxies : [...proxies].reverse();
      for (const proxy of order) reads[proxy.name].push(await readCase('read', proxy, r, path, countIs(expected)));
      for (const proxy of order) baseline[proxy.name].push(await readCase('baseline', proxy, r, BASELINE_PATH, () => null));
      for (const proxy of order) fanOut[proxy.name].push(...(await fanOutCase(proxy, r, tableId, fields.notes, rowId)));
    }
    const readRatio = round(median(reads.all) / median(reads.one), 2);
    const p99 = { one: percentile(fanOut.one, 99), all: percentile(fanOut.all, 99) };
    const fanOutRatio = p99.one && p99.all !== null ? round(p99.all / p99.one, 2) : null;
    const stats = await Promise.all(proxies.map((p) => p.api.call('GET', '/__proxy__/stats')));
    console.log(JSON.stringify({
      benchmark: `instances: ${INSTANCES} Rowspace instances on PostgreSQL + Redis behind one round-robin port, against one instance behind the same proxy`,
      rows: ROWS, instances: INSTANCES, clients: CLIENTS, seconds: SECONDS, rounds: ROUNDS, sockets: SOCKETS, ws_runs_per_round: WS_RUNS,
      server: process.env.BENCH_SERVER === 'dist' ? 'dist/main.js' : 'ts-node --swc src/main.ts',
      postgres_version: postgres.version,
      read_req_per_s: { one: median(reads.one), all: median(reads.all), ratio: readRatio, aim: 'ratio >= 2.4', meets_aim: readRatio >= 2.4 },
      baseline_req_per_s: {
        note: `${BASELINE_PATH}: no database, the HTTP stack and the proxy only (what the machine allows more instances)`,
        one: median(baseline.one), all: median(baseline.all), ratio: round(median(baseline.all) / median(baseline.one), 2),
      },
      fan_out_p99_ms: { one: p99.one, all: p99.all, ratio: fanOutRatio, aim: 'ratio <= 1.5', meets_aim: fanOutRatio === null ? null : fanOutRatio <= 1.5 },
      fan_out_p50_ms: { one: percentile(fanOut.one, 50), all: percentile(fanOut.all, 50) },
      proxy_stats: Object.fromEntries(proxies.map((p, i) => [p.name, stats[i]])),
      elapsed_seconds: round((performance.now() - started) / 1000, 1),
      machine: { ...machine(), loadavg_before: before.loadavg },
    }));
  } finally {
    api?.close();
    for (const proxy of proxies) {
      proxy.api.close();
      await stopServer(proxy.server, 5000);
    }
    await Promise.all(servers.map((s) => stopServer(s, 10_000)));
    await postgres.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
