import { addMember, databaseOf, settleJob } from './support/fixtures';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';

/** Notifications (issue 22 item 5): endpoints, producers, real-time messages and unread counts. */

let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let workspaceId: number;
let databaseId: number;
let tableId: number;
let nameField: number;
const open: WsClient[] = [];

const NOTIFICATION_KEYS = ['id', 'type', 'sender', 'workspace', 'created_on', 'read', 'data'];

const api = (method: string, path: string, body?: unknown, token = owner.token, headers: Record<string, string> = {}) => t.request(method, path, { token, body, headers });

async function socket(user: SignedUp): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  return client;
}

function doc(text: string, ...mentions: SignedUp[]): Record<string, unknown> {
  const content: unknown[] = [{ type: 'text', text }];
  for (const user of mentions) content.push({ type: 'mention', attrs: { id: user.id, label: user.name } });
  return { type: 'doc', content: [{ type: 'paragraph', content }] };
}

async function list(user: SignedUp, workspace = workspaceId, query = ''): Promise<any> {
  const res = await api('GET', `/api/notifications/${workspace}/${query}`, undefined, user.token);
  expect(res.status).toBe(200);
  return res.body;
}

async function newRow(name = 'row'): Promise<number> {
  const res = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: name });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function unreadOf(user: SignedUp, workspace = workspaceId): Promise<number> {
  const res = await api('GET', '/api/workspaces/', undefined, user.token);
  return res.body.find((w: any) => w.id === workspace).unread_notifications_count;
}

beforeAll(async () => {
  t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  outsider = await signUp(t, 'Outsider');
  databaseId = await databaseOf(t, owner);
  workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
  await addMember(t, owner, member, workspaceId);
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Tasks' })).body.id;
  nameField = (await api('GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

describe('invitations', () => {
  it('notifies an existing invitee (user-level), then the inviter of the answer, with the invitation messages', async () => {
    const invitee = await signUp(t, 'Invitee');
    const inviteeWs = await socket(invitee);
    const ownerWs = await socket(owner);
    const invitation = await api('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email: invitee.email, permissions: 'MEMBER', message: 'hi', base_url: 'http://localhost:8000/invite' });
    expect(invitation.status).toBe(200);
    const updated = await inviteeWs.waitFor('workspace_invitation_updated_or_created');
    expect(updated.invitation).toMatchObject({ id: invitation.body.id, invited_by: 'Owner', email: invitee.email, message: 'hi', email_exists: true });
    const created = await inviteeWs.waitFor('notifications_created');
    expect(created.notifications).toHaveLength(1);
    const n = created.notifications[0];
    expect(Object.keys(n)).toEqual(NOTIFICATION_KEYS);
    expect(n).toMatchObject({
      type: 'workspace_invitation_created',
      sender: { id: owner.id, username: owner.email, first_name: 'Owner' },
      workspace: null,
      read: false,
      data: { invitation_id: invitation.body.id, invited_to_workspace_id: workspaceId, invited_to_workspace_name: expect.any(String) },
    });
    // User-level: in the sign-in answer's count, in any workspace's list of the invitee.
    const login = await api('POST', '/api/user/token-auth/', { email: invitee.email, password: invitee.password }, '');
    expect(login.body.user_notifications).toEqual({ unread_count: 1 });
    const refresh = await api('POST', '/api/user/token-refresh/', { refresh_token: invitee.refresh }, '');
    expect(refresh.body.user_notifications).toEqual({ unread_count: 1 });
    const inviteeWorkspace = (await api('GET', '/api/workspaces/', undefined, invitee.token)).body[0].id;
    expect((await list(invitee, inviteeWorkspace)).results.map((x: any) => x.id)).toEqual([n.id]);
    await expectNone(ownerWs);

    const accepted = await api('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, undefined, invitee.token, inviteeWs.origin);
    expect(accepted.status).toBe(200);
    expect(accepted.body).not.toHaveProperty('unread_notifications_count');
    expect((await inviteeWs.waitFor('workspace_invitation_accepted')).invitation).toMatchObject({ id: invitation.body.id });
    // The side effect reaches the answering socket too.
    const read = await inviteeWs.waitFor('notification_marked_as_read');
    expect(read.notification).toMatchObject({ id: n.id, read: true });
    const toOwner = await ownerWs.waitFor('notifications_created');
    expect(toOwner.notifications[0]).toMatchObject({
      type: 'workspace_invitation_accepted',
      sender: { id: invitee.id, first_name: 'Invitee' },
      workspace: { id: workspaceId },
      data: { invitation_id: invitation.body.id, invited_to_workspace_id: workspaceId },
    });
    expect((await api('POST', '/api/user/token-refresh/', { refresh_token: invitee.refresh }, '')).body.user_notifications).toEqual({ unread_count: 0 });
    expect(await unreadOf(owner)).toBeGreaterThanOrEqual(1);
  });

  it('notifies the inviter of a rejection', async () => {
    const invitee = await signUp(t, 'Rejecter');
    const ownerWs = await socket(owner);
    const inviteeWs = await socket(invitee);
    const invitation = await api('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email: invitee.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
    await inviteeWs.waitFor('notifications_created');
    expect((await api('POST', `/api/workspaces/invitations/${invitation.body.id}/reject/`, undefined, invitee.token)).status).toBe(204);
    expect((await inviteeWs.waitFor('workspace_invitation_rejected')).invitation).toMatchObject({ id: invitation.body.id });
    const toOwner = await ownerWs.waitFor('notifications_created');
    expect(toOwner.notifications[0]).toMatchObject({ type: 'workspace_invitation_rejected', sender: { id: invitee.id } });
  });
});

describe('row comments', () => {
  it('notifies mentioned members (row_comment_mention) and followers of the row (row_comment), not the author', async () => {
    const row = await newRow('Launch');
    const ownerWs = await socket(owner);
    const memberWs = await socket(member);
    const outsiderWs = await socket(outsider);
    // The member's first comment makes them follow the row; every socket of theirs hears of it.
    const first = await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc('first') }, member.token, memberWs.origin);
    expect(first.status).toBe(200);
    expect(await memberWs.waitFor('row_comments_notification_mode_updated')).toEqual({ type: 'row_comments_notification_mode_updated', table_id: tableId, row_id: row, mode: 'all' });
    // The owner mentions the member and the outsider (no member: nobody).
    const res = await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc('look ', member, outsider) }, owner.token, ownerWs.origin);
    expect(res.status).toBe(200);
    const mention = (await memberWs.waitFor('notifications_created')).notifications[0];
    expect(mention).toMatchObject({
      type: 'row_comment_mention',
      sender: { id: owner.id },
      workspace: { id: workspaceId },
      read: false,
      data: { database_id: databaseId, database_name: expect.any(String), table_id: tableId, table_name: 'Tasks', row_id: row, row_name: 'Launch', comment_id: res.body.id, message: doc('look ', member, outsider) },
    });
    // Mentioned: no second `row_comment` for the member.
    await expectNone(memberWs, outsiderWs);
    // Now the member comments without mention: the owner follows the row since their comment.
    await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc('reply') }, member.token);
    const comment = (await ownerWs.waitFor('notifications_created')).notifications[0];
    expect(comment).toMatchObject({ type: 'row_comment', sender: { id: member.id }, data: { row_id: row, row_name: 'Launch' } });
    await expectNone(memberWs, outsiderWs);
    // An edit notifies only new mentions.
    const edited = await api('PATCH', `/api/row_comments/${tableId}/comment/${res.body.id}/`, { message: doc('look again ', member) }, owner.token);
    expect(edited.status).toBe(200);
    await expectNone(memberWs);
  });
});

describe('endpoints', () => {
  let ids: number[];
  beforeAll(async () => {
    // Three notifications for the member in this workspace.
    const row = await newRow('Endpoints');
    for (const text of ['a', 'b', 'c']) await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc(text, member) });
    ids = (await list(member)).results.filter((n: any) => n.type === 'row_comment_mention').map((n: any) => n.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
  });

  it('lists newest first with limit/offset pagination', async () => {
    const all = await list(member);
    expect(Object.keys(all)).toEqual(['count', 'next', 'previous', 'results']);
    expect(all.results.map((n: any) => n.id)).toEqual([...all.results.map((n: any) => n.id)].sort((a, b) => b - a));
    const page = await list(member, workspaceId, '?limit=1&offset=1');
    expect(page.count).toBe(all.count);
    expect(page.results).toEqual([all.results[1]]);
    expect(page.next).toContain('limit=1&offset=2');
    expect(page.previous).toMatch(/limit=1$/);
    // Invalid values are the defaults (DRF), never an error.
    expect((await list(member, workspaceId, '?limit=abc&offset=-4')).results).toEqual(all.results);
  });

  it('marks one as read (its workspace in the path), telling the user\'s other sockets', async () => {
    const here = await socket(member);
    const other = await socket(member);
    const ownerWs = await socket(owner);
    const before = await unreadOf(member);
    const res = await api('PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, { read: true }, member.token, here.origin);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(NOTIFICATION_KEYS);
    expect(res.body).toMatchObject({ id: ids[0], read: true });
    expect(await other.waitFor('notification_marked_as_read')).toEqual({ type: 'notification_marked_as_read', notification: res.body });
    await expectNone(here, ownerWs);
    expect(await unreadOf(member)).toBe(before - 1);
    const unread = await api('PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, { read: false }, member.token);
    expect(unread.body.read).toBe(false);
  });

  it('refuses bad input with the spec errors', async () => {
    const other = (await api('GET', '/api/workspaces/', undefined, outsider.token)).body[0].id;
    const cases: [string, string, unknown, string, number, string][] = [
      ['PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, { read: 'maybe' }, member.token, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      ['PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, {}, member.token, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      ['PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, [1], member.token, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      // Another user's notification, in a workspace the caller is a member of.
      ['PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, { read: true }, owner.token, 404, 'ERROR_NOTIFICATION_DOES_NOT_EXIST'],
      ['PATCH', `/api/notifications/${workspaceId}/99999999/`, { read: true }, member.token, 404, 'ERROR_NOTIFICATION_DOES_NOT_EXIST'],
      ['GET', `/api/notifications/${other}/`, undefined, member.token, 400, 'ERROR_USER_NOT_IN_GROUP'],
      ['POST', `/api/notifications/${other}/mark-all-as-read/`, undefined, member.token, 400, 'ERROR_USER_NOT_IN_GROUP'],
      ['DELETE', `/api/notifications/${other}/`, undefined, member.token, 400, 'ERROR_USER_NOT_IN_GROUP'],
      ['PATCH', `/api/notifications/${other}/${ids[0]}/`, { read: true }, member.token, 400, 'ERROR_USER_NOT_IN_GROUP'],
      ['GET', '/api/notifications/99999999/', undefined, member.token, 404, 'ERROR_GROUP_DOES_NOT_EXIST'],
      ['DELETE', '/api/notifications/99999999/', undefined, member.token, 404, 'ERROR_GROUP_DOES_NOT_EXIST'],
    ];
    for (const [method, path, body, token, status, error] of cases) {
      const res = await api(method, path, body, token);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, status, error]);
    }
    // A notification of another workspace of the same user: 404 through this workspace (nothing leaked).
    const outsiderWs = (await api('GET', '/api/workspaces/', undefined, outsider.token)).body[0].id;
    await addMember(t, outsider, member, outsiderWs);
    const res = await api('PATCH', `/api/notifications/${outsiderWs}/${ids[0]}/`, { read: true }, member.token);
    expect([res.status, res.body.error]).toEqual([404, 'ERROR_NOTIFICATION_DOES_NOT_EXIST']);
    expect((await list(member, outsiderWs)).results.map((n: any) => n.id)).not.toContain(ids[0]);
  });

  it('marks all as read, then clears, telling the other sockets only', async () => {
    const here = await socket(member);
    const other = await socket(member);
    const ownerWs = await socket(owner);
    const ownerBefore = await list(owner);
    const marked = await api('POST', `/api/notifications/${workspaceId}/mark-all-as-read/`, undefined, member.token, here.origin);
    expect(marked.status).toBe(204);
    expect(await other.waitFor('all_notifications_marked_as_read')).toEqual({ type: 'all_notifications_marked_as_read' });
    await expectNone(here, ownerWs);
    expect((await list(member)).results.every((n: any) => n.read)).toBe(true);
    expect(await unreadOf(member)).toBe(0);
    // Only the caller's.
    expect(await list(owner)).toEqual(ownerBefore);
    const cleared = await api('DELETE', `/api/notifications/${workspaceId}/`, undefined, member.token, here.origin);
    expect(cleared.status).toBe(204);
    expect(await other.waitFor('all_notifications_cleared')).toEqual({ type: 'all_notifications_cleared' });
    await expectNone(here, ownerWs);
    expect(await list(member)).toEqual({ count: 0, next: null, previous: null, results: [] });
    const gone = await api('PATCH', `/api/notifications/${workspaceId}/${ids[0]}/`, { read: true }, member.token);
    expect(gone.status).toBe(404);
  });
});

describe('collaborators added to a row', () => {
  let fieldId: number;
  beforeAll(async () => {
    const res = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Assignees', type: 'multiple_collaborators' });
    expect(res.status).toBe(200);
    fieldId = res.body.id;
  });

  it('notifies the users newly added (grouped per user), on create and update, as the sender', async () => {
    const memberWs = await socket(member);
    const ownerWs = await socket(owner);
    const created = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: 'Ship it', [`field_${fieldId}`]: [{ id: member.id }] });
    expect(created.status).toBe(200);
    const message = await memberWs.waitFor('notifications_created');
    expect(message.notifications).toHaveLength(1);
    expect(message.notifications[0]).toMatchObject({
      type: 'collaborator_added_to_row',
      sender: { id: owner.id },
      workspace: { id: workspaceId },
      read: false,
      data: { database_id: databaseId, database_name: expect.any(String), table_id: tableId, table_name: 'Tasks', field_id: fieldId, field_name: 'Assignees', row_id: created.body.id, row_name: 'Ship it' },
    });
    await expectNone(ownerWs);
    // Only newly added users: the member stays, the owner is added.
    await api('PATCH', `/api/database/rows/table/${tableId}/${created.body.id}/`, { [`field_${fieldId}`]: [{ id: member.id }, { id: owner.id }] });
    expect((await ownerWs.waitFor('notifications_created')).notifications[0]).toMatchObject({ type: 'collaborator_added_to_row', data: { row_id: created.body.id } });
    await expectNone(memberWs);
  });

  it('tells a user of more than 20 at once to fetch them (notifications_fetch_required)', async () => {
    const memberWs = await socket(member);
    const items = Array.from({ length: 21 }, (_, i) => ({ [`field_${nameField}`]: `bulk ${i}`, [`field_${fieldId}`]: [{ id: member.id }] }));
    expect((await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items })).status).toBe(200);
    expect(await memberWs.waitFor('notifications_fetch_required')).toEqual({ type: 'notifications_fetch_required', notifications_added: [{ workspace_id: workspaceId, count: 21 }] });
    await expectNone(memberWs);
  });

  it('notifies nobody when the field says so, and nothing for a rolled-back write', async () => {
    const memberWs = await socket(member);
    expect((await api('PATCH', `/api/database/fields/${fieldId}/`, { notify_user_when_added: false })).status).toBe(200);
    await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${fieldId}`]: [{ id: member.id }] });
    await expectNone(memberWs);
    expect((await api('PATCH', `/api/database/fields/${fieldId}/`, { notify_user_when_added: true })).status).toBe(200);
    const before = (await list(member)).count;
    // A batch with one bad item writes nothing, notifies nobody.
    const bad = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{ [`field_${fieldId}`]: [{ id: member.id }] }, { [`field_${fieldId}`]: [{ id: outsider.id }] }] });
    expect(bad.status).toBe(400);
    await expectNone(memberWs);
    expect((await list(member)).count).toBe(before);
  });
});

describe('form submissions', () => {
  it('notifies the members who asked for it, with the submitted values; anonymous submitters are no sender', async () => {
    const form = await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Intake', type: 'form', public: true });
    expect(form.status).toBe(200);
    expect((await api('PATCH', `/api/database/views/${form.body.id}/`, { receive_notification_on_submit: true }, member.token)).status).toBe(200);
    await api('PATCH', `/api/database/views/${form.body.id}/field-options/`, { field_options: { [nameField]: { enabled: true, required: false } } });
    const memberWs = await socket(member);
    const ownerWs = await socket(owner);
    const submitted = await api('POST', `/api/database/views/form/${form.body.slug}/submit/`, { [`field_${nameField}`]: 'From the web' }, '');
    expect(submitted.status).toBe(200);
    const n = (await memberWs.waitFor('notifications_created')).notifications[0];
    expect(n).toMatchObject({
      type: 'form_submitted',
      sender: null,
      workspace: { id: workspaceId },
      data: { form_id: form.body.id, form_name: 'Intake', table_id: tableId, table_name: 'Tasks', database_id: databaseId, row_id: submitted.body.row_id, values: [['Name', 'From the web']] },
    });
    await expectNone(ownerWs);
    await api('POST', `/api/database/views/form/${form.body.slug}/submit/`, { [`field_${nameField}`]: 'Signed' }, owner.token);
    expect((await memberWs.waitFor('notifications_created')).notifications[0]).toMatchObject({ type: 'form_submitted', sender: { id: owner.id } });
  });
});

describe('broadcasts and workspace restores', () => {
  it('reaches every socket, counts as unread for everyone, and is read per user', async () => {
    const { NotificationsService } = await import('../src/notifications/notifications.service');
    const ownerWs = await socket(owner);
    const outsiderWs = await socket(outsider);
    const before = (await api('POST', '/api/user/token-refresh/', { refresh_token: outsider.refresh }, '')).body.user_notifications.unread_count;
    const created = await t.app.get(NotificationsService).broadcast('baserow_version_upgrade', { version: '1.35.3', release_notes_url: null });
    expect((await ownerWs.waitFor('notifications_created')).notifications).toEqual([created]);
    expect((await outsiderWs.waitFor('notifications_created')).notifications).toEqual([created]);
    expect((await api('POST', '/api/user/token-refresh/', { refresh_token: outsider.refresh }, '')).body.user_notifications.unread_count).toBe(before + 1);
    const outsiderWorkspace = (await api('GET', '/api/workspaces/', undefined, outsider.token)).body[0].id;
    expect((await list(outsider, outsiderWorkspace)).results[0]).toMatchObject({ id: created.id, type: 'baserow_version_upgrade', workspace: null, sender: null, read: false });
    const read = await api('PATCH', `/api/notifications/${outsiderWorkspace}/${created.id}/`, { read: true }, outsider.token);
    expect(read.body).toMatchObject({ id: created.id, read: true });
    expect((await api('POST', '/api/user/token-refresh/', { refresh_token: outsider.refresh }, '')).body.user_notifications.unread_count).toBe(before);
    // Still unread for the others.
    expect((await list(owner)).results.find((n: any) => n.id === created.id).read).toBe(false);
  });

  it('carries unread_notifications_count in group_restored', async () => {
    const ws = await api('POST', '/api/workspaces/', { name: 'Restorable' });
    const ownerWs = await socket(owner);
    expect((await api('DELETE', `/api/workspaces/${ws.body.id}/`)).status).toBe(204);
    expect((await api('PATCH', '/api/trash/restore/', { trash_item_type: 'workspace', trash_item_id: ws.body.id })).status).toBe(204);
    const restored = await ownerWs.waitFor('group_restored');
    expect(restored.workspace.unread_notifications_count).toBe(0);
  });
});

describe('job_started', () => {
  it('goes to every socket of the job creator, not to others', async () => {
    const a = await socket(owner);
    const b = await socket(owner);
    const memberWs = await socket(member);
    const job = await api('POST', `/api/database/tables/${tableId}/duplicate/async/`, undefined, owner.token, a.origin);
    expect(job.status).toBe(202);
    const started = await a.waitFor('job_started');
    expect(started.job).toMatchObject({ id: job.body.id, type: 'duplicate_table', state: 'started', progress_percentage: 0, human_readable_error: '' });
    expect((await b.waitFor('job_started')).job.id).toBe(job.body.id);
    await settleJob(t, owner.token, job.body.id);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(memberWs.received.some((m) => m.type === 'job_started')).toBe(false);
  });
});

describe('mentions in rich-text long text', () => {
  it('notifies members newly mentioned (@<user id>), once, not again when put back soon', async () => {
    const field = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Details', type: 'long_text', long_text_enable_rich_text: true });
    expect(field.status).toBe(200);
    const key = `field_${field.body.id}`;
    const memberWs = await socket(member);
    const outsiderWs = await socket(outsider);
    const row = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: 'Mentioned', [key]: `hello @${member.id} and @${outsider.id}` });
    expect(row.status).toBe(200);
    const n = (await memberWs.waitFor('notifications_created')).notifications[0];
    expect(n).toMatchObject({
      type: 'user_mention_in_rich_text_field',
      sender: { id: owner.id },
      workspace: { id: workspaceId },
      data: { database_id: databaseId, table_id: tableId, table_name: 'Tasks', field_id: field.body.id, field_name: 'Details', row_id: row.body.id, row_name: 'Mentioned' },
    });
    await expectNone(outsiderWs);
    // Still mentioned, removed, put back: nothing new.
    await api('PATCH', `/api/database/rows/table/${tableId}/${row.body.id}/`, { [key]: `hi again @${member.id}` });
    await api('PATCH', `/api/database/rows/table/${tableId}/${row.body.id}/`, { [key]: 'nobody' });
    await api('PATCH', `/api/database/rows/table/${tableId}/${row.body.id}/`, { [key]: `back @${member.id}` });
    // Another field written leaves the mentions alone.
    await api('PATCH', `/api/database/rows/table/${tableId}/${row.body.id}/`, { [`field_${nameField}`]: 'Renamed' });
    await expectNone(memberWs);
    // A plain long text does not mention.
    const plain = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Plain', type: 'long_text' });
    await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${plain.body.id}`]: `@${member.id}` });
    await expectNone(memberWs);
  });
});
