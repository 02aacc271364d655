import { DataSource, EntityManager } from 'typeorm';
import { TableOperations } from '../src/permissions';

const original = EntityManager.prototype.query;
import { RowHistoryService } from '../src/database/row-history/row-history.service';
import { RowsService } from '../src/database/rows/rows.service';
import { TableContextService } from '../src/database/table-context';
import { UsersService } from '../src/users/users.service';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';

let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let databaseId: number;
const open: WsClient[] = [];

const api = (method: string, path: string, body?: unknown, token = owner.token, headers: Record<string, string> = {}) => t.request(method, path, { token, body, headers });
const rowsUrl = (tableId: number) => `/api/database/rows/table/${tableId}/`;
const historyUrl = (tableId: number, rowId: number, query = '') => `/api/database/rows/table/${tableId}/${rowId}/history/${query}`;
const history = async (tableId: number, rowId: number, query = '') => {
  const res = await api('GET', historyUrl(tableId, rowId, query));
  expect(res.status).toBe(200);
  return res.body;
};

/** A table with a primary text field, a number and a single select; answers their ids. */
async function newTable(name: string) {
  const tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id as number;
  const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body as { id: number; primary: boolean }[];
  const primary = fields.find((f) => f.primary)!.id;
  for (const f of fields.filter((f) => !f.primary)) await api('DELETE', `/api/database/fields/${f.id}/`);
  const number = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Amount', type: 'number', number_decimal_places: 2 })).body.id as number;
  const select = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] })).body;
  const [todo, done] = select.select_options as { id: number; value: string; color: string }[];
  const rows = (await api('GET', rowsUrl(tableId))).body.results as { id: number }[];
  if (rows.length) await api('POST', `${rowsUrl(tableId)}batch-delete/`, { items: rows.map((r) => r.id) });
  return { tableId, primary, number, select: select.id as number, todo, done };
}

async function onRowPage(user: SignedUp, tableId: number, rowId: number): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'row', table_id: tableId, row_id: rowId });
  expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'row', parameters: { table_id: tableId, row_id: rowId } });
  return client;
}

beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  outsider = await signUp(t, 'Outsider');
  const app = (await api('GET', '/api/applications/')).body[0];
  databaseId = app.id;
  const invitation = await api('POST', `/api/workspaces/invitations/workspace/${app.workspace.id}/`, { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
  await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: member.token });
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

describe('recording', () => {
  test('create_row records the non-empty cells; update_rows only the changed ones; newest first', async () => {
    const { tableId, primary, number, select, todo, done } = await newTable('Single');
    const created = await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Alpha', [`field_${number}`]: '1.5', [`field_${select}`]: null });
    expect(created.status).toBe(200);
    const rowId = created.body.id;
    const first = await history(tableId, rowId);
    expect(first.count).toBe(1);
    expect(first.next).toBeNull();
    expect(first.previous).toBeNull();
    const [entry] = first.results;
    expect(Object.keys(entry)).toEqual(['id', 'action_type', 'action_command_type', 'user', 'timestamp', 'before', 'after', 'fields_metadata']);
    expect(entry).toEqual({
      id: expect.any(Number),
      action_type: 'create_row',
      action_command_type: 'DO',
      user: { id: owner.id, name: 'Owner' },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/),
      before: { [`field_${primary}`]: null, [`field_${number}`]: null },
      after: { [`field_${primary}`]: 'Alpha', [`field_${number}`]: '1.50' },
      fields_metadata: {
        [`field_${primary}`]: { id: primary, type: 'text' },
        [`field_${number}`]: { id: number, type: 'number', number_decimal_places: 2, number_negative: false },
      },
    });

    // Only the cells whose value changed: the primary is sent unchanged.
    await api('PATCH', `${rowsUrl(tableId)}${rowId}/`, { [`field_${primary}`]: 'Alpha', [`field_${select}`]: todo.id });
    await api('PATCH', `${rowsUrl(tableId)}${rowId}/`, { [`field_${select}`]: done.id, [`field_${number}`]: '1.50' });
    // Nothing changed: no entry.
    await api('PATCH', `${rowsUrl(tableId)}${rowId}/`, { [`field_${select}`]: done.id });
    const page = await history(tableId, rowId);
    expect(page.count).toBe(3);
    expect(page.results.map((e: any) => e.action_type)).toEqual(['update_rows', 'update_rows', 'create_row']);
    const [second, firstUpdate] = page.results;
    expect(firstUpdate.before).toEqual({ [`field_${select}`]: null });
    expect(firstUpdate.after).toEqual({ [`field_${select}`]: todo.id });
    expect(firstUpdate.fields_metadata).toEqual({ [`field_${select}`]: { id: select, type: 'single_select', select_options: { [todo.id]: todo } } });
    expect(second.before).toEqual({ [`field_${select}`]: todo.id });
    expect(second.after).toEqual({ [`field_${select}`]: done.id });
    expect(second.fields_metadata[`field_${select}`].select_options).toEqual({ [todo.id]: todo, [done.id]: done });
    expect(second.id).toBeGreaterThan(firstUpdate.id);
  });

  test('batches: create_rows, update_rows per changed row, delete_rows without cells; delete_row', async () => {
    const { tableId, primary } = await newTable('Batch');
    const created = await api('POST', `${rowsUrl(tableId)}batch/`, { items: [{ [`field_${primary}`]: 'a' }, {}, { [`field_${primary}`]: 'c' }] });
    const ids = created.body.items.map((r: any) => r.id);
    expect((await history(tableId, ids[0])).results[0]).toMatchObject({ action_type: 'create_rows', after: { [`field_${primary}`]: 'a' } });
    // An empty new row still has its entry, without cells.
    expect((await history(tableId, ids[1])).results[0]).toMatchObject({ action_type: 'create_rows', before: {}, after: {}, fields_metadata: {} });

    await api('PATCH', `${rowsUrl(tableId)}batch/`, { items: [{ id: ids[0], [`field_${primary}`]: 'A' }, { id: ids[1], [`field_${primary}`]: null }] });
    expect((await history(tableId, ids[0])).results[0]).toMatchObject({ action_type: 'update_rows', before: { [`field_${primary}`]: 'a' }, after: { [`field_${primary}`]: 'A' } });
    expect((await history(tableId, ids[1])).count).toBe(1);

    await api('POST', `${rowsUrl(tableId)}batch-delete/`, { items: [ids[0], ids[1]] });
    await api('DELETE', `${rowsUrl(tableId)}${ids[2]}/`);
    // Deleted rows answer 404; their entries were written in the same transaction as the delete.
    expect((await api('GET', historyUrl(tableId, ids[2]))).body.error).toBe('ERROR_ROW_DOES_NOT_EXIST');
    const ds = t.app.get(DataSource);
    const stored = await ds.query(`SELECT "row_id", "action_type", "before_values", "after_values", "fields_metadata" FROM "database_rowhistory" WHERE "table_id" = ${tableId} AND "row_id" IN (${ids.join(', ')}) AND "action_type" LIKE 'delete%' ORDER BY "row_id"`);
    expect(stored.map((r: any) => [Number(r.row_id), r.action_type, r.before_values, r.after_values, r.fields_metadata])).toEqual([
      [ids[0], 'delete_rows', '{}', '{}', '{}'],
      [ids[1], 'delete_rows', '{}', '{}', '{}'],
      [ids[2], 'delete_row', '{}', '{}', '{}'],
    ]);
  });

  test('a move records nothing; a failed write records nothing', async () => {
    const { tableId, primary, number } = await newTable('Quiet');
    const [a, b] = (await api('POST', `${rowsUrl(tableId)}batch/`, { items: [{ [`field_${primary}`]: 'a' }, { [`field_${primary}`]: 'b' }] })).body.items;
    expect((await api('PATCH', `${rowsUrl(tableId)}${b.id}/move/?before_id=${a.id}`)).status).toBe(200);
    const bad = await api('PATCH', `${rowsUrl(tableId)}batch/`, { items: [{ id: a.id, [`field_${primary}`]: 'changed' }, { id: b.id, [`field_${number}`]: 'not a number' }] });
    expect(bad.status).toBe(400);
    const missing = await api('PATCH', `${rowsUrl(tableId)}batch/`, { items: [{ id: a.id, [`field_${primary}`]: 'changed' }, { id: 999999, [`field_${primary}`]: 'x' }] });
    expect(missing.status).toBe(404);
    expect((await history(tableId, a.id)).results.map((e: any) => e.action_type)).toEqual(['create_rows']);
    expect((await history(tableId, b.id)).results.map((e: any) => e.action_type)).toEqual(['create_rows']);
  });

  test('link changes: the row keeps linked row ids with their names, the linked rows get their side', async () => {
    const { tableId: projects, primary } = await newTable('Projects');
    const { tableId: people, primary: personName } = await newTable('People');
    const link = (await api('POST', `/api/database/fields/table/${projects}/`, { name: 'Team', type: 'link_row', link_row_table_id: people, has_related_field: true })).body;
    const related = link.related_fields[0].id;
    const [ann, bob] = (await api('POST', `${rowsUrl(people)}batch/`, { items: [{ [`field_${personName}`]: 'Ann' }, { [`field_${personName}`]: 'Bob' }] })).body.items;
    const project = (await api('POST', rowsUrl(projects), { [`field_${primary}`]: 'Apollo', [`field_${link.id}`]: [ann.id] })).body;
    await api('PATCH', `${rowsUrl(projects)}${project.id}/`, { [`field_${link.id}`]: [bob.id] });

    const [update, create] = (await history(projects, project.id)).results;
    expect(create.after[`field_${link.id}`]).toEqual([ann.id]);
    expect(update.before).toEqual({ [`field_${link.id}`]: [ann.id] });
    expect(update.after).toEqual({ [`field_${link.id}`]: [bob.id] });
    expect(update.fields_metadata[`field_${link.id}`]).toEqual({
      id: link.id,
      type: 'link_row',
      linked_rows: { [ann.id]: { value: 'Ann' }, [bob.id]: { value: 'Bob' } },
      linked_table_id: people,
      linked_field_id: related,
      primary_value: 'Apollo',
    });

    const annHistory = (await history(people, ann.id)).results;
    expect(annHistory.map((e: any) => e.action_type)).toEqual(['update_rows', 'update_rows', 'create_rows']);
    expect(annHistory[0]).toMatchObject({
      before: { [`field_${related}`]: [project.id] },
      after: { [`field_${related}`]: [] },
      fields_metadata: { [`field_${related}`]: { id: related, type: 'link_row', linked_rows: { [project.id]: { value: 'Apollo' } } } },
    });
    expect(annHistory[1]).toMatchObject({ before: { [`field_${related}`]: [] }, after: { [`field_${related}`]: [project.id] } });
    const bobHistory = (await history(people, bob.id)).results;
    expect(bobHistory[0]).toMatchObject({ action_type: 'update_rows', before: { [`field_${related}`]: [] }, after: { [`field_${related}`]: [project.id] } });

    // Deleting the project takes it off Bob's side, in Bob's history.
    await api('DELETE', `${rowsUrl(projects)}${project.id}/`);
    expect((await history(people, bob.id)).results[0]).toMatchObject({ action_type: 'update_rows', before: { [`field_${related}`]: [project.id] }, after: { [`field_${related}`]: [] } });
  });

  test('multiple select: option ids, compared as a set, with the options they name', async () => {
    const { tableId } = await newTable('Tags');
    const field = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'a', color: 'red' }, { value: 'b', color: 'blue' }] })).body;
    const [a, b] = field.select_options;
    const key = `field_${field.id}`;
    const row = (await api('POST', rowsUrl(tableId), { [key]: [a.id, b.id] })).body;
    await api('PATCH', `${rowsUrl(tableId)}${row.id}/`, { [key]: [b.id, a.id] });
    await api('PATCH', `${rowsUrl(tableId)}${row.id}/`, { [key]: [b.id] });
    const [update, create] = (await history(tableId, row.id)).results;
    expect(create).toMatchObject({ action_type: 'create_row', before: { [key]: null }, after: { [key]: [a.id, b.id] } });
    // The reordering was no change: it left no entry, and the order it kept shows here.
    expect(update.before).toEqual({ [key]: [b.id, a.id] });
    expect(update.after).toEqual({ [key]: [b.id] });
    expect(update.fields_metadata).toEqual({ [key]: { id: field.id, type: 'multiple_select', select_options: { [a.id]: a, [b.id]: b } } });
  });

  test('a deleted field keeps its key in older entries', async () => {
    const { tableId, primary, number } = await newTable('Dropped');
    const row = (await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'x', [`field_${number}`]: '2' })).body;
    expect((await api('DELETE', `/api/database/fields/${number}/`)).status).toBe(200);
    const [entry] = (await history(tableId, row.id)).results;
    expect(entry.after).toEqual({ [`field_${primary}`]: 'x', [`field_${number}`]: '2.00' });
    expect(entry.fields_metadata[`field_${number}`].type).toBe('number');
    // A deleted table's history is no longer reachable.
    expect((await api('DELETE', `/api/database/tables/${tableId}/`)).status).toBe(204);
    expect((await api('GET', historyUrl(tableId, row.id))).body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
  });

  test('a batch of 200 updated rows records 200 entries', async () => {
    const { tableId, primary } = await newTable('Large');
    const items = Array.from({ length: 200 }, (_, i) => ({ [`field_${primary}`]: `r${i}` }));
    const rows = (await api('POST', `${rowsUrl(tableId)}batch/`, { items })).body.items as { id: number }[];
    // Every statement history adds goes through the entity manager and names its table.
    const statements: string[] = [];
    const spy = jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (this: EntityManager, text: string, params?: any[]) {
      statements.push(text);
      return original.call(this, text, params);
    });
    const res = await api('PATCH', `${rowsUrl(tableId)}batch/`, { items: rows.map((r, i) => ({ id: r.id, [`field_${primary}`]: `u${i}` })) });
    spy.mockRestore();
    expect(res.status).toBe(200);
    expect(statements.filter((text) => text.includes('database_rowhistory'))).toHaveLength(1);
    const [{ count }] = await t.app.get(DataSource).query(`SELECT COUNT(*) AS "count" FROM "database_rowhistory" WHERE "table_id" = ${tableId} AND "action_type" = 'update_rows'`);
    expect(Number(count)).toBe(200);
    expect((await history(tableId, rows[199].id)).results[0]).toMatchObject({ before: { [`field_${primary}`]: 'r199' }, after: { [`field_${primary}`]: 'u199' } });
  });
});

describe('listing', () => {
  test('limit/offset pages, newest first; bad values fall back as DRF does; limit at most 200', async () => {
    const { tableId, primary } = await newTable('Pages');
    const row = (await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'v0' })).body;
    for (let i = 1; i <= 4; i++) await api('PATCH', `${rowsUrl(tableId)}${row.id}/`, { [`field_${primary}`]: `v${i}` });
    const all = await history(tableId, row.id);
    expect(all.count).toBe(5);
    expect(all.results.map((e: any) => e.after[`field_${primary}`])).toEqual(['v4', 'v3', 'v2', 'v1', 'v0']);

    const middle = await history(tableId, row.id, '?limit=2&offset=2');
    expect(middle.results.map((e: any) => e.after[`field_${primary}`])).toEqual(['v2', 'v1']);
    expect(new URL(middle.next).searchParams.get('offset')).toBe('4');
    expect(new URL(middle.next).searchParams.get('limit')).toBe('2');
    expect(new URL(middle.previous).searchParams.has('offset')).toBe(false);
    const last = await history(tableId, row.id, '?limit=2&offset=4');
    expect(last.next).toBeNull();
    expect(last.results).toHaveLength(1);

    expect((await history(tableId, row.id, '?limit=abc&offset=-3')).results).toHaveLength(5);
    expect((await history(tableId, row.id, '?limit=0')).results).toHaveLength(5);
    const capped = await history(tableId, row.id, '?limit=100000&offset=1');
    expect(capped.results).toHaveLength(4);
    expect(new URL(capped.previous).searchParams.get('limit')).toBe('200');
    expect((await history(tableId, row.id, '?offset=99')).results).toEqual([]);
  });

  test('errors: unknown table and row are 404, a non-member is refused, no token is 401', async () => {
    const { tableId, primary } = await newTable('Private');
    const row = (await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'x' })).body;
    expect((await api('GET', historyUrl(tableId, 999999))).body).toMatchObject({ error: 'ERROR_ROW_DOES_NOT_EXIST' });
    expect((await api('GET', historyUrl(999999, row.id))).status).toBe(404);
    expect((await api('GET', historyUrl(999999, row.id))).body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
    const stranger = await api('GET', historyUrl(tableId, row.id), undefined, outsider.token);
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('GET', historyUrl(tableId, row.id), undefined, member.token)).status).toBe(200);
    expect((await t.request('GET', historyUrl(tableId, row.id))).status).toBe(401);
  });
});

describe('row_history_updated', () => {
  test('one message per entry to the row page, the originating socket included; not to other rows or non-members', async () => {
    const { tableId, primary } = await newTable('Live');
    const [a, b] = (await api('POST', `${rowsUrl(tableId)}batch/`, { items: [{ [`field_${primary}`]: 'a' }, { [`field_${primary}`]: 'b' }] })).body.items;
    const origin = await onRowPage(owner, tableId, a.id);
    const watcher = await onRowPage(member, tableId, a.id);
    const otherRow = await onRowPage(member, tableId, b.id);
    const stranger = await connect(t, outsider.token);
    open.push(stranger);
    stranger.send({ page: 'row', table_id: tableId, row_id: a.id });

    await api('PATCH', `${rowsUrl(tableId)}batch/`, { items: [{ id: a.id, [`field_${primary}`]: 'A' }] }, owner.token, origin.origin);
    const [entry] = (await history(tableId, a.id)).results;
    for (const client of [origin, watcher]) {
      const message = await client.waitFor('row_history_updated');
      expect(Object.keys(message)).toEqual(['type', 'row_history_entry', 'table_id', 'row_id']);
      expect(message).toEqual({ type: 'row_history_updated', row_history_entry: entry, table_id: tableId, row_id: a.id });
    }
    // The table-page messages go to table pages only.
    await expectNone(otherRow, stranger);
    expect(origin.received.filter((m) => m.type === 'row_history_updated')).toHaveLength(1);
    expect(watcher.received.filter((m) => m.type === 'row_history_updated')).toHaveLength(1);
  });

  test('a move and an unchanged update send nothing', async () => {
    const { tableId, primary } = await newTable('Still');
    const [a, b] = (await api('POST', `${rowsUrl(tableId)}batch/`, { items: [{ [`field_${primary}`]: 'a' }, { [`field_${primary}`]: 'b' }] })).body.items;
    const watcher = await onRowPage(owner, tableId, b.id);
    await api('PATCH', `${rowsUrl(tableId)}${b.id}/move/?before_id=${a.id}`);
    await api('PATCH', `${rowsUrl(tableId)}${b.id}/`, { [`field_${primary}`]: 'b' });
    await expectNone(watcher);
  });
});

describe('seams', () => {
  test('the trash restore hook records restore_from_trash (the linked rows their side) and tells the row page', async () => {
    const { tableId: projects, primary } = await newTable('Restored');
    const { tableId: people, primary: personName } = await newTable('Restorers');
    const link = (await api('POST', `/api/database/fields/table/${projects}/`, { name: 'Team', type: 'link_row', link_row_table_id: people })).body;
    const ann = (await api('POST', rowsUrl(people), { [`field_${personName}`]: 'Ann' })).body;
    const row = (await api('POST', rowsUrl(projects), { [`field_${primary}`]: 'Back', [`field_${link.id}`]: [ann.id] })).body;
    const watcher = await onRowPage(owner, projects, row.id);
    const annWatcher = await onRowPage(owner, people, ann.id);
    const context = await t.app.get(TableContextService).require(projects, owner.id, TableOperations.readRow);
    const snapshots = await t.app.get(RowsService).rowsByIds(context, [row.id]);
    await t.app.get(RowHistoryService).recordRestore({ id: owner.id, firstName: 'Owner' }, context, snapshots);
    const message = await watcher.waitFor('row_history_updated');
    expect(message.row_history_entry).toMatchObject({ action_type: 'restore_from_trash', user: { id: owner.id, name: 'Owner' }, before: {}, after: {}, fields_metadata: {} });
    const side = await annWatcher.waitFor('row_history_updated');
    expect(side.row_history_entry).toMatchObject({ action_type: 'update_rows', after: { [`field_${link.related_fields[0].id}`]: [row.id] } });
  });
});

describe('users', () => {
  test('a user deleted for good stays in the entries by name only', async () => {
    const leaver = await signUp(t, 'Leaver');
    const workspaceId = (await api('GET', '/api/applications/')).body[0].workspace.id;
    const invitation = await api('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email: leaver.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
    await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: leaver.token });
    const { tableId, primary } = await newTable('Left');
    const row = (await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'x' }, leaver.token)).body;
    expect((await history(tableId, row.id)).results[0].user).toEqual({ id: leaver.id, name: 'Leaver' });
    expect((await t.request('POST', '/api/user/schedule-account-deletion/', { token: leaver.token })).status).toBe(204);
    await t.app.get(UsersService).deleteExpiredAccounts(new Date(Date.now() + 365 * 24 * 3600 * 1000));
    expect((await history(tableId, row.id)).results[0].user).toEqual({ id: null, name: 'Leaver' });
  });
});

describe('retention', () => {
  test('the purge deletes entries older than ROW_HISTORY_RETENTION_DAYS and keeps the rest', async () => {
    const { tableId, primary } = await newTable('Old');
    const row = (await api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'x' })).body;
    await api('PATCH', `${rowsUrl(tableId)}${row.id}/`, { [`field_${primary}`]: 'y' });
    const ds = t.app.get(DataSource);
    const [created] = (await history(tableId, row.id)).results.slice(-1);
    // Make the create entry 181 days old.
    const old = new Date(Date.now() - 181 * 24 * 3600 * 1000).toISOString().replace('Z', '000Z');
    await ds.query(`UPDATE "database_rowhistory" SET "action_timestamp" = '${old}' WHERE "id" = ${created.id}`);
    const service = t.app.get(RowHistoryService);
    await service.purgeExpired();
    expect((await history(tableId, row.id)).results.map((e: any) => e.action_type)).toEqual(['update_rows']);
    // With the clock 181 days ahead, the rest goes too.
    await service.purgeExpired(new Date(Date.now() + 181 * 24 * 3600 * 1000));
    expect((await history(tableId, row.id)).count).toBe(0);
  });
});
