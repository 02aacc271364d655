import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SignedUp, signUp, startApp, startTwoInstances, TEST_DB, TestApp } from './support/app';
import { fingerprint } from './support/fingerprint';
import { databaseOf } from './support/fixtures';
import { connect, WsClient } from './support/ws';

/** Administration (Baserow's `/api/admin/`): dashboard, users, impersonation, workspaces; staff only. */

const describePostgresRedis = TEST_DB === 'postgres' && process.env.ROWSPACE_TEST_REDIS ? describe : describe.skip;
const NOT_STAFF = { detail: 'You do not have permission to perform this action.' };

async function databaseToken(t: TestApp, user: SignedUp): Promise<string> {
  const workspaceId = (await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
  const res = await t.request('POST', '/api/database/tokens/', { token: user.token, body: { name: 'Key', workspace: workspaceId } });
  expect(res.status).toBe(200);
  return res.body.key;
}

describe(`administration (${TEST_DB})`, () => {
  let t: TestApp;
  let staff: SignedUp;
  let alice: SignedUp;
  let bob: SignedUp;
  const sockets: WsClient[] = [];

  const admin = (method: string, path: string, body?: unknown, token = staff.token) => t.request(method, `/api/admin/${path}`, { token, body });

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    staff = await signUp(t, 'Staff');
    alice = await signUp(t, 'Alice');
    bob = await signUp(t, 'Bob');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  it('refuses a user who is not staff (403) and an anonymous caller (401) on every admin route, changing nothing', async () => {
    const dataSource = t.app.get(DataSource);
    const before = await fingerprint(dataSource);
    const routes: [string, string, unknown?][] = [
      ['GET', 'dashboard/'],
      ['GET', 'users/'],
      ['POST', 'users/', { username: 'x@example.com', name: 'X', password: 'password123' }],
      ['POST', 'users/impersonate/', { user: bob.id }],
      ['PATCH', `users/${bob.id}/`, { is_active: false }],
      ['DELETE', `users/${bob.id}/`],
      ['GET', 'workspaces/'],
      ['DELETE', `workspaces/${(await t.request('GET', '/api/workspaces/', { token: bob.token })).body[0].id}/`],
    ];
    for (const [method, path, body] of routes) {
      const asAlice = await admin(method, path, body, alice.token);
      expect([method, path, asAlice.status, asAlice.body]).toEqual([method, path, 403, NOT_STAFF]);
      const anonymous = await t.request(method, `/api/admin/${path}`, { body });
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
    expect(await fingerprint(dataSource)).toBe(before);
  });

  it("answers the dashboard's counts, the periods before, and the users per day in the requested time zone", async () => {
    const res = await admin('GET', 'dashboard/');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toEqual({
      total_users: 3,
      total_workspaces: 3,
      total_applications: 3,
      new_users_last_24_hours: 3,
      new_users_last_7_days: 3,
      new_users_last_30_days: 3,
      previous_new_users_last_24_hours: 0,
      previous_new_users_last_7_days: 0,
      previous_new_users_last_30_days: 0,
      active_users_last_24_hours: 3,
      active_users_last_7_days: 3,
      active_users_last_30_days: 3,
      previous_active_users_last_24_hours: 0,
      previous_active_users_last_7_days: 0,
      previous_active_users_last_30_days: 0,
      new_users_per_day: [{ date: today, count: 3 }],
      active_users_per_day: [{ date: today, count: 3 }],
    });
    // A user who signed in 10 days ago (last_login) is active in the 30 days, not in the last 7.
    const dataSource = t.app.get(DataSource);
    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600 * 1000);
    await dataSource.query(`UPDATE "user" SET last_login = '${tenDaysAgo.toISOString()}' WHERE id = ${bob.id}`);
    const later = (await admin('GET', 'dashboard/?timezone=Pacific/Kiritimati')).body;
    expect([later.active_users_last_7_days, later.active_users_last_30_days, later.previous_active_users_last_7_days]).toEqual([2, 3, 1]);
    const kiritimati = (instant: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati', year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
    expect(later.active_users_per_day).toEqual(
      [
        { date: kiritimati(tenDaysAgo), count: 1 },
        { date: kiritimati(new Date()), count: 2 },
      ],
    );
    expect((await admin('GET', 'dashboard/?timezone=')).body.active_users_last_30_days).toBe(3);
    const bad = await admin('GET', 'dashboard/?timezone=Mars/Olympus');
    expect([bad.status, bad.body]).toEqual([400, { error: 'UNKNOWN_TIME_ZONE_ERROR', detail: 'The timezone Mars/Olympus is not supported.' }]);
  });

  it('lists users with their workspaces, searched, sorted and paged as Baserow', async () => {
    const all = await admin('GET', 'users/');
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((u: { id: number }) => u.id)).toEqual([staff.id, alice.id, bob.id]);
    const aliceWorkspace = (await t.request('GET', '/api/workspaces/', { token: alice.token })).body[0];
    expect(all.body.results[1]).toEqual({
      id: alice.id,
      username: alice.email,
      name: 'Alice',
      workspaces: [{ id: aliceWorkspace.id, name: aliceWorkspace.name, permissions: 'ADMIN' }],
      last_login: expect.stringMatching(/Z$/),
      date_joined: expect.stringMatching(/Z$/),
      is_active: true,
      is_staff: false,
    });
    expect((await admin('GET', `users/?search=${alice.email.slice(0, 12).toUpperCase()}`)).body.results.map((u: { id: number }) => u.id)).toEqual([alice.id]);
    expect((await admin('GET', 'users/?search=bO')).body.results.map((u: { id: number }) => u.id)).toEqual([bob.id]);
    expect((await admin('GET', 'users/?search=%25')).body.count).toBe(0);
    expect((await admin('GET', 'users/?sorts=-name')).body.results.map((u: { name: string }) => u.name)).toEqual(['Staff', 'Bob', 'Alice']);
    expect((await admin('GET', 'users/?sorts=%2Bis_active,-id')).body.results.map((u: { id: number }) => u.id)).toEqual([bob.id, alice.id, staff.id]);
    // Bob signed in longest ago (set above): last when ascending.
    expect((await admin('GET', 'users/?sorts=-last_login')).body.results.map((u: { id: number }) => u.id).at(-1)).toBe(bob.id);

    const second = await admin('GET', 'users/?size=1&page=2');
    expect(second.body).toMatchObject({ count: 3, results: [{ id: alice.id }] });
    expect(second.body.next).toMatch(/\/api\/admin\/users\/\?size=1&page=3$/);
    expect(second.body.previous).toMatch(/\/api\/admin\/users\/\?size=1$/);
    expect((await admin('GET', 'users/?page=abc')).body.results).toHaveLength(3);
    expect((await admin('GET', 'users/?page=99')).body).toMatchObject({ count: 3, next: null, results: [] });
    expect((await admin('GET', 'users/?size=0')).body.results).toHaveLength(3);

    const errors: [string, number, string][] = [
      ['sorts=', 400, 'ERROR_INVALID_SORT_ATTRIBUTE'],
      ['sorts=%2Bx', 400, 'ERROR_INVALID_SORT_ATTRIBUTE'],
      ['sorts=%2Bunknown', 400, 'ERROR_INVALID_SORT_ATTRIBUTE'],
      ['sorts=%2Bname,-name', 400, 'ERROR_INVALID_SORT_ATTRIBUTE'],
      ['sorts=name', 400, 'ERROR_INVALID_SORT_DIRECTION'],
      ['size=101', 400, 'ERROR_PAGE_SIZE_LIMIT'],
    ];
    for (const [query, status, code] of errors) {
      const res = await admin('GET', `users/?${query}`);
      expect([query, res.status, res.body.error]).toEqual([query, status, code]);
    }
  });

  it('creates a user even when sign-ups are off, refusing a taken address and unknown keys', async () => {
    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: false } })).status).toBe(200);
    const email = `made-${randomBytes(3).toString('hex')}@example.com`;
    const made = await admin('POST', 'users/', { username: email.toUpperCase(), name: 'Made', password: 'password123', is_staff: false });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ username: email, name: 'Made', workspaces: [], is_active: true, is_staff: false, last_login: null });
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email, password: 'password123' } });
    expect(signIn.status).toBe(200);
    expect((await admin('POST', 'users/', { username: email, name: 'Again', password: 'password123' })).body.error).toBe('USER_ADMIN_ALREADY_EXISTS');
    const unknown = await admin('POST', 'users/', { username: `other-${email}`, name: 'X', password: 'password123', role: 'x' });
    expect(unknown.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { non_field_errors: [{ error: 'Your request body had the following unknown attributes: role. Please check the api documentation and only provide valid fields.', code: 'invalid' }] },
    });
    const invalid = await admin('POST', 'users/', { username: 'not an address', name: '', password: 'short' });
    expect(invalid.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(Object.keys(invalid.body.detail).sort()).toEqual(['name', 'password', 'username']);
    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: true } })).status).toBe(200);
    expect((await admin('DELETE', `users/${made.body.id}/`)).status).toBe(204);
  });

  it("updates a user's name, address and staff flag; refuses oneself's deactivation, unknown ids and taken addresses", async () => {
    const renamed = await admin('PATCH', `users/${alice.id}/`, { name: 'Alice B', is_staff: true });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: alice.id, name: 'Alice B', is_staff: true, username: alice.email });
    // Alice's own token sees her new staff flag at once.
    expect((await admin('GET', 'dashboard/', undefined, alice.token)).status).toBe(200);
    expect((await admin('PATCH', `users/${alice.id}/`, { is_staff: false })).body.is_staff).toBe(false);
    expect((await admin('GET', 'dashboard/', undefined, alice.token)).status).toBe(403);

    for (const body of [{ is_active: false }, { is_staff: false }]) {
      const self = await admin('PATCH', `users/${staff.id}/`, body);
      expect([self.status, self.body]).toEqual([400, { error: 'USER_ADMIN_CANNOT_DEACTIVATE_SELF', detail: 'You cannot de-activate or un-staff yourself.' }]);
    }
    expect((await admin('PATCH', `users/${staff.id}/`, { name: 'Staff' })).status).toBe(200);
    const unknown = await admin('PATCH', 'users/999999/', { name: 'Nobody' });
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'USER_ADMIN_UNKNOWN_USER', detail: 'Unknown user supplied.' }]);
    expect((await admin('PATCH', `users/${alice.id}/`, { username: bob.email })).body.error).toBe('USER_ADMIN_ALREADY_EXISTS');
    expect((await admin('PATCH', `users/${alice.id}/`, { is_active: 'perhaps' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await admin('PATCH', `users/${alice.id}/`, { id: 5 })).body.detail.non_field_errors[0].error).toContain('unknown attributes: id');
  });

  it("sets a new password: the user's earlier tokens stop, the new password signs in", async () => {
    const res = await admin('PATCH', `users/${alice.id}/`, { password: 'a new password' });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/api/workspaces/', { token: alice.token })).status).toBe(401);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: alice.refresh } })).status).toBe(401);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } })).status).toBe(401);
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: 'a new password' } });
    expect(signIn.status).toBe(200);
    alice = { ...alice, password: 'a new password', token: signIn.body.access_token, refresh: signIn.body.refresh_token };
  });

  it("deactivating a user stops their JWTs, refresh tokens, database tokens and sockets at once", async () => {
    const key = await databaseToken(t, alice);
    const tableId = (await t.request('GET', `/api/database/tables/database/${await databaseOf(t, alice)}/`, { token: alice.token })).body[0].id;
    expect((await t.request('GET', `/api/database/rows/table/${tableId}/`, { headers: { Authorization: `Token ${key}` } })).status).toBe(200);
    const socket = await connect(t, alice.token);
    sockets.push(socket);
    const deactivated = await admin('PATCH', `users/${alice.id}/`, { is_active: false });
    expect(deactivated.body.is_active).toBe(false);
    expect(await socket.next()).toEqual({ type: 'force_disconnect' });
    await socket.closed;
    expect((await t.request('GET', '/api/workspaces/', { token: alice.token })).status).toBe(401);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: alice.refresh } })).body.error).toBe('ERROR_INVALID_REFRESH_TOKEN');
    const byToken = await t.request('GET', `/api/database/rows/table/${tableId}/`, { headers: { Authorization: `Token ${key}` } });
    expect([byToken.status, byToken.body.error]).toEqual([401, 'ERROR_USER_NOT_ACTIVE']);
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } });
    expect([signIn.status, signIn.body.error]).toEqual([401, 'ERROR_DEACTIVATED_USER']);
    expect((await connect(t, alice.token)).authentication).toMatchObject({ success: false });

    expect((await admin('PATCH', `users/${alice.id}/`, { is_active: true })).body.is_active).toBe(true);
    const back = await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } });
    expect(back.status).toBe(200);
    alice = { ...alice, token: back.body.access_token, refresh: back.body.refresh_token };
    expect((await t.request('GET', `/api/database/rows/table/${tableId}/`, { headers: { Authorization: `Token ${key}` } })).status).toBe(200);
  });

  it("impersonates a user who is not staff with their token-auth answer, and refuses staff, oneself and unknown ids", async () => {
    const res = await admin('POST', 'users/impersonate/', { user: bob.id });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'active_licenses', 'permissions', 'refresh_token', 'token', 'user', 'user_notifications', 'user_session']);
    expect(res.body.user).toMatchObject({ id: bob.id, username: bob.email, is_staff: false });
    const asBob = await t.request('GET', '/api/workspaces/', { token: res.body.access_token });
    expect(asBob.body.map((w: { id: number }) => w.id)).toEqual((await t.request('GET', '/api/workspaces/', { token: bob.token })).body.map((w: { id: number }) => w.id));
    // Impersonation is not a sign-in: Bob's last login is untouched.
    const listed = (await admin('GET', `users/?search=${bob.email}`)).body.results[0];
    expect(new Date(listed.last_login).getTime()).toBeLessThan(Date.now() - 24 * 3600 * 1000);

    const refusals: [unknown, Record<string, string[]>][] = [
      [{ user: staff.id }, { user: [`Invalid pk "${staff.id}" - object does not exist.`] }],
      [{ user: 999999 }, { user: ['Invalid pk "999999" - object does not exist.'] }],
      [{ user: 2 ** 31 }, { user: [`Invalid pk "${2 ** 31}" - object does not exist.`] }],
      [{ user: 'abc' }, { user: ['Incorrect type. Expected pk value, received str.'] }],
      [{ user: true }, { user: ['Incorrect type. Expected pk value, received bool.'] }],
      [{ user: null }, { user: ['This field may not be null.'] }],
      [{}, { user: ['This field is required.'] }],
      [[1], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ];
    for (const [body, expected] of refusals) {
      const refused = await admin('POST', 'users/impersonate/', body);
      expect([body, refused.status, refused.body]).toEqual([body, 400, expected]);
    }
    expect((await admin('POST', 'users/impersonate/', { user: String(bob.id) })).status).toBe(200);
  });

  it('lists workspaces with members and application and row counts, searched, sorted and paged', async () => {
    const res = await admin('GET', 'workspaces/');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const bobsWorkspace = res.body.results.find((w: { users: { id: number }[] }) => w.users.some((u) => u.id === bob.id));
    expect(bobsWorkspace).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      users: [{ id: bob.id, email: bob.email, permissions: 'ADMIN' }],
      application_count: 1,
      row_count: expect.any(Number),
      storage_usage: null,
      seats_taken: null,
      free_users: null,
      created_on: expect.stringMatching(/Z$/),
    });
    expect(bobsWorkspace.row_count).toBeGreaterThan(0);
    // A workspace with an empty database: fewest rows, first when sorted by ascending row count.
    const empty = await t.request('POST', '/api/workspaces/', { token: bob.token, body: { name: 'Empty one' } });
    await t.request('POST', `/api/applications/workspace/${empty.body.id}/`, { token: bob.token, body: { name: 'Nothing', type: 'database' } });
    await t.request('POST', `/api/applications/workspace/${empty.body.id}/`, { token: bob.token, body: { name: 'Nothing 2', type: 'database' } });
    const byRows = (await admin('GET', 'workspaces/?sorts=%2Brow_count')).body.results;
    expect(byRows[0]).toMatchObject({ id: empty.body.id, row_count: 0, application_count: 2 });
    expect((await admin('GET', 'workspaces/?sorts=-application_count')).body.results[0].id).toBe(empty.body.id);
    expect((await admin('GET', 'workspaces/?sorts=-row_count&size=1&page=4')).body.results.map((w: { id: number }) => w.id)).toEqual([empty.body.id]);
    expect((await admin('GET', 'workspaces/?search=empty ONE')).body.results.map((w: { id: number }) => w.id)).toEqual([empty.body.id]);
    expect((await admin('GET', `workspaces/?search=${empty.body.id}`)).body.results.map((w: { id: number }) => w.id)).toContain(empty.body.id);
    expect((await admin('GET', 'workspaces/?sorts=%2Bstorage_usage,-id')).body.results[0].id).toBe(empty.body.id);
    expect((await admin('GET', 'workspaces/?sorts=%2Busers')).body.error).toBe('ERROR_INVALID_SORT_ATTRIBUTE');
    expect((await admin('GET', 'workspaces/?size=500')).body.error).toBe('ERROR_PAGE_SIZE_LIMIT');
  });

  it('deletes a workspace for good: its members get group_deleted (no socket excluded, not even the origin), its tables are gone', async () => {
    const workspace = (await t.request('GET', '/api/workspaces/', { token: bob.token })).body.find((w: { name: string }) => w.name === 'Empty one');
    const applications = (await t.request('GET', `/api/applications/workspace/${workspace.id}/`, { token: bob.token })).body;
    const bobSocket = await connect(t, bob.token);
    sockets.push(bobSocket);
    // Named as the origin: Baserow's admin delete excludes nobody.
    const res = await t.request('DELETE', `/api/admin/workspaces/${workspace.id}/`, { token: staff.token, headers: { WebSocketId: bobSocket.webSocketId } });
    expect(res.status).toBe(204);
    expect(await bobSocket.next()).toEqual({ type: 'group_deleted', workspace_id: workspace.id });
    expect((await t.request('GET', `/api/applications/${applications[0].id}/`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', '/api/workspaces/', { token: bob.token })).body.map((w: { id: number }) => w.id)).not.toContain(workspace.id);
    const again = await admin('DELETE', `workspaces/${workspace.id}/`);
    expect([again.status, again.body.error]).toEqual([404, 'ERROR_GROUP_DOES_NOT_EXIST']);
    expect((await admin('DELETE', 'workspaces/999999/')).status).toBe(404);
    // A trashed workspace is not found either (Baserow's manager hides it).
    const trashed = await t.request('POST', '/api/workspaces/', { token: bob.token, body: { name: 'Trashed' } });
    expect((await t.request('DELETE', `/api/workspaces/${trashed.body.id}/`, { token: bob.token })).status).toBe(204);
    expect((await admin('DELETE', `workspaces/${trashed.body.id}/`)).status).toBe(404);
  });

  it('deletes a user for good (not oneself): their sockets close, their workspaces stay without them', async () => {
    const self = await admin('DELETE', `users/${staff.id}/`);
    expect([self.status, self.body]).toEqual([400, { error: 'USER_ADMIN_CANNOT_DELETE_SELF', detail: 'You cannot delete yourself.' }]);
    const unknown = await admin('DELETE', 'users/999999/');
    expect([unknown.status, unknown.body.error]).toEqual([400, 'USER_ADMIN_UNKNOWN_USER']);
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: bob.token })).body[0].id;
    // What Bob made stays or goes with him through the foreign keys: an invitation, a comment, a token.
    const invitation = { email: 'invitee@example.com', permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' };
    expect((await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { token: bob.token, body: invitation })).status).toBe(200);
    const tableId = (await t.request('GET', `/api/database/tables/database/${await databaseOf(t, bob)}/`, { token: bob.token })).body[0].id;
    const rowId = (await t.request('GET', `/api/database/rows/table/${tableId}/`, { token: bob.token })).body.results[0].id;
    const comment = { message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Bye' }] }] } };
    expect((await t.request('POST', `/api/row_comments/${tableId}/${rowId}/`, { token: bob.token, body: comment })).status).toBe(200);
    await databaseToken(t, bob);
    const socket = await connect(t, bob.token);
    sockets.push(socket);
    expect((await admin('DELETE', `users/${bob.id}/`)).status).toBe(204);
    expect(await socket.next()).toEqual({ type: 'force_disconnect' });
    expect((await t.request('GET', '/api/workspaces/', { token: bob.token })).status).toBe(401);
    expect((await admin('GET', 'users/')).body.results.map((u: { id: number }) => u.id)).not.toContain(bob.id);
    const left = (await admin('GET', `workspaces/?search=${workspaceId}`)).body.results.find((w: { id: number }) => w.id === workspaceId);
    expect(left.users).toEqual([]);
  });
});

describePostgresRedis('deactivation across two instances on PostgreSQL and Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
  });
  afterAll(async () => {
    await close?.();
  });

  it("closes the user's sockets on the other instance and refuses their tokens there at once", async () => {
    const staff = await signUp(a, 'Staff');
    const user = await signUp(a, 'User');
    const key = await databaseToken(a, user);
    const tableId = (await b.request('GET', `/api/database/tables/database/${await databaseOf(b, user)}/`, { token: user.token })).body[0].id;
    // B has read (and cached) the user before the deactivation.
    expect((await b.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    expect((await b.request('GET', `/api/database/rows/table/${tableId}/`, { headers: { Authorization: `Token ${key}` } })).status).toBe(200);
    const onB = await connect(b, user.token);
    try {
      expect((await a.request('PATCH', `/api/admin/users/${user.id}/`, { token: staff.token, body: { is_active: false } })).status).toBe(200);
      expect(await onB.next()).toEqual({ type: 'force_disconnect' });
      await onB.closed;
      expect((await b.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(401);
      expect((await b.request('POST', '/api/user/token-refresh/', { body: { refresh_token: user.refresh } })).status).toBe(401);
      expect((await b.request('GET', `/api/database/rows/table/${tableId}/`, { headers: { Authorization: `Token ${key}` } })).status).toBe(401);
    } finally {
      onB.close();
    }
  });
});
