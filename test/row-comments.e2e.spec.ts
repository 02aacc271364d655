import { RowCommentsService } from '../src/database/row-comments/row-comments.service';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';

/** Row comments (§9.2, decision 4: no licence) and their messages (realtime §4.10). */

let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let tableId: number;
let otherTableId: number;
let rowId: number;
let nameField: number;
const open: WsClient[] = [];

const COMMENT_KEYS = ['id', 'user_id', 'first_name', 'table_id', 'row_id', 'message', 'created_on', 'updated_on', 'edited', 'trashed'];

const api = (method: string, path: string, body?: unknown, token = owner.token, headers: Record<string, string> = {}) => t.request(method, path, { token, body, headers });

/** A ProseMirror document with one paragraph: text, then mentions of the given users. */
function doc(text: string, ...mentions: SignedUp[]): Record<string, unknown> {
  const content: unknown[] = [{ type: 'text', text }];
  for (const user of mentions) content.push({ type: 'mention', attrs: { id: user.id, label: user.name } });
  return { type: 'doc', content: [{ type: 'paragraph', content }] };
}

async function newRow(): Promise<number> {
  return (await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: 'row' })).body.id;
}

async function comment(row: number, text: string, token = owner.token): Promise<any> {
  const res = await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc(text) }, token);
  expect(res.status).toBe(200);
  return res.body;
}

async function onTablePage(user: SignedUp, id = tableId): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'table', table_id: id });
  await client.waitFor('page_add');
  return client;
}

beforeAll(async () => {
  t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  outsider = await signUp(t, 'Outsider');
  const app = (await api('GET', '/api/applications/')).body[0];
  const invitation = await api('POST', `/api/workspaces/invitations/workspace/${app.workspace.id}/`, { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
  expect((await api('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, undefined, member.token)).status).toBe(200);
  tableId = (await api('POST', `/api/database/tables/database/${app.id}/`, { name: 'Commented' })).body.id;
  otherTableId = (await api('POST', `/api/database/tables/database/${app.id}/`, { name: 'Other' })).body.id;
  nameField = (await api('GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
  rowId = await newRow();
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

describe('create and list', () => {
  it('creates a comment and lists it newest first with the author and both timestamps', async () => {
    const row = await newRow();
    const first = await comment(row, 'first');
    expect(Object.keys(first)).toEqual(COMMENT_KEYS);
    expect(first).toMatchObject({ user_id: owner.id, first_name: 'Owner', table_id: tableId, row_id: row, message: doc('first'), edited: false, trashed: false });
    expect(first.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(first.updated_on).toBe(first.created_on);
    const second = await comment(row, 'second', member.token);
    const list = await api('GET', `/api/row_comments/${tableId}/${row}/`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ count: 2, next: null, previous: null, results: [second, first] });
    expect(second).toMatchObject({ user_id: member.id, first_name: 'Member' });
  });

  it('pages with page/size (limited to 200) and with limit/offset (cut to 200)', async () => {
    const row = await newRow();
    const made = [];
    for (const text of ['a', 'b', 'c']) made.push(await comment(row, text));
    const base = `/api/row_comments/${tableId}/${row}/`;
    const page = await api('GET', `${base}?size=2&page=2`);
    expect(page.body.count).toBe(3);
    expect(page.body.results.map((c: any) => c.id)).toEqual([made[0].id]);
    expect(page.body.next).toBeNull();
    expect(page.body.previous).toBe(`${t.url}${base}?size=2`);
    expect((await api('GET', `${base}?page=9`)).body).toMatchObject({ count: 3, results: [] });
    const tooBig = await api('GET', `${base}?size=201`);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toEqual({ error: 'ERROR_PAGE_SIZE_LIMIT', detail: 'The page size is limited to 200.' });
    const limited = await api('GET', `${base}?limit=1&offset=1`);
    expect(limited.body.results.map((c: any) => c.id)).toEqual([made[1].id]);
    expect(limited.body.next).toBe(`${t.url}${base}?limit=1&offset=2`);
    expect(limited.body.previous).toBe(`${t.url}${base}?limit=1`);
    expect((await api('GET', `${base}?limit=5000`)).body.results).toHaveLength(3);
  });

  it('accepts mentions of members, hard breaks and several paragraphs', async () => {
    const message = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Hi ' }, { type: 'mention', attrs: { id: member.id, label: 'Member' } }, { type: 'hardBreak' }, { type: 'text', text: 'next line' }] },
        { type: 'paragraph' },
      ],
    };
    const res = await api('POST', `/api/row_comments/${tableId}/${rowId}/`, { message });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(message);
  });
});

describe('bad input', () => {
  const count = async () => (await api('GET', `/api/row_comments/${tableId}/${rowId}/`)).body.count;
  const invalid = [{ error: 'The message must be a valid ProseMirror JSON document.', code: 'invalid' }];

  it.each([
    ['a string', 'hello'],
    ['a list', [doc('x')]],
    ['an empty object', {}],
    ['a paragraph at the top', { type: 'paragraph', content: [{ type: 'text', text: 'x' }] }],
    ['a doc without content', { type: 'doc', content: [] }],
    ['only whitespace', doc('   ')],
    ['only an empty paragraph', { type: 'doc', content: [{ type: 'paragraph' }] }],
    ['an empty text node', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '' }, { type: 'text', text: 'x' }] }] }],
    ['an unknown node type', { type: 'doc', content: [{ type: 'heading', content: [{ type: 'text', text: 'x' }] }] }],
    ['a mark (the schema has none)', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'bold' }] }] }] }],
    ['an unknown key', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }], extra: 'y'.repeat(100) }],
    ['nested attrs', { type: 'doc', content: [{ type: 'paragraph', attrs: { deep: { x: 1 } }, content: [{ type: 'text', text: 'x' }] }] }],
  ])('refuses %s as a message and writes nothing', async (_, message) => {
    const before = await count();
    const res = await api('POST', `/api/row_comments/${tableId}/${rowId}/`, { message });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { message: invalid } });
    expect(await count()).toBe(before);
  });

  it('refuses a missing, null or oversized message and a body that is not an object', async () => {
    const path = `/api/row_comments/${tableId}/${rowId}/`;
    expect((await api('POST', path, {})).body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { message: [{ error: 'This field is required.', code: 'required' }] } });
    expect((await api('POST', path, { message: null })).body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { message: [{ error: 'This field may not be null.', code: 'null' }] } });
    const huge = await api('POST', path, { message: doc('x'.repeat(70_000)) });
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { message: [{ error: 'Ensure this field has no more than 65536 characters.', code: 'max_length' }] } });
    const depth = 50_000;
    const deep = '{"type":"paragraph","content":['.repeat(depth) + '{"type":"text","text":"x"}' + ']}'.repeat(depth);
    const nested = await t.request('POST', path, { token: owner.token, raw: `{"message":{"type":"doc","content":[${deep}]}}`, headers: { 'Content-Type': 'application/json' } });
    expect([nested.status, nested.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    const list = await api('POST', path, [1]);
    expect(list.status).toBe(400);
    expect(list.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
  });

  it('accepts a mention of someone outside the workspace, which mentions nobody (Baserow: test_user_cant_be_mentioned_in_comments_if_outside_workspace)', async () => {
    const mention = (id: unknown) => ({ type: 'mention', attrs: { id, label: 'Someone' } });
    const cases = [
      doc('hey', member, outsider),
      doc('hey', { ...outsider, id: 2147483000 }),
      // Baserow reads the id as Python's int() does; a mention without one mentions nobody.
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'hey ' }, mention(String(member.id)), mention(null)] }] },
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'mention', attrs: { label: 'x' } }] }] },
    ];
    for (const message of cases) {
      const before = await count();
      const res = await api('POST', `/api/row_comments/${tableId}/${rowId}/`, { message });
      expect([res.status, res.body.message]).toEqual([200, message]);
      expect(await count()).toBe(before + 1);
    }
  });

  it('answers ERROR_INVALID_COMMENT_MENTION for a mention whose id is no number, once the row is found, writing nothing', async () => {
    const before = await count();
    for (const id of ['abc', '', '1.5', '12a']) {
      const message = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'hey ' }, { type: 'mention', attrs: { id, label: 'x' } }] }] };
      const res = await api('POST', `/api/row_comments/${tableId}/${rowId}/`, { message });
      expect([id, res.status, res.body]).toEqual([id, 400, { error: 'ERROR_INVALID_COMMENT_MENTION', detail: 'You cannot mention users that are not part of the workspace.' }]);
      const missingRow = await api('POST', `/api/row_comments/${tableId}/999999/`, { message });
      expect([id, missingRow.body.error]).toEqual([id, 'ERROR_ROW_DOES_NOT_EXIST']);
    }
    expect(await count()).toBe(before);
  });

  it('answers a missing row, a missing table and a stranger as Baserow does', async () => {
    const message = { message: doc('x') };
    const missingRow = await api('POST', `/api/row_comments/${tableId}/999999/`, message);
    expect(missingRow.status).toBe(404);
    expect(missingRow.body).toEqual({ error: 'ERROR_ROW_DOES_NOT_EXIST', detail: "The rows ['999999'] do not exist." });
    expect((await api('PUT', `/api/row_comments/${tableId}/999999/notification-mode/`, { mode: 'all' })).body.error).toBe('ERROR_ROW_DOES_NOT_EXIST');
    const missingTable = await api('GET', `/api/row_comments/999999/${rowId}/`);
    expect(missingTable.status).toBe(404);
    expect(missingTable.body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
    const mine = await comment(rowId, 'mine');
    const strangerCalls: [string, string, unknown][] = [
      ['GET', `/api/row_comments/${tableId}/${rowId}/`, undefined],
      ['POST', `/api/row_comments/${tableId}/${rowId}/`, message],
      ['PATCH', `/api/row_comments/${tableId}/comment/${mine.id}/`, message],
      ['DELETE', `/api/row_comments/${tableId}/comment/${mine.id}/`, undefined],
      ['PUT', `/api/row_comments/${tableId}/${rowId}/notification-mode/`, { mode: 'all' }],
    ];
    for (const [method, path, body] of strangerCalls) {
      const res = await api(method, path, body, outsider.token);
      expect([method, res.status, res.body.error]).toEqual([method, 400, 'ERROR_USER_NOT_IN_GROUP']);
      expect(res.text).not.toContain('mine');
    }
  });

  it('refuses an unknown notification mode', async () => {
    const res = await api('PUT', `/api/row_comments/${tableId}/${rowId}/notification-mode/`, { mode: 'never' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { mode: [{ error: '"never" is not a valid choice.', code: 'invalid_choice' }] } });
  });
});

describe('edit and delete', () => {
  it('lets only the author edit, and marks the comment edited', async () => {
    const row = await newRow();
    const mine = await comment(row, 'draft');
    const path = `/api/row_comments/${tableId}/comment/${mine.id}/`;
    const other = await api('PATCH', path, { message: doc('hijacked') }, member.token);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'ERROR_USER_NOT_COMMENT_AUTHOR', detail: 'The requesting user is not the author of the comment.' });
    const malformed = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'mention', attrs: { id: 'nobody', label: 'x' } }] }] };
    expect((await api('PATCH', path, { message: malformed })).body.error).toBe('ERROR_INVALID_COMMENT_MENTION');
    const outside = await api('PATCH', path, { message: doc('hey', outsider) });
    expect([outside.status, outside.body.message]).toEqual([200, doc('hey', outsider)]);
    expect((await api('PATCH', path, { message: { type: 'doc' } })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    const edited = await api('PATCH', path, { message: doc('final', member) });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: mine.id, message: doc('final', member), edited: true, created_on: mine.created_on, trashed: false });
    expect(Date.parse(edited.body.updated_on)).toBeGreaterThan(Date.parse(mine.created_on));
    expect((await api('GET', `/api/row_comments/${tableId}/${row}/`)).body.results).toEqual([edited.body]);
  });

  it('answers an unknown comment, or one of another table, with ERROR_ROW_COMMENT_DOES_NOT_EXIST', async () => {
    const mine = await comment(rowId, 'here');
    for (const path of [`/api/row_comments/${tableId}/comment/999999/`, `/api/row_comments/${otherTableId}/comment/${mine.id}/`]) {
      for (const method of ['PATCH', 'DELETE']) {
        const res = await api(method, path, method === 'PATCH' ? { message: doc('x') } : undefined);
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, { error: 'ERROR_ROW_COMMENT_DOES_NOT_EXIST', detail: 'The requested row comment does not exist.' }]);
      }
    }
  });

  it('deletes into the trash: 200 with the trashed comment, listed without its message, not counted, gone for edits', async () => {
    const row = await newRow();
    const mine = await comment(row, 'oops');
    const path = `/api/row_comments/${tableId}/comment/${mine.id}/`;
    const other = await api('DELETE', path, undefined, member.token);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('ERROR_USER_NOT_COMMENT_AUTHOR');
    const deleted = await api('DELETE', path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...mine, message: null, trashed: true });
    expect((await api('GET', `/api/row_comments/${tableId}/${row}/`)).body).toMatchObject({ count: 1, results: [{ id: mine.id, message: null, trashed: true }] });
    // The author follows the row since their first comment on it (Baserow's `on_row_comment_created`).
    expect((await api('GET', `/api/database/rows/table/${tableId}/${row}/?include=metadata`)).body.metadata).toEqual({ row_comments_notification_mode: 'all' });
    expect((await api('DELETE', path)).body.error).toBe('ERROR_ROW_COMMENT_DOES_NOT_EXIST');
    expect((await api('PATCH', path, { message: doc('back') })).body.error).toBe('ERROR_ROW_COMMENT_DOES_NOT_EXIST');
  });

  it('restores a trashed comment through the service seam the trash uses', async () => {
    const row = await newRow();
    const mine = await comment(row, 'keep');
    await api('DELETE', `/api/row_comments/${tableId}/comment/${mine.id}/`);
    const watcher = await onTablePage(member);
    const service = t.app.get(RowCommentsService);
    expect(await service.restore(mine.id)).toBe(true);
    expect(await service.restore(mine.id)).toBe(false);
    expect(await watcher.waitFor('row_comment_restored')).toEqual({ type: 'row_comment_restored', row_comment: mine });
    expect((await api('GET', `/api/row_comments/${tableId}/${row}/`)).body.results).toEqual([mine]);

    // Permanent deletion: only of a trashed comment; and of every comment of rows deleted for good.
    const gone = await comment(row, 'gone');
    expect(await service.deletePermanently(gone.id)).toBe(false);
    await api('DELETE', `/api/row_comments/${tableId}/comment/${gone.id}/`);
    expect(await service.deletePermanently(gone.id)).toBe(true);
    expect((await api('GET', `/api/row_comments/${tableId}/${row}/`)).body.results).toEqual([mine]);
    await service.forgetRows(tableId, [row]);
    expect((await api('GET', `/api/row_comments/${tableId}/${row}/`)).body).toMatchObject({ count: 0, results: [] });
  });
});

describe('row metadata', () => {
  it('carries the comment count and a non-default notification mode on the row, the grid view and row messages', async () => {
    const row = await newRow();
    const plain = await newRow();
    await comment(row, 'one');
    await comment(row, 'two', member.token);
    // Commenting made both authors follow the row (mode `all`).
    const get = await api('GET', `/api/database/rows/table/${tableId}/${row}/?include=metadata`);
    expect(get.body.metadata).toEqual({ row_comment_count: 2, row_comments_notification_mode: 'all' });
    expect((await api('GET', `/api/database/rows/table/${tableId}/${plain}/?include=metadata`)).body.metadata).toEqual({});
    expect(await api('GET', `/api/database/rows/table/${tableId}/${row}/`).then((res) => 'metadata' in res.body)).toBe(false);

    expect((await api('PUT', `/api/row_comments/${tableId}/${row}/notification-mode/`, { mode: 'mentions' }, member.token)).status).toBe(204);
    expect((await api('GET', `/api/database/rows/table/${tableId}/${row}/?include=metadata`)).body.metadata).toEqual({ row_comment_count: 2, row_comments_notification_mode: 'all' });
    // The mode is the caller's own: the member's is back to the default.
    expect((await api('GET', `/api/database/rows/table/${tableId}/${row}/?include=metadata`, undefined, member.token)).body.metadata).toEqual({ row_comment_count: 2 });

    const grid = (await api('GET', `/api/database/views/table/${tableId}/`)).body.find((v: any) => v.type === 'grid');
    const listed = await api('GET', `/api/database/views/grid/${grid.id}/?include=row_metadata&size=200`);
    expect(listed.body.row_metadata[String(row)]).toEqual({ row_comment_count: 2, row_comments_notification_mode: 'all' });
    expect(listed.body.row_metadata[String(plain)]).toBeUndefined();

    const watcher = await onTablePage(member);
    await api('PATCH', `/api/database/rows/table/${tableId}/${row}/`, { [`field_${nameField}`]: 'changed' });
    const updated = await watcher.waitFor('rows_updated');
    // Computed for the acting user and sent to everyone, as Baserow does.
    expect(updated.metadata).toEqual({ [String(row)]: { row_comment_count: 2, row_comments_notification_mode: 'all' } });
    await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: [{ id: plain }] });
    expect((await watcher.waitFor('rows_updated')).metadata).toEqual({});

    expect((await api('PUT', `/api/row_comments/${tableId}/${row}/notification-mode/`, { mode: 'mentions' })).status).toBe(204);
    expect((await api('GET', `/api/database/rows/table/${tableId}/${row}/?include=metadata`)).body.metadata).toEqual({ row_comment_count: 2 });
  });
});

describe('messages', () => {
  it('sends row_comment_created/updated/deleted to the table page, not to the origin socket nor to strangers', async () => {
    const row = await newRow();
    const origin = await onTablePage(owner);
    const watcher = await onTablePage(member);
    const rowPage = await connect(t, member.token);
    open.push(rowPage);
    rowPage.send({ page: 'row', table_id: tableId, row_id: row });
    await rowPage.waitFor('page_add');
    const stranger = await connect(t, outsider.token);
    open.push(stranger);
    stranger.send({ page: 'table', table_id: tableId });

    const created = await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc('hello', member) }, owner.token, origin.origin);
    // The author's first comment makes them follow the row, which every socket of theirs hears; the mentioned member is notified.
    expect(await origin.waitFor('row_comments_notification_mode_updated')).toEqual({ type: 'row_comments_notification_mode_updated', table_id: tableId, row_id: row, mode: 'all' });
    expect((await watcher.waitFor('notifications_created')).notifications[0]).toMatchObject({ type: 'row_comment_mention' });
    await rowPage.waitFor('notifications_created');
    const createdMessage = await watcher.waitFor('row_comment_created');
    expect(Object.keys(createdMessage)).toEqual(['type', 'row_comment']);
    expect(createdMessage.row_comment).toEqual(created.body);

    const edited = await api('PATCH', `/api/row_comments/${tableId}/comment/${created.body.id}/`, { message: doc('hello again') }, owner.token, origin.origin);
    expect(await watcher.waitFor('row_comment_updated')).toEqual({ type: 'row_comment_updated', row_comment: edited.body });

    const deleted = await api('DELETE', `/api/row_comments/${tableId}/comment/${created.body.id}/`, undefined, owner.token, origin.origin);
    expect(await watcher.waitFor('row_comment_deleted')).toEqual({ type: 'row_comment_deleted', row_comment: deleted.body });
    expect(deleted.body).toMatchObject({ trashed: true, message: null });

    // Without WebSocketId the author's own socket hears it too.
    await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: doc('again') });
    await origin.waitFor('row_comment_created');
    await watcher.waitFor('row_comment_created');
    await expectNone(origin, watcher, rowPage, stranger);

    // Refused requests send nothing.
    await api('PATCH', `/api/row_comments/${tableId}/comment/${created.body.id}/`, { message: doc('x') }, member.token);
    const malformed = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'mention', attrs: { id: 'nobody', label: 'x' } }] }] };
    expect((await api('POST', `/api/row_comments/${tableId}/${row}/`, { message: malformed })).status).toBe(400);
    await expectNone(origin, watcher, rowPage, stranger);
  });

  it("sends a notification mode change to the user's other sockets only", async () => {
    const origin = await connect(t, owner.token);
    const other = await connect(t, owner.token);
    const someoneElse = await connect(t, member.token);
    open.push(origin, other, someoneElse);
    await api('PUT', `/api/row_comments/${tableId}/${rowId}/notification-mode/`, { mode: 'all' }, owner.token, origin.origin);
    expect(await other.waitFor('row_comments_notification_mode_updated')).toEqual({ type: 'row_comments_notification_mode_updated', table_id: tableId, row_id: rowId, mode: 'all' });
    await expectNone(origin, other, someoneElse);
  });
});
