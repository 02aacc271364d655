import { createHash } from 'node:crypto';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient, wsUrl } from './support/ws';

const sha256 = (id: number) => createHash('sha256').update(String(id)).digest('hex');

let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let databaseId: number;
let tableId: number;
let nameField: number;
const open: WsClient[] = [];

async function socket(user: SignedUp): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  return client;
}

/** A socket of `user` subscribed to the table page. */
async function onTablePage(user: SignedUp, id = tableId): Promise<WsClient> {
  const client = await socket(user);
  client.send({ page: 'table', table_id: id });
  expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: id } });
  return client;
}

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, token = owner.token) => t.request(method, path, { token, body, headers });

beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  outsider = await signUp(t, 'Outsider');
  const app = (await api('GET', '/api/applications/')).body[0];
  databaseId = app.id;
  const invitation = await api('POST', `/api/workspaces/invitations/workspace/${app.workspace.id}/`, { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
  await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: member.token });
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Live' })).body.id;
  nameField = (await api('GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

describe('table page', () => {
  test('subscribing straight from onopen works before authentication is answered', async () => {
    const client = new WsClient(wsUrl(t, owner.token), { onOpen: (ws) => ws.send(JSON.stringify({ page: 'table', table_id: tableId })) });
    open.push(client);
    await client.opened;
    expect((await client.next()).type).toBe('authentication');
    expect(await client.next()).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
    await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: 'x' });
    expect((await client.waitFor('rows_created')).rows[0][`field_${nameField}`]).toBe('x');
  });

  test('a non-member cannot subscribe and receives nothing; unsubscribing stops messages', async () => {
    const stranger = await socket(outsider);
    stranger.send({ page: 'table', table_id: tableId });
    const watcher = await onTablePage(member);
    watcher.send({ remove_page: 'table', table_id: tableId });
    expect(await watcher.waitFor('page_discard')).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: tableId } });
    await api('POST', `/api/database/rows/table/${tableId}/`, {});
    await expectNone(stranger, watcher);
  });
});

describe('row messages', () => {
  test('rows_created with before_row_id, to the page but not the origin socket', async () => {
    const origin = await onTablePage(owner);
    const other = await onTablePage(member);
    const first = (await api('GET', `/api/database/rows/table/${tableId}/`)).body.results[0];
    const res = await api('POST', `/api/database/rows/table/${tableId}/batch/?before=${first.id}`, { items: [{ [`field_${nameField}`]: 'a' }, {}] }, origin.origin);
    const message = await other.waitFor('rows_created');
    expect(Object.keys(message)).toEqual(['type', 'table_id', 'rows', 'metadata', 'before_row_id']);
    expect(message).toEqual({ type: 'rows_created', table_id: tableId, rows: res.body.items, metadata: {}, before_row_id: first.id });
    await expectNone(origin);
  });

  test('before_rows_update then rows_updated with the rows before, aligned, and updated_field_ids', async () => {
    const other = await onTablePage(member);
    const rows = (await api('GET', `/api/database/rows/table/${tableId}/?size=2`)).body.results;
    const res = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, {
      items: [
        { id: rows[1].id, [`field_${nameField}`]: 'second' },
        { id: rows[0].id, [`field_${nameField}`]: 'first' },
      ],
    });
    const before = await other.next();
    expect(before).toEqual({ type: 'before_rows_update', table_id: tableId, row_ids: [rows[1].id, rows[0].id], rows: [rows[1], rows[0]] });
    const updated = await other.next();
    expect(updated).toEqual({
      type: 'rows_updated',
      table_id: tableId,
      rows_before_update: [rows[1], rows[0]],
      rows: res.body.items,
      metadata: {},
      updated_field_ids: [nameField],
    });
  });

  test('move sends rows_updated with no updated fields', async () => {
    const other = await onTablePage(member);
    const rows = (await api('GET', `/api/database/rows/table/${tableId}/?size=1`)).body.results;
    await api('PATCH', `/api/database/rows/table/${tableId}/${rows[0].id}/move/`);
    await other.waitFor('before_rows_update');
    const updated = await other.waitFor('rows_updated');
    expect(updated.updated_field_ids).toEqual([]);
    expect(updated.rows_before_update).toEqual(rows);
  });

  test('before_rows_delete then rows_deleted with the deleted rows', async () => {
    const other = await onTablePage(member);
    const row = (await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: 'gone' })).body;
    await other.waitFor('rows_created');
    await api('DELETE', `/api/database/rows/table/${tableId}/${row.id}/`);
    expect(await other.next()).toEqual({ type: 'before_rows_delete', table_id: tableId, row_ids: [row.id], rows: [row] });
    expect(await other.next()).toEqual({ type: 'rows_deleted', table_id: tableId, row_ids: [row.id], rows: [row] });
  });

  test('a failed batch sends nothing', async () => {
    const other = await onTablePage(member);
    await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{}, []] });
    await expectNone(other);
  });
});

describe('field messages', () => {
  test('field_created, field_updated and field_deleted go to the table page', async () => {
    const origin = await onTablePage(owner);
    const other = await onTablePage(member);
    const created = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Score', type: 'number' }, origin.origin);
    const { related_fields: related, ...field } = created.body;
    expect(await other.next()).toEqual({ type: 'field_created', field, related_fields: related });
    const updated = await api('PATCH', `/api/database/fields/${field.id}/`, { name: 'Points' });
    const { related_fields: _r, ...updatedField } = updated.body;
    expect(await other.next()).toEqual({ type: 'field_updated', field_id: field.id, field: updatedField, related_fields: [] });
    await api('DELETE', `/api/database/fields/${field.id}/`);
    expect(await other.next()).toEqual({ type: 'field_deleted', table_id: tableId, field_id: field.id, related_fields: [] });
    await expect(origin.waitFor('field_created', 150)).rejects.toThrow();
  });
});

describe('table messages', () => {
  test('table_created, table_updated, tables_re_ordered + tables_reordered, table_deleted to workspace members', async () => {
    const origin = await socket(owner);
    const other = await socket(member);
    const stranger = await socket(outsider);
    const created = await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Fresh' }, origin.origin);
    expect(await other.waitFor('table_created')).toEqual({ type: 'table_created', table: created.body });
    await api('PATCH', `/api/database/tables/${created.body.id}/`, { name: 'Renamed' });
    expect(await other.waitFor('table_updated')).toEqual({
      type: 'table_updated',
      table_id: created.body.id,
      table: { ...created.body, name: 'Renamed' },
      force_table_refresh: false,
    });
    const ids = (await api('GET', `/api/database/tables/database/${databaseId}/`)).body.map((x: { id: number }) => x.id).reverse();
    await api('POST', `/api/database/tables/database/${databaseId}/order/`, { table_ids: ids });
    const payload = { database_id: sha256(databaseId), order: ids.map(sha256) };
    expect(await other.next()).toEqual({ type: 'tables_re_ordered', ...payload });
    expect(await other.next()).toEqual({ type: 'tables_reordered', ...payload });
    await api('DELETE', `/api/database/tables/${created.body.id}/`);
    expect(await other.waitFor('table_deleted')).toEqual({ type: 'table_deleted', database_id: databaseId, table_id: created.body.id });
    await expectNone(stranger);
    expect(origin.received.filter((m) => m.type === 'table_created')).toEqual([]);
  });
});

describe('row page', () => {
  test('a member subscribes to an existing row; unknown rows and outsiders are refused', async () => {
    const row = (await api('POST', `/api/database/rows/table/${tableId}/`, {})).body;
    const client = await socket(member);
    client.send({ page: 'row', table_id: tableId, row_id: row.id });
    expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'row', parameters: { table_id: tableId, row_id: row.id } });
    const stranger = await socket(outsider);
    stranger.send({ page: 'row', table_id: tableId, row_id: row.id });
    client.send({ page: 'row', table_id: tableId, row_id: 999999 });
    await expectNone(stranger, client);
  });
});
