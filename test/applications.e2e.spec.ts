import { signUp, SignedUp, startApp, TestApp } from './support/app';

/** Applications (baserow-rest.md §4). */
describe('Applications (baserow-rest.md §4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const APP_KEYS = ['id', 'name', 'order', 'type', 'workspace', 'created_on', 'tables'];
  const NOT_IN_GROUP = { error: 'ERROR_USER_NOT_IN_GROUP', detail: '' };
  const GROUP_MISSING = { error: 'ERROR_GROUP_DOES_NOT_EXIST', detail: 'The requested group does not exist.' };
  const APP_MISSING = { error: 'ERROR_APPLICATION_DOES_NOT_EXIST', detail: 'The requested application does not exist.' };

  async function workspaceOf(user: SignedUp, name = 'Apps'): Promise<number> {
    return (await t.request('POST', '/api/workspaces/', { token: user.token, body: { name } })).body.id;
  }
  async function createApp(user: SignedUp, workspaceId: number, name: string) {
    const res = await t.request('POST', `/api/applications/workspace/${workspaceId}/`, { token: user.token, body: { name, type: 'database' } });
    expect(res.status).toBe(200);
    return res.body as { id: number; name: string; order: number };
  }
  const appsOf = async (user: SignedUp, workspaceId: number) =>
    (await t.request('GET', `/api/applications/workspace/${workspaceId}/`, { token: user.token })).body as { id: number; name: string; order: number }[];

  describe('create', () => {
    it('creates a database with the exact serializer, last in order', async () => {
      const user = await signUp(t);
      const ws = await workspaceOf(user, 'Shop');
      const first = await t.request('POST', `/api/applications/workspace/${ws}/`, { token: user.token, body: { name: ' Sales ', type: 'database' } });
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual([...APP_KEYS].sort());
      expect(first.body).toMatchObject({
        name: 'Sales',
        order: 1,
        type: 'database',
        workspace: { id: ws, name: 'Shop', generative_ai_models_enabled: {} },
        tables: [],
      });
      expect(Object.keys(first.body.workspace)).toEqual(['id', 'name', 'generative_ai_models_enabled']);
      expect(first.body.created_on).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      const second = await createApp(user, ws, 'Stock');
      expect(second.order).toBe(2);
      const got = await t.request('GET', `/api/applications/${first.body.id}/`, { token: user.token });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(first.body);
    });

    it('accepts init_with_data and ignores unknown keys', async () => {
      const user = await signUp(t);
      const ws = await workspaceOf(user);
      const res = await t.request('POST', `/api/applications/workspace/${ws}/`, {
        token: user.token,
        body: { name: 'With data', type: 'database', init_with_data: 'false', workspace: 1, id: 777777, order: 50 },
      });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(777777);
      expect(res.body.order).toBe(1);
      expect(res.body.workspace.id).toBe(ws);
    });

    it('rejects bad bodies and creates nothing', async () => {
      const user = await signUp(t);
      const ws = await workspaceOf(user);
      const missing = await t.request('POST', `/api/applications/workspace/${ws}/`, { token: user.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        error: 'ERROR_REQUEST_BODY_VALIDATION',
        detail: {
          name: [{ error: 'This field is required.', code: 'required' }],
          type: [{ error: 'This field is required.', code: 'required' }],
        },
      });
      const cases: [Record<string, unknown>, string, { error: string; code: string }][] = [
        [{ name: 'x', type: 'builder' }, 'type', { error: '"builder" is not a valid choice.', code: 'invalid_choice' }],
        [{ name: 'x', type: 'NOT_EXISTING' }, 'type', { error: '"NOT_EXISTING" is not a valid choice.', code: 'invalid_choice' }],
        [{ name: 'x', type: '' }, 'type', { error: '"" is not a valid choice.', code: 'invalid_choice' }],
        [{ name: 'x', type: null }, 'type', { error: 'This field may not be null.', code: 'null' }],
        [{ name: '', type: 'database' }, 'name', { error: 'This field may not be blank.', code: 'blank' }],
        [{ name: 'n'.repeat(161), type: 'database' }, 'name', { error: 'Ensure this field has no more than 160 characters.', code: 'max_length' }],
        [{ name: { x: 1 }, type: 'database' }, 'name', { error: 'Not a valid string.', code: 'invalid' }],
        [{ name: 'x', type: 'database', init_with_data: 'maybe' }, 'init_with_data', { error: 'Must be a valid boolean.', code: 'invalid' }],
      ];
      for (const [body, key, leaf] of cases) {
        const res = await t.request('POST', `/api/applications/workspace/${ws}/`, { token: user.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { [key]: [leaf] } });
      }
      const ok = await t.request('POST', `/api/applications/workspace/${ws}/`, { token: user.token, body: { name: 'n'.repeat(160), type: 'database' } });
      expect(ok.status).toBe(200);
      expect((await appsOf(user, ws)).map((a) => a.name)).toEqual(['n'.repeat(160)]);
    });

    it('answers strangers ERROR_USER_NOT_IN_GROUP and unknown workspaces 404', async () => {
      const owner = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(owner);
      const res = await t.request('POST', `/api/applications/workspace/${ws}/`, { token: stranger.token, body: { name: 'Intruder', type: 'database' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('POST', '/api/applications/workspace/919191/', { token: owner.token, body: { name: 'x', type: 'database' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(GROUP_MISSING);
      expect(await appsOf(owner, ws)).toEqual([]);
    });
  });

  describe('list', () => {
    it('GET /api/applications/ lists every app of the user’s workspaces: workspaces by id, apps by order then id', async () => {
      const user = await signUp(t, 'Lister');
      const other = await signUp(t);
      const [home] = (await t.request('GET', '/api/workspaces/', { token: user.token })).body;
      const w1 = await workspaceOf(user, 'W1');
      const w2 = await workspaceOf(user, 'W2');
      // The user's own workspace order does not matter here.
      await t.request('POST', '/api/workspaces/order/', { token: user.token, body: { workspaces: [w2, w1, home.id] } });
      const b = await createApp(user, w2, 'B');
      const a = await createApp(user, w1, 'A');
      const c = await createApp(user, w1, 'C');
      await createApp(other, await workspaceOf(other), 'Not mine');
      await t.request('POST', `/api/applications/workspace/${w1}/order/`, { token: user.token, body: { application_ids: [c.id, a.id] } });
      const res = await t.request('GET', '/api/applications/', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.map((x: { name: string }) => x.name)).toEqual(["Lister's company", 'C', 'A', 'B']);
      for (const app of res.body) expect(Object.keys(app).sort()).toEqual([...APP_KEYS].sort());
      expect(res.body[3]).toMatchObject({ id: b.id, workspace: { id: w2, name: 'W2' } });
    });

    it('lists one workspace’s apps by order then id, for members only', async () => {
      const user = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(user);
      const x = await createApp(user, ws, 'X');
      const y = await createApp(user, ws, 'Y');
      const res = await t.request('GET', `/api/applications/workspace/${ws}/`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.map((a: { id: number }) => a.id)).toEqual([x.id, y.id]);
      const denied = await t.request('GET', `/api/applications/workspace/${ws}/`, { token: stranger.token });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('GET', '/api/applications/workspace/929292/', { token: user.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(GROUP_MISSING);
    });
  });

  describe('get, rename, delete', () => {
    it('gets an app; strangers and unknown ids get their codes', async () => {
      const user = await signUp(t);
      const stranger = await signUp(t);
      const app = await createApp(user, await workspaceOf(user), 'Mine');
      const denied = await t.request('GET', `/api/applications/${app.id}/`, { token: stranger.token });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('GET', '/api/applications/939393/', { token: user.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(APP_MISSING);
    });

    it('renames (200 with the application) and ignores a type change', async () => {
      const user = await signUp(t);
      const ws = await workspaceOf(user);
      const app = await createApp(user, ws, 'Before');
      const res = await t.request('PATCH', `/api/applications/${app.id}/`, { token: user.token, body: { name: 'After', type: 'builder', order: 9 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...app, name: 'After' });
      const empty = await t.request('PATCH', `/api/applications/${app.id}/`, { token: user.token, body: {} });
      expect(empty.status).toBe(200);
      expect(empty.body.name).toBe('After');
      expect((await appsOf(user, ws)).map((a) => a.name)).toEqual(['After']);
    });

    it('rejects bad rename bodies, strangers and unknown ids, and changes nothing', async () => {
      const user = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(user);
      const app = await createApp(user, ws, 'Stable');
      for (const [body, code] of [
        [{ name: '' }, 'blank'],
        [{ name: null }, 'null'],
        [{ name: 'x'.repeat(161) }, 'max_length'],
        [{ name: ['x'] }, 'invalid'],
      ] as const) {
        const res = await t.request('PATCH', `/api/applications/${app.id}/`, { token: user.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
        expect(res.body.detail.name[0].code).toBe(code);
      }
      const denied = await t.request('PATCH', `/api/applications/${app.id}/`, { token: stranger.token, body: { name: 'Stolen' } });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('PATCH', '/api/applications/949494/', { token: user.token, body: { name: 'Valid' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(APP_MISSING);
      expect((await appsOf(user, ws)).map((a) => a.name)).toEqual(['Stable']);
    });

    it('deletes (204, trashed) and then answers 404 everywhere', async () => {
      const user = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(user);
      const app = await createApp(user, ws, 'Bye');
      const keep = await createApp(user, ws, 'Keep');
      const denied = await t.request('DELETE', `/api/applications/${app.id}/`, { token: stranger.token });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
      const res = await t.request('DELETE', `/api/applications/${app.id}/`, { token: user.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
        const again = await t.request(method, `/api/applications/${app.id}/`, { token: user.token, body });
        expect(again.status).toBe(404);
        expect(again.body).toEqual(APP_MISSING);
      }
      expect((await appsOf(user, ws)).map((a) => a.id)).toEqual([keep.id]);
      const all = await t.request('GET', '/api/applications/', { token: user.token });
      expect(all.body.map((a: { id: number }) => a.id)).not.toContain(app.id);
      // A trashed application cannot be ordered any more.
      const order = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: { application_ids: [app.id] } });
      expect(order.status).toBe(400);
      expect(order.body).toEqual({ error: 'ERROR_APPLICATION_NOT_IN_GROUP', detail: `The application id ${app.id} does not belong to the group.` });
    });

    it('lets any member, not only admins, manage applications', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = await t.request('POST', `/api/workspaces/invitations/workspace/${ws}/`, {
        token: admin.token,
        body: { email: member.email, permissions: 'MEMBER', base_url: 'http://localhost:8000/' },
      });
      await t.request('POST', `/api/workspaces/invitations/${inv.body.id}/accept/`, { token: member.token });
      const app = await createApp(member, ws, 'By member');
      const renamed = await t.request('PATCH', `/api/applications/${app.id}/`, { token: member.token, body: { name: 'Renamed' } });
      expect(renamed.status).toBe(200);
      const deleted = await t.request('DELETE', `/api/applications/${app.id}/`, { token: member.token });
      expect(deleted.status).toBe(204);
    });
  });

  describe('order', () => {
    it('orders as listed (204); the ones not listed get order 0', async () => {
      const user = await signUp(t);
      const ws = await workspaceOf(user);
      const a = await createApp(user, ws, 'A');
      const b = await createApp(user, ws, 'B');
      const c = await createApp(user, ws, 'C');
      const res = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: { application_ids: [c.id, a.id] } });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const listed = await appsOf(user, ws);
      expect(listed.map((x) => [x.id, x.order])).toEqual([
        [b.id, 0],
        [c.id, 1],
        [a.id, 2],
      ]);
    });

    it('rejects foreign and unknown ids with ERROR_APPLICATION_NOT_IN_GROUP and changes nothing', async () => {
      const user = await signUp(t);
      const other = await signUp(t);
      const ws = await workspaceOf(user);
      const a = await createApp(user, ws, 'A');
      const b = await createApp(user, ws, 'B');
      const foreign = await createApp(other, await workspaceOf(other), 'F');
      for (const id of [foreign.id, 989898]) {
        const res = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: { application_ids: [b.id, id] } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'ERROR_APPLICATION_NOT_IN_GROUP', detail: `The application id ${id} does not belong to the group.` });
      }
      expect((await appsOf(user, ws)).map((x) => [x.id, x.order])).toEqual([
        [a.id, 1],
        [b.id, 2],
      ]);
    });

    it('answers strangers, unknown workspaces and bad bodies with their codes', async () => {
      const user = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(user);
      const a = await createApp(user, ws, 'A');
      const denied = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: stranger.token, body: { application_ids: [a.id] } });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('POST', '/api/applications/workspace/979797/order/', { token: user.token, body: { application_ids: [] } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(GROUP_MISSING);
      const noIds = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: {} });
      expect(noIds.status).toBe(400);
      expect(noIds.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { application_ids: [{ error: 'This field is required.', code: 'required' }] } });
      const badItem = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: { application_ids: ['abc'] } });
      expect(badItem.status).toBe(400);
      expect(badItem.body.detail).toEqual({ application_ids: { '0': [{ error: 'A valid integer is required.', code: 'invalid' }] } });
      const notList = await t.request('POST', `/api/applications/workspace/${ws}/order/`, { token: user.token, body: { application_ids: 'x' } });
      expect(notList.status).toBe(400);
      expect(notList.body.detail.application_ids[0].code).toBe('not_a_list');
      expect((await appsOf(user, ws)).map((x) => x.order)).toEqual([1]);
    });
  });
});
