import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';
import { UsersService } from '../src/users/users.service';
import { ViewRepository } from '../src/views/view.repository';

/**
 * Personal views (`ownership_type: "personal"`, Baserow premium): their owner's only, in lists,
 * by id, through the rows endpoints, in the trash and on the wire; who may create them follows
 * BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED (VIEWER by default).
 */
let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let viewer: SignedUp;
let workspaceId: number;
let tableId: number;
const open: WsClient[] = [];

afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

async function join(user: SignedUp, permissions: string): Promise<void> {
  const invitation = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
    token: owner.token,
    body: { email: user.email, permissions, message: '', base_url: 'http://localhost:8000/invite' },
  });
  expect(invitation.status).toBe(200);
  expect((await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: user.token })).status).toBe(200);
}

async function socketOn(user: SignedUp): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'table', table_id: tableId });
  await client.waitFor('page_add');
  return client;
}

const api = (user: SignedUp, method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.request(method, path, { token: user.token, body, headers });
const listIds = async (user: SignedUp) => (await api(user, 'GET', `/api/database/views/table/${tableId}/`)).body.map((v: { id: number }) => v.id);

beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  viewer = await signUp(t, 'Viewer');
  workspaceId = (await api(owner, 'GET', '/api/workspaces/')).body[0].id;
  await join(member, 'MEMBER');
  await join(viewer, 'VIEWER');
  const databaseId = (await api(owner, 'GET', '/api/applications/')).body.find((a: { type: string }) => a.type === 'database').id;
  tableId = (await api(owner, 'POST', `/api/database/tables/database/${databaseId}/`, { name: 'Things' })).body.id;
});

afterAll(async () => {
  await t.close();
});

describe('personal views', () => {
  it('are seen and used by their owner only; by id they are refused to anyone else (PERMISSION_DENIED, as Baserow)', async () => {
    const created = await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Mine', type: 'grid', ownership_type: 'personal' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ownership_type: 'personal', owned_by_id: owner.id, name: 'Mine' });
    const id = created.body.id;

    expect(await listIds(owner)).toContain(id);
    expect(await listIds(member)).not.toContain(id);
    expect(await listIds(viewer)).not.toContain(id);

    const refused = [401, 'PERMISSION_DENIED'];
    for (const [method, path, body] of [
      ['GET', `/api/database/views/${id}/`, undefined],
      ['PATCH', `/api/database/views/${id}/`, { name: 'Taken' }],
      ['DELETE', `/api/database/views/${id}/`, undefined],
      ['POST', `/api/database/views/${id}/duplicate/`, undefined],
      ['GET', `/api/database/views/${id}/field-options/`, undefined],
      ['GET', `/api/database/views/${id}/filters/`, undefined],
      ['GET', `/api/database/views/${id}/sortings/`, undefined],
    ] as const) {
      const res = await api(member, method, path, body);
      expect([res.status, res.body.error]).toEqual(refused);
    }
    const grid = await api(member, 'GET', `/api/database/views/grid/${id}/`);
    expect([grid.status, grid.body.error]).toEqual(refused);
    const rows = await api(member, 'GET', `/api/database/rows/table/${tableId}/?view_id=${id}`);
    expect([rows.status, rows.body.error]).toEqual(refused);
    // Nothing changed: the owner still has it under its name.
    expect((await api(owner, 'GET', `/api/database/views/${id}/`)).body.name).toBe('Mine');
    expect((await api(owner, 'GET', `/api/database/rows/table/${tableId}/?view_id=${id}`)).status).toBe(200);
  });

  it('a VIEWER may make and use personal views, not collaborative ones, and may not share them', async () => {
    const collaborative = await api(viewer, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Shared', type: 'grid' });
    expect([collaborative.status, collaborative.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const publicOne = await api(viewer, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Out', type: 'grid', ownership_type: 'personal', public: true });
    expect([publicOne.status, publicOne.body.error]).toEqual([401, 'PERMISSION_DENIED']);

    const mine = await api(viewer, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Viewer view', type: 'grid', ownership_type: 'personal' });
    expect(mine.status).toBe(200);
    const id = mine.body.id;
    const fieldId = (await api(viewer, 'GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
    expect((await api(viewer, 'POST', `/api/database/views/${id}/filters/`, { field: fieldId, type: 'empty', value: '' })).status).toBe(200);
    expect((await api(viewer, 'POST', `/api/database/views/${id}/sortings/`, { field: fieldId })).status).toBe(200);
    expect((await api(viewer, 'PATCH', `/api/database/views/${id}/`, { name: 'Renamed' })).body.name).toBe('Renamed');
    const share = await api(viewer, 'PATCH', `/api/database/views/${id}/`, { public: true });
    expect([share.status, share.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const rotate = await api(viewer, 'POST', `/api/database/views/${id}/rotate-slug/`);
    expect([rotate.status, rotate.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    // A collaborative view stays out of the viewer's reach.
    const collab = (await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Team', type: 'grid' })).body.id;
    const update = await api(viewer, 'PATCH', `/api/database/views/${collab}/`, { name: 'Nope' });
    expect([update.status, update.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    // Nor may the viewer make their personal view collaborative.
    const handOver = await api(viewer, 'PATCH', `/api/database/views/${id}/`, { ownership_type: 'collaborative' });
    expect([handOver.status, handOver.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    expect((await api(viewer, 'DELETE', `/api/database/views/${id}/`)).status).toBe(204);
  });

  it('refuses an unknown ownership type', async () => {
    const res = await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'X', type: 'grid', ownership_type: 'team' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(res.body.detail.ownership_type[0].code).toBe('invalid_choice');
  });

  it("sends a personal view's messages to its owner's sockets only", async () => {
    const acting = await socketOn(owner);
    const ownerElsewhere = await connect(t, owner.token);
    open.push(ownerElsewhere);
    const other = await socketOn(member);

    const created = await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Quiet', type: 'grid', ownership_type: 'personal' }, acting.origin);
    const id = created.body.id;
    expect((await ownerElsewhere.waitFor('view_created')).view).toMatchObject({ id, ownership_type: 'personal', owned_by_id: owner.id });

    await api(owner, 'PATCH', `/api/database/views/${id}/`, { name: 'Quieter' }, acting.origin);
    expect(await ownerElsewhere.waitFor('view_updated')).toMatchObject({ view_id: id, view: { name: 'Quieter' } });

    const fieldId = (await api(owner, 'GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
    const filter = await api(owner, 'POST', `/api/database/views/${id}/filters/`, { field: fieldId, type: 'empty', value: '' }, acting.origin);
    expect((await ownerElsewhere.waitFor('view_filter_created')).view_filter.id).toBe(filter.body.id);

    const copy = await api(owner, 'POST', `/api/database/views/${id}/duplicate/`, undefined, acting.origin);
    expect(copy.body).toMatchObject({ ownership_type: 'personal', owned_by_id: owner.id, name: 'Quieter 2' });
    expect((await ownerElsewhere.waitFor('view_created')).view.id).toBe(copy.body.id);
    expect((await ownerElsewhere.waitFor('views_reordered')).order).toEqual(expect.arrayContaining([id, copy.body.id]));
    expect(await listIds(member)).not.toContain(copy.body.id);

    await api(owner, 'DELETE', `/api/database/views/${id}/`, undefined, acting.origin);
    expect(await ownerElsewhere.waitFor('view_deleted')).toEqual({ type: 'view_deleted', table_id: tableId, view_id: id });

    await expectNone(other, acting);
  });

  it('moves between collaborative and personal as Baserow does, telling each side', async () => {
    const acting = await socketOn(owner);
    const other = await socketOn(member);
    const ownerElsewhere = await socketOn(owner);
    const id = (await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Moving', type: 'grid' }, acting.origin)).body.id;
    await other.waitFor('view_created');
    await ownerElsewhere.waitFor('view_created');

    const made = await api(owner, 'PATCH', `/api/database/views/${id}/`, { ownership_type: 'personal' }, acting.origin);
    expect(made.body).toMatchObject({ ownership_type: 'personal', owned_by_id: owner.id });
    expect(await other.waitFor('view_deleted')).toEqual({ type: 'view_deleted', table_id: tableId, view_id: id });
    expect(await ownerElsewhere.waitFor('view_updated')).toMatchObject({ view_id: id, view: { ownership_type: 'personal' } });
    expect(await listIds(member)).not.toContain(id);

    const back = await api(owner, 'PATCH', `/api/database/views/${id}/`, { ownership_type: 'collaborative' }, acting.origin);
    expect(back.body.ownership_type).toBe('collaborative');
    expect((await other.waitFor('view_created')).view).toMatchObject({ id, ownership_type: 'collaborative' });
    expect(await ownerElsewhere.waitFor('view_updated')).toMatchObject({ view_id: id, view: { ownership_type: 'collaborative' } });
    expect(await listIds(member)).toContain(id);
    await expectNone(other, ownerElsewhere, acting);
  });

  it("keeps a trashed personal view in its owner's trash only, and orders only the user's own views", async () => {
    const id = (await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Binned', type: 'grid', ownership_type: 'personal' })).body.id;
    expect((await api(owner, 'DELETE', `/api/database/views/${id}/`)).status).toBe(204);
    const databaseId = (await api(owner, 'GET', '/api/applications/')).body.find((a: { type: string }) => a.type === 'database').id;
    const trashOf = async (user: SignedUp) => (await api(user, 'GET', `/api/trash/workspace/${workspaceId}/?application_id=${databaseId}`)).body.results.map((e: { trash_item_id: number; trash_item_type: string }) => `${e.trash_item_type}:${e.trash_item_id}`);
    expect(await trashOf(owner)).toContain(`view:${id}`);
    expect(await trashOf(member)).not.toContain(`view:${id}`);

    const personal = (await api(owner, 'POST', `/api/database/views/table/${tableId}/`, { name: 'P', type: 'grid', ownership_type: 'personal' })).body.id;
    const refused = await api(member, 'POST', `/api/database/views/table/${tableId}/order/`, { view_ids: [personal] });
    expect([refused.status, refused.body.error]).toEqual([400, 'ERROR_VIEW_NOT_IN_TABLE']);
    expect((await api(owner, 'POST', `/api/database/views/table/${tableId}/order/`, { view_ids: [personal] })).status).toBe(204);
  });

  it("shares a personal view publicly only while its owner may share views", async () => {
    const id = (await api(member, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Public mine', type: 'grid', ownership_type: 'personal' })).body.id;
    const shared = await api(member, 'PATCH', `/api/database/views/${id}/`, { public: true });
    expect(shared.status).toBe(200);
    const slug = shared.body.slug;
    expect((await t.request('GET', `/api/database/views/grid/${slug}/public/rows/`)).status).toBe(200);
    // A member who is not the owner sees it as anyone does: by its public link.
    expect((await api(owner, 'GET', `/api/database/views/${slug}/public/info/`)).status).toBe(200);

    const users = (await api(owner, 'GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body;
    const membership = users.find((u: { user_id: number }) => u.user_id === member.id);
    expect((await api(owner, 'PATCH', `/api/workspaces/users/${membership.id}/`, { permissions: 'VIEWER' })).status).toBe(200);
    const gone = await t.request('GET', `/api/database/views/grid/${slug}/public/rows/`);
    expect([gone.status, gone.body.error]).toEqual([404, 'ERROR_GRID_DOES_NOT_EXIST']);
    expect((await api(owner, 'PATCH', `/api/workspaces/users/${membership.id}/`, { permissions: 'MEMBER' })).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/grid/${slug}/public/rows/`)).status).toBe(200);
  });

  it("takes a personal form's submissions only while its owner may create rows", async () => {
    const viewerForm = (await api(viewer, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Viewer form', type: 'form', ownership_type: 'personal' })).body;
    expect(viewerForm.ownership_type).toBe('personal');
    const refused = await api(viewer, 'POST', `/api/database/views/form/${viewerForm.slug}/submit/`, {});
    expect([refused.status, refused.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const memberForm = (await api(member, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Member form', type: 'form', ownership_type: 'personal' })).body;
    const before = (await api(owner, 'GET', `/api/database/rows/table/${tableId}/`)).body.count;
    expect((await api(member, 'POST', `/api/database/views/form/${memberForm.slug}/submit/`, {})).status).toBe(200);
    expect((await api(owner, 'GET', `/api/database/rows/table/${tableId}/`)).body.count).toBe(before + 1);
  });

  it('goes with its owner when the account is deleted for good', async () => {
    const leaving = await signUp(t, 'Leaving');
    await join(leaving, 'MEMBER');
    const id = (await api(leaving, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Gone soon', type: 'grid', ownership_type: 'personal' })).body.id;
    const kept = (await api(leaving, 'POST', `/api/database/views/table/${tableId}/`, { name: 'Shared stays', type: 'grid' })).body.id;
    expect((await api(leaving, 'POST', '/api/user/schedule-account-deletion/')).status).toBe(204);
    expect(await t.app.get(UsersService).deleteExpiredAccounts(new Date(Date.now() + 31 * 24 * 3600 * 1000))).toBe(1);
    const views = t.app.get(ViewRepository);
    // Deleted by the after-commit listener of the account's deletion.
    for (let i = 0; i < 500 && (await views.findAny(id)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await views.findAny(id)).toBeNull();
    expect(await views.findAny(kept)).not.toBeNull();
    expect(await listIds(owner)).toContain(kept);
  });
});
