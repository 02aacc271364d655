import { get as httpGet } from 'node:http';
import { rawRequest } from './support/raw-http';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';

describe('HTTP conventions (baserow-rest.md §1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('answers the health check with plain OK', async () => {
    const res = await t.request('GET', '/api/_health/');
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('sends a handler JSON answer with its UTF-8 length and JSON content type, HEAD and conditional requests as Express does', async () => {
    const user = await signUp(t);
    const created = await t.request('POST', '/api/workspaces/', { token: user.token, body: { name: 'Ünïcode ✓ workspace' } });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(created.headers.get('content-length'))).toBe(Buffer.byteLength(created.text));
    expect(created.body.name).toBe('Ünïcode ✓ workspace');
    expect(created.headers.get('etag')).toBeNull();
    const head = await fetch(`${t.url}/api/workspaces/`, { method: 'HEAD', headers: { Authorization: `JWT ${user.token}` } });
    const get = await t.request('GET', '/api/workspaces/', { token: user.token });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
    // Express answers `If-None-Match: *` with 304 even without an ETag (its `req.fresh`).
    // (node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests.)
    const star = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = httpGet(`${t.url}/api/workspaces/`, { headers: { Authorization: `JWT ${user.token}`, 'If-None-Match': '*' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
    });
    expect(star.status).toBe(304);
    expect(star.body).toBe('');
  });

  it('404s an unknown URL with URL_NOT_FOUND', async () => {
    const res = await t.request('GET', '/api/nothing-here/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'URL_NOT_FOUND', detail: 'URL /api/nothing-here/ not found.' });
  });

  it('404s a path without trailing slash instead of redirecting, for every method', async () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
      const res = await t.request(method, '/api/workspaces');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'URL_TRAILING_SLASH_MISSING',
        detail: 'A valid URL must end with a trailing slash. Please, redirect requests to /api/workspaces/',
      });
    }
  });

  it('treats non-numeric and out-of-range ids as unknown URLs', async () => {
    const user = await signUp(t);
    for (const path of ['/api/workspaces/abc/', '/api/applications/1.5/', '/api/applications/99999999999/']) {
      const res = await t.request('PATCH', path, { token: user.token, body: { name: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('URL_NOT_FOUND');
    }
  });

  it('routes a static segment and an id at the same position to their own handlers, ids bounded at INT32_MAX', async () => {
    const user = await signUp(t);
    const tableId = await emptyTable(t, user, await databaseOf(t, user), 'Routed');
    const view = await t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Grid', type: 'grid' } });
    expect(view.status).toBe(200);
    const viewId = view.body.id as number;
    // `/views/:viewId/` and `/views/grid/:viewId/`: the view, then its rows.
    const asView = await t.request('GET', `/api/database/views/${viewId}/`, { token: user.token });
    expect([asView.status, asView.body.id, asView.body.type]).toEqual([200, viewId, 'grid']);
    const rows = await t.request('GET', `/api/database/views/grid/${viewId}/`, { token: user.token });
    expect([rows.status, rows.body.count, rows.body.results]).toEqual([200, 0, []]);
    const head = await fetch(`${t.url}/api/database/views/grid/${viewId}/`, { method: 'HEAD', headers: { Authorization: `JWT ${user.token}` } });
    expect(head.status).toBe(200);
    // `grid` is no view id, and `/views/grid/` no route.
    const noId = await t.request('GET', '/api/database/views/grid/', { token: user.token });
    expect(noId.body).toEqual({ error: 'URL_NOT_FOUND', detail: 'URL /api/database/views/grid/ not found.' });
    // The largest id is a grid that does not exist; one more is no URL.
    const largest = await t.request('GET', '/api/database/views/grid/2147483647/', { token: user.token });
    expect([largest.status, largest.body.error]).toEqual([404, 'ERROR_GRID_DOES_NOT_EXIST']);
    for (const path of ['/api/database/views/grid/2147483648/', '/api/database/views/2147483648/', `/api/database/rows/table/${tableId}/9999999999/`]) {
      const res = await t.request('GET', path, { token: user.token });
      expect([path, res.status, res.body]).toEqual([path, 404, { error: 'URL_NOT_FOUND', detail: `URL ${path} not found.` }]);
    }
    // A missing slash after parameters, on one method and every method.
    for (const [method, path] of [
      ['GET', `/api/database/views/grid/${viewId}`],
      ['PATCH', `/api/database/rows/table/${tableId}/1`],
      ['PUT', `/api/database/rows/table/${tableId}/1`],
    ]) {
      const res = await t.request(method, path, { token: user.token, body: method === 'GET' ? undefined : {} });
      expect([method, res.status, res.body]).toEqual([
        method,
        404,
        { error: 'URL_TRAILING_SLASH_MISSING', detail: `A valid URL must end with a trailing slash. Please, redirect requests to ${path}/` },
      ]);
    }
    // A known URL with another method: 405 with the methods it has.
    const put = await t.request('PUT', `/api/database/views/${viewId}/`, { token: user.token });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, PATCH, DELETE, HEAD, OPTIONS']);
  });

  it('decodes path parameters as Express does: a malformed escape is 400, a NUL no URL', async () => {
    const malformed = await rawRequest(t.url, 'GET', '/api/database/views/form/%E0%A4%A/submit/', {}, Buffer.alloc(0));
    expect([malformed.status, JSON.parse(malformed.body)]).toEqual([400, { error: 'ERROR_HTTP', detail: "Failed to decode param '%E0%A4%A'" }]);
    const escaped = await t.request('GET', '/api/database/views/form/%41bc/submit/');
    expect([escaped.status, escaped.body.error]).toEqual([404, 'ERROR_FORM_DOES_NOT_EXIST']);
    const nul = await t.request('GET', '/api/database/views/form/a%00b/submit/');
    expect([nul.status, nul.body.error]).toEqual([404, 'URL_NOT_FOUND']);
    // An escape is no static segment.
    const staticEscaped = await t.request('GET', '/api/%73ettings/');
    expect([staticEscaped.status, staticEscaped.body.error]).toEqual([404, 'URL_NOT_FOUND']);
  });

  it('answers 405 for a wrong method on a known path', async () => {
    const res = await t.request('PUT', '/api/workspaces/');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "PUT" not allowed.' });
  });

  it('401s missing credentials, a Bearer header and a bad JWT with the spec bodies', async () => {
    const none = await t.request('GET', '/api/workspaces/');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers.get('www-authenticate')).toBe('JWT realm="api"');
    const bearer = await t.request('GET', '/api/workspaces/', { headers: { Authorization: 'Bearer abc' } });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const bad = await t.request('GET', '/api/workspaces/', { headers: { Authorization: 'JWT not-a-token' } });
    expect(bad.status).toBe(401);
    expect(Object.keys(bad.body)).toEqual(['detail', 'error']);
    expect(bad.body).toEqual({ detail: 'Access token is expired or invalid.', error: 'ERROR_INVALID_ACCESS_TOKEN' });
    const threeParts = await t.request('GET', '/api/workspaces/', { headers: { Authorization: 'JWT a b' } });
    expect(threeParts.status).toBe(401);
    expect(threeParts.body).toEqual({ detail: 'Authorization header must contain two space-delimited values' });
  });

  it('415s a body sent without application/json, after authentication', async () => {
    const user = await signUp(t);
    const res = await t.request('POST', '/api/workspaces/', { token: user.token, raw: '{"name":"x"}', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
    const noType = await t.request('POST', '/api/workspaces/', { token: user.token, raw: '{"name":"x"}' });
    expect(noType.status).toBe(415);
    const unauthenticated = await t.request('POST', '/api/workspaces/', { raw: '{"name":"x"}', headers: { 'Content-Type': 'text/plain' } });
    expect(unauthenticated.status).toBe(401);
    const list = await t.request('GET', '/api/workspaces/', { token: user.token });
    expect(list.body.map((w: { name: string }) => w.name)).not.toContain('x');
  });

  it('400s malformed JSON', async () => {
    const user = await signUp(t);
    const res = await t.request('POST', '/api/workspaces/', { token: user.token, raw: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^JSON parse error - /);
  });

  it('renders body validation as the detail tree, and a non-object body as non_field_errors', async () => {
    const user = await signUp(t);
    const missing = await t.request('POST', '/api/workspaces/', { token: user.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { name: [{ error: 'This field is required.', code: 'required' }] },
    });
    const list = await t.request('POST', '/api/workspaces/', { token: user.token, body: [1] });
    expect(list.status).toBe(400);
    expect(list.body.detail.non_field_errors[0].code).toBe('invalid');
    const items = await t.request('POST', '/api/workspaces/order/', { token: user.token, body: { workspaces: [1, 'x', 3] } });
    expect(items.status).toBe(400);
    expect(items.body.detail).toEqual({ workspaces: { '1': [{ error: 'A valid integer is required.', code: 'invalid' }] } });
  });

  it('allows Baserow extra headers in CORS preflights', async () => {
    const res = await fetch(`${t.url}/api/workspaces/`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,clientsessionid,clientundoredoactiongroupid,content-type,websocketid',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const allowed = res.headers.get('access-control-allow-headers')!.split(',');
    for (const header of ['authorization', 'clientsessionid', 'clientundoredoactiongroupid', 'content-type', 'websocketid']) {
      expect(allowed).toContain(header);
    }
  });

  it('serves settings and the password login option', async () => {
    const settings = await t.request('GET', '/api/settings/');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ allow_new_signups: true, allow_reset_password: true, show_admin_signup_page: false });
    const options = await t.request('GET', '/api/auth-provider/login-options/');
    expect(options.body).toEqual({ password: { type: 'password' } });
  });
});

describe('a request refused before its body is read (baserow-rest.md §1)', () => {
  let t: TestApp;
  let user: SignedUp;
  // Well beyond what the kernel's socket buffers hold: the server has to read it for the client to finish writing.
  const big = Buffer.alloc(24 * 1024 * 1024, 'a');
  beforeAll(async () => {
    t = await startApp({ REQUEST_BODY_LIMIT_MB: '1', FILE_UPLOAD_SIZE_LIMIT_MB: '1' });
    user = await signUp(t);
  });
  afterAll(() => t.close());

  const multipart = (size: number): { headers: Record<string, string>; body: Buffer } => ({
    headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    body: Buffer.concat([
      Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      Buffer.alloc(size, 7),
      Buffer.from('\r\n--xyz--\r\n'),
    ]),
  });

  it('reads the rest of a large body, so that a client writing it all before reading sees the answer', async () => {
    const auth = { Authorization: `JWT ${user.token}` };
    const json = { 'Content-Type': 'application/json' };
    const asJson = await rawRequest(t.url, 'POST', '/api/user-files/upload-file/', { ...auth, ...json }, big);
    expect([asJson.status, asJson.error]).toEqual([415, null]);
    expect(JSON.parse(asJson.body)).toEqual({ detail: 'Unsupported media type "application/json" in request.' });
    const upload = multipart(big.length);
    const tooLargeFile = await rawRequest(t.url, 'POST', '/api/user-files/upload-file/', { ...auth, ...upload.headers }, upload.body);
    expect([tooLargeFile.status, tooLargeFile.error]).toEqual([413, null]);
    expect(JSON.parse(tooLargeFile.body)).toEqual({ error: 'ERROR_FILE_SIZE_TOO_LARGE', detail: 'The provided file is too large. Max 1MB is allowed.' });
    const anonymous = await rawRequest(t.url, 'POST', '/api/user-files/upload-file/', upload.headers, upload.body);
    expect([anonymous.status, anonymous.error]).toEqual([401, null]);
    const tooLargeJson = await rawRequest(t.url, 'POST', '/api/workspaces/', { ...auth, ...json }, big);
    expect([tooLargeJson.status, tooLargeJson.error]).toEqual([413, null]);
    expect(JSON.parse(tooLargeJson.body)).toEqual({ error: 'ERROR_REQUEST_BODY_TOO_LARGE', detail: 'The request body is too large. Max 1MB is allowed.' });
    const unknown = await rawRequest(t.url, 'POST', '/api/nothing-here/', json, big);
    expect([unknown.status, unknown.error]).toEqual([404, null]);
  });

  it('keeps the connection open after an upload refused before its body was read', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(2 * 1024 * 1024, 7)]), 'large.bin');
    const res = await fetch(`${t.url}/api/user-files/upload-file/`, { method: 'POST', body: form, headers: { Authorization: `JWT ${user.token}` } });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).not.toBe('close');
    const anonymous = await fetch(`${t.url}/api/user-files/upload-file/`, { method: 'POST', body: form });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('connection')).not.toBe('close');
  });
});
