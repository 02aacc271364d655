import { DataSource } from 'typeorm';
import { TableEntity } from '../src/database/table.entity';
import { SignedUp, signUp, startTwoInstances, TEST_DB, TestApp } from './support/app';
import { connect, WsClient } from './support/ws';

/**
 * Two instances on one PostgreSQL database and one Redis (decision 7): a change made through
 * instance A reaches the sockets of instance B. Needs ROWSPACE_TEST_REDIS=1 and
 * ROWSPACE_TEST_DB=postgres (SQLite is one process's file).
 */
const describeRedis = process.env.ROWSPACE_TEST_REDIS && TEST_DB === 'postgres' ? describe : describe.skip;
/** Across instances delivery is asynchronous: "nothing arrived" waits a little longer. */
const REMOTE_SETTLE_MS = 400;

describeRedis('real time across instances (Redis pub/sub)', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  const open: WsClient[] = [];

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await close?.();
  });

  async function socket(t: TestApp, token: string): Promise<WsClient> {
    const client = await connect(t, token);
    open.push(client);
    return client;
  }

  async function none(...clients: WsClient[]): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, REMOTE_SETTLE_MS));
    for (const client of clients) expect(await client.drain(0)).toEqual([]);
  }

  async function join(owner: SignedUp, workspaceId: number, member: SignedUp): Promise<number> {
    const invitation = await a.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: owner.token,
      body: { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' },
    });
    const accepted = await a.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: member.token });
    return accepted.body.users.find((u: { user_id: number }) => u.user_id === member.id).id;
  }

  it('delivers a change made on A to the members’ sockets on B, leaving out the origin socket on B', async () => {
    const owner = await signUp(a, 'Owner');
    const member = await signUp(a, 'Member');
    const outsider = await signUp(a, 'Outsider');
    const workspaceId = (await a.request('GET', '/api/workspaces/', { token: owner.token })).body[0].id;
    await join(owner, workspaceId, member);
    const originOnB = await socket(b, owner.token);
    const ownerOnB = await socket(b, owner.token);
    const ownerOnA = await socket(a, owner.token);
    const memberOnB = await socket(b, member.token);
    const outsiderOnB = await socket(b, outsider.token);

    const res = await a.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: owner.token, body: { name: 'Shared' }, headers: originOnB.origin });
    expect(res.status).toBe(200);
    const expected = { type: 'group_updated', workspace_id: workspaceId, workspace: { id: workspaceId, name: 'Shared', generative_ai_models_enabled: {} } };
    for (const client of [ownerOnB, ownerOnA, memberOnB]) expect(await client.next()).toEqual(expected);
    await none(originOnB, ownerOnB, ownerOnA, memberOnB, outsiderOnB);

    const apps = (await a.request('GET', `/api/applications/workspace/${workspaceId}/`, { token: owner.token })).body;
    const renamed = await a.request('PATCH', `/api/applications/${apps[0].id}/`, { token: owner.token, body: { name: 'Renamed' }, headers: ownerOnA.origin });
    expect(renamed.status).toBe(200);
    const updated = { type: 'application_updated', application_id: apps[0].id, application: renamed.body };
    for (const client of [originOnB, ownerOnB, memberOnB]) expect(await client.next()).toEqual(updated);
    await none(originOnB, ownerOnB, ownerOnA, memberOnB, outsiderOnB);
  });

  it('discards a removed member’s table pages on B, and force-disconnects other sockets on B', async () => {
    const owner = await signUp(a, 'Owner');
    const member = await signUp(a, 'Member');
    const workspaceId = (await a.request('GET', '/api/workspaces/', { token: owner.token })).body[0].id;
    const membershipId = await join(owner, workspaceId, member);
    const database = (await a.request('GET', `/api/applications/workspace/${workspaceId}/`, { token: owner.token })).body[0];
    const repo = a.app.get(DataSource).getRepository(TableEntity);
    const table = await repo.save(repo.create({ databaseId: database.id, name: 'T', order: 1, createdOn: new Date(), trashed: false }));

    const memberOnB = await socket(b, member.token);
    memberOnB.send({ page: 'table', table_id: table.id });
    expect(await memberOnB.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: table.id } });
    const removed = await a.request('DELETE', `/api/workspaces/users/${membershipId}/`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect((await memberOnB.next()).type).toBe('group_user_deleted');
    expect(await memberOnB.next()).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: table.id } });

    const ownerOnA = await socket(a, owner.token);
    const ownerOnB = await socket(b, owner.token);
    const changed = await a.request('POST', '/api/user/change-password/', {
      token: owner.token,
      body: { old_password: owner.password, new_password: 'new-password-123' },
      headers: ownerOnA.origin,
    });
    expect(changed.status).toBe(204);
    expect(await ownerOnB.next()).toEqual({ type: 'force_disconnect' });
    await ownerOnB.closed;
    await none(ownerOnA, memberOnB);
  });
});
