import { signUp, SignedUp, startApp, TestApp } from './support/app';

/** Workspaces, members and the permissions endpoint (baserow-rest.md §3). */
describe('Workspaces (baserow-rest.md §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const ITEM_KEYS = ['id', 'name', 'users', 'order', 'permissions', 'unread_notifications_count', 'generative_ai_models_enabled'];
  const USER_KEYS = ['id', 'name', 'email', 'workspace', 'permissions', 'created_on', 'user_id', 'to_be_deleted'];
  const NOT_IN_GROUP = { error: 'ERROR_USER_NOT_IN_GROUP', detail: '' };
  const DOES_NOT_EXIST = { error: 'ERROR_GROUP_DOES_NOT_EXIST', detail: 'The requested group does not exist.' };
  const LAST_ADMIN = {
    error: 'ERROR_GROUP_USER_IS_LAST_ADMIN',
    detail: 'The related user is the last admin in the group. They must delete the group or give someone else admin permissions.',
  };
  const needs = (operation: string) => ({ error: 'ERROR_USER_INVALID_GROUP_PERMISSIONS', detail: `You need ${operation} permissions.` });

  const list = async (user: SignedUp) => (await t.request('GET', '/api/workspaces/', { token: user.token })).body as any[];
  const create = async (user: SignedUp, name: string) => {
    const res = await t.request('POST', '/api/workspaces/', { token: user.token, body: { name } });
    expect(res.status).toBe(200);
    return res.body as { id: number; name: string };
  };

  /** Invites `member` into `workspaceId` with `role` and accepts; answers the membership id. */
  async function join(admin: SignedUp, member: SignedUp, workspaceId: number, role: 'ADMIN' | 'MEMBER' = 'MEMBER'): Promise<number> {
    const invite = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: admin.token,
      body: { email: member.email, permissions: role, message: '', base_url: 'http://localhost:8000/invite' },
    });
    expect(invite.status).toBe(200);
    const accepted = await t.request('POST', `/api/workspaces/invitations/${invite.body.id}/accept/`, { token: member.token });
    expect(accepted.status).toBe(200);
    return accepted.body.users.find((u: { user_id: number }) => u.user_id === member.id).id;
  }

  describe('list', () => {
    it('answers the example workspace with exactly the item keys', async () => {
      const user = await signUp(t, 'Ada');
      const res = await t.request('GET', '/api/workspaces/', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      const [item] = res.body;
      expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS].sort());
      expect(item).toMatchObject({ name: "Ada's workspace", permissions: 'ADMIN', unread_notifications_count: 0, generative_ai_models_enabled: {} });
      expect(typeof item.order).toBe('number');
      expect(item.users).toHaveLength(1);
      expect(Object.keys(item.users[0]).sort()).toEqual([...USER_KEYS].sort());
      expect(item.users[0]).toMatchObject({ name: 'Ada', email: user.email, workspace: item.id, permissions: 'ADMIN', user_id: user.id, to_be_deleted: false });
      expect(item.users[0].created_on).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    });

    it('lists only the caller’s workspaces, each with all its members', async () => {
      const a = await signUp(t, 'Alice');
      const b = await signUp(t, 'Bob');
      const shared = await create(a, 'Shared');
      await join(a, b, shared.id);
      const bobs = await list(b);
      expect(bobs.map((w) => w.name)).toEqual(["Bob's workspace", 'Shared']);
      const sharedItem = bobs.find((w) => w.id === shared.id);
      expect(sharedItem.permissions).toBe('MEMBER');
      expect(sharedItem.users.map((u: { email: string; permissions: string }) => [u.email, u.permissions])).toEqual([
        [a.email, 'ADMIN'],
        [b.email, 'MEMBER'],
      ]);
      expect((await list(a)).map((w) => w.name)).toEqual(["Alice's workspace", 'Shared']);
    });
  });

  describe('create', () => {
    it('answers 200 with the item, without unread_notifications_count, caller ADMIN, last in order', async () => {
      const user = await signUp(t);
      const res = await t.request('POST', '/api/workspaces/', { token: user.token, body: { name: '  Team  ' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(ITEM_KEYS.filter((k) => k !== 'unread_notifications_count').sort());
      expect(res.body).toMatchObject({ name: 'Team', permissions: 'ADMIN', generative_ai_models_enabled: {} });
      expect(res.body.users).toHaveLength(1);
      expect(res.body.users[0]).toMatchObject({ user_id: user.id, permissions: 'ADMIN', workspace: res.body.id });
      const workspaces = await list(user);
      expect(workspaces.map((w) => w.id)).toEqual([workspaces[0].id, res.body.id]);
      expect(workspaces[1].order).toBeGreaterThan(workspaces[0].order);
      expect(res.body.order).toBe(workspaces[1].order);
      // No content is seeded.
      const apps = await t.request('GET', `/api/applications/workspace/${res.body.id}/`, { token: user.token });
      expect(apps.body).toEqual([]);
    });

    it('rejects missing, blank, null, wrong-typed and too long names and creates nothing', async () => {
      const user = await signUp(t);
      const cases: [unknown, string, string][] = [
        [{}, 'This field is required.', 'required'],
        [{ name: '' }, 'This field may not be blank.', 'blank'],
        [{ name: '   ' }, 'This field may not be blank.', 'blank'],
        [{ name: null }, 'This field may not be null.', 'null'],
        [{ name: { a: 1 } }, 'Not a valid string.', 'invalid'],
        [{ name: ['x'] }, 'Not a valid string.', 'invalid'],
        [{ name: true }, 'Not a valid string.', 'invalid'],
        [{ name: 'x'.repeat(166) }, 'Ensure this field has no more than 165 characters.', 'max_length'],
      ];
      for (const [body, error, code] of cases) {
        const res = await t.request('POST', '/api/workspaces/', { token: user.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { name: [{ error, code }] } });
      }
      expect(await list(user)).toHaveLength(1);
    });

    it('accepts a 165-character name and ignores extra keys', async () => {
      const user = await signUp(t);
      const res = await t.request('POST', '/api/workspaces/', { token: user.token, body: { name: 'x'.repeat(165), id: 999999, permissions: 'MEMBER' } });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('x'.repeat(165));
      expect(res.body.id).not.toBe(999999);
      expect(res.body.permissions).toBe('ADMIN');
    });

    it('requires authentication', async () => {
      const res = await t.request('POST', '/api/workspaces/', { body: { name: 'x' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    });
  });

  describe('update', () => {
    it('renames for an ADMIN and answers {id, name, generative_ai_models_enabled}', async () => {
      const user = await signUp(t);
      const ws = await create(user, 'Old');
      const res = await t.request('PATCH', `/api/workspaces/${ws.id}/`, { token: user.token, body: { name: 'New', users: [] } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: ws.id, name: 'New', generative_ai_models_enabled: {} });
      expect((await list(user)).find((w) => w.id === ws.id).name).toBe('New');
    });

    it('answers a MEMBER with ERROR_USER_INVALID_GROUP_PERMISSIONS and a stranger with ERROR_USER_NOT_IN_GROUP', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const stranger = await signUp(t);
      const ws = await create(admin, 'Keep');
      await join(admin, member, ws.id);
      const asMember = await t.request('PATCH', `/api/workspaces/${ws.id}/`, { token: member.token, body: { name: 'Hacked' } });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace.update'));
      const asStranger = await t.request('PATCH', `/api/workspaces/${ws.id}/`, { token: stranger.token, body: { name: 'Hacked' } });
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('PATCH', '/api/workspaces/99999/', { token: admin.token, body: { name: 'x' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(DOES_NOT_EXIST);
      expect((await list(admin)).find((w) => w.id === ws.id).name).toBe('Keep');
    });

    it('validates the body before anything else and changes nothing', async () => {
      const user = await signUp(t);
      const ws = await create(user, 'Same');
      for (const body of [{}, { name: '' }, { name: 'y'.repeat(166) }, { name: [] }]) {
        const res = await t.request('PATCH', `/api/workspaces/${ws.id}/`, { token: user.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
        expect(Object.keys(res.body.detail)).toEqual(['name']);
      }
      expect((await list(user)).find((w) => w.id === ws.id).name).toBe('Same');
    });
  });

  describe('delete', () => {
    it('trashes the workspace: 204, then it behaves as not existing', async () => {
      const user = await signUp(t);
      const ws = await create(user, 'Doomed');
      const app = await t.request('POST', `/api/applications/workspace/${ws.id}/`, { token: user.token, body: { name: 'DB', type: 'database' } });
      expect(app.status).toBe(200);
      const res = await t.request('DELETE', `/api/workspaces/${ws.id}/`, { token: user.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await list(user)).map((w) => w.id)).not.toContain(ws.id);
      for (const [method, path, body] of [
        ['DELETE', `/api/workspaces/${ws.id}/`, undefined],
        ['PATCH', `/api/workspaces/${ws.id}/`, { name: 'x' }],
        ['POST', `/api/workspaces/${ws.id}/leave/`, undefined],
        ['GET', `/api/workspaces/${ws.id}/permissions/`, undefined],
        ['GET', `/api/workspaces/users/workspace/${ws.id}/`, undefined],
        ['GET', `/api/applications/workspace/${ws.id}/`, undefined],
      ] as const) {
        const again = await t.request(method, path, { token: user.token, body });
        expect(again.status).toBe(404);
        expect(again.body).toEqual(DOES_NOT_EXIST);
      }
      const gone = await t.request('GET', `/api/applications/${app.body.id}/`, { token: user.token });
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe('ERROR_APPLICATION_DOES_NOT_EXIST');
      const all = await t.request('GET', '/api/applications/', { token: user.token });
      expect(all.body.map((a: { id: number }) => a.id)).not.toContain(app.body.id);
    });

    it('is ADMIN only; strangers and unknown ids get their codes and nothing is deleted', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const stranger = await signUp(t);
      const ws = await create(admin, 'Stays');
      await join(admin, member, ws.id);
      const asMember = await t.request('DELETE', `/api/workspaces/${ws.id}/`, { token: member.token });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace.delete'));
      const asStranger = await t.request('DELETE', `/api/workspaces/${ws.id}/`, { token: stranger.token });
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('DELETE', '/api/workspaces/987654/', { token: admin.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(DOES_NOT_EXIST);
      expect((await list(admin)).map((w) => w.id)).toContain(ws.id);
    });
  });

  describe('order', () => {
    it('sets the caller’s own order; other users keep theirs; foreign and unknown ids are ignored', async () => {
      const a = await signUp(t);
      const b = await signUp(t);
      const [home] = await list(a);
      const w1 = await create(a, 'One');
      const w2 = await create(a, 'Two');
      await join(a, b, w1.id);
      await join(a, b, w2.id);
      const bHome = (await list(b))[0];
      const res = await t.request('POST', '/api/workspaces/order/', { token: a.token, body: { workspaces: [w2.id, bHome.id, 999999, w1.id, home.id] } });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const mine = await list(a);
      expect(mine.map((w) => w.id)).toEqual([w2.id, w1.id, home.id]);
      expect(mine.map((w) => w.order)).toEqual([1, 4, 5]);
      // B's own order is untouched and B's workspace did not move into A's list.
      expect((await list(b)).map((w) => w.id)).toEqual([bHome.id, w1.id, w2.id]);
    });

    it('accepts an empty list and rejects bad bodies', async () => {
      const user = await signUp(t);
      const before = await list(user);
      const empty = await t.request('POST', '/api/workspaces/order/', { token: user.token, body: { workspaces: [] } });
      expect(empty.status).toBe(204);
      const missing = await t.request('POST', '/api/workspaces/order/', { token: user.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { workspaces: [{ error: 'This field is required.', code: 'required' }] } });
      const notList = await t.request('POST', '/api/workspaces/order/', { token: user.token, body: { workspaces: 5 } });
      expect(notList.status).toBe(400);
      expect(notList.body.detail).toEqual({ workspaces: [{ error: 'Expected a list of items but got type "int".', code: 'not_a_list' }] });
      const badItem = await t.request('POST', '/api/workspaces/order/', { token: user.token, body: { workspaces: [before[0].id, null] } });
      expect(badItem.status).toBe(400);
      expect(badItem.body.detail).toEqual({ workspaces: { '1': [{ error: 'This field may not be null.', code: 'null' }] } });
      expect(await list(user)).toEqual(before);
    });
  });

  describe('leave', () => {
    it('lets a member leave (204) and refuses the last admin', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const ws = await create(admin, 'Club');
      await join(admin, member, ws.id);
      const last = await t.request('POST', `/api/workspaces/${ws.id}/leave/`, { token: admin.token });
      expect(last.status).toBe(400);
      expect(last.body).toEqual(LAST_ADMIN);
      const left = await t.request('POST', `/api/workspaces/${ws.id}/leave/`, { token: member.token });
      expect(left.status).toBe(204);
      expect((await list(member)).map((w) => w.id)).not.toContain(ws.id);
      expect((await list(admin)).find((w) => w.id === ws.id).users).toHaveLength(1);
      const again = await t.request('POST', `/api/workspaces/${ws.id}/leave/`, { token: member.token });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('POST', '/api/workspaces/424242/leave/', { token: member.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(DOES_NOT_EXIST);
    });

    it('lets an admin leave when another admin remains', async () => {
      const a = await signUp(t);
      const b = await signUp(t);
      const ws = await create(a, 'Two admins');
      await join(a, b, ws.id, 'ADMIN');
      const res = await t.request('POST', `/api/workspaces/${ws.id}/leave/`, { token: a.token });
      expect(res.status).toBe(204);
      const item = (await list(b)).find((w) => w.id === ws.id);
      expect(item.users.map((u: { user_id: number }) => u.user_id)).toEqual([b.id]);
    });
  });

  describe('permissions endpoint', () => {
    it('answers the permission managers in Baserow’s order and shape', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const ws = await create(admin, 'Perms');
      await join(admin, member, ws.id);
      const res = await t.request('GET', `/api/workspaces/${ws.id}/permissions/`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.map((p: { name: string }) => p.name)).toEqual(['core', 'setting_operation', 'staff', 'allow_if_template', 'basic']);
      for (const entry of res.body) expect(Object.keys(entry)).toEqual(['name', 'permissions']);
      const byName = Object.fromEntries(res.body.map((p: { name: string; permissions: unknown }) => [p.name, p.permissions]));
      expect(byName.core).toEqual(['list_workspaces']);
      expect(byName.setting_operation).toEqual({ staff_only_operations: [], always_allowed_operations: ['create_workspace'] });
      expect(byName.staff).toEqual({ staff_only_operations: ['settings.update'], is_staff: expect.any(Boolean) });
      expect(Object.keys(byName.allow_if_template).sort()).toEqual(['allowed_operations_on_templates', 'workspace_template_ids']);
      expect(byName.allow_if_template.workspace_template_ids).toEqual([]);
      expect(byName.allow_if_template.allowed_operations_on_templates).toContain('workspace.read');
      expect(Object.keys(byName.basic).sort()).toEqual(['admin_only_operations', 'is_admin']);
      expect(byName.basic.is_admin).toBe(true);
      expect(byName.basic.admin_only_operations).toEqual(
        expect.arrayContaining(['workspace.update', 'workspace.delete', 'workspace.list_workspace_users', 'workspace.create_invitation', 'workspace_user.update']),
      );
      const asMember = await t.request('GET', `/api/workspaces/${ws.id}/permissions/`, { token: member.token });
      expect(asMember.status).toBe(200);
      expect(asMember.body.find((p: { name: string }) => p.name === 'basic').permissions.is_admin).toBe(false);
    });

    it('answers a stranger ERROR_USER_NOT_IN_GROUP and an unknown workspace 404', async () => {
      const admin = await signUp(t);
      const stranger = await signUp(t);
      const [ws] = await list(admin);
      const res = await t.request('GET', `/api/workspaces/${ws.id}/permissions/`, { token: stranger.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('GET', '/api/workspaces/777777/permissions/', { token: stranger.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(DOES_NOT_EXIST);
    });
  });

  describe('create-initial-workspace', () => {
    it('creates "{name}\'s workspace" with the database "{name}\'s company"', async () => {
      const user = await signUp(t, 'Grace');
      const res = await t.request('POST', '/api/workspaces/create-initial-workspace/', { token: user.token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(ITEM_KEYS.filter((k) => k !== 'unread_notifications_count').sort());
      expect(res.body).toMatchObject({ name: "Grace's workspace", permissions: 'ADMIN' });
      const apps = await t.request('GET', `/api/applications/workspace/${res.body.id}/`, { token: user.token });
      expect(apps.body.map((a: { name: string; type: string }) => [a.name, a.type])).toEqual([["Grace's company", 'database']]);
      expect(await list(user)).toHaveLength(2);
    });
  });

  describe('members', () => {
    async function team() {
      const admin = await signUp(t, 'Zoe');
      const m1 = await signUp(t, 'Anna');
      const m2 = await signUp(t, 'Mike');
      const ws = await create(admin, 'Team');
      const m1Id = await join(admin, m1, ws.id);
      const m2Id = await join(admin, m2, ws.id);
      return { admin, m1, m2, ws, m1Id, m2Id };
    }
    const members = (user: SignedUp, wsId: number, query = '') => t.request('GET', `/api/workspaces/users/workspace/${wsId}/${query}`, { token: user.token });

    it('lists members for an ADMIN with the WorkspaceUser keys', async () => {
      const { admin, m1, m2, ws } = await team();
      const res = await members(admin, ws.id);
      expect(res.status).toBe(200);
      expect(res.body.map((u: { email: string }) => u.email)).toEqual([admin.email, m1.email, m2.email]);
      // Baserow enterprise's member data (role_uid, highest_role_uid) is added to the members list.
      for (const u of res.body) expect(Object.keys(u).sort()).toEqual([...USER_KEYS, 'role_uid', 'highest_role_uid', 'teams'].sort());
      expect(res.body[1]).toMatchObject({ name: 'Anna', email: m1.email, workspace: ws.id, permissions: 'MEMBER', user_id: m1.id, to_be_deleted: false });
    });

    it('is ADMIN only', async () => {
      const { m1, ws } = await team();
      const stranger = await signUp(t);
      const asMember = await members(m1, ws.id);
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace.list_workspace_users'));
      const asStranger = await members(stranger, ws.id);
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await members(m1, 555555);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(DOES_NOT_EXIST);
    });

    it('searches by e-mail and sorts by +name / -email / role', async () => {
      const { admin, m1, m2, ws } = await team();
      const search = await members(admin, ws.id, `?search=${encodeURIComponent(m2.email.toUpperCase())}`);
      expect(search.status).toBe(200);
      expect(search.body.map((u: { email: string }) => u.email)).toEqual([m2.email]);
      const none = await members(admin, ws.id, '?search=nobody-matches-this');
      expect(none.body).toEqual([]);
      const byName = await members(admin, ws.id, '?sorts=%2Bname');
      expect(byName.body.map((u: { name: string }) => u.name)).toEqual(['Anna', 'Mike', 'Zoe']);
      const byNameDesc = await members(admin, ws.id, '?sorts=-name');
      expect(byNameDesc.body.map((u: { name: string }) => u.name)).toEqual(['Zoe', 'Mike', 'Anna']);
      const byEmailDesc = await members(admin, ws.id, '?sorts=-email');
      const emails = [admin.email, m1.email, m2.email].sort().reverse();
      expect(byEmailDesc.body.map((u: { email: string }) => u.email)).toEqual(emails);
      const byRole = await members(admin, ws.id, '?sorts=%2Brole_uid,-name');
      expect(byRole.body.map((u: { name: string }) => u.name)).toEqual(['Zoe', 'Mike', 'Anna']);
    });

    it('rejects bad sorts with Baserow’s codes and messages', async () => {
      const { admin, ws } = await team();
      const direction = { error: 'ERROR_INVALID_SORT_DIRECTION', detail: "Attributes to sort by must be prefixed with one of '-' or '+'." };
      const attribute = { error: 'ERROR_INVALID_SORT_ATTRIBUTE', detail: 'Invalid attribute name provided to sort by.' };
      for (const [sorts, expected] of [
        ['name', direction],
        ['*name', direction],
        ['%2Bpassword', attribute],
        ['-id', attribute],
        ['%2Bname,-name', attribute],
        ['%2Bname,', attribute],
      ] as const) {
        const res = await members(admin, ws.id, `?sorts=${sorts}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(expected);
      }
    });

    it('changes a role (ADMIN only) and answers the WorkspaceUser', async () => {
      const { admin, m1, m2, ws, m1Id } = await team();
      const res = await t.request('PATCH', `/api/workspaces/users/${m1Id}/`, { token: admin.token, body: { permissions: 'ADMIN' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...USER_KEYS].sort());
      expect(res.body).toMatchObject({ id: m1Id, email: m1.email, permissions: 'ADMIN', workspace: ws.id, user_id: m1.id });
      expect((await list(m1)).find((w) => w.id === ws.id).permissions).toBe('ADMIN');
      const asMember = await t.request('PATCH', `/api/workspaces/users/${m1Id}/`, { token: m2.token, body: { permissions: 'MEMBER' } });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace_user.update'));
      const stranger = await signUp(t);
      const asStranger = await t.request('PATCH', `/api/workspaces/users/${m1Id}/`, { token: stranger.token, body: { permissions: 'MEMBER' } });
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      expect((await list(m1)).find((w) => w.id === ws.id).permissions).toBe('ADMIN');
    });

    it('rejects bad role bodies and unknown members', async () => {
      const { admin, m1Id } = await team();
      for (const [body, error, code] of [
        [{}, 'This field is required.', 'required'],
        [{ permissions: 'OWNER' }, '"OWNER" is not a valid choice.', 'invalid_choice'],
        [{ permissions: 'admin' }, '"admin" is not a valid choice.', 'invalid_choice'],
        [{ permissions: null }, 'This field may not be null.', 'null'],
      ] as const) {
        const res = await t.request('PATCH', `/api/workspaces/users/${m1Id}/`, { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { permissions: [{ error, code }] } });
      }
      const missing = await t.request('PATCH', '/api/workspaces/users/999999/', { token: admin.token, body: { permissions: 'ADMIN' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'ERROR_GROUP_USER_DOES_NOT_EXIST', detail: 'The requested group user does not exist.' });
    });

    it('never demotes the last admin', async () => {
      const { admin, ws } = await team();
      const ownId = (await members(admin, ws.id)).body.find((u: { user_id: number }) => u.user_id === admin.id).id;
      const res = await t.request('PATCH', `/api/workspaces/users/${ownId}/`, { token: admin.token, body: { permissions: 'MEMBER' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(LAST_ADMIN);
      const same = await t.request('PATCH', `/api/workspaces/users/${ownId}/`, { token: admin.token, body: { permissions: 'ADMIN' } });
      expect(same.status).toBe(200);
      expect((await list(admin)).find((w) => w.id === ws.id).permissions).toBe('ADMIN');
    });

    it('removes a member (204), never oneself', async () => {
      const { admin, m1, m2, ws, m1Id, m2Id } = await team();
      const ownId = (await members(admin, ws.id)).body.find((u: { user_id: number }) => u.user_id === admin.id).id;
      const self = await t.request('DELETE', `/api/workspaces/users/${ownId}/`, { token: admin.token });
      expect(self.status).toBe(400);
      expect(self.body).toEqual({
        error: 'ERROR_CANNOT_DELETE_YOURSELF_FROM_GROUP',
        detail: 'You cannot delete yourself from the group. Use the leave group endpoint for that.',
      });
      const asMember = await t.request('DELETE', `/api/workspaces/users/${m1Id}/`, { token: m2.token });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace_user.delete'));
      const res = await t.request('DELETE', `/api/workspaces/users/${m1Id}/`, { token: admin.token });
      expect(res.status).toBe(204);
      expect((await list(m1)).map((w) => w.id)).not.toContain(ws.id);
      expect((await members(admin, ws.id)).body.map((u: { id: number }) => u.id)).toEqual([ownId, m2Id]);
      const again = await t.request('DELETE', `/api/workspaces/users/${m1Id}/`, { token: admin.token });
      expect(again.status).toBe(404);
      expect(again.body.error).toBe('ERROR_GROUP_USER_DOES_NOT_EXIST');
      // The removed member can no longer act in the workspace.
      const denied = await t.request('GET', `/api/applications/workspace/${ws.id}/`, { token: m1.token });
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(NOT_IN_GROUP);
    });

    it('lets an admin remove another admin', async () => {
      const { admin, m1, ws, m1Id } = await team();
      await t.request('PATCH', `/api/workspaces/users/${m1Id}/`, { token: admin.token, body: { permissions: 'ADMIN' } });
      const res = await t.request('DELETE', `/api/workspaces/users/${m1Id}/`, { token: admin.token });
      expect(res.status).toBe(204);
      expect((await list(m1)).map((w) => w.id)).not.toContain(ws.id);
    });
  });
});
