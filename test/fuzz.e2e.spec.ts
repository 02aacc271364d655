import { DataSource } from 'typeorm';
import { NO_TIMED_WORK, startApp, TEST_DB, TestApp } from './support/app';
import { fingerprint } from './support/fingerprint';
import { createTenant, fillPath, settleJob, Tenant, tenantIntact } from './support/fixtures';
import { budgeted, BODY_VALUES, casesFor, FuzzCase, isAllowedErrorBody, Operation, operationsOf, prng } from './support/fuzz';
import { connect, expectNone, WsClient } from './support/ws';

/**
 * The fuzz suite: every operation of the app's own OpenAPI document gets a seeded list of bad
 * requests (support/fuzz.ts). It fails on any 5xx, on an error body outside the envelope where
 * Baserow uses it, on another tenant's ids being accepted, and on any change to the database
 * made by a refused request. New routes are fuzzed as soon as they are in the document.
 *
 * FUZZ_SEED changes the requests; FUZZ_CASES_PER_OPERATION bounds them (default 150);
 * FUZZ_OPERATIONS (a regular expression of operation ids) fuzzes only the matching operations.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const BUDGET = Number(process.env.FUZZ_CASES_PER_OPERATION ?? 150);
const ONLY = process.env.FUZZ_OPERATIONS ? new RegExp(process.env.FUZZ_OPERATIONS) : null;
const BODY_LIMIT_MB = 1;

interface Sent {
  status: number;
  text: string;
  body: unknown;
}

async function send(t: TestApp, op: Operation, tenant: Tenant, fuzzCase: FuzzCase): Promise<Sent> {
  const path = fillPath(op.path, tenant.ids, fuzzCase.pathOverrides);
  const headers: Record<string, string> = {};
  if (fuzzCase.auth === 'user') headers.Authorization = `JWT ${tenant.user.token}`;
  else if (fuzzCase.auth !== 'none') headers.Authorization = fuzzCase.auth.header;
  let body: string | Uint8Array | undefined;
  if (fuzzCase.body && 'json' in fuzzCase.body) {
    body = JSON.stringify(fuzzCase.body.json);
    headers['Content-Type'] = 'application/json';
  } else if (fuzzCase.body) {
    body = fuzzCase.body.raw;
    if (fuzzCase.body.contentType) headers['Content-Type'] = fuzzCase.body.contentType;
  }
  const res = await fetch(`${t.url}${path}${fuzzCase.query ? `?${fuzzCase.query}` : ''}`, { method: op.method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: judged below.
  }
  return { status: res.status, text, body: parsed };
}

describe(`fuzz: every operation of /api/schema.json with bad input (${TEST_DB})`, () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startApp({
      REQUEST_BODY_LIMIT_MB: String(BODY_LIMIT_MB),
      LOGIN_MAX_FAILURES_PER_IP_AND_EMAIL: '1000000',
      LOGIN_MAX_FAILURES_PER_EMAIL: '1000000',
      LOGIN_MAX_FAILURES_PER_IP: '1000000',
      RATE_LIMIT_REQUESTS_PER_USER: '0',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
      ...NO_TIMED_WORK,
    });
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('never answers 5xx, answers errors in the envelope, refuses other tenants and changes nothing when it refuses', async () => {
    const document = (await t.request('GET', '/api/schema.json')).body;
    const all = operationsOf(document);
    expect(all.length).toBeGreaterThan(80);
    const operations = ONLY ? all.filter((op) => ONLY.test(op.operationId)) : all;
    let tenant = await createTenant(t, 'Fuzz A');
    const other = await createTenant(t, 'Fuzz B');
    const random = prng(SEED);
    const failures = new Map<string, string>();
    const byClass: Record<string, number> = {};
    let baseline = await fingerprint(dataSource);
    const fail = (op: Operation, fuzzCase: FuzzCase, what: string, res: Sent) => {
      const key = `${op.method} ${op.path} ${what}`;
      if (!failures.has(key)) failures.set(key, `${key} [${fuzzCase.label}] → ${res.status} ${res.text.slice(0, 300)}`);
    };

    for (const op of operations) {
      let accepted = false;
      // GETs may create what they read on first use (e.g. default field options).
      if (op.method !== 'GET') baseline = await fingerprint(dataSource);
      for (const fuzzCase of budgeted(casesFor(op, tenant.ids, other.ids, BODY_LIMIT_MB * 1024 * 1024), BUDGET, random)) {
        let res: Sent;
        try {
          res = await send(t, op, tenant, fuzzCase);
        } catch (error) {
          res = { status: 599, text: `request failed: ${(error as Error).message}`, body: undefined };
        }
        const statusClass = `${Math.floor(res.status / 100)}xx`;
        byClass[statusClass] = (byClass[statusClass] ?? 0) + 1;
        if (res.status >= 500) fail(op, fuzzCase, `${res.status}`, res);
        else if (res.status >= 400 && !isAllowedErrorBody(res.status, res.body, op.operationId)) fail(op, fuzzCase, 'error body outside the envelope', res);
        if (fuzzCase.foreign && res.status < 400) fail(op, fuzzCase, "accepted another tenant's ids", res);
        if (op.method === 'GET') continue;
        if (res.status >= 400) {
          const after = await fingerprint(dataSource);
          if (after !== baseline) {
            fail(op, fuzzCase, 'changed the database although refused', res);
            baseline = after;
          }
        } else {
          accepted = true;
          const job = res.body as { id?: number; state?: string; progress_percentage?: number } | undefined;
          if (job && typeof job === 'object' && 'progress_percentage' in job && job.id) await settleJob(t, tenant.user.token, job.id);
          baseline = await fingerprint(dataSource);
        }
      }
      // Accepted instance settings must not close sign-ups or demand verified addresses for the next tenants.
      if (accepted && op.operationId === 'update_settings') {
        const defaults = { allow_new_signups: true, allow_signups_via_workspace_invitations: true, allow_reset_password: true, allow_global_workspace_creation: true, email_verification: 'no_verification' };
        expect((await t.request('PATCH', '/api/settings/update/', { token: tenant.user.token, body: defaults })).status).toBe(200);
      }
      // An accepted auth provider change must not leave password sign-in (the next tenants' sign-up) turned off.
      if (accepted && op.operationId === 'update_auth_provider') {
        expect((await t.request('PATCH', '/api/admin/auth-provider/1/', { token: tenant.user.token, body: { enabled: true } })).status).toBe(200);
      }
      // An accepted request may have deleted a fixture, changed the password or left the workspace.
      if (accepted && !(await tenantIntact(t, tenant))) {
        tenant = await createTenant(t, 'Fuzz A');
        baseline = await fingerprint(dataSource);
      }
    }
    const total = Object.values(byClass).reduce((a, b) => a + b, 0);
    console.log(`fuzz (${TEST_DB}, seed ${SEED}): ${operations.length} operations, ${total} requests, by status class ${JSON.stringify(byClass)}`);
    expect([...failures.values()]).toEqual([]);
  }, 40 * 60 * 1000);

  it('keeps sockets working through bad handshakes and bad frames, subscribing to nothing', async () => {
    const tenant = await createTenant(t, 'Socket fuzz');
    const tableId = Number(tenant.ids.tableId);
    const rowId = Number(tenant.ids.rowId);
    // Handshakes: a refused token is answered `success: false` and closed, never a crash.
    const badTokens = ['garbage', '%00', 'a'.repeat(10_000), encodeURIComponent('😀'), `${tenant.user.token}x`];
    for (const token of badTokens) {
      const client = await connect(t, token);
      expect(client.authentication).toMatchObject({ type: 'authentication', success: false });
      client.close();
    }
    const socket = await connect(t, tenant.user.token);
    const valueFrames = BODY_VALUES.flatMap(([, value]) => [
      { page: 'table', table_id: value },
      { page: 'row', table_id: tableId, row_id: value },
      { page: 'row', table_id: value, row_id: rowId },
      { page: value, table_id: tableId },
      { remove_page: value, table_id: value },
    ]);
    const rawFrames: (string | Buffer)[] = [
      '', 'null', '[]', '"x"', '1', '{', 'not json', '{"page": "table"', '\u0000', '{"page": "table", "table_id": 1e400}',
      '['.repeat(10_000) + ']'.repeat(10_000), JSON.stringify({ page: 'table', table_id: tableId, extra: 'x'.repeat(10_000) }),
      Buffer.from([0xc3, 0x28, 0xff]),
    ];
    // Frames beyond WS_MAX_FRAME_BYTES close the socket with 1009 (test/realtime-limits.e2e.spec.ts).
    for (const frame of valueFrames) if (Buffer.byteLength(JSON.stringify(frame)) <= t.config.wsMaxFrameBytes) socket.send(frame);
    for (const frame of rawFrames) socket.ws.send(frame);
    socket.ws.send(Buffer.from(JSON.stringify({ page: 'table', table_id: tableId })), { binary: true });
    // Nothing above names a page the user may follow with valid parameters, except the frame with an extra key.
    const added = await socket.waitFor('page_add');
    expect(added.parameters).toEqual({ table_id: tableId });
    await expectNone(socket);
    // The socket still works: a valid subscription is answered and real messages arrive.
    socket.send({ page: 'row', table_id: tableId, row_id: rowId });
    expect((await socket.waitFor('page_add')).parameters).toEqual({ table_id: tableId, row_id: rowId });
    const patch = await t.request('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, { token: tenant.user.token, body: {} });
    expect(patch.status).toBe(200);
    expect((await socket.waitFor('rows_updated')).table_id).toBe(tableId);
    socket.close();
    // The server still accepts new sockets.
    const after: WsClient = await connect(t, tenant.user.token);
    expect(after.authentication?.success).toBe(true);
    after.close();
  });
});
