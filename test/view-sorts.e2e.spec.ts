import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';
import { addMember } from './support/fixtures';

/**
 * Saved sorts and group-bys (§8.6): CRUD and every error, the grid ordering rows by group-bys
 * then sorts with `group_by_metadata`, `order_by` replacing the saved sorts, `view_id`,
 * trashed fields, type changes, duplication and the §4.9 messages on real sockets.
 */
let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let databaseId: number;
const open: WsClient[] = [];

async function api(method: string, path: string, body?: unknown, user: SignedUp = owner, headers: Record<string, string> = {}) {
  return t.request(method, path, { token: user.token, body, headers });
}

async function ok(method: string, path: string, body?: unknown, user: SignedUp = owner): Promise<any> {
  const res = await api(method, path, body, user);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A table with Name (text), Notes (long text), Active (boolean), Score (number), a link field and the given rows. */
async function newTable(rows: [string, number, boolean][] = []) {
  const table = await ok('POST', `/api/database/tables/database/${databaseId}/`, { name: `T${Math.random()}` });
  const fields = await ok('GET', `/api/database/fields/table/${table.id}/`);
  const number = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Score', type: 'number' });
  const link = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Link', type: 'link_row', link_row_table_id: table.id, has_related_field: false });
  const [view] = await ok('GET', `/api/database/views/table/${table.id}/`);
  const existing = await ok('GET', `/api/database/rows/table/${table.id}/`);
  if (existing.results.length) await ok('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing.results.map((r: any) => r.id) });
  const [name, notes, active] = fields.map((f: any) => f.id);
  if (rows.length) {
    await ok('POST', `/api/database/rows/table/${table.id}/batch/`, {
      items: rows.map(([n, score, on]) => ({ [`field_${name}`]: n, [`field_${number.id}`]: score, [`field_${active}`]: on })),
    });
  }
  return { id: table.id, name, notes, active, number: number.id, link: link.id, viewId: view.id };
}

async function socket(user: SignedUp, tableId: number): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'table', table_id: tableId });
  await client.waitFor('page_add');
  return client;
}

const names = (res: any, fieldId: number) => res.results.map((r: any) => r[`field_${fieldId}`]);

beforeAll(async () => {
  t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
  owner = await signUp(t, 'Owner');
  member = await signUp(t, 'Member');
  outsider = await signUp(t, 'Outsider');
  const app = (await api('GET', '/api/applications/')).body.find((a: any) => a.type === 'database');
  databaseId = app.id;
  await addMember(t, owner, member, app.workspace.id);
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

describe('sorts', () => {
  it('creates, lists, reads, updates and deletes sorts with Baserow’s shape and defaults', async () => {
    const table = await newTable();
    const sort = await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.name });
    expect(sort).toEqual({ id: expect.any(Number), view: table.viewId, field: table.name, order: 'ASC', type: 'default' });
    expect(Object.keys(sort)).toEqual(['id', 'view', 'field', 'order', 'type']);
    const second = await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.number, order: 'DESC' });
    expect(await ok('GET', `/api/database/views/${table.viewId}/sortings/`)).toEqual([sort, second]);
    expect(await ok('GET', `/api/database/views/sort/${sort.id}/`)).toEqual(sort);
    expect(await ok('PATCH', `/api/database/views/sort/${sort.id}/`, { order: 'DESC' })).toEqual({ ...sort, order: 'DESC' });
    expect((await ok('GET', `/api/database/views/${table.viewId}/?include=sortings`)).sortings).toEqual([{ ...sort, order: 'DESC' }, second]);
    expect((await api('DELETE', `/api/database/views/sort/${sort.id}/`)).status).toBe(204);
    expect((await api('GET', `/api/database/views/sort/${sort.id}/`)).body).toEqual({ error: 'ERROR_VIEW_SORT_DOES_NOT_EXIST', detail: 'The view sort does not exist.' });
  });

  it('answers every error of §8.6 and writes nothing', async () => {
    const table = await newTable();
    const other = await newTable();
    const path = `/api/database/views/${table.viewId}/sortings/`;
    const expectError = async (body: unknown, status: number, error: string, detail?: string) => {
      const res = await api('POST', path, body);
      expect([res.status, res.body.error]).toEqual([status, error]);
      if (detail) expect(res.body.detail).toBe(detail);
      return res.body;
    };
    expect((await expectError({ field: 999999 }, 400, 'ERROR_REQUEST_BODY_VALIDATION')).detail.field[0].code).toBe('does_not_exist');
    expect((await expectError({ field: table.name, order: 'UP' }, 400, 'ERROR_REQUEST_BODY_VALIDATION')).detail.order[0].code).toBe('invalid_choice');
    await expectError({ field: other.name }, 400, 'ERROR_FIELD_NOT_IN_TABLE');
    await expectError({ field: table.link }, 400, 'ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED', 'The field does not support view sorting on the given type.');
    const sort = await ok('POST', path, { field: table.name });
    await expectError({ field: table.name, order: 'DESC' }, 400, 'ERROR_VIEW_SORT_FIELD_ALREADY_EXISTS', 'A sort with the field already exists in the view.');
    const second = await ok('POST', path, { field: table.number });
    expect((await api('PATCH', `/api/database/views/sort/${second.id}/`, { field: table.name })).body.error).toBe('ERROR_VIEW_SORT_FIELD_ALREADY_EXISTS');
    expect((await api('PATCH', `/api/database/views/sort/${second.id}/`, { field: table.link })).body.error).toBe('ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED');
    expect((await api('PATCH', `/api/database/views/sort/${second.id}/`, { order: 'DESC' }, outsider)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('POST', path, { field: table.notes }, outsider)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect(await ok('GET', path)).toEqual([sort, second]);
  });

  it('keeps one sort per field when the same sort is created at once', async () => {
    const table = await newTable();
    const path = `/api/database/views/${table.viewId}/sortings/`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', path, { field: table.number })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) expect([res.status, res.body.error]).toEqual([400, 'ERROR_VIEW_SORT_FIELD_ALREADY_EXISTS']);
    expect(await ok('GET', path)).toHaveLength(1);
  });
});

describe('group-bys', () => {
  it('CRUD with width, and every ERROR_VIEW_GROUP_BY_* error', async () => {
    const table = await newTable();
    const path = `/api/database/views/${table.viewId}/group_bys/`;
    const groupBy = await ok('POST', path, { field: table.active });
    expect(groupBy).toEqual({ id: expect.any(Number), view: table.viewId, field: table.active, order: 'ASC', width: 200, type: 'default' });
    expect(Object.keys(groupBy)).toEqual(['id', 'view', 'field', 'order', 'width', 'type']);
    expect(await ok('PATCH', `/api/database/views/group_by/${groupBy.id}/`, { width: 300, order: 'DESC' })).toEqual({ ...groupBy, width: 300, order: 'DESC' });
    expect((await api('POST', path, { field: table.active })).body).toEqual({ error: 'ERROR_VIEW_GROUP_BY_FIELD_ALREADY_EXISTS', detail: 'A group by for the field already exists in the view.' });
    expect((await api('POST', path, { field: table.link })).body).toEqual({ error: 'ERROR_VIEW_GROUP_BY_FIELD_NOT_SUPPORTED', detail: 'The field does not support view grouping.' });
    expect((await api('GET', '/api/database/views/group_by/999999/')).body).toEqual({ error: 'ERROR_VIEW_GROUP_BY_DOES_NOT_EXIST', detail: 'The view group by does not exist.' });
    expect(await ok('GET', path)).toEqual([{ ...groupBy, width: 300, order: 'DESC' }]);
    expect((await ok('GET', `/api/database/views/${table.viewId}/?include=group_bys`)).group_bys).toEqual([{ ...groupBy, width: 300, order: 'DESC' }]);
    expect((await api('DELETE', `/api/database/views/group_by/${groupBy.id}/`)).status).toBe(204);
    expect(await ok('GET', path)).toEqual([]);
  });
});

describe('applied to rows', () => {
  it('orders grid rows by group-bys then sorts, answers group_by_metadata, and order_by replaces the saved sorts', async () => {
    const table = await newTable([
      ['d', 4, true],
      ['a', 1, false],
      ['c', 3, true],
      ['b', 2, false],
      ['e', 5, true],
    ]);
    await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.number, order: 'DESC' });
    let res = await ok('GET', `/api/database/views/grid/${table.viewId}/`);
    expect(names(res, table.name)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(res.group_by_metadata).toBeUndefined();
    const listed = await ok('GET', `/api/database/rows/table/${table.id}/?view_id=${table.viewId}`);
    expect(names(listed, table.name)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(names(await ok('GET', `/api/database/views/grid/${table.viewId}/?order_by=field_${table.name}`), table.name)).toEqual(['a', 'b', 'c', 'd', 'e']);

    await ok('POST', `/api/database/views/${table.viewId}/group_bys/`, { field: table.active });
    res = await ok('GET', `/api/database/views/grid/${table.viewId}/?size=3`);
    expect(names(res, table.name)).toEqual(['b', 'a', 'e']);
    expect(res.group_by_metadata).toEqual({ [`field_${table.active}`]: [{ [`field_${table.active}`]: false, count: 2 }, { [`field_${table.active}`]: true, count: 3 }] });
    // Group-bys still come first under an ad-hoc order.
    res = await ok('GET', `/api/database/views/grid/${table.viewId}/?order_by=field_${table.name}`);
    expect(names(res, table.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // A saved filter is counted in the metadata; two levels give the combinations.
    await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.number, type: 'higher_than', value: '1' });
    await ok('POST', `/api/database/views/${table.viewId}/group_bys/`, { field: table.name, order: 'DESC' });
    res = await ok('GET', `/api/database/views/grid/${table.viewId}/?size=2`);
    expect(names(res, table.name)).toEqual(['b', 'e']);
    expect(res.group_by_metadata).toEqual({
      [`field_${table.active}`]: [{ [`field_${table.active}`]: false, count: 1 }, { [`field_${table.active}`]: true, count: 3 }],
      [`field_${table.name}`]: [
        { [`field_${table.active}`]: false, [`field_${table.name}`]: 'b', count: 1 },
        { [`field_${table.active}`]: true, [`field_${table.name}`]: 'e', count: 1 },
      ],
    });
  });

  it('hides a trashed field’s sorts and group-bys and drops the ones a new type cannot sort', async () => {
    const table = await newTable([['b', 1, true], ['a', 2, false]]);
    const sort = await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.number, order: 'DESC' });
    const groupBy = await ok('POST', `/api/database/views/${table.viewId}/group_bys/`, { field: table.number });
    await ok('DELETE', `/api/database/fields/${table.number}/`);
    expect(await ok('GET', `/api/database/views/${table.viewId}/sortings/`)).toEqual([]);
    expect(await ok('GET', `/api/database/views/${table.viewId}/group_bys/`)).toEqual([]);
    const res = await ok('GET', `/api/database/views/grid/${table.viewId}/`);
    expect(names(res, table.name)).toEqual(['b', 'a']);
    expect(res.group_by_metadata).toBeUndefined();
    const client = await socket(member, table.id);
    expect((await api('PATCH', '/api/trash/restore/', { trash_item_type: 'field', trash_item_id: table.number })).status).toBe(204);
    const message = await client.waitFor('field_restored');
    expect(message.field.sortings).toEqual([sort]);
    expect(message.field.group_bys).toEqual([groupBy]);
    expect(await ok('GET', `/api/database/views/${table.viewId}/sortings/`)).toEqual([sort]);

    const textSort = await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.notes });
    await ok('PATCH', `/api/database/fields/${table.notes}/`, { type: 'password' });
    expect((await api('GET', `/api/database/views/sort/${textSort.id}/`)).status).toBe(404);
    expect(await ok('GET', `/api/database/views/${table.viewId}/sortings/`)).toEqual([sort]);
  });

  it('copies sorts and group-bys with a duplicated view', async () => {
    const table = await newTable();
    await ok('POST', `/api/database/views/${table.viewId}/sortings/`, { field: table.name, order: 'DESC' });
    await ok('POST', `/api/database/views/${table.viewId}/group_bys/`, { field: table.active, width: 250 });
    const copy = await ok('POST', `/api/database/views/${table.viewId}/duplicate/`);
    expect(copy.sortings).toEqual([{ id: expect.any(Number), view: copy.id, field: table.name, order: 'DESC', type: 'default' }]);
    expect(copy.group_bys).toEqual([{ id: expect.any(Number), view: copy.id, field: table.active, order: 'ASC', width: 250, type: 'default' }]);
  });
});

describe('real time', () => {
  it('sends view_sort_* and view_group_by_* to the table page but not to the origin or a stranger', async () => {
    const table = await newTable();
    const origin = await socket(owner, table.id);
    const other = await socket(member, table.id);
    const stranger = await connect(t, outsider.token);
    open.push(stranger);
    stranger.send({ page: 'table', table_id: table.id });
    const headers = origin.origin;
    for (const [kind, path, single] of [['view_sort', 'sortings', 'sort'], ['view_group_by', 'group_bys', 'group_by']] as const) {
      const created = (await api('POST', `/api/database/views/${table.viewId}/${path}/`, { field: table.name }, owner, headers)).body;
      expect(await other.waitFor(`${kind}_created`)).toEqual({ type: `${kind}_created`, [kind]: created });
      const updated = (await api('PATCH', `/api/database/views/${single}/${created.id}/`, { order: 'DESC' }, owner, headers)).body;
      expect(await other.waitFor(`${kind}_updated`)).toEqual({ type: `${kind}_updated`, [`${kind}_id`]: created.id, [kind]: updated });
      await api('DELETE', `/api/database/views/${single}/${created.id}/`, undefined, owner, headers);
      expect(await other.waitFor(`${kind}_deleted`)).toEqual({ type: `${kind}_deleted`, view_id: table.viewId, [`${kind}_id`]: created.id });
    }
    await expectNone(origin);
    expect(stranger.received.filter((m) => String(m.type).startsWith('view_'))).toEqual([]);
  });
});
