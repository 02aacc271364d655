/**
 * Webhooks (`npm run bench:webhooks`; also part of `npm run bench`). On SQLite, then on
 * PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432; skipped when
 * unreachable), a fresh Rowspace (child process, bench/server.ts) with private webhook
 * addresses allowed, and local receivers (`node:http` in this process's child):
 *
 *  - create_webhooks_N: single-row creates by BENCH_WEBHOOK_CLIENTS (4) clients for
 *    BENCH_SECONDS, with N = 0, 1 and 10 webhooks on the table whose receiver answers after
 *    BENCH_WEBHOOK_SLOW_MS (500 ms): the write's latency must not grow with the receivers' speed
 *    (the calls are queued in the write's transaction and sent in the background), and
 *    create_webhooks_10_fast_receiver the same with a receiver that answers at once;
 *  - deliveries: BENCH_WEBHOOK_EVENTS (300) row creates with 10 webhooks to a receiver that
 *    answers at once: calls delivered per second, from the first write to the last call received.
 *
 * Output: one JSON line per case on stdout (`{case, db, webhooks, req_per_s, p50_ms, p99_ms, …}`
 * or `{case: "deliveries", calls, seconds, calls_per_s}`), then a summary line with the machine.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Api, envInt, freshPostgres, load, log, machine, onEachDatabase, round } from './rows';
import { startRowspace, stopServer } from './server';

const CLIENTS = Math.floor(envInt('BENCH_WEBHOOK_CLIENTS', 4));
const SECONDS = envInt('BENCH_SECONDS', 5, 0.1);
const SLOW_MS = Math.floor(envInt('BENCH_WEBHOOK_SLOW_MS', 500, 0));
const EVENTS = Math.floor(envInt('BENCH_WEBHOOK_EVENTS', 300));
const POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.BENCH_WEBHOOK_DBS ?? 'sqlite,postgres').split(',');

/** A receiver in a child process (its own event loop): answers after `delayMs`, counts calls. */
class ChildReceiver {
  private child!: ChildProcess;
  url = '';

  async start(delayMs: number): Promise<this> {
    const source = `
      let calls = 0;
      const server = require('node:http').createServer((req, res) => {
        req.resume();
        req.on('end', () => { calls++; setTimeout(() => { res.setHeader('Content-Type', 'application/json'); res.end('{}'); }, ${delayMs}); });
      });
      server.keepAliveTimeout = 60000;
      server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
      process.on('message', () => process.send({ calls }));`;
    this.child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const { port } = await new Promise<{ port: number }>((resolve) => this.child.once('message', resolve as (m: unknown) => void));
    this.url = `http://127.0.0.1:${port}/hook`;
    return this;
  }

  calls(): Promise<number> {
    return new Promise((resolve) => {
      this.child.once('message', (m: { calls: number }) => resolve(m.calls));
      this.child.send('count');
    });
  }

  stop(): void {
    this.child.kill();
  }
}

async function webhooks(api: Api, tableId: number, count: number, url: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await api.call('POST', `/api/database/webhooks/table/${tableId}/`, { name: `Bench ${i}`, url })).id);
  return ids;
}

async function removeWebhooks(api: Api, ids: number[]): Promise<void> {
  for (const id of ids) await api.call('DELETE', `/api/database/webhooks/${id}/`);
}

async function onDatabase(db: 'sqlite' | 'postgres'): Promise<void> {
  const postgres = db === 'postgres' ? await freshPostgres(POSTGRES) : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'rowspace-bench-webhooks-'));
  const server = await startRowspace(dataDir, postgres?.url ?? null, { BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true', BASEROW_WEBHOOKS_MAX_PER_TABLE: '100', LOG_LEVEL: 'error' });
  const slow = await new ChildReceiver().start(SLOW_MS);
  const fast = await new ChildReceiver().start(0);
  const api = new Api(server.url);
  try {
    await api.signUp();
    const apps = await api.call('GET', '/api/applications/');
    const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
    const table = await api.call('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Webhooks bench' });
    const create = () => ({ method: 'POST', path: `/api/database/rows/table/${table.id}/`, body: {} });
    for (const [count, receiver, delay] of [[0, slow, SLOW_MS], [1, slow, SLOW_MS], [10, slow, SLOW_MS], [10, fast, 0]] as const) {
      const ids = await webhooks(api, table.id, count, receiver.url);
      const result = await load(api, create, CLIENTS, () => null, 'jwt', { seconds: SECONDS });
      const name = `create_webhooks_${count}${count && !delay ? '_fast_receiver' : ''}`;
      console.log(JSON.stringify({ case: name, db, webhooks: count, receiver_delay_ms: delay, ...result }));
      log(`${db} create with ${count} webhooks (receiver ${delay} ms): ${result.req_per_s} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms`);
      await removeWebhooks(api, ids);
    }
    // Deliveries: 10 webhooks to a receiver that answers at once, EVENTS writes.
    const ids = await webhooks(api, table.id, 10, fast.url);
    const before = await fast.calls();
    const start = performance.now();
    for (let i = 0; i < EVENTS; i += CLIENTS) await Promise.all(Array.from({ length: Math.min(CLIENTS, EVENTS - i) }, () => api.call('POST', `/api/database/rows/table/${table.id}/`, {})));
    const expected = EVENTS * ids.length;
    let received = 0;
    const deadline = performance.now() + 300_000;
    while ((received = (await fast.calls()) - before) < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - start) / 1000;
    console.log(JSON.stringify({ case: 'deliveries', db, webhooks: ids.length, events: EVENTS, calls: received, expected, seconds: round(seconds), calls_per_s: round(received / seconds, 1) }));
    log(`${db} deliveries: ${received} of ${expected} calls in ${round(seconds)} s: ${round(received / seconds, 1)} calls/s`);
  } finally {
    api.close();
    slow.stop();
    fast.stop();
    await stopServer(server, 10_000);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const skipped = await onEachDatabase(DBS, POSTGRES, onDatabase);
  console.log(JSON.stringify({ summary: 'webhooks', machine: machine(), skipped }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
