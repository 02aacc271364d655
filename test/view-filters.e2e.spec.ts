import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';
import { addMember } from './support/fixtures';

/**
 * Saved view filters and filter groups (§8.5): CRUD and every error, nested groups, preload
 * values, the rows endpoints applying them (grid, refresh, `view_id`), trashed fields, type
 * changes, duplication and the §4.9 messages on real sockets.
 */
let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let databaseId: number;
const open: WsClient[] = [];

const FILTER_KEYS = ['id', 'view', 'field', 'type', 'value', 'preload_values', 'group'];

async function api(method: string, path: string, body?: unknown, user: SignedUp = owner, headers: Record<string, string> = {}) {
  return t.request(method, path, { token: user.token, body, headers });
}

async function ok(method: string, path: string, body?: unknown, user: SignedUp = owner): Promise<any> {
  const res = await api(method, path, body, user);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A table with Name (text), Notes (long text), Active (boolean), a number field and rows named as given. */
async function newTable(names: string[] = []): Promise<{ id: number; name: number; notes: number; active: number; number: number; viewId: number; rowIds: number[] }> {
  const table = await ok('POST', `/api/database/tables/database/${databaseId}/`, { name: `T${Math.random()}` });
  const fields = await ok('GET', `/api/database/fields/table/${table.id}/`);
  const number = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Score', type: 'number' });
  const [view] = await ok('GET', `/api/database/views/table/${table.id}/`);
  // The example rows go, the test's rows come.
  const existing = await ok('GET', `/api/database/rows/table/${table.id}/`);
  if (existing.results.length) await ok('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing.results.map((r: any) => r.id) });
  const created = names.length
    ? await ok('POST', `/api/database/rows/table/${table.id}/batch/`, { items: names.map((n, i) => ({ [`field_${fields[0].id}`]: n, [`field_${number.id}`]: i + 1 })) })
    : { items: [] };
  return { id: table.id, name: fields[0].id, notes: fields[1].id, active: fields[2].id, number: number.id, viewId: view.id, rowIds: created.items.map((r: any) => r.id) };
}

async function gridNames(viewId: number, fieldId: number, query = ''): Promise<string[]> {
  const res = await ok('GET', `/api/database/views/grid/${viewId}/${query}`);
  return res.results.map((r: any) => r[`field_${fieldId}`]);
}

async function socket(user: SignedUp, tableId: number): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'table', table_id: tableId });
  await client.waitFor('page_add');
  return client;
}

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

describe('filters CRUD', () => {
  it('creates, lists, reads, updates and deletes a filter with Baserow’s shape', async () => {
    const table = await newTable();
    const created = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'equal', value: 'a' });
    expect(Object.keys(created)).toEqual(FILTER_KEYS);
    expect(created).toEqual({ id: expect.any(Number), view: table.viewId, field: table.name, type: 'equal', value: 'a', preload_values: {}, group: null });
    const defaults = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.notes, type: 'empty' });
    expect(defaults.value).toBe('');
    expect(await ok('GET', `/api/database/views/${table.viewId}/filters/`)).toEqual([created, defaults]);
    expect(await ok('GET', `/api/database/views/filter/${created.id}/`)).toEqual(created);
    const updated = await ok('PATCH', `/api/database/views/filter/${created.id}/`, { type: 'contains', value: 'b' });
    expect(updated).toEqual({ ...created, type: 'contains', value: 'b' });
    const moved = await ok('PATCH', `/api/database/views/filter/${created.id}/`, { field: table.number, type: 'higher_than', value: '1' });
    expect(moved).toMatchObject({ field: table.number, type: 'higher_than', value: '1' });
    expect((await api('DELETE', `/api/database/views/filter/${created.id}/`)).status).toBe(204);
    expect((await api('GET', `/api/database/views/filter/${created.id}/`)).body.error).toBe('ERROR_VIEW_FILTER_DOES_NOT_EXIST');
    expect(await ok('GET', `/api/database/views/${table.viewId}/filters/`)).toEqual([defaults]);
    const view = await ok('GET', `/api/database/views/${table.viewId}/?include=filters`);
    expect(view.filters).toEqual([defaults]);
    expect(view.filter_groups).toEqual([]);
  });

  it('answers every error of §8.5 and writes nothing', async () => {
    const table = await newTable();
    const other = await newTable();
    const filters = `/api/database/views/${table.viewId}/filters/`;
    const expectError = async (body: unknown, status: number, error: string) => {
      const res = await api('POST', filters, body);
      expect([res.status, res.body.error]).toEqual([status, error]);
      return res.body;
    };
    const missing = await expectError({ field: 999999, type: 'equal' }, 400, 'ERROR_REQUEST_BODY_VALIDATION');
    expect(missing.detail.field[0]).toEqual({ error: 'Invalid pk "999999" - object does not exist.', code: 'does_not_exist' });
    expect((await expectError({ field: table.name, type: 'nope' }, 400, 'ERROR_REQUEST_BODY_VALIDATION')).detail.type[0].code).toBe('invalid_choice');
    expect((await expectError({ type: 'equal' }, 400, 'ERROR_REQUEST_BODY_VALIDATION')).detail.field[0].code).toBe('required');
    await expectError({ field: other.name, type: 'equal' }, 400, 'ERROR_FIELD_NOT_IN_TABLE');
    const unsupported = await expectError({ field: table.active, type: 'contains', value: 'x' }, 400, 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
    expect(unsupported.detail).toBe('The filter contains is not compatible with field type boolean.');
    await expectError({ field: table.name, type: 'equal', group: 999999 }, 404, 'ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST');
    const foreignGroup = await ok('POST', `/api/database/views/${other.viewId}/filter-groups/`, {});
    await expectError({ field: table.name, type: 'equal', group: foreignGroup.id }, 404, 'ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST');
    expect((await api('POST', '/api/database/views/999999/filters/', { field: table.name, type: 'equal' })).body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    expect((await api('POST', filters, { field: table.name, type: 'equal' }, outsider)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('GET', '/api/database/views/filter/999999/')).status).toBe(404);
    expect(await ok('GET', filters)).toEqual([]);
    // An update to an incompatible pair or another table's field changes nothing.
    const filter = await ok('POST', filters, { field: table.name, type: 'contains', value: 'a' });
    expect((await api('PATCH', `/api/database/views/filter/${filter.id}/`, { field: table.active })).body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
    expect((await api('PATCH', `/api/database/views/filter/${filter.id}/`, { field: other.name })).body.error).toBe('ERROR_FIELD_NOT_IN_TABLE');
    expect((await api('PATCH', `/api/database/views/filter/${filter.id}/`, { value: 'b' }, outsider)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect(await ok('GET', `/api/database/views/filter/${filter.id}/`)).toEqual(filter);
  });
});

describe('filter groups', () => {
  it('nests groups through parent_group, refuses cycles and groups of other views, deletes with their filters', async () => {
    const table = await newTable();
    const other = await newTable();
    const outer = await ok('POST', `/api/database/views/${table.viewId}/filter-groups/`, {});
    expect(outer).toEqual({ id: expect.any(Number), filter_type: 'AND', view: table.viewId, parent_group: null });
    const inner = await ok('POST', `/api/database/views/${table.viewId}/filter-groups/`, { filter_type: 'OR', parent_group: outer.id });
    expect(inner).toMatchObject({ filter_type: 'OR', parent_group: outer.id });
    const foreign = await ok('POST', `/api/database/views/${other.viewId}/filter-groups/`, {});
    expect((await api('POST', `/api/database/views/${table.viewId}/filter-groups/`, { parent_group: foreign.id })).body.error).toBe('ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST');
    expect((await api('POST', `/api/database/views/${table.viewId}/filter-groups/`, { filter_type: 'XOR' })).body.detail.filter_type[0].code).toBe('invalid_choice');
    const cycle = await api('PATCH', `/api/database/views/filter-group/${outer.id}/`, { parent_group: inner.id });
    expect([cycle.status, cycle.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    expect((await api('PATCH', `/api/database/views/filter-group/${outer.id}/`, { parent_group: outer.id })).status).toBe(400);
    expect((await api('PATCH', `/api/database/views/filter-group/${outer.id}/`, { parent_group: foreign.id })).body.error).toBe('ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST');
    expect(await ok('PATCH', `/api/database/views/filter-group/${outer.id}/`, { filter_type: 'OR' })).toEqual({ ...outer, filter_type: 'OR' });
    expect(await ok('GET', `/api/database/views/filter-group/${inner.id}/`)).toEqual(inner);
    const inInner = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'equal', value: 'x', group: inner.id });
    expect(inInner.group).toBe(inner.id);
    const view = await ok('GET', `/api/database/views/${table.viewId}/?include=filters`);
    expect(view.filter_groups).toEqual([{ ...outer, filter_type: 'OR' }, inner]);
    expect((await api('GET', `/api/database/views/filter-group/${inner.id}/`, undefined, outsider)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('DELETE', `/api/database/views/filter-group/${outer.id}/`)).status).toBe(204);
    expect((await api('GET', `/api/database/views/filter-group/${inner.id}/`)).body.error).toBe('ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST');
    expect((await api('GET', `/api/database/views/filter/${inInner.id}/`)).body.error).toBe('ERROR_VIEW_FILTER_DOES_NOT_EXIST');
  });
});

describe('saved filters applied', () => {
  it('filters the grid rows, its refresh and view_id; filter_type, groups, filters_disabled and ad-hoc filters apply', async () => {
    const table = await newTable(['apple', 'banana', 'cherry', 'avocado']);
    const view = table.viewId;
    await ok('POST', `/api/database/views/${view}/filters/`, { field: table.name, type: 'contains', value: 'a' });
    const group = await ok('POST', `/api/database/views/${view}/filter-groups/`, { filter_type: 'OR' });
    await ok('POST', `/api/database/views/${view}/filters/`, { field: table.number, type: 'lower_than', value: '2', group: group.id });
    await ok('POST', `/api/database/views/${view}/filters/`, { field: table.number, type: 'higher_than', value: '3', group: group.id });
    // contains "a" AND (score < 2 OR score > 3): apple (1), avocado (4).
    expect(await gridNames(view, table.name)).toEqual(['apple', 'avocado']);
    expect((await ok('GET', `/api/database/views/grid/${view}/?count`)).count).toBe(2);
    const listed = await ok('GET', `/api/database/rows/table/${table.id}/?view_id=${view}`);
    expect(listed.results.map((r: any) => r[`field_${table.name}`])).toEqual(['apple', 'avocado']);
    const refreshed = await ok('POST', `/api/database/views/grid/${view}/`, { row_ids: table.rowIds });
    expect(refreshed.map((r: any) => r.id)).toEqual([table.rowIds[0], table.rowIds[3]]);
    // Ad-hoc filters replace the saved ones.
    expect(await gridNames(view, table.name, `?filter__field_${table.name}__equal=cherry`)).toEqual(['cherry']);
    await ok('PATCH', `/api/database/views/${view}/`, { filter_type: 'OR' });
    expect(await gridNames(view, table.name)).toEqual(['apple', 'banana', 'avocado']);
    await ok('PATCH', `/api/database/views/${view}/`, { filters_disabled: true });
    expect(await gridNames(view, table.name)).toEqual(['apple', 'banana', 'cherry', 'avocado']);
    await ok('PATCH', `/api/database/views/${view}/`, { filters_disabled: false, filter_type: 'AND' });
    expect(await gridNames(view, table.name)).toEqual(['apple', 'avocado']);
    await ok('PATCH', `/api/database/views/filter-group/${group.id}/`, { filter_type: 'AND' });
    expect(await gridNames(view, table.name)).toEqual([]);
  });

  it('preloads the linked row’s primary value for link_row_has', async () => {
    const table = await newTable(['one']);
    const target = await newTable(['Linked row']);
    const link = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Link', type: 'link_row', link_row_table_id: target.id });
    await ok('PATCH', `/api/database/rows/table/${table.id}/${table.rowIds[0]}/`, { [`field_${link.id}`]: [target.rowIds[0]] });
    const filter = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: link.id, type: 'link_row_has', value: String(target.rowIds[0]) });
    expect(filter.preload_values).toEqual({ display_name: 'Linked row' });
    const missing = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: link.id, type: 'link_row_has_not', value: '999999' });
    expect(missing.preload_values).toEqual({ display_name: null });
    expect((await ok('GET', `/api/database/views/${table.viewId}/?include=filters`)).filters[0].preload_values).toEqual({ display_name: 'Linked row' });
  });
});

describe('fields', () => {
  it('hides a trashed field’s filters and brings them back on restore with field_restored carrying them', async () => {
    const table = await newTable(['apple', 'banana']);
    const filter = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.number, type: 'higher_than', value: '1' });
    expect(await gridNames(table.viewId, table.name)).toEqual(['banana']);
    await ok('DELETE', `/api/database/fields/${table.number}/`);
    expect(await ok('GET', `/api/database/views/${table.viewId}/filters/`)).toEqual([]);
    expect((await api('GET', `/api/database/views/filter/${filter.id}/`)).status).toBe(404);
    expect(await gridNames(table.viewId, table.name)).toEqual(['apple', 'banana']);
    const client = await socket(member, table.id);
    const restored = await api('PATCH', '/api/trash/restore/', { trash_item_type: 'field', trash_item_id: table.number });
    expect(restored.status).toBe(204);
    const message = await client.waitFor('field_restored');
    expect(message.field.filters).toEqual([filter]);
    expect(message.field.sortings).toEqual([]);
    expect(message.field.group_bys).toEqual([]);
    expect(await ok('GET', `/api/database/views/${table.viewId}/filters/`)).toEqual([filter]);
    expect(await gridNames(table.viewId, table.name)).toEqual(['banana']);
  });

  it('deletes the filters a field’s new type refuses and keeps the compatible ones', async () => {
    const table = await newTable(['apple']);
    const kept = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.notes, type: 'empty' });
    const dropped = await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.notes, type: 'contains', value: 'x' });
    expect(await gridNames(table.viewId, table.name)).toEqual([]);
    await ok('PATCH', `/api/database/fields/${table.notes}/`, { type: 'password' });
    expect(await ok('GET', `/api/database/views/${table.viewId}/filters/`)).toEqual([kept]);
    expect((await api('GET', `/api/database/views/filter/${dropped.id}/`)).status).toBe(404);
    expect(await gridNames(table.viewId, table.name)).toEqual(['apple']);
  });
});

describe('duplication', () => {
  it('copies filters and nested groups with a view and with its table (fields mapped)', async () => {
    const table = await newTable(['apple', 'banana']);
    const outer = await ok('POST', `/api/database/views/${table.viewId}/filter-groups/`, { filter_type: 'OR' });
    const inner = await ok('POST', `/api/database/views/${table.viewId}/filter-groups/`, { parent_group: outer.id });
    await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'equal', value: 'banana', group: inner.id });
    await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'contains', value: 'an' });
    const copy = await ok('POST', `/api/database/views/${table.viewId}/duplicate/`);
    expect(copy.filter_groups).toHaveLength(2);
    const [copyOuter, copyInner] = copy.filter_groups;
    expect(copyOuter).toMatchObject({ filter_type: 'OR', parent_group: null, view: copy.id });
    expect(copyInner).toMatchObject({ parent_group: copyOuter.id, view: copy.id });
    expect(copy.filters.map((f: any) => [f.field, f.type, f.value, f.group])).toEqual([
      [table.name, 'equal', 'banana', copyInner.id],
      [table.name, 'contains', 'an', null],
    ]);
    expect(await gridNames(copy.id, table.name)).toEqual(['banana']);

    const job = await ok('POST', `/api/database/tables/${table.id}/duplicate/async/`);
    let done: any;
    for (let i = 0; i < 100 && !(done && done.state === 'finished'); i++) {
      done = await ok('GET', `/api/jobs/${job.id}/`);
      if (done.state !== 'finished') await new Promise((r) => setTimeout(r, 50));
    }
    const newTableId = done.duplicated_table.id;
    const newFields = await ok('GET', `/api/database/fields/table/${newTableId}/`);
    const views = await ok('GET', `/api/database/views/table/${newTableId}/?include=filters`);
    const first = views.find((v: any) => v.name === 'Grid');
    const nameField = newFields.find((f: any) => f.primary).id;
    expect(nameField).not.toBe(table.name);
    expect(first.filters.map((f: any) => f.field)).toEqual([nameField, nameField]);
    expect(first.filter_groups[1].parent_group).toBe(first.filter_groups[0].id);
    expect(await gridNames(first.id, nameField)).toEqual(['banana']);
  });
});

describe('real time', () => {
  it('sends view_filter_* and view_filter_group_* to the table page but not to the origin or a stranger', async () => {
    const table = await newTable();
    const origin = await socket(owner, table.id);
    const other = await socket(member, table.id);
    const stranger = await connect(t, outsider.token);
    open.push(stranger);
    stranger.send({ page: 'table', table_id: table.id });
    const headers = origin.origin;
    const group = (await api('POST', `/api/database/views/${table.viewId}/filter-groups/`, {}, owner, headers)).body;
    expect(await other.waitFor('view_filter_group_created')).toEqual({ type: 'view_filter_group_created', view_filter_group: group });
    const filter = (await api('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'equal', value: 'a', group: group.id }, owner, headers)).body;
    expect(await other.waitFor('view_filter_created')).toEqual({ type: 'view_filter_created', view_filter: filter });
    const updated = (await api('PATCH', `/api/database/views/filter/${filter.id}/`, { value: 'b' }, owner, headers)).body;
    expect(await other.waitFor('view_filter_updated')).toEqual({ type: 'view_filter_updated', view_filter_id: filter.id, view_filter: updated });
    const groupUpdated = (await api('PATCH', `/api/database/views/filter-group/${group.id}/`, { filter_type: 'OR' }, owner, headers)).body;
    expect(await other.waitFor('view_filter_group_updated')).toEqual({ type: 'view_filter_group_updated', view_filter_group_id: group.id, view_filter_group: groupUpdated });
    await api('DELETE', `/api/database/views/filter/${filter.id}/`, undefined, owner, headers);
    expect(await other.waitFor('view_filter_deleted')).toEqual({ type: 'view_filter_deleted', view_id: table.viewId, view_filter_id: filter.id });
    await api('DELETE', `/api/database/views/filter-group/${group.id}/`, undefined, owner, headers);
    expect(await other.waitFor('view_filter_group_deleted')).toEqual({ type: 'view_filter_group_deleted', view_id: table.viewId, view_filter_group_id: group.id });
    await expectNone(origin);
    expect(stranger.received.filter((m) => String(m.type).startsWith('view_'))).toEqual([]);
  });

  it('view_created of a duplicate carries its filters and groups', async () => {
    const table = await newTable();
    await ok('POST', `/api/database/views/${table.viewId}/filters/`, { field: table.name, type: 'equal', value: 'a' });
    const other = await socket(member, table.id);
    const copy = await ok('POST', `/api/database/views/${table.viewId}/duplicate/`);
    const message = await other.waitFor('view_created');
    expect(message.view.filters).toEqual(copy.filters);
    expect(message.view.filters).toHaveLength(1);
    expect(message.view.filter_groups).toEqual([]);
  });
});
