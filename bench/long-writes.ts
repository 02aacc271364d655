/**
 * Long writes at scale, against a running server (`npm start`): BENCH_URL (http://127.0.0.1:8000),
 * BENCH_PID (the server's process id, for its resident memory), BENCH_ROWS (1,000,000), BENCH_COLUMNS (3).
 * `ts-node --swc bench/long-writes.ts`
 *
 *  - create: `POST /api/database/tables/database/{id}/async/` with `data` (three text columns),
 *    timed to the job's end;
 *  - import: `POST /api/database/tables/{id}/import/async/` of the same rows into an existing table;
 *  - with BENCH_DUPLICATE=1, duplication of the database holding both (`duplicate_application`).
 * While each runs, a second user creates a row in a table of their own every 100 ms: its latency
 * (the wait behind the long write) is reported as max and p99. The server's peak resident memory
 * is sampled from /proc every 20 ms. The server's REQUEST_BODY_LIMIT_MB must admit the body.
 * Prints one JSON document.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const URL_BASE = process.env.BENCH_URL ?? 'http://127.0.0.1:8000';
const PID = Number(process.env.BENCH_PID ?? 0);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const MB = 1024 * 1024;

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<any> {
  const res = await fetch(URL_BASE + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `JWT ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

function rss(): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${PID}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0;
  }
}

async function signUp(name: string): Promise<{ token: string; databaseId: number }> {
  const email = `${name}-${Date.now()}@example.com`;
  const res = await call('POST', '/api/user/', null, { name, email, password: 'password123', authenticate: true });
  const apps = await call('GET', '/api/applications/', res.access_token);
  return { token: res.access_token, databaseId: apps.find((a: any) => a.type === 'database').id };
}

/** Runs `work` while the other user creates a row every 100 ms; the latencies and the server's peak memory. */
async function measured(work: () => Promise<unknown>, probe: { token: string; tableId: number }) {
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  // The prober runs in a thread of its own: building and sending a million rows here blocks this
  // event loop, which would otherwise count as the server's wait.
  const prober = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let running = true;
    parentPort.on('message', () => (running = false));
    (async () => {
      const begin = performance.now();
      const timeline = [];
      const errors = [];
      while (running) {
        const start = performance.now();
        try {
          const res = await fetch(workerData.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'JWT ' + workerData.token }, body: '{}' });
          await res.text();
          if (res.status !== 200) throw new Error('status ' + res.status);
          timeline.push({ at_s: Math.round((start - begin) / 100) / 10, ms: Math.round(performance.now() - start) });
        } catch (error) {
          errors.push(String(error.cause ?? error));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      parentPort.postMessage({ timeline, errors });
    })();`,
    { eval: true, workerData: { url: `${URL_BASE}/api/database/rows/table/${probe.tableId}/`, token: probe.token } },
  );
  const probed = new Promise<{ timeline: { at_s: number; ms: number }[]; errors: string[] }>((resolve) => prober.once('message', resolve));
  const start = performance.now();
  const result = await work();
  const seconds = (performance.now() - start) / 1000;
  prober.postMessage('stop');
  const { timeline, errors } = await probed;
  await prober.terminate();
  clearInterval(sampler);
  const latencies = timeline.map((entry) => entry.ms).sort((a, b) => a - b);
  return {
    result,
    seconds: Math.round(seconds * 10) / 10,
    rows_per_s: Math.round(ROWS / seconds),
    peak_rss_mb: Math.round(peak / MB),
    rss_before_mb: Math.round(before / MB),
    interactive_creates: latencies.length,
    interactive_create_errors: errors.slice(0, 3),
    interactive_create_max_ms: Math.round(latencies[latencies.length - 1] ?? 0),
    interactive_create_p99_ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    /** The slowest creates and when they were sent (seconds from the long write's request). */
    interactive_create_slowest: timeline.sort((a, b) => b.ms - a.ms).slice(0, 4),
    load: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

async function job(token: string, id: number): Promise<any> {
  for (;;) {
    const state = await call('GET', `/api/jobs/${id}/`, token);
    if (!['pending', 'started'].includes(state.state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** BENCH_COLUMNS (3) text columns: a name, a number as text, then words. */
const COLUMNS = Number(process.env.BENCH_COLUMNS ?? 3);
const rows = () => Array.from({ length: ROWS }, (_, i) => [`row ${i}`, String(i), ...Array.from({ length: COLUMNS - 2 }, (_, c) => ((i + c) % 3 ? 'some words here' : ''))]);

async function main(): Promise<void> {
  const ada = await signUp('ada');
  const eve = await signUp('eve');
  const eveTable = (await call('POST', `/api/database/tables/database/${eve.databaseId}/`, eve.token, { name: 'Probe' })).id;
  const probe = { token: eve.token, tableId: eveTable };

  const create = await measured(async () => {
    const started = await call('POST', `/api/database/tables/database/${ada.databaseId}/async/`, ada.token, { name: 'Million', data: rows() });
    const done = await job(ada.token, started.id);
    const count = done.table_id ? (await call('GET', `/api/database/rows/table/${done.table_id}/?size=1`, ada.token)).count : null;
    return { state: done.state, error: done.human_readable_error, count };
  }, probe);

  const target = (await call('POST', `/api/database/tables/database/${ada.databaseId}/`, ada.token, { name: 'Target', data: [Array.from({ length: COLUMNS }, (_, c) => `c${c}`)] })).id;
  const importing = await measured(async () => {
    const started = await call('POST', `/api/database/tables/${target}/import/async/`, ada.token, { data: rows() });
    const done = await job(ada.token, started.id);
    const count = (await call('GET', `/api/database/rows/table/${target}/?size=1`, ada.token)).count;
    return { state: done.state, error: done.human_readable_error, count };
  }, probe);

  // Duplication of the database that now holds both tables (BENCH_DUPLICATE=1; it copies 2 × BENCH_ROWS rows).
  const duplicate =
    process.env.BENCH_DUPLICATE === '1'
      ? await measured(async () => {
          const started = await call('POST', `/api/applications/${ada.databaseId}/duplicate/async/`, ada.token);
          const done = await job(ada.token, started.id);
          return { state: done.state, error: done.human_readable_error, tables: done.duplicated_application?.tables?.length };
        }, probe)
      : null;

  console.log(JSON.stringify({ rows: ROWS, create, import: importing, duplicate }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
