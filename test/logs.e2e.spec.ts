import { DataSource } from 'typeorm';
import { LogCapture } from './support/log-capture';
import { signUp, startApp, TestApp } from './support/app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('structured logs', () => {
  let t: TestApp;
  const capture = new LogCapture();
  beforeAll(async () => {
    t = await startApp({}, undefined, { log: { stream: capture, level: 'info' } });
  });
  afterAll(() => t.close());

  const linesOf = (requestId: string) => capture.waitFor((line) => line.requestId === requestId && 'status' in line);

  it('writes one JSON line per request with method, route, status, duration and the request id sent back', async () => {
    const res = await t.request('GET', '/api/_health/', { headers: { 'X-Request-Id': 'probe-1.a_B' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('probe-1.a_B');
    const lines = await linesOf('probe-1.a_B');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', route: '/api/_health/', status: 200, userId: null });
    expect(typeof lines[0].durationMs).toBe('number');
    expect(typeof lines[0].time).toBe('string');
  });

  it('generates a request id when none or an unusable one is given, and lets CORS clients read it', async () => {
    for (const given of [undefined, 'has spaces', 'x'.repeat(65), 'semi;colon']) {
      const res = await t.request('GET', '/api/settings/', { headers: { ...(given ? { 'X-Request-Id': given } : {}), Origin: 'http://example.com' } });
      const id = res.headers.get('x-request-id')!;
      expect(id).toMatch(UUID);
      expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
      expect(await linesOf(id)).toHaveLength(1);
    }
  });

  it('names the route template, not the URL, and the user once authenticated', async () => {
    const user = await signUp(t);
    const [workspace] = (await t.request('GET', '/api/workspaces/', { token: user.token })).body;
    const [database] = (await t.request('GET', `/api/applications/workspace/${workspace.id}/`, { token: user.token })).body;
    const tableId = database.tables[0].id;
    const res = await t.request('GET', `/api/database/rows/table/${tableId}/?search=needle&size=5`, { token: user.token, headers: { 'X-Request-Id': 'rows-1' } });
    expect(res.status).toBe(200);
    const [line] = await linesOf('rows-1');
    expect(line).toMatchObject({ method: 'GET', route: '/api/database/rows/table/:tableId/', status: 200, userId: user.id });
    expect(JSON.stringify(line)).not.toContain('needle');

    const anonymous = await t.request('GET', '/api/workspaces/', { headers: { 'X-Request-Id': 'anon-1' } });
    expect(anonymous.status).toBe(401);
    expect((await linesOf('anon-1'))[0]).toMatchObject({ route: '/api/workspaces/', status: 401, userId: null });

    await t.request('GET', '/api/no-such-thing/42/', { headers: { 'X-Request-Id': 'unknown-1' } });
    expect((await linesOf('unknown-1'))[0]).toMatchObject({ route: null, status: 404 });
  });

  it('never writes passwords, tokens, mail links or cell values', async () => {
    const password = 'Sup3r-Secret-Passw0rd';
    const user = await signUp(t, 'Leak Check', { password });
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password } });
    expect(login.status).toBe(200);
    const [workspace] = (await t.request('GET', '/api/workspaces/', { token: user.token })).body;
    const [database] = (await t.request('GET', `/api/applications/workspace/${workspace.id}/`, { token: user.token })).body;
    const tableId = database.tables[0].id;
    const fields = (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token: user.token })).body;
    const primary = fields.find((field: { primary: boolean }) => field.primary);
    const cell = 'cell-value-4b1d-secret';
    const row = await t.request('POST', `/api/database/rows/table/${tableId}/`, { token: login.body.access_token, body: { [`field_${primary.id}`]: cell } });
    expect(row.status).toBe(200);
    const query = await t.request('GET', `/api/workspaces/?token=query-token-77f2&jwt_token=${user.token}`, { headers: { Authorization: `JWT ${user.refresh}` } });
    expect(query.status).toBe(401);
    const reset = await t.request('POST', '/api/user/send-reset-password-email/', {
      body: { email: user.email, base_url: 'http://localhost:8000/reset-password-link' },
      headers: { 'X-Request-Id': 'reset-1' },
    });
    expect(reset.status).toBe(204);
    await linesOf('reset-1');

    // The mail that was not sent is named (recipient, subject), its link is not.
    expect(capture.lines.some((line) => line.context === 'Mailer' && line.msg.includes(user.email) && line.msg.includes('Reset your password'))).toBe(true);
    const everything = capture.all;
    for (const secret of [password, user.token, user.refresh, login.body.access_token, login.body.refresh_token, cell, 'query-token-77f2', 'reset-password-link']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/"(authorization|password|headers|body)"/i);
  });

  it("writes Nest's own messages through pino", async () => {
    expect(capture.lines.some((line) => line.context === 'NestApplication' && line.level === 30)).toBe(true);
  });

  it('writes the body of a mail that was not sent only at debug level', async () => {
    const debugCapture = new LogCapture();
    const debug = await startApp({}, undefined, { log: { stream: debugCapture, level: 'debug' } });
    try {
      const user = await signUp(debug);
      const res = await debug.request('POST', '/api/user/send-reset-password-email/', { body: { email: user.email, base_url: 'http://localhost:8000/reset-at-debug' } });
      expect(res.status).toBe(204);
      const mailLines = debugCapture.lines.filter((line) => line.context === 'Mailer');
      expect(mailLines.map((line) => line.level).sort()).toEqual([20, 30]);
      expect(mailLines.find((line) => line.level === 20)!.msg).toContain('http://localhost:8000/reset-at-debug/');
      expect(mailLines.find((line) => line.level === 30)!.msg).not.toContain('reset-at-debug');
    } finally {
      await debug.close();
    }
  });

  // Last: the database is closed under the app.
  it('logs an unexpected error once, with its stack, route and request id, and answers the 500 envelope', async () => {
    await t.app.get(DataSource).destroy();
    // A route that reads the database whatever its caches hold (the settings are cached now).
    const res = await t.request('POST', '/api/user/token-auth/?token=query-secret-in-error', { headers: { 'X-Request-Id': 'boom-1' }, body: { email: 'nobody@example.com', password: 'whatever-it-is' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'ERROR_SERVER', detail: 'An unexpected error occurred.' });
    expect(res.headers.get('x-request-id')).toBe('boom-1');
    await linesOf('boom-1');
    const errors = capture.lines.filter((line) => line.requestId === 'boom-1' && line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/api/user/token-auth/', method: 'POST' });
    expect(errors[0].error.stack).toMatch(/\n\s+at /);
    const requestLine = capture.lines.find((line) => line.requestId === 'boom-1' && line.status === 500);
    expect(requestLine).toMatchObject({ level: 40, route: '/api/user/token-auth/' });
    expect(capture.all).not.toContain('query-secret-in-error');
  });
});
