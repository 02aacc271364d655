import { freshDatabase, request, signUp, TEST_DB, TestApp, TestDatabase } from './support/app';
import { Receiver } from './support/receiver';
import { ServerProcess, startServer, stopServer } from './support/server';

/**
 * Webhook calls survive the server (issue 22 item 2): queued in the database with the change,
 * they are made after a kill -9 and a restart, and two instances on one PostgreSQL database
 * make each call once. The real server (src/main.ts) runs in child processes.
 */
jest.setTimeout(120_000);

const asTestApp = (url: string) => ({ url, request: (method: string, path: string, options?: object) => request(url, method, path, options) }) as TestApp;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`webhook delivery across crashes and instances (${TEST_DB})`, () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = await startServer(env);
    servers.push(server);
    return server;
  };

  /** A user, a table and a webhook on it to the receiver; answers what the requests need. */
  const setUp = async (url: string) => {
    const user = await signUp(asTestApp(url));
    const apps = (await request(url, 'GET', '/api/applications/', { token: user.token })).body;
    const database = apps.find((a: { type: string }) => a.type === 'database');
    const table = (await request(url, 'POST', `/api/database/tables/database/${database.id}/`, { token: user.token, body: { name: 'Hooked' } })).body;
    const hook = await request(url, 'POST', `/api/database/webhooks/table/${table.id}/`, { token: user.token, body: { name: 'Hook', url: receiver.url() } });
    expect(hook.status).toBe(200);
    return { token: user.token, tableId: table.id as number, webhookId: hook.body.id as number };
  };

  beforeEach(async () => {
    db = await freshDatabase();
    receiver = await new Receiver().start();
    env = {
      ...db.env,
      SECRET_KEY: 'test-secret-key-that-is-long-enough',
      PUBLIC_URL: 'http://localhost:8000',
      REDIS_URL: '',
      RATE_LIMIT_REQUESTS_PER_USER: '0',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
      LOG_LEVEL: 'error',
      BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true',
      BASEROW_WEBHOOKS_REQUEST_TIMEOUT_SECONDS: '1',
      WEBHOOKS_POLL_MS: '100',
    };
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) server.child.kill('SIGKILL');
    await receiver.stop();
    await db.drop();
  });

  it('makes every queued call after kill -9 and a restart: the one in flight and the ones waiting', async () => {
    // The receiver holds its first call: the server dies with it in flight and another queued.
    let hold = true;
    receiver.respond = (_call, res) => {
      if (hold) return;
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    };
    const first = await start();
    const setup = await setUp(first.url);
    for (let i = 0; i < 2; i++) {
      const res = await request(first.url, 'POST', `/api/database/rows/table/${setup.tableId}/`, { token: setup.token, body: {} });
      expect(res.status).toBe(200);
    }
    await receiver.until(1);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const heldEvent = receiver.received[0].body.event_id;
    hold = false;

    const second = await start();
    // The held call again (its claim is free at once on SQLite, when it runs out on PostgreSQL), then the waiting one.
    await receiver.until(3, 60_000);
    const events = receiver.received.map((call) => call.body.event_id);
    expect(events.filter((id) => id === heldEvent).length).toBeGreaterThanOrEqual(2);
    expect(new Set(events).size).toBe(2);
    await sleep(300);
    const hook = (await request(second.url, 'GET', `/api/database/webhooks/${setup.webhookId}/`, { token: setup.token })).body;
    expect(hook.calls.map((call: { response_status: number }) => call.response_status)).toEqual([200, 200]);
    expect(await stopServer(second)).toEqual({ code: 0, signal: null });
  });

  (TEST_DB === 'postgres' ? it : it.skip)('makes each call once with two instances on one PostgreSQL database', async () => {
    const a = await start();
    const b = await start();
    const setup = await setUp(a.url);
    const writes = 30;
    await Promise.all(
      Array.from({ length: writes }, (_, i) => request(i % 2 ? a.url : b.url, 'POST', `/api/database/rows/table/${setup.tableId}/`, { token: setup.token, body: {} })),
    );
    await receiver.until(writes, 60_000);
    // Both instances poll every 100 ms: a second delivery of any call would come now.
    await sleep(1500);
    const events = receiver.received.map((call) => call.body.event_id);
    expect(events).toHaveLength(writes);
    expect(new Set(events).size).toBe(writes);
    const [{ n }] = [(await request(a.url, 'GET', `/api/database/webhooks/${setup.webhookId}/`, { token: setup.token })).body.calls].map((calls) => ({ n: calls.length }));
    expect(n).toBe(10);
  });
});
