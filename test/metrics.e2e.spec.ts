import { settleJob } from './support/fixtures';
import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { connect } from './support/ws';

const TOKEN = 'metrics-token-5f3a9c';

/** The value of one sample of the exposition text, by metric name and exact labels; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

describe('Prometheus metrics', () => {
  it('do not exist unless METRICS_ENABLED: the URL is unknown', async () => {
    const t = await startApp();
    try {
      const res = await t.request('GET', '/api/_metrics/');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'URL_NOT_FOUND', detail: 'URL /api/_metrics/ not found.' });
    } finally {
      await t.close();
    }
  });

  describe('enabled with METRICS_TOKEN', () => {
    let t: TestApp;
    let user: SignedUp;
    const scrape = async () => {
      const res = await t.request('GET', '/api/_metrics/', { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      return res.text;
    };
    beforeAll(async () => {
      t = await startApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN });
      user = await signUp(t);
    });
    afterAll(() => t.close());

    it('need the bearer token', async () => {
      const missing = await t.request('GET', '/api/_metrics/');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const wrong = await t.request('GET', '/api/_metrics/', { headers: { Authorization: 'Bearer not-the-token' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ detail: 'Invalid token.' });
      const jwt = await t.request('GET', '/api/_metrics/', { token: user.token });
      expect(jwt.status).toBe(401);
      const right = await t.request('GET', '/api/_metrics/', { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(right.status).toBe(200);
      expect(right.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    });

    it('count and time requests by method, route template and status', async () => {
      const [workspace] = (await t.request('GET', '/api/workspaces/', { token: user.token })).body;
      const [database] = (await t.request('GET', `/api/applications/workspace/${workspace.id}/`, { token: user.token })).body;
      const tables: { id: number }[] = database.tables;
      const route = { method: 'GET', route: '/api/database/rows/table/:tableId/', status: '200' };
      const before = await scrape();
      for (const table of tables) expect((await t.request('GET', `/api/database/rows/table/${table.id}/`, { token: user.token })).status).toBe(200);
      expect((await t.request('GET', `/api/database/rows/table/${tables[0].id}/`)).status).toBe(401);
      expect((await t.request('GET', '/api/nowhere/1/')).status).toBe(404);
      const after = await scrape();
      const grew = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
      expect(grew('rowspace_http_requests_total', route)).toBe(tables.length);
      expect(grew('rowspace_http_request_duration_seconds_count', route)).toBe(tables.length);
      expect(grew('rowspace_http_requests_total', { ...route, status: '401' })).toBe(1);
      expect(grew('rowspace_http_requests_total', { method: 'GET', route: '(unknown)', status: '404' })).toBe(1);
      // The URL with its ids is never a label.
      expect(after).not.toContain(`/api/database/rows/table/${tables[0].id}/`);
    });

    it('follow open sockets and messages sent', async () => {
      const before = await scrape();
      expect(sample(before, 'rowspace_websocket_connections')).toBe(0);
      const socket = await connect(t, user.token);
      const open = await scrape();
      expect(sample(open, 'rowspace_websocket_connections')).toBe(1);
      // The `authentication` message.
      expect(sample(open, 'rowspace_websocket_messages_sent_total') - sample(before, 'rowspace_websocket_messages_sent_total')).toBe(1);
      socket.close();
      await socket.closed;
      let closed = await scrape();
      for (let attempt = 0; attempt < 100 && sample(closed, 'rowspace_websocket_connections') !== 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        closed = await scrape();
      }
      expect(sample(closed, 'rowspace_websocket_connections')).toBe(0);
    });

    it('count jobs by state and show the database pool, memory and event-loop lag', async () => {
      const [workspace] = (await t.request('GET', '/api/workspaces/', { token: user.token })).body;
      const [database] = (await t.request('GET', `/api/applications/workspace/${workspace.id}/`, { token: user.token })).body;
      const before = await scrape();
      const job = await t.request('POST', `/api/database/tables/${database.tables[0].id}/duplicate/async/`, { token: user.token });
      expect(job.status).toBe(202);
      await settleJob(t, user.token, job.body.id);
      const text = await scrape();
      expect(sample(text, 'rowspace_jobs', { state: 'finished' }) - sample(before, 'rowspace_jobs', { state: 'finished' })).toBe(1);
      expect(sample(text, 'rowspace_jobs', { state: 'pending' })).toBe(0);
      const total = sample(text, 'rowspace_database_pool_connections', { state: 'total' });
      if (TEST_DB === 'sqlite') expect(total).toBe(1);
      else expect(total).toBeGreaterThanOrEqual(1);
      expect(text).toMatch(/^rowspace_database_pool_waiting \d+$/m);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+$/m);
    });
  });

  it('keep one registry per app: a second app counts only its own requests and needs no token without METRICS_TOKEN', async () => {
    const a = await startApp({ METRICS_ENABLED: 'true' });
    const b = await startApp({ METRICS_ENABLED: 'true' });
    try {
      for (let i = 0; i < 3; i++) await a.request('GET', '/api/settings/');
      await b.request('GET', '/api/settings/');
      const labels = { method: 'GET', route: '/api/settings/', status: '200' };
      const textA = (await a.request('GET', '/api/_metrics/')).text;
      const resB = await b.request('GET', '/api/_metrics/');
      expect(resB.status).toBe(200);
      expect(sample(textA, 'rowspace_http_requests_total', labels)).toBe(3);
      expect(sample(resB.text, 'rowspace_http_requests_total', labels)).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
