/**
 * Real-time fan-out benchmark (`npm run bench:ws`).
 *
 * For 1,000 and 5,000 authenticated sockets of the members of one workspace, one
 * `PATCH /api/applications/{id}/` is timed from the HTTP response to the last socket
 * receiving `application_updated`, over repeated runs. As a reference, a bare `ws` server
 * that broadcasts one message to the same number of sockets when it gets an HTTP request is
 * timed the same way. Each server runs in its own child process, so server and clients
 * do not share an event loop; the clients (this process) parse every message.
 *
 * Environment: BENCH_SOCKETS (default "1000,5000"), BENCH_RUNS (default 20), BENCH_MEMBERS
 * (workspace members the sockets are spread over, default 5), DATABASE_URL (PostgreSQL;
 * SQLite in a temporary folder otherwise). Prints one JSON document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { forkServer, ServerProcess, startRowspace, stopServer } from './server';

const SOCKETS = (process.env.BENCH_SOCKETS ?? '1000,5000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 3;
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 5);
const CONNECT_CONCURRENCY = 200;

// ---------------------------------------------------------------- servers (child processes)

/** The reference: a plain `ws` server; `POST /broadcast` sends one message to every socket, then answers. */
function serveBare(): void {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.stringify({ type: 'application_updated', ...JSON.parse(body || '{}') });
      for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.send(message);
      res.writeHead(204).end();
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.send(JSON.stringify({ type: 'authentication', success: true, web_socket_id: null })));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.send!({ url: `http://127.0.0.1:${address.port}` });
  });
  process.on('SIGTERM', () => process.exit(0));
  process.on('disconnect', () => process.exit(0));
}

/** Rowspace (on SQLite in a temporary folder, or DATABASE_URL) or the bare reference server. */
async function startChild(role: 'rowspace' | 'bare'): Promise<{ server: ServerProcess; url: string; stop: () => Promise<void> }> {
  if (role === 'bare') {
    const server = await forkServer(__filename, ['bare']);
    return { server, url: server.url, stop: async () => void (await stopServer(server, 10_000)) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rowspace-bench-ws-'));
  const server = await startRowspace(dir, process.env.DATABASE_URL || null);
  return {
    server,
    url: server.url,
    stop: async () => {
      await stopServer(server, 10_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- clients (this process)

async function http(base: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `JWT ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Sockets that count the `application_updated` messages they receive. */
class Audience {
  readonly sockets: WebSocket[] = [];
  private expected = 0;
  private received = 0;
  private last = 0;
  private done: (() => void) | null = null;

  async open(url: string, tokens: string[], count: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/core/?jwt_token=${tokens[index % tokens.length]}`);
        await new Promise<void>((resolve, reject) => {
          ws.once('message', (data) => {
            const auth = JSON.parse(data.toString());
            if (!auth.success) reject(new Error('authentication failed'));
            else resolve();
          });
          ws.once('error', reject);
        });
        ws.on('message', (data) => {
          if (JSON.parse(data.toString()).type !== 'application_updated') return;
          this.received += 1;
          this.last = performance.now();
          if (this.received === this.expected) this.done?.();
        });
        this.sockets.push(ws);
      }
    };
    await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  }

  /** Runs `trigger` and answers when every socket has its message: timings in ms. */
  async measure(trigger: () => Promise<void>): Promise<{ afterResponse: number; fromRequest: number; http: number }> {
    this.expected = this.sockets.length;
    this.received = 0;
    const all = new Promise<void>((resolve) => (this.done = resolve));
    const start = performance.now();
    await trigger();
    const response = performance.now();
    await all;
    return { afterResponse: Math.max(0, this.last - response), fromRequest: this.last - start, http: response - start };
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index] * 100) / 100;
}

function summary(samples: { afterResponse: number; fromRequest: number; http: number }[]) {
  const pick = (key: 'afterResponse' | 'fromRequest' | 'http') => {
    const values = samples.map((s) => s[key]);
    return { p50: percentile(values, 50), p99: percentile(values, 99) };
  };
  return { afterResponseMs: pick('afterResponse'), fromRequestMs: pick('fromRequest'), httpMs: pick('http') };
}

async function benchRowspace(sockets: number) {
  const { url, stop } = await startChild('rowspace');
  const audience = new Audience();
  try {
    const password = 'password123';
    const signUp = (name: string, i: number) =>
      http(url, 'POST', '/api/user/', { name, email: `bench${i}-${Date.now()}@example.com`, password, authenticate: true });
    const owner = await signUp('Owner', 0);
    const workspaceId = (await http(url, 'GET', '/api/workspaces/', undefined, owner.access_token))[0].id;
    const tokens = [owner.access_token as string];
    for (let i = 1; i < MEMBERS; i++) {
      const member = await signUp(`Member ${i}`, i);
      const invitation = await http(url, 'POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
        email: member.user.username, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite',
      }, owner.access_token);
      await http(url, 'POST', `/api/workspaces/invitations/${invitation.id}/accept/`, {}, member.access_token);
      tokens.push(member.access_token);
    }
    const application = (await http(url, 'GET', `/api/applications/workspace/${workspaceId}/`, undefined, owner.access_token))[0];
    await audience.open(url, tokens, sockets);
    const samples = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const sample = await audience.measure(async () => {
        await http(url, 'PATCH', `/api/applications/${application.id}/`, { name: `Run ${run}` }, owner.access_token);
      });
      if (run >= WARMUP) samples.push(sample);
    }
    return summary(samples);
  } finally {
    audience.close();
    await stop();
  }
}

async function benchBare(sockets: number) {
  const { url, stop } = await startChild('bare');
  const audience = new Audience();
  try {
    await audience.open(url, [''], sockets);
    // A message of the same shape and size as Rowspace's application_updated.
    const payload = {
      application_id: 1,
      application: {
        id: 1, name: 'Run', order: 1, type: 'database',
        workspace: { id: 1, name: "Owner's workspace", generative_ai_models_enabled: {} },
        created_on: new Date().toISOString(),
        tables: [{ id: 1, name: 'Customers', order: 1, database_id: 1, data_sync: null }],
      },
    };
    const samples = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const sample = await audience.measure(async () => {
        await http(url, 'POST', '/broadcast', payload);
      });
      if (run >= WARMUP) samples.push(sample);
    }
    return summary(samples);
  } finally {
    audience.close();
    await stop();
  }
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

const NOTE =
  'Both servers send to the sockets before they answer the request, so by the time the client has read the ' +
  'response every socket has its message: afterResponseMs is then 0, and fromRequestMs (request sent to last ' +
  'socket received, which includes the HTTP round trip) is the figure to compare.';

async function main(): Promise<void> {
  const results = [];
  for (const sockets of SOCKETS) {
    const rowspace = await benchRowspace(sockets);
    const bare = await benchBare(sockets);
    results.push({
      sockets,
      members: MEMBERS,
      runs: RUNS,
      rowspace,
      bareWs: bare,
      ratio: {
        p50FromRequest: ratio(rowspace.fromRequestMs.p50, bare.fromRequestMs.p50),
        p99FromRequest: ratio(rowspace.fromRequestMs.p99, bare.fromRequestMs.p99),
      },
    });
  }
  console.log(JSON.stringify({ benchmark: 'ws fan-out of application_updated', note: NOTE, database: process.env.DATABASE_URL ? 'postgres' : 'sqlite', node: process.version, results }, null, 2));
}

const role = process.argv[2];
if (role === 'bare') serveBare();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
