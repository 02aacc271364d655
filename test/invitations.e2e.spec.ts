import { Mailer } from '../src/core/mail/mailer';
import { InvitationsService } from '../src/workspaces/invitations.service';
import { WorkspaceRepository } from '../src/workspaces/workspace.repository';
import { signUp, SignedUp, startApp, TestApp } from './support/app';

/** Workspace invitations (baserow-rest.md §3.2). */
describe('Workspace invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const BASE_URL = 'http://localhost:8000/workspace-invitation';
  const INVITATION_KEYS = ['id', 'workspace', 'email', 'permissions', 'message', 'created_on'];
  const NOT_IN_GROUP = { error: 'ERROR_USER_NOT_IN_GROUP', detail: '' };
  const INVITATION_MISSING = { error: 'ERROR_GROUP_INVITATION_DOES_NOT_EXIST', detail: 'The requested group invitation does not exist.' };
  const MISMATCH = { error: 'ERROR_GROUP_INVITATION_EMAIL_MISMATCH', detail: 'Your email address does not match with the invitation.' };
  const needs = (operation: string) => ({ error: 'ERROR_USER_INVALID_GROUP_PERMISSIONS', detail: `You need ${operation} permissions.` });

  async function workspaceOf(user: SignedUp, name = 'Invite team'): Promise<number> {
    const res = await t.request('POST', '/api/workspaces/', { token: user.token, body: { name } });
    return res.body.id;
  }
  const invite = (admin: SignedUp, workspaceId: number, body: Record<string, unknown>) =>
    t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: admin.token,
      body: { permissions: 'MEMBER', message: '', base_url: BASE_URL, ...body },
    });
  const listInvitations = (user: SignedUp, workspaceId: number, query = '') =>
    t.request('GET', `/api/workspaces/invitations/workspace/${workspaceId}/${query}`, { token: user.token });

  describe('create', () => {
    it('creates an invitation (200), normalises the e-mail and mails a link with a token that resolves', async () => {
      const admin = await signUp(t, 'Iris');
      const ws = await workspaceOf(admin, 'Mail team');
      const send = jest.spyOn(t.app.get(Mailer), 'send');
      const res = await invite(admin, ws, { email: '  New.Person@Example.COM ', permissions: 'ADMIN', message: 'Welcome!' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...INVITATION_KEYS].sort());
      expect(res.body).toMatchObject({ workspace: ws, email: 'new.person@example.com', permissions: 'ADMIN', message: 'Welcome!' });
      expect(res.body.created_on).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(send).toHaveBeenCalledTimes(1);
      const mail = send.mock.calls[0][0];
      expect(mail.to).toBe('new.person@example.com');
      const link = mail.text.match(/http:\/\/localhost:8000\/workspace-invitation\/(\S+)/);
      expect(link).not.toBeNull();
      const byToken = await t.request('GET', `/api/workspaces/invitations/token/${link![1]}/`);
      expect(byToken.status).toBe(200);
      expect(byToken.body).toEqual({
        id: res.body.id,
        invited_by: 'Iris',
        workspace: 'Mail team',
        email: 'new.person@example.com',
        message: 'Welcome!',
        created_on: res.body.created_on,
        email_exists: false,
      });
    });

    it('updates the pending invitation when the same address is invited again', async () => {
      const admin = await signUp(t);
      const ws = await workspaceOf(admin);
      const first = await invite(admin, ws, { email: 'again@example.com', message: 'one' });
      const second = await invite(admin, ws, { email: 'AGAIN@example.com', permissions: 'ADMIN', message: 'two' });
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(first.body.id);
      const listed = await listInvitations(admin, ws);
      expect(listed.body).toEqual([{ ...first.body, permissions: 'ADMIN', message: 'two' }]);
    });

    it('refuses to invite an existing member', async () => {
      const admin = await signUp(t);
      const ws = await workspaceOf(admin);
      const res = await invite(admin, ws, { email: admin.email.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'ERROR_GROUP_USER_ALREADY_EXISTS', detail: 'The user is already a member of the group.' });
      // The membership check comes before the link's host check, as in Baserow.
      const badHost = await invite(admin, ws, { email: admin.email, base_url: 'https://elsewhere.example.com/' });
      expect(badHost.body.error).toBe('ERROR_GROUP_USER_ALREADY_EXISTS');
      expect((await listInvitations(admin, ws)).body).toEqual([]);
    });

    it('refuses a base_url whose host is not PUBLIC_URL’s and sends nothing', async () => {
      const admin = await signUp(t);
      const ws = await workspaceOf(admin);
      const send = jest.spyOn(t.app.get(Mailer), 'send');
      for (const base_url of ['https://evil.example.com/invite', 'not a url', 'http://localhost.evil.com/']) {
        const res = await invite(admin, ws, { email: 'host@example.com', base_url });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'ERROR_HOSTNAME_IS_NOT_ALLOWED', detail: 'Only the hostname of the web frontend is allowed.' });
      }
      // Another port or scheme on the same host is allowed, as Baserow compares host names.
      const otherPort = await invite(admin, ws, { email: 'host@example.com', base_url: 'https://localhost:3000/invite' });
      expect(otherPort.status).toBe(200);
      expect(send).toHaveBeenCalledTimes(1);
      expect((await listInvitations(admin, ws)).body.map((i: { email: string }) => i.email)).toEqual(['host@example.com']);
    });

    it('validates the body', async () => {
      const admin = await signUp(t);
      const ws = await workspaceOf(admin);
      const missing = await t.request('POST', `/api/workspaces/invitations/workspace/${ws}/`, { token: admin.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        error: 'ERROR_REQUEST_BODY_VALIDATION',
        detail: {
          email: [{ error: 'This field is required.', code: 'required' }],
          permissions: [{ error: 'This field is required.', code: 'required' }],
          base_url: [{ error: 'This field is required.', code: 'required' }],
        },
      });
      for (const [body, key, code] of [
        [{ email: 'not-an-email' }, 'email', 'invalid'],
        [{ email: 42 }, 'email', 'invalid'],
        [{ email: 'a@example.com', permissions: 'OWNER' }, 'permissions', 'invalid_choice'],
        [{ email: 'a@example.com', message: 'm'.repeat(251) }, 'message', 'max_length'],
        [{ email: 'a@example.com', base_url: ['x'] }, 'base_url', 'invalid'],
      ] as const) {
        const res = await invite(admin, ws, body);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
        expect(Object.keys(res.body.detail)).toEqual([key]);
        expect(res.body.detail[key][0].code).toBe(code);
      }
      expect((await listInvitations(admin, ws)).body).toEqual([]);
    });

    it('is ADMIN only; strangers and unknown workspaces get their codes', async () => {
      const admin = await signUp(t);
      const member = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = await invite(admin, ws, { email: member.email });
      await t.request('POST', `/api/workspaces/invitations/${inv.body.id}/accept/`, { token: member.token });
      const asMember = await invite(member, ws, { email: 'x@example.com' });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('workspace.create_invitation'));
      const asStranger = await invite(stranger, ws, { email: 'x@example.com' });
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await invite(admin, 313131, { email: 'x@example.com' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'ERROR_GROUP_DOES_NOT_EXIST', detail: 'The requested group does not exist.' });
      expect((await listInvitations(admin, ws)).body).toEqual([]);
    });
  });

  describe('list, get, update, delete', () => {
    async function setup() {
      const admin = await signUp(t);
      const member = await signUp(t);
      const stranger = await signUp(t);
      const ws = await workspaceOf(admin);
      const join = await invite(admin, ws, { email: member.email });
      await t.request('POST', `/api/workspaces/invitations/${join.body.id}/accept/`, { token: member.token });
      const a = (await invite(admin, ws, { email: 'b-zeta@example.com', message: 'hello there' })).body;
      const b = (await invite(admin, ws, { email: 'a-alpha@example.com', message: 'zzz', permissions: 'ADMIN' })).body;
      return { admin, member, stranger, ws, a, b };
    }

    it('lists pending invitations by id, with search and sorts', async () => {
      const { admin, ws, a, b } = await setup();
      const res = await listInvitations(admin, ws);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([a, b]);
      expect((await listInvitations(admin, ws, '?search=ALPHA')).body).toEqual([b]);
      expect((await listInvitations(admin, ws, '?search=there')).body).toEqual([a]);
      expect((await listInvitations(admin, ws, '?sorts=%2Bemail')).body).toEqual([b, a]);
      expect((await listInvitations(admin, ws, '?sorts=-message')).body).toEqual([b, a]);
      const bad = await listInvitations(admin, ws, '?sorts=%2Bpermissions');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'ERROR_INVALID_SORT_ATTRIBUTE', detail: 'Invalid attribute name provided to sort by.' });
      const direction = await listInvitations(admin, ws, '?sorts=email');
      expect(direction.status).toBe(400);
      expect(direction.body.error).toBe('ERROR_INVALID_SORT_DIRECTION');
    });

    it('lists for ADMINs only', async () => {
      const { member, stranger, ws } = await setup();
      expect((await listInvitations(member, ws)).body).toEqual(needs('workspace.list_invitations'));
      const asStranger = await listInvitations(stranger, ws);
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await listInvitations(stranger, 868686);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('ERROR_GROUP_DOES_NOT_EXIST');
    });

    it('gets one invitation (ADMIN only)', async () => {
      const { admin, member, stranger, a } = await setup();
      const res = await t.request('GET', `/api/workspaces/invitations/${a.id}/`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(a);
      const asMember = await t.request('GET', `/api/workspaces/invitations/${a.id}/`, { token: member.token });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('invitation.read'));
      const asStranger = await t.request('GET', `/api/workspaces/invitations/${a.id}/`, { token: stranger.token });
      expect(asStranger.status).toBe(400);
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('GET', '/api/workspaces/invitations/999999/', { token: admin.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(INVITATION_MISSING);
    });

    it('updates the role (ADMIN only) and validates the body', async () => {
      const { admin, member, stranger, a } = await setup();
      const res = await t.request('PATCH', `/api/workspaces/invitations/${a.id}/`, { token: admin.token, body: { permissions: 'ADMIN', email: 'changed@example.com' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...a, permissions: 'ADMIN' });
      const bad = await t.request('PATCH', `/api/workspaces/invitations/${a.id}/`, { token: admin.token, body: { permissions: 'ROOT' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { permissions: [{ error: '"ROOT" is not a valid choice.', code: 'invalid_choice' }] } });
      const asMember = await t.request('PATCH', `/api/workspaces/invitations/${a.id}/`, { token: member.token, body: { permissions: 'MEMBER' } });
      expect(asMember.body).toEqual(needs('invitation.update'));
      const asStranger = await t.request('PATCH', `/api/workspaces/invitations/${a.id}/`, { token: stranger.token, body: { permissions: 'MEMBER' } });
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const missing = await t.request('PATCH', '/api/workspaces/invitations/999999/', { token: admin.token, body: { permissions: 'MEMBER' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(INVITATION_MISSING);
      const after = await t.request('GET', `/api/workspaces/invitations/${a.id}/`, { token: admin.token });
      expect(after.body).toEqual({ ...a, permissions: 'ADMIN' });
    });

    it('deletes (204, ADMIN only)', async () => {
      const { admin, member, stranger, ws, a, b } = await setup();
      const asMember = await t.request('DELETE', `/api/workspaces/invitations/${a.id}/`, { token: member.token });
      expect(asMember.status).toBe(400);
      expect(asMember.body).toEqual(needs('invitation.delete'));
      const asStranger = await t.request('DELETE', `/api/workspaces/invitations/${a.id}/`, { token: stranger.token });
      expect(asStranger.body).toEqual(NOT_IN_GROUP);
      const res = await t.request('DELETE', `/api/workspaces/invitations/${a.id}/`, { token: admin.token });
      expect(res.status).toBe(204);
      expect((await listInvitations(admin, ws)).body).toEqual([b]);
      const again = await t.request('DELETE', `/api/workspaces/invitations/${a.id}/`, { token: admin.token });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(INVITATION_MISSING);
    });
  });

  describe('accept and reject', () => {
    it('accepts: joins with the invited role and answers the workspace item', async () => {
      const admin = await signUp(t, 'Host');
      const guest = await signUp(t, 'Guest');
      const ws = await workspaceOf(admin, 'Party');
      const inv = (await invite(admin, ws, { email: guest.email, permissions: 'ADMIN' })).body;
      const dashboard = await t.request('GET', '/api/user/dashboard/', { token: guest.token });
      expect(dashboard.body.workspace_invitations.map((i: { id: number }) => i.id)).toEqual([inv.id]);
      const res = await t.request('POST', `/api/workspaces/invitations/${inv.id}/accept/`, { token: guest.token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['generative_ai_models_enabled', 'id', 'name', 'order', 'permissions', 'users']);
      expect(res.body).toMatchObject({ id: ws, name: 'Party', permissions: 'ADMIN', generative_ai_models_enabled: {} });
      expect(res.body.users.map((u: { user_id: number; permissions: string }) => [u.user_id, u.permissions])).toEqual([
        [admin.id, 'ADMIN'],
        [guest.id, 'ADMIN'],
      ]);
      const mine = (await t.request('GET', '/api/workspaces/', { token: guest.token })).body;
      expect(mine.map((w: { id: number }) => w.id)).toEqual([mine[0].id, ws]);
      expect(res.body.order).toBe(mine[1].order);
      // The invitation is used up.
      expect((await listInvitations(admin, ws)).body).toEqual([]);
      const again = await t.request('POST', `/api/workspaces/invitations/${inv.id}/accept/`, { token: guest.token });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(INVITATION_MISSING);
    });

    it('accepting as an existing member gives the invited role', async () => {
      const admin = await signUp(t);
      const guest = await signUp(t);
      const ws = await workspaceOf(admin);
      const first = (await invite(admin, ws, { email: guest.email, permissions: 'ADMIN' })).body;
      await t.request('POST', `/api/workspaces/invitations/${first.id}/accept/`, { token: guest.token });
      // The API never invites a member; a stale invitation can only be planted directly.
      const repo = t.app.get(WorkspaceRepository);
      const stale = await repo.saveInvitation({ workspaceId: ws, invitedById: admin.id, email: guest.email, permissions: 'MEMBER', message: '', createdOn: new Date() });
      const res = await t.request('POST', `/api/workspaces/invitations/${stale.id}/accept/`, { token: guest.token });
      expect(res.status).toBe(200);
      expect(res.body.permissions).toBe('MEMBER');
      expect(res.body.users.filter((u: { user_id: number }) => u.user_id === guest.id)).toHaveLength(1);
    });

    it('refuses another user’s invitation, and 404s unknown ones', async () => {
      const admin = await signUp(t);
      const guest = await signUp(t);
      const other = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = (await invite(admin, ws, { email: guest.email })).body;
      for (const action of ['accept', 'reject']) {
        const res = await t.request('POST', `/api/workspaces/invitations/${inv.id}/${action}/`, { token: other.token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(MISMATCH);
        const missing = await t.request('POST', `/api/workspaces/invitations/999999/${action}/`, { token: guest.token });
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(INVITATION_MISSING);
      }
      expect((await listInvitations(admin, ws)).body.map((i: { id: number }) => i.id)).toEqual([inv.id]);
      const theirs = (await t.request('GET', '/api/workspaces/', { token: other.token })).body;
      expect(theirs.map((w: { id: number }) => w.id)).not.toContain(ws);
    });

    it('rejects: 204, the invitation is gone and nobody joined', async () => {
      const admin = await signUp(t);
      const guest = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = (await invite(admin, ws, { email: guest.email })).body;
      const res = await t.request('POST', `/api/workspaces/invitations/${inv.id}/reject/`, { token: guest.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await listInvitations(admin, ws)).body).toEqual([]);
      const mine = (await t.request('GET', '/api/workspaces/', { token: guest.token })).body;
      expect(mine.map((w: { id: number }) => w.id)).not.toContain(ws);
      const again = await t.request('POST', `/api/workspaces/invitations/${inv.id}/accept/`, { token: guest.token });
      expect(again.status).toBe(404);
    });

    it('treats invitations to a trashed workspace as not existing', async () => {
      const admin = await signUp(t);
      const guest = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = (await invite(admin, ws, { email: guest.email })).body;
      const token = t.app.get(InvitationsService).tokenOf((await t.app.get(WorkspaceRepository).findInvitation(inv.id))!);
      await t.request('DELETE', `/api/workspaces/${ws}/`, { token: admin.token });
      const accept = await t.request('POST', `/api/workspaces/invitations/${inv.id}/accept/`, { token: guest.token });
      expect(accept.status).toBe(404);
      expect(accept.body).toEqual(INVITATION_MISSING);
      const byToken = await t.request('GET', `/api/workspaces/invitations/token/${token}/`);
      expect(byToken.status).toBe(404);
      const dashboard = await t.request('GET', '/api/user/dashboard/', { token: guest.token });
      expect(dashboard.body.workspace_invitations).toEqual([]);
    });
  });

  describe('by token', () => {
    it('needs no authentication and says whether the e-mail has an account', async () => {
      const admin = await signUp(t, 'Boss');
      const guest = await signUp(t);
      const ws = await workspaceOf(admin, 'Token team');
      const inv = (await invite(admin, ws, { email: guest.email, message: 'hi' })).body;
      const token = t.app.get(InvitationsService).tokenOf((await t.app.get(WorkspaceRepository).findInvitation(inv.id))!);
      const res = await t.request('GET', `/api/workspaces/invitations/token/${token}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: inv.id,
        invited_by: 'Boss',
        workspace: 'Token team',
        email: guest.email,
        message: 'hi',
        created_on: inv.created_on,
        email_exists: true,
      });
    });

    it('answers 400 BAD_TOKEN_SIGNATURE for a bad token and 404 for a withdrawn invitation', async () => {
      const admin = await signUp(t);
      const ws = await workspaceOf(admin);
      const inv = (await invite(admin, ws, { email: 'gone@example.com' })).body;
      const token = t.app.get(InvitationsService).tokenOf((await t.app.get(WorkspaceRepository).findInvitation(inv.id))!);
      for (const bad of ['garbage', `${token}x`, token.split('.').slice(0, 2).join('.') + '.AAAA']) {
        const res = await t.request('GET', `/api/workspaces/invitations/token/${bad}/`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
      }
      await t.request('DELETE', `/api/workspaces/invitations/${inv.id}/`, { token: admin.token });
      const gone = await t.request('GET', `/api/workspaces/invitations/token/${token}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(INVITATION_MISSING);
    });
  });
});
