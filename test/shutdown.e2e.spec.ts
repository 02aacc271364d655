import { connect as connectTcp, Socket } from 'node:net';
import { freshDatabase, request, Response, signUp, TestApp, TestDatabase } from './support/app';
import { ServerProcess, startServer, stopServer } from './support/server';
import { connect, WsClient } from './support/ws';

/**
 * The real server (src/main.ts) in a child process, stopped by SIGTERM or killed with
 * SIGKILL in the middle of batch writes, then started again on the same database: every
 * acknowledged batch is there in full, no batch is there in part.
 */
// Each test starts the server (ts-node) in a child process once or twice: on a loaded 2-core
// machine that alone took most of the default 30 s.
jest.setTimeout(90_000);

const BATCH = 200;

interface Setup {
  token: string;
  tableId: number;
  fieldId: number;
}

/** The bits of TestApp that signUp uses, against a child server. */
const asTestApp = (url: string) => ({ url, request: (method: string, path: string, options?: object) => request(url, method, path, options) }) as TestApp;

async function setUp(server: ServerProcess): Promise<Setup> {
  const user = await signUp(asTestApp(server.url));
  const apps = (await request(server.url, 'GET', '/api/applications/', { token: user.token })).body;
  const database = apps.find((a: { type: string }) => a.type === 'database');
  const table = await request(server.url, 'POST', `/api/database/tables/database/${database.id}/`, { token: user.token, body: { name: 'Batches' } });
  expect(table.status).toBe(200);
  const fields = (await request(server.url, 'GET', `/api/database/fields/table/${table.body.id}/`, { token: user.token })).body;
  return { token: user.token, tableId: table.body.id, fieldId: fields.find((f: { primary: boolean }) => f.primary).id };
}

/** One batch of rows whose primary cell is the batch's marker. */
function sendBatch(url: string, setup: Setup, marker: string): Promise<Response | null> {
  const items = Array.from({ length: BATCH }, () => ({ [`field_${setup.fieldId}`]: marker }));
  return request(url, 'POST', `/api/database/rows/table/${setup.tableId}/batch/`, { token: setup.token, body: { items } }).catch(() => null);
}

async function rowsWith(url: string, setup: Setup, marker: string): Promise<number> {
  const res = await request(url, 'GET', `/api/database/rows/table/${setup.tableId}/?size=1&filter__field_${setup.fieldId}__equal=${marker}`, { token: setup.token });
  expect(res.status).toBe(200);
  return res.body.count;
}

describe('graceful shutdown and crashes during batch writes', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = await startServer(env);
    servers.push(server);
    return server;
  };

  beforeEach(async () => {
    db = await freshDatabase();
    env = {
      ...db.env,
      SECRET_KEY: 'test-secret-key-that-is-long-enough',
      PUBLIC_URL: 'http://localhost:8000',
      REDIS_URL: '',
      RATE_LIMIT_REQUESTS_PER_USER: '0',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
    };
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) server.child.kill('SIGKILL');
    await db.drop();
  });

  it('on SIGTERM finishes the batch in flight (all rows and their messages) or refuses it (no rows), closes sockets with 1012 and exits 0', async () => {
    const first = await start();
    const setup = await setUp(first);
    const socket: WsClient = await connect(first.url, setup.token);
    socket.send({ page: 'table', table_id: setup.tableId });
    await socket.waitFor('page_add');

    // SIGTERM arrives once the first batch is answered, while the others are sent or running.
    const markers = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const answers = markers.map((marker) => sendBatch(first.url, setup, marker));
    const firstAnswer = await answers[0];
    first.child.kill('SIGTERM');
    const responses = [firstAnswer, ...(await Promise.all(answers.slice(1)))];
    const closed = await socket.closed;
    const exit = await first.exited;

    expect(firstAnswer?.status).toBe(200);
    expect(closed.code).toBe(1012);
    expect(exit).toEqual({ code: 0, signal: null });
    // After SIGTERM the server stops listening: nothing new reaches it.
    expect(await request(first.url, 'GET', '/api/_health/').catch(() => null)).toBeNull();

    const broadcast = new Set(socket.received.filter((m) => m.type === 'rows_created').flatMap((m) => m.rows.map((r: { id: number }) => r.id)));
    const second = await start();
    for (const [i, res] of responses.entries()) {
      const count = await rowsWith(second.url, setup, markers[i]);
      if (res?.status === 200) {
        expect(res.body.items).toHaveLength(BATCH);
        expect(count).toBe(BATCH);
        // Its after-commit messages left before the sockets were closed.
        for (const row of res.body.items) expect(broadcast.has(row.id)).toBe(true);
      } else {
        // Refused while draining (503) or never accepted: nothing of it was written.
        if (res) expect(res.status).toBe(503);
        expect(count).toBe(0);
      }
    }
    expect(await stopServer(second)).toEqual({ code: 0, signal: null });
  });

  it('while draining, answers a request arriving on an open connection 503 with Connection: close, after finishing the one in flight', async () => {
    const server = await start();
    const { hostname, port } = new URL(server.url);
    const socket: Socket = connectTcp(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // A request whose body has not fully arrived is in flight when SIGTERM comes; `100 Continue` says the server took it.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    socket.write(`POST /api/user/token-auth/ HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const check = () => (received.includes('100 Continue') ? resolve() : socket.once('data', check));
      check();
    });
    server.child.kill('SIGTERM');
    await server.printed('SIGTERM received');
    // The body, and a second request on the same kept-alive connection.
    socket.write(`${body}GET /api/settings/ HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    await ended;
    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(3);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(responses[1]).toMatch(/^HTTP\/1\.1 401 /);
    expect(responses[1]).toContain('ERROR_INVALID_CREDENTIALS');
    expect(responses[2]).toMatch(/^HTTP\/1\.1 503 /);
    expect(responses[2].toLowerCase()).toContain('connection: close');
    expect(responses[2]).toContain('{"error":"ERROR_SERVICE_UNAVAILABLE","detail":"The server is shutting down, please retry."}');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('on SIGTERM lets a job started just before it finish, and exits 0', async () => {
    const first = await start();
    const setup = await setUp(first);
    const apps = (await request(first.url, 'GET', '/api/applications/', { token: setup.token })).body;
    const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
    const data = [['Name', 'Note'], ...Array.from({ length: 2000 }, (_, i) => [`Row ${i}`, 'imported'])];
    const job = await request(first.url, 'POST', `/api/database/tables/database/${databaseId}/async/`, { token: setup.token, body: { name: 'Imported', data, first_row_header: true } });
    expect(job.status).toBe(200);
    expect(job.body.state).toBe('pending');
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = await start();
    const after = await request(second.url, 'GET', `/api/jobs/${job.body.id}/`, { token: setup.token });
    expect(after.body).toMatchObject({ state: 'finished', progress_percentage: 100 });
    const rows = await request(second.url, 'GET', `/api/database/rows/table/${after.body.table_id}/?size=1`, { token: setup.token });
    expect(rows.body.count).toBe(2000);
  });

  it('exits 1 when SHUTDOWN_TIMEOUT_SECONDS cuts a request short, which is then never answered', async () => {
    env.SHUTDOWN_TIMEOUT_SECONDS = '1';
    const server = await start();
    const { hostname, port } = new URL(server.url);
    const socket: Socket = connectTcp(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // A request whose body never arrives stays in flight past the deadline.
    socket.write(`POST /api/user/token-auth/ HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const check = () => (received.includes('100 Continue') ? resolve() : socket.once('data', check));
      check();
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    await ended;
    expect(received.split(/(?=HTTP\/1\.1 )/)).toEqual([expect.stringMatching(/^HTTP\/1\.1 100 Continue/)]);
    expect(server.output()).toContain('Closing with 1 unfinished request(s) or job(s) after 1s.');
  });

  it('after kill -9 during repeated batch writes, every acknowledged batch is there in full and no batch in part', async () => {
    const first = await start();
    const setup = await setUp(first);
    const sent: string[] = [];
    const acknowledged = new Set<string>();
    let killed = false;
    let resolveEnough!: () => void;
    const enough = new Promise<void>((resolve) => (resolveEnough = resolve));
    // Three writers send batches one after another until the server is gone.
    const writer = async (w: number) => {
      for (let n = 0; !killed; n++) {
        const marker = `w${w}n${n}z`;
        sent.push(marker);
        const res = await sendBatch(first.url, setup, marker);
        if (res === null) return;
        if (res.status === 200) acknowledged.add(marker);
        if (acknowledged.size >= 6) resolveEnough();
      }
    };
    const writers = [0, 1, 2].map(writer);
    await enough;
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(writers);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await start();
    for (const marker of sent) {
      const count = await rowsWith(second.url, setup, marker);
      if (acknowledged.has(marker)) expect(count).toBe(BATCH);
      else expect([0, BATCH]).toContain(count);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(6);
    expect(await stopServer(second)).toEqual({ code: 0, signal: null });
  });
});
