import { Mail, Mailer } from '../src/core/mail/mailer';
import { UserRepository } from '../src/users/user.repository';
import { UsersService } from '../src/users/users.service';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';

/**
 * The account deletion lifecycle end to end (baserow-rest.md §2.7, baserow-realtime.md §4.3):
 * scheduling sends `user_deleted`, signing in again within the grace period `user_restored`,
 * and the hourly job (run here with a later clock) deletes the account with the workspaces
 * left without an admin and sends `user_permanently_deleted`; each with its mail.
 */
let t: TestApp;
let staff: SignedUp;
let mails: Mail[];
const DAY = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY);

const open: WsClient[] = [];
async function socket(token: string | null): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

beforeAll(async () => {
  t = await startApp();
  mails = [];
  jest.spyOn(t.app.get(Mailer), 'send').mockImplementation(async (mail) => {
    mails.push(mail);
  });
  // The first account is the instance's staff; the suites' users come after it.
  staff = await signUp(t, 'Staff');
});
afterAll(async () => t?.close());

const api = (user: SignedUp, method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.request(method, path, { token: user.token, body, headers });
const signIn = (user: SignedUp, headers?: Record<string, string>) => t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password }, headers });
const ownWorkspace = async (user: SignedUp): Promise<number> => (await api(user, 'GET', '/api/workspaces/')).body[0].id;
const publicUser = (user: SignedUp) => ({ id: user.id, username: user.email, first_name: user.name });

/** Invites `member` into the workspace with the role and accepts. */
async function join(admin: SignedUp, workspaceId: number, member: SignedUp, permissions: 'ADMIN' | 'MEMBER' = 'MEMBER'): Promise<void> {
  const invitation = await api(admin, 'POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email: member.email, permissions, message: '', base_url: 'http://localhost:8000/invite' });
  expect(invitation.status).toBe(200);
  expect((await api(member, 'POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`)).status).toBe(200);
}

/**
 * Leaver is an admin of Owner's workspace (which keeps Owner as admin) and of a workspace of
 * its own shared with Nomad (a member: no admin remains there once Leaver is gone). Member is
 * in Owner's workspace; Outsider shares nothing with Leaver.
 */
async function cast() {
  const [leaver, owner, member, nomad, outsider] = [await signUp(t, 'Leaver'), await signUp(t, 'Owner'), await signUp(t, 'Member'), await signUp(t, 'Nomad'), await signUp(t, 'Outsider')];
  const kept = await ownWorkspace(owner);
  await join(owner, kept, leaver, 'ADMIN');
  await join(owner, kept, member);
  const shared = await ownWorkspace(leaver);
  await join(leaver, shared, nomad);
  const [l1, o1, m1, n1, x1, anon] = await Promise.all([socket(leaver.token), socket(owner.token), socket(member.token), socket(nomad.token), socket(outsider.token), socket(null)]);
  return { leaver, owner, member, nomad, outsider, kept, shared, l1, o1, m1, n1, x1, anon };
}

describe('who may schedule the deletion', () => {
  test('the last staff account is refused with ERROR_USER_IS_LAST_ADMIN; another staff account lifts it', async () => {
    const users = t.app.get(UserRepository);
    expect((await users.findById(staff.id))!.isStaff).toBe(true);
    const refused = await api(staff, 'POST', '/api/user/schedule-account-deletion/');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'ERROR_USER_IS_LAST_ADMIN', detail: '' });
    expect((await users.findById(staff.id))!.deletionScheduledAt).toBeNull();

    const second = await signUp(t, 'Second staff');
    await users.update(second.id, { isStaff: true });
    try {
      expect((await api(staff, 'POST', '/api/user/schedule-account-deletion/')).status).toBe(204);
      expect((await users.findById(staff.id))!.deletionScheduledAt).not.toBeNull();
      expect((await signIn(staff)).status).toBe(200);
      expect((await users.findById(staff.id))!.deletionScheduledAt).toBeNull();
    } finally {
      await users.update(second.id, { isStaff: false });
    }
  });

  test('the last admin of a workspace with other members may, as in Baserow', async () => {
    const admin = await signUp(t, 'Sole admin');
    const member = await signUp(t, 'Plain member');
    await join(admin, await ownWorkspace(admin), member);
    expect((await api(admin, 'POST', '/api/user/schedule-account-deletion/')).status).toBe(204);
    expect((await signIn(admin)).status).toBe(200);
  });
});

describe('the lifecycle and its messages', () => {
  test('user_deleted on scheduling, user_restored on signing in again: to the members of the user’s workspaces, origin included', async () => {
    const { leaver, owner, kept, l1, o1, m1, n1, x1, anon } = await cast();
    mails.length = 0;

    const scheduled = await api(leaver, 'POST', '/api/user/schedule-account-deletion/', undefined, l1.origin);
    expect(scheduled.status).toBe(204);
    for (const client of [l1, o1, m1, n1]) expect(await client.next()).toEqual({ type: 'user_deleted', user: publicUser(leaver) });
    await expectNone(l1, o1, m1, n1, x1, anon);
    expect(mails).toEqual([expect.objectContaining({ to: leaver.email, subject: 'Account deletion scheduled' })]);
    expect(mails[0].text).toContain('in 30 days');

    // While scheduled: flagged in member lists; no new socket and no refresh for the account.
    const members = (await api(owner, 'GET', `/api/workspaces/users/workspace/${kept}/`)).body;
    expect(members.find((m: { user_id: number }) => m.user_id === leaver.id).to_be_deleted).toBe(true);
    const refused = await connect(t, leaver.token);
    open.push(refused);
    expect(refused.authentication?.success).toBe(false);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: leaver.refresh } })).status).toBe(401);

    // Signing in again within the grace period restores the account.
    mails.length = 0;
    const login = await signIn(leaver, l1.origin);
    expect(login.status).toBe(200);
    for (const client of [l1, o1, m1, n1]) expect(await client.next()).toEqual({ type: 'user_restored', user: publicUser(leaver) });
    await expectNone(l1, o1, m1, n1, x1, anon);
    expect(mails).toEqual([expect.objectContaining({ to: leaver.email, subject: 'Account deletion cancelled' })]);
    const after = (await api(owner, 'GET', `/api/workspaces/users/workspace/${kept}/`)).body;
    expect(after.find((m: { user_id: number }) => m.user_id === leaver.id).to_be_deleted).toBe(false);

    // Signing in again is no restore: nothing is sent.
    expect((await signIn(leaver)).status).toBe(200);
    await expectNone(l1, o1, m1, n1, x1, anon);
    expect(await t.app.get(UsersService).deleteExpiredAccounts(inDays(400))).toBe(0);
    expect((await signIn(leaver)).status).toBe(200);
  });

  test('the job removes the account after the grace period and sends user_permanently_deleted to its former co-members', async () => {
    const { leaver, owner, member, nomad, kept, shared, l1, o1, m1, n1, x1, anon } = await cast();
    const own = shared;
    expect((await api(leaver, 'POST', '/api/user/schedule-account-deletion/')).status).toBe(204);
    await Promise.all([l1, o1, m1, n1].map((client) => client.waitFor('user_deleted')));
    const jobs = t.app.get(UsersService);

    // Inside the grace period (30 days by default): nothing happens.
    expect(await jobs.deleteExpiredAccounts(inDays(29))).toBe(0);
    await expectNone(l1, o1, m1, n1, x1, anon);

    mails.length = 0;
    expect(await jobs.deleteExpiredAccounts(inDays(31))).toBe(1);
    for (const client of [o1, m1]) expect(await client.next()).toEqual({ type: 'user_permanently_deleted', user_id: leaver.id });
    // The account's own sockets are told and closed.
    expect(await l1.next()).toEqual({ type: 'force_disconnect' });
    await l1.closed;
    // Nomad's only workspace with the leaver went with it, as in Baserow: nothing to tell there.
    await expectNone(o1, m1, n1, x1, anon);
    expect(mails).toEqual([expect.objectContaining({ to: leaver.email, subject: 'Account permanently deleted' })]);

    // The workspace that keeps an admin keeps its other members; the one left without an admin is gone.
    const members = (await api(owner, 'GET', `/api/workspaces/users/workspace/${kept}/`)).body;
    expect(members.map((m: { user_id: number }) => m.user_id).sort()).toEqual([owner.id, member.id].sort());
    expect((await api(nomad, 'GET', '/api/workspaces/')).body.map((w: { id: number }) => w.id)).toEqual([await ownWorkspace(nomad)]);
    expect((await api(nomad, 'GET', `/api/workspaces/${own}/permissions/`)).status).toBe(404);
    expect((await api(nomad, 'GET', '/api/applications/')).body.every((a: { workspace: { id: number } }) => a.workspace.id !== own)).toBe(true);

    // The account is gone: no sign-in, no token, no socket; the address is free again.
    expect((await signIn(leaver)).status).toBe(401);
    expect((await api(leaver, 'GET', '/api/workspaces/')).status).toBe(401);
    const gone = await connect(t, leaver.token);
    open.push(gone);
    expect(gone.authentication?.success).toBe(false);

    // A second run finds nothing to do and sends nothing.
    expect(await jobs.deleteExpiredAccounts(inDays(400))).toBe(0);
    await expectNone(o1, m1, n1, x1, anon);
    expect((await t.request('POST', '/api/user/', { body: { name: 'Back', email: leaver.email, password: 'password123' } })).status).toBe(200);
  });
});
