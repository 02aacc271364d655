import { createHash } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { ApplicationEntity } from '../src/applications/application.entity';
import { UnitOfWork } from '../src/core/database/unit-of-work';
import { TableEntity } from '../src/database/table.entity';
import { Broadcaster } from '../src/realtime/broadcaster';
import { UsersService } from '../src/users/users.service';
import { WorkspaceRepository } from '../src/workspaces/workspace.repository';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient, wsUrl } from './support/ws';
import { keyOf } from './support/tokens';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sha256 = (id: number) => createHash('sha256').update(String(id)).digest('hex');

/** Everything a test opens, closed after it. */
const open: WsClient[] = [];
async function socket(t: TestApp | string, token: string | null): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

async function workspaceOf(t: TestApp, user: SignedUp): Promise<number> {
  return (await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
}

async function databaseOf(t: TestApp, user: SignedUp): Promise<{ id: number; workspaceId: number }> {
  const apps = (await t.request('GET', '/api/applications/', { token: user.token })).body;
  const database = apps.find((a: { type: string }) => a.type === 'database');
  return { id: database.id, workspaceId: database.workspace.id };
}

/** Invites `member` into the workspace and accepts; answers the membership id. */
async function join(t: TestApp, owner: SignedUp, workspaceId: number, member: SignedUp, headers: Record<string, string> = {}): Promise<number> {
  const invitation = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
    token: owner.token,
    body: { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' },
  });
  expect(invitation.status).toBe(200);
  const accepted = await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: member.token, headers });
  expect(accepted.status).toBe(200);
  return accepted.body.users.find((u: { user_id: number }) => u.user_id === member.id).id;
}

/** A row in the `database_table` metadata table (user tables' SQL tables come with a later issue). */
async function addTable(t: TestApp, databaseId: number, values: Partial<TableEntity> = {}): Promise<number> {
  const repo = t.app.get(DataSource).getRepository(TableEntity);
  const table = await repo.save(repo.create({ databaseId, name: 'T', order: 1, createdOn: new Date(), trashed: false, ...values }));
  return table.id;
}

/** The owner with two sockets, a member with one, an outsider and an anonymous socket. */
async function team(t: TestApp) {
  const owner = await signUp(t, 'Owner');
  const member = await signUp(t, 'Member');
  const outsider = await signUp(t, 'Outsider');
  const workspaceId = await workspaceOf(t, owner);
  const membershipId = await join(t, owner, workspaceId, member);
  const database = await databaseOf(t, owner);
  const [a1, a2, b1, c1, anon] = await Promise.all([
    socket(t, owner.token),
    socket(t, owner.token),
    socket(t, member.token),
    socket(t, outsider.token),
    socket(t, 'anonymous'),
  ]);
  return { owner, member, outsider, workspaceId, membershipId, database, a1, a2, b1, c1, anon };
}

describe('real time /ws/core/ (baserow-realtime.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('handshake (§1)', () => {
    it('authenticates an access token first thing, with a fresh UUIDv4 per socket', async () => {
      const user = await signUp(t);
      const first = await socket(t, user.token);
      const second = await socket(t, user.token);
      expect(first.received[0]).toEqual({ type: 'authentication', success: true, web_socket_id: expect.stringMatching(UUID_V4) });
      expect(Object.keys(first.received[0])).toEqual(['type', 'success', 'web_socket_id']);
      expect(second.webSocketId).toMatch(UUID_V4);
      expect(second.webSocketId).not.toBe(first.webSocketId);
      await expectNone(first, second);
      expect(first.ws.readyState).toBe(first.ws.OPEN);
    });

    it('answers success:false with web_socket_id null and closes with 1000 when no token is given', async () => {
      for (const url of [wsUrl(t, null), `${wsUrl(t, null)}?jwt_token=`]) {
        const client = new WsClient(url);
        open.push(client);
        const auth = await client.waitFor('authentication');
        expect(auth).toEqual({ type: 'authentication', success: false, web_socket_id: null });
        expect((await client.closed).code).toBe(1000);
      }
    });

    it('answers success:false with an id, then closes, for bad, expired, refresh and password-changed tokens', async () => {
      const user = await signUp(t);
      const jwt = t.app.get(JwtService);
      const now = Math.floor(Date.now() / 1000);
      const expired = jwt.sign(
        { token_type: 'access', exp: now - 10, iat: now - 100, jti: 'x'.repeat(32), user_id: user.id },
        { secret: keyOf(t, 'jwt'), algorithm: 'HS256' },
      );
      const victim = await signUp(t);
      const changed = await t.request('POST', '/api/user/change-password/', {
        token: victim.token,
        body: { old_password: victim.password, new_password: 'another-password-1' },
      });
      expect(changed.status).toBe(204);
      for (const token of ['not-a-token', expired, user.refresh, victim.token]) {
        const client = new WsClient(wsUrl(t, token));
        open.push(client);
        expect(await client.waitFor('authentication')).toEqual({ type: 'authentication', success: false, web_socket_id: expect.stringMatching(UUID_V4) });
        expect((await client.closed).code).toBe(1000);
        expect(client.received).toHaveLength(1);
      }
    });

    it('accepts any path under /ws/core/ and refuses /ws/core without the slash', async () => {
      const user = await signUp(t);
      const deeper = await connect(t, user.token, { path: '/ws/core/anything/' });
      open.push(deeper);
      expect(deeper.authentication!.success).toBe(true);
      const refused = new WsClient(wsUrl(t, user.token, '/ws/core'));
      await expect(refused.opened).rejects.toThrow();
      const elsewhere = new WsClient(wsUrl(t, user.token, '/ws/other/'));
      await expect(elsewhere.opened).rejects.toThrow();
    });

    it('keeps frames sent from onopen, before authentication is answered, and handles them in order afterwards', async () => {
      const { owner, database } = await team(t);
      const tableId = await addTable(t, database.id);
      const client = new WsClient(wsUrl(t, owner.token), {
        onOpen: (ws) => {
          ws.send(JSON.stringify({ page: 'table', table_id: tableId }));
          ws.send(JSON.stringify({ remove_page: 'table', table_id: tableId }));
          ws.send(JSON.stringify({ page: 'table', table_id: String(tableId) }));
        },
      });
      open.push(client);
      expect(await client.next()).toMatchObject({ type: 'authentication', success: true });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
      expect(await client.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: tableId } });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: String(tableId) } });
    });

    it('ignores non-JSON, binary, non-object and unknown frames without closing', async () => {
      const { owner, database } = await team(t);
      const tableId = await addTable(t, database.id);
      const client = await socket(t, owner.token);
      client.send('this is not json');
      client.ws.send(Buffer.from(JSON.stringify({ page: 'table', table_id: tableId })), { binary: true });
      client.send('[1,2]');
      client.send('null');
      client.send({ hello: 'world' });
      client.send({ page: 'nope', table_id: tableId });
      client.send({ remove_page: 'nope' });
      await expectNone(client);
      client.send({ page: 'table', table_id: tableId });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
      expect(client.ws.readyState).toBe(client.ws.OPEN);
    });

    it('authenticates `anonymous`, which may not subscribe to table or row pages and gets no user messages', async () => {
      const { owner, workspaceId, database, anon } = await team(t);
      expect(anon.authentication).toEqual({ type: 'authentication', success: true, web_socket_id: expect.stringMatching(UUID_V4) });
      const tableId = await addTable(t, database.id);
      anon.send({ page: 'table', table_id: tableId });
      anon.send({ page: 'row', table_id: tableId, row_id: 1 });
      anon.send({ page: 'view', slug: 'abc' });
      await t.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: owner.token, body: { name: 'Seen by members' } });
      await expectNone(anon);
    });
  });

  describe('pages (§2)', () => {
    it('answers page_add with exactly the declared parameters, values unchanged, and again on a duplicate', async () => {
      const { owner, database } = await team(t);
      const tableId = await addTable(t, database.id);
      const client = await socket(t, owner.token);
      client.send({ page: 'table', table_id: tableId, extra: 'dropped' });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
      client.send({ page: 'table', table_id: tableId });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
      client.send({ page: 'table', table_id: String(tableId) });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: String(tableId) } });
      await expectNone(client);
    });

    it('answers nothing when the table is missing, trashed, in a trashed database or workspace, or not the user’s', async () => {
      const { database, workspaceId, a1, c1 } = await team(t);
      const trashedTable = await addTable(t, database.id, { trashed: true });
      const ds = t.app.get(DataSource);
      const otherDatabase = await ds.getRepository(ApplicationEntity).save({ workspaceId, name: 'Gone', order: 9, type: 'database', createdOn: new Date(), trashed: true });
      const tableInTrashedDatabase = await addTable(t, otherDatabase.id);
      const liveTable = await addTable(t, database.id);
      for (const frame of [
        { page: 'table' },
        { page: 'table', table_id: null },
        { page: 'table', table_id: 0 },
        { page: 'table', table_id: 'abc' },
        { page: 'table', table_id: 999999 },
        { page: 'table', table_id: trashedTable },
        { page: 'table', table_id: tableInTrashedDatabase },
        { page: 'view', slug: 'x' },
        { page: 'dashboard', dashboard_id: 1 },
      ]) {
        a1.send(frame);
      }
      c1.send({ page: 'table', table_id: liveTable });
      await expectNone(a1, c1);

      // A trashed workspace hides its tables too.
      const second = await signUp(t, 'Second');
      const secondDb = await databaseOf(t, second);
      const secondTable = await addTable(t, secondDb.id);
      const s1 = await socket(t, second.token);
      s1.send({ page: 'table', table_id: secondTable });
      await s1.waitFor('page_add');
      await t.request('DELETE', `/api/workspaces/${secondDb.workspaceId}/`, { token: second.token, headers: s1.origin });
      s1.send({ page: 'table', table_id: secondTable });
      await expectNone(s1);
    });

    it('checks that the row exists for row pages (a table without its SQL table has no rows)', async () => {
      const { owner, database } = await team(t);
      const tableId = await addTable(t, database.id);
      const client = await socket(t, owner.token);
      client.send({ page: 'row', table_id: tableId, row_id: 1 });
      await expectNone(client);
      const ds = t.app.get(DataSource);
      await ds.query(`CREATE TABLE database_table_${tableId} (id integer PRIMARY KEY, trashed boolean NOT NULL DEFAULT FALSE)`);
      await ds.query(`INSERT INTO database_table_${tableId} (id) VALUES (1)`);
      client.send({ page: 'row', table_id: tableId, row_id: 2 });
      client.send({ page: 'row', table_id: tableId });
      await expectNone(client);
      client.send({ page: 'row', table_id: tableId, row_id: 1, other: true });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'row', parameters: { table_id: tableId, row_id: 1 } });
    });

    it('answers every known remove_page with page_discard (subscribed or not), unknown ones with nothing', async () => {
      const { owner, database } = await team(t);
      const tableId = await addTable(t, database.id);
      const client = await socket(t, owner.token);
      client.send({ remove_page: 'table', table_id: 12345 });
      expect(await client.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: 12345 } });
      client.send({ remove_page: 'row' });
      expect(await client.next()).toEqual({ type: 'page_discard', page: 'row', parameters: { table_id: null, row_id: null } });
      client.send({ page: 'table', table_id: tableId, remove_page: 'table' });
      expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
      expect(await client.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: tableId } });
      client.send({ remove_page: 'unknown' });
      await expectNone(client);
    });

    it('delivers page broadcasts to the page’s subscribers only, until they remove the page', async () => {
      const { database, a1, a2, b1 } = await team(t);
      const tableId = await addTable(t, database.id);
      a1.send({ page: 'table', table_id: tableId });
      b1.send({ page: 'table', table_id: tableId });
      await a1.waitFor('page_add');
      await b1.waitFor('page_add');
      const broadcaster = t.app.get(Broadcaster);
      const message = JSON.stringify({ type: 'table_probe', table_id: tableId });
      await broadcaster.send({ kind: 'page', group: `table-${tableId}`, message, exclude: a1.webSocketId });
      expect(await b1.next()).toEqual({ type: 'table_probe', table_id: tableId });
      await expectNone(a1, a2);
      b1.send({ remove_page: 'table', table_id: tableId });
      await b1.waitFor('page_discard');
      await broadcaster.send({ kind: 'page', group: `table-${tableId}`, message, exclude: null });
      expect(await a1.next()).toEqual({ type: 'table_probe', table_id: tableId });
      await expectNone(a2, b1);
    });

    it('discards the table and row pages of a member removed from, or leaving, the workspace', async () => {
      const { owner, member, database, workspaceId, membershipId, a1, b1 } = await team(t);
      const tableId = await addTable(t, database.id);
      const otherTable = await addTable(t, database.id);
      const ds = t.app.get(DataSource);
      await ds.query(`CREATE TABLE database_table_${tableId} (id integer PRIMARY KEY, trashed boolean NOT NULL DEFAULT FALSE)`);
      await ds.query(`INSERT INTO database_table_${tableId} (id) VALUES (7)`);
      const b2 = await socket(t, member.token);
      b1.send({ page: 'table', table_id: tableId });
      b1.send({ page: 'row', table_id: tableId, row_id: 7 });
      b2.send({ page: 'table', table_id: otherTable });
      a1.send({ page: 'table', table_id: tableId });
      await b1.waitFor('page_add');
      await b1.waitFor('page_add');
      await b2.waitFor('page_add');
      await a1.waitFor('page_add');

      const res = await t.request('DELETE', `/api/workspaces/users/${membershipId}/`, { token: owner.token, headers: a1.origin });
      expect(res.status).toBe(204);
      expect((await b1.next()).type).toBe('group_user_deleted');
      expect(await b1.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: tableId } });
      expect(await b1.next()).toEqual({ type: 'page_discard', page: 'row', parameters: { table_id: tableId, row_id: 7 } });
      expect((await b2.next()).type).toBe('group_user_deleted');
      expect(await b2.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: otherTable } });
      await expectNone(a1, b1, b2);

      // Leaving works the same way.
      const again = await join(t, owner, workspaceId, member);
      expect(again).toBeGreaterThan(0);
      await Promise.all([a1.drain(), b1.drain(), b2.drain()]);
      b1.send({ page: 'table', table_id: tableId });
      await b1.waitFor('page_add');
      const left = await t.request('POST', `/api/workspaces/${workspaceId}/leave/`, { token: member.token, headers: b2.origin });
      expect(left.status).toBe(204);
      expect((await b1.next()).type).toBe('group_user_deleted');
      expect(await b1.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: tableId } });
      expect((await a1.next()).type).toBe('group_user_deleted');
      await expectNone(a1, b1, b2);
    });
  });

  describe('messages (§4.3–4.5, decision 3)', () => {
    it('user_updated: to the members of the user’s workspaces, but the origin socket', async () => {
      const { owner, a1, a2, b1, c1, anon } = await team(t);
      const res = await t.request('PATCH', '/api/user/account/', { token: owner.token, body: { first_name: 'Renamed' }, headers: a1.origin });
      expect(res.status).toBe(200);
      const expected = { type: 'user_updated', user: { id: owner.id, username: owner.email, first_name: 'Renamed' } };
      expect(await a2.next()).toEqual(expected);
      expect(await b1.next()).toEqual(expected);
      await expectNone(a1, a2, b1, c1, anon);
    });

    it('user_deleted, user_restored and user_permanently_deleted: to the members, the origin included', async () => {
      const { owner, workspaceId, a1, b1, c1, anon } = await team(t);
      const leaving = await signUp(t, 'Leaving');
      await join(t, owner, workspaceId, leaving);
      const d1 = await socket(t, leaving.token);
      await Promise.all([a1.drain(), b1.drain()]);
      const user = { id: leaving.id, username: leaving.email, first_name: 'Leaving' };

      const scheduled = await t.request('POST', '/api/user/schedule-account-deletion/', { token: leaving.token, headers: d1.origin });
      expect(scheduled.status).toBe(204);
      for (const client of [d1, a1, b1]) expect(await client.next()).toEqual({ type: 'user_deleted', user });
      await expectNone(a1, b1, c1, d1, anon);

      const login = await t.request('POST', '/api/user/token-auth/', { body: { email: leaving.email, password: leaving.password }, headers: d1.origin });
      expect(login.status).toBe(200);
      for (const client of [d1, a1, b1]) expect(await client.next()).toEqual({ type: 'user_restored', user });
      await expectNone(a1, b1, c1, d1, anon);

      await t.request('POST', '/api/user/schedule-account-deletion/', { token: login.body.access_token });
      await Promise.all([a1.drain(), b1.drain(), d1.drain()]);
      const deleted = await t.app.get(UsersService).deleteExpiredAccounts(new Date(Date.now() + 400 * 24 * 3600 * 1000));
      expect(deleted).toBeGreaterThanOrEqual(1);
      for (const client of [a1, b1]) expect(await client.next()).toEqual({ type: 'user_permanently_deleted', user_id: leaving.id });
      await expectNone(a1, b1, c1, anon);
    });

    it('force_disconnect: the user’s other sockets, which are then closed; the origin stays', async () => {
      const { member, b1, a1 } = await team(t);
      const b2 = await socket(t, member.token);
      const b3 = await socket(t, member.token);
      const res = await t.request('POST', '/api/user/change-password/', {
        token: member.token,
        body: { old_password: member.password, new_password: 'new-password-123' },
        headers: b1.origin,
      });
      expect(res.status).toBe(204);
      for (const client of [b2, b3]) {
        expect(await client.next()).toEqual({ type: 'force_disconnect' });
        await client.closed;
      }
      await expectNone(b1, a1);
      expect(b1.ws.readyState).toBe(b1.ws.OPEN);
    });

    it('group_created: only the creator’s other sockets', async () => {
      const { owner, a1, a2, b1, c1 } = await team(t);
      const res = await t.request('POST', '/api/workspaces/', { token: owner.token, body: { name: 'New one' }, headers: a1.origin });
      expect(res.status).toBe(200);
      expect(await a2.next()).toEqual({ type: 'group_created', workspace: { id: res.body.id, name: 'New one', generative_ai_models_enabled: {} } });
      await expectNone(a1, a2, b1, c1);
    });

    it('group_updated: to the members but the origin', async () => {
      const { owner, workspaceId, a1, a2, b1, c1, anon } = await team(t);
      const res = await t.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: owner.token, body: { name: 'Renamed' }, headers: a1.origin });
      expect(res.status).toBe(200);
      const expected = { type: 'group_updated', workspace_id: workspaceId, workspace: { id: workspaceId, name: 'Renamed', generative_ai_models_enabled: {} } };
      expect(await a2.next()).toEqual(expected);
      expect(await b1.next()).toEqual(expected);
      await expectNone(a1, a2, b1, c1, anon);
    });

    it('before_group_deleted then group_deleted: to the members captured before deletion', async () => {
      const { owner, workspaceId, a1, a2, b1, c1 } = await team(t);
      const res = await t.request('DELETE', `/api/workspaces/${workspaceId}/`, { token: owner.token, headers: a1.origin });
      expect(res.status).toBe(204);
      for (const client of [a2, b1]) {
        expect(await client.next()).toEqual({ type: 'before_group_deleted', workspace_id: workspaceId });
        expect(await client.next()).toEqual({ type: 'group_deleted', workspace_id: workspaceId });
      }
      await expectNone(a1, a2, b1, c1);
    });

    it('groups_reordered: the user’s own other sockets', async () => {
      const { owner, workspaceId, a1, a2, b1 } = await team(t);
      const second = (await t.request('POST', '/api/workspaces/', { token: owner.token, body: { name: 'B' } })).body.id;
      await Promise.all([a1.drain(), a2.drain()]);
      const res = await t.request('POST', '/api/workspaces/order/', { token: owner.token, body: { workspaces: [second, workspaceId] }, headers: a1.origin });
      expect(res.status).toBe(204);
      expect(await a2.next()).toEqual({ type: 'groups_reordered', workspace_ids: [second, workspaceId] });
      await expectNone(a1, a2, b1);
    });

    it('group_user_added, group_user_updated, group_user_deleted: members and the affected user', async () => {
      const { owner, workspaceId, a1, a2, b1, c1, outsider } = await team(t);
      const membershipId = await join(t, owner, workspaceId, outsider, c1.origin);
      // The members list's enterprise member data (role_uid, highest_role_uid, teams) is not in the socket's workspace_user.
      const { role_uid: _roleUid, highest_role_uid: _highest, teams: _teams, ...member } = (await t.request('GET', `/api/workspaces/users/workspace/${workspaceId}/`, { token: owner.token })).body.find(
        (m: { user_id: number }) => m.user_id === outsider.id,
      );
      expect(Object.keys(member)).toEqual(['id', 'name', 'email', 'workspace', 'permissions', 'created_on', 'user_id', 'to_be_deleted']);
      const added = { type: 'group_user_added', id: membershipId, workspace_id: workspaceId, workspace_user: member };
      // The owner, who invited, is also told of the acceptance (a notification); the invitee of their own invitation.
      const notification = (message: any) => message.type.startsWith('notification') || message.type.startsWith('workspace_invitation');
      for (const client of [a1, a2, b1]) {
        const messages = await client.drain();
        expect(messages.filter((m) => !notification(m))).toEqual([added]);
        const told = messages.filter((m) => m.type === 'notifications_created').map((m) => m.notifications[0].type);
        expect(told).toEqual(client === b1 ? [] : ['workspace_invitation_accepted']);
      }
      expect((await c1.drain()).every(notification)).toBe(true);
      await expectNone(a1, a2, b1, c1);

      const updated = await t.request('PATCH', `/api/workspaces/users/${membershipId}/`, { token: owner.token, body: { permissions: 'ADMIN' }, headers: a1.origin });
      expect(updated.status).toBe(200);
      const updatedMessage = { type: 'group_user_updated', id: membershipId, workspace_id: workspaceId, workspace_user: { ...member, permissions: 'ADMIN' } };
      for (const client of [a2, b1, c1]) expect(await client.next()).toEqual(updatedMessage);
      // The member whose role changed is told to reload their permissions (Baserow enterprise's permissions_updated).
      expect(await c1.next()).toEqual({ type: 'permissions_updated', workspace_id: workspaceId });
      await expectNone(a1, a2, b1, c1);

      const removed = await t.request('DELETE', `/api/workspaces/users/${membershipId}/`, { token: owner.token, headers: a1.origin });
      expect(removed.status).toBe(204);
      const deletedMessage = { type: 'group_user_deleted', id: membershipId, workspace_id: workspaceId, workspace_user: { ...member, permissions: 'ADMIN' } };
      for (const client of [a2, b1, c1]) expect(await client.next()).toEqual(deletedMessage);
      await expectNone(a1, a2, b1, c1);
    });

    it('application_created, application_updated, application_deleted: to the members but the origin', async () => {
      const { owner, workspaceId, database, a1, a2, b1, c1, anon } = await team(t);
      const tableId = await addTable(t, database.id);
      const created = await t.request('POST', `/api/applications/workspace/${workspaceId}/`, {
        token: owner.token,
        body: { name: 'Fresh', type: 'database' },
        headers: a1.origin,
      });
      expect(created.status).toBe(200);
      for (const client of [a2, b1]) expect(await client.next()).toEqual({ type: 'application_created', application: created.body });
      expect(Object.keys(created.body)).toEqual(['id', 'name', 'order', 'type', 'workspace', 'created_on', 'tables']);
      await expectNone(a1, a2, b1, c1, anon);

      const renamed = await t.request('PATCH', `/api/applications/${database.id}/`, { token: owner.token, body: { name: 'Renamed' }, headers: a1.origin });
      expect(renamed.status).toBe(200);
      for (const client of [a2, b1]) {
        const message = await client.next();
        expect(message).toEqual({ type: 'application_updated', application_id: database.id, application: renamed.body });
        expect(message.application.tables.map((table: { id: number }) => table.id)).toContain(tableId);
      }
      await expectNone(a1, a2, b1, c1, anon);

      const deleted = await t.request('DELETE', `/api/applications/${created.body.id}/`, { token: owner.token, headers: a1.origin });
      expect(deleted.status).toBe(204);
      for (const client of [a2, b1]) expect(await client.next()).toEqual({ type: 'application_deleted', application_id: created.body.id });
      await expectNone(a1, a2, b1, c1, anon);
    });

    it('applications_reordered: SHA-256 hex of every application id, in the new order', async () => {
      const { owner, workspaceId, database, a1, a2, b1, c1 } = await team(t);
      const second = (await t.request('POST', `/api/applications/workspace/${workspaceId}/`, { token: owner.token, body: { name: 'Second', type: 'database' } })).body.id;
      await Promise.all([a1.drain(), a2.drain(), b1.drain()]);
      const res = await t.request('POST', `/api/applications/workspace/${workspaceId}/order/`, {
        token: owner.token,
        body: { application_ids: [second, database.id] },
        headers: a1.origin,
      });
      expect(res.status).toBe(204);
      const expected = { type: 'applications_reordered', workspace_id: workspaceId, order: [sha256(second), sha256(database.id)] };
      for (const client of [a2, b1]) expect(await client.next()).toEqual(expected);
      await expectNone(a1, a2, b1, c1);
    });

    it('reads the WebSocketId header in any case and leaves out exactly that socket', async () => {
      const { owner, workspaceId, a1, a2, b1 } = await team(t);
      await t.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: owner.token, body: { name: 'X' }, headers: { websocketid: b1.webSocketId } });
      for (const client of [a1, a2]) expect((await client.next()).type).toBe('group_updated');
      await expectNone(a1, a2, b1);
      await t.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: owner.token, body: { name: 'Y' }, headers: { WEBSOCKETID: 'not-a-socket' } });
      for (const client of [a1, a2, b1]) expect((await client.next()).type).toBe('group_updated');
      await expectNone(a1, a2, b1);
    });
  });

  describe('after commit, once (§5)', () => {
    it('sends nothing for a rolled-back change, and one message per operation', async () => {
      const { workspaceId, a1, b1 } = await team(t);
      const db = t.app.get(UnitOfWork);
      const repo = t.app.get(WorkspaceRepository);
      await expect(
        db.run(async () => {
          await repo.updateWorkspace(workspaceId, { name: 'Never' });
          db.record('workspace.updated', { workspaceId });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await expectNone(a1, b1);
      await db.run(async () => {
        await repo.updateWorkspace(workspaceId, { name: 'Committed' });
        db.record('workspace.updated', { workspaceId });
      });
      for (const client of [a1, b1]) expect(await client.next()).toMatchObject({ type: 'group_updated', workspace: { name: 'Committed' } });
      await expectNone(a1, b1);
    });
  });
});

describe('real time configuration: anonymous disabled, pings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ DISABLE_ANONYMOUS_PUBLIC_VIEW_WS_CONNECTIONS: 'true', WS_PING_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => t.close());

  it('refuses `anonymous` when anonymous public-view sockets are disabled', async () => {
    const client = new WsClient(wsUrl(t, 'anonymous'));
    open.push(client);
    expect(await client.waitFor('authentication')).toEqual({ type: 'authentication', success: false, web_socket_id: expect.stringMatching(UUID_V4) });
    expect((await client.closed).code).toBe(1000);
  });

  it('keeps sockets that answer pings and drops those that do not', async () => {
    const user = await signUp(t);
    const alive = await socket(t, user.token);
    const { default: WebSocket } = await import('ws');
    const dead = new WebSocket(wsUrl(t, user.token), { autoPong: false });
    const closed = new Promise<number>((resolve) => dead.once('close', (code) => resolve(code)));
    let pinged = 0;
    dead.on('ping', () => (pinged += 1));
    const code = await closed;
    expect(code).toBe(1006);
    expect(pinged).toBeGreaterThanOrEqual(1);
    expect(alive.ws.readyState).toBe(alive.ws.OPEN);
  }, 10000);
});
