import { FilterTypeRegistry } from '../src/database/filters/filter-type';
import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';
import { databaseOf } from './support/fixtures';

const VIEW_KEYS = [
  'id', 'table_id', 'name', 'order', 'type', 'table', 'filter_type', 'filters_disabled', 'public_view_has_password',
  'show_logo', 'allow_public_export', 'ownership_type', 'owned_by_id', 'row_identifier_type', 'row_height_size', 'public', 'slug',
];
const FULL_VIEW_KEYS = [
  'id', 'table_id', 'name', 'order', 'type', 'table', 'filter_type', 'filters', 'filter_groups', 'sortings', 'group_bys', 'decorations',
  'filters_disabled', 'public_view_has_password', 'show_logo', 'allow_public_export', 'ownership_type', 'owned_by_id',
  'row_identifier_type', 'row_height_size', 'public', 'slug',
];
const DEFAULT_OPTIONS = { width: 200, hidden: false, order: 32767, aggregation_type: '', aggregation_raw_type: '' };

let t: TestApp;
const open: WsClient[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t.close();
});

/** A new table with the example fields (Name, Notes, Active) and two rows. */
async function newTable(user: SignedUp, name = 'Things'): Promise<{ id: number; fields: any[] }> {
  const res = await t.request('POST', `/api/database/tables/database/${await databaseOf(t, user)}/`, { token: user.token, body: { name } });
  expect(res.status).toBe(200);
  const fields = (await t.request('GET', `/api/database/fields/table/${res.body.id}/`, { token: user.token })).body;
  return { id: res.body.id, fields };
}

async function views(user: SignedUp, tableId: number, query = ''): Promise<any[]> {
  const res = await t.request('GET', `/api/database/views/table/${tableId}/${query}`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function createView(user: SignedUp, tableId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body, headers });
}

async function socket(token: string): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}

async function subscribe(client: WsClient, tableId: number): Promise<void> {
  client.send({ page: 'table', table_id: tableId });
  expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: tableId } });
}

describe('default views of new tables', () => {
  it('gives a new table a grid view "Grid" with the example widths (Notes 400, Active 100)', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const [grid, ...rest] = await views(user, table.id);
    expect(rest).toEqual([]);
    expect(Object.keys(grid)).toEqual(VIEW_KEYS);
    expect(grid).toMatchObject({
      table_id: table.id, name: 'Grid', order: 1, type: 'grid', filter_type: 'AND', filters_disabled: false,
      public_view_has_password: false, show_logo: true, allow_public_export: false, ownership_type: 'collaborative', owned_by_id: null,
      row_identifier_type: 'id', row_height_size: 'small', public: false,
    });
    expect(grid.table).toEqual({ id: table.id, name: 'Things', order: expect.any(Number), database_id: expect.any(Number) });
    expect(grid.slug).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const options = await t.request('GET', `/api/database/views/${grid.id}/field-options/`, { token: user.token });
    expect(options.status).toBe(200);
    const [name, notes, active] = table.fields;
    expect(options.body).toEqual({
      field_options: {
        [name.id]: DEFAULT_OPTIONS,
        [notes.id]: { ...DEFAULT_OPTIONS, width: 400 },
        [active.id]: { ...DEFAULT_OPTIONS, width: 100 },
      },
    });
  });

  it('gives the sign-up example tables and init_with_data tables their grid view', async () => {
    const user = await signUp(t);
    const tables = (await t.request('GET', `/api/database/tables/database/${await databaseOf(t, user)}/`, { token: user.token })).body;
    for (const table of tables) expect((await views(user, table.id)).map((v) => v.name)).toEqual(['Grid']);
    const app = await t.request('POST', `/api/applications/workspace/${(await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id}/`, {
      token: user.token,
      body: { type: 'database', name: 'Init', init_with_data: true },
    });
    expect(app.status).toBe(200);
    const [table] = app.body.tables;
    expect((await views(user, table.id)).map((v) => [v.name, v.type])).toEqual([['Grid', 'grid']]);
  });
});

describe('view CRUD', () => {
  it('creates, reads, updates and deletes a grid view, with include gating', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const created = await createView(user, table.id, { name: 'Mine', type: 'grid', row_height_size: 'large', filter_type: 'OR' });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(VIEW_KEYS);
    expect(created.body).toMatchObject({ name: 'Mine', order: 2, filter_type: 'OR', row_height_size: 'large', row_identifier_type: 'id', public: false });

    const included = await t.request('GET', `/api/database/views/${created.body.id}/?include=filters,sortings,decorations,group_bys`, { token: user.token });
    expect(Object.keys(included.body)).toEqual(FULL_VIEW_KEYS);
    expect(included.body).toMatchObject({ filters: [], filter_groups: [], sortings: [], group_bys: [], decorations: [] });
    const onlySorts = await t.request('GET', `/api/database/views/${created.body.id}/?include=sortings`, { token: user.token });
    expect(Object.keys(onlySorts.body)).toContain('sortings');
    expect(Object.keys(onlySorts.body)).not.toContain('filters');
    const listed = await views(user, table.id, '?include=filters');
    expect(listed.map((v) => v.name)).toEqual(['Grid', 'Mine']);
    expect(listed[1].filter_groups).toEqual([]);
    expect(listed[1].sortings).toBeUndefined();

    expect((await views(user, table.id, '?limit=1')).map((v) => v.name)).toEqual(['Grid']);
    expect((await views(user, table.id, '?type=grid')).length).toBe(2);
    expect(await views(user, table.id, '?type=gallery')).toEqual([]);

    const patched = await t.request('PATCH', `/api/database/views/${created.body.id}/`, {
      token: user.token,
      body: { name: 'Renamed', row_identifier_type: 'count', public: true, public_view_password: 'secret123', filters_disabled: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', row_identifier_type: 'count', row_height_size: 'large', public: true, public_view_has_password: true, filters_disabled: true });
    const cleared = await t.request('PATCH', `/api/database/views/${created.body.id}/`, { token: user.token, body: { public_view_password: '' } });
    expect(cleared.body.public_view_has_password).toBe(false);
    const got = await t.request('GET', `/api/database/views/${created.body.id}/`, { token: user.token });
    expect(got.body).toEqual({ ...patched.body, public_view_has_password: false });

    const deleted = await t.request('DELETE', `/api/database/views/${created.body.id}/`, { token: user.token });
    expect(deleted.status).toBe(204);
    const gone = await t.request('GET', `/api/database/views/${created.body.id}/`, { token: user.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'ERROR_VIEW_DOES_NOT_EXIST', detail: 'The requested view does not exist.' });
    expect((await views(user, table.id)).map((v) => v.name)).toEqual(['Grid']);
  });

  it('rejects bad bodies, unknown tables and non-members without writing', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    const table = await newTable(user);
    const bad = await createView(user, table.id, { name: 'X', type: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { type: [{ error: '"x" is not a valid choice.', code: 'invalid_choice' }] } });
    const missing = await createView(user, table.id, {});
    expect(missing.body.detail).toEqual({
      name: [{ error: 'This field is required.', code: 'required' }],
      type: [{ error: 'This field is required.', code: 'required' }],
    });
    const badProp = await createView(user, table.id, { name: 'X', type: 'grid', row_height_size: 'huge' });
    expect(badProp.body.detail).toEqual({ row_height_size: [{ error: '"huge" is not a valid choice.', code: 'invalid_choice' }] });
    const list = await t.request('POST', `/api/database/views/table/${table.id}/`, { token: user.token, body: [] });
    expect(list.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await views(user, table.id)).length).toBe(1);

    const noTable = await createView(user, 999999, { name: 'X', type: 'grid' });
    expect(noTable.status).toBe(404);
    expect(noTable.body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
    const notMember = await createView(other, table.id, { name: 'X', type: 'grid' });
    expect(notMember.status).toBe(400);
    expect(notMember.body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    const [grid] = await views(user, table.id);
    expect((await t.request('GET', `/api/database/views/${grid.id}/`, { token: other.token })).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await t.request('GET', `/api/database/views/table/${table.id}/`, { token: other.token })).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    const shortPassword = await t.request('PATCH', `/api/database/views/${grid.id}/`, { token: user.token, body: { public_view_password: 'short', name: 'N' } });
    expect(shortPassword.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { public_view_password: [{ error: 'Ensure this field has at least 8 characters.', code: 'min_length' }] },
    });
    expect((await views(user, table.id))[0].name).toBe('Grid');
  });

  it('duplicates as "<name> 2", " 3"… right after the original, with its field options', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const [grid] = await views(user, table.id);
    const second = (await createView(user, table.id, { name: 'Other', type: 'grid' })).body;
    await t.request('PATCH', `/api/database/views/${grid.id}/`, { token: user.token, body: { public: true, row_height_size: 'medium' } });
    const copy = await t.request('POST', `/api/database/views/${grid.id}/duplicate/`, { token: user.token });
    expect(copy.status).toBe(200);
    expect(Object.keys(copy.body)).toEqual(FULL_VIEW_KEYS);
    expect(copy.body).toMatchObject({ name: 'Grid 2', order: 2, public: false, row_height_size: 'medium' });
    expect(copy.body.slug).not.toBe(grid.slug);
    const again = await t.request('POST', `/api/database/views/${grid.id}/duplicate/`, { token: user.token });
    expect(again.body.name).toBe('Grid 3');
    expect((await views(user, table.id)).map((v) => [v.id, v.order])).toEqual([
      [grid.id, 1], [again.body.id, 2], [copy.body.id, 3], [second.id, 4],
    ]);
    const options = (await t.request('GET', `/api/database/views/${copy.body.id}/field-options/`, { token: user.token })).body.field_options;
    expect(options[table.fields[1].id].width).toBe(400);
  });

  it('orders views; unknown ids are ERROR_VIEW_NOT_IN_TABLE', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const other = await newTable(user, 'Other');
    const [grid] = await views(user, table.id);
    const [otherGrid] = await views(user, other.id);
    const b = (await createView(user, table.id, { name: 'B', type: 'grid' })).body;
    const c = (await createView(user, table.id, { name: 'C', type: 'grid' })).body;
    const ordered = await t.request('POST', `/api/database/views/table/${table.id}/order/`, { token: user.token, body: { view_ids: [c.id, grid.id] } });
    expect(ordered.status).toBe(204);
    expect((await views(user, table.id)).map((v) => [v.name, v.order])).toEqual([['B', 0], ['C', 1], ['Grid', 2]]);
    const wrong = await t.request('POST', `/api/database/views/table/${table.id}/order/`, { token: user.token, body: { view_ids: [otherGrid.id] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'ERROR_VIEW_NOT_IN_TABLE', detail: `The view id ${otherGrid.id} does not belong to the table.` });
    const empty = await t.request('POST', `/api/database/views/table/${table.id}/order/`, { token: user.token, body: { view_ids: [] } });
    expect(empty.body.detail).toEqual({ view_ids: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] });
    const noTable = await t.request('POST', '/api/database/views/table/999999/order/', { token: user.token, body: { view_ids: [b.id] } });
    expect(noTable.body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
  });
});

describe('field options', () => {
  it('patches options partially, creates missing ones on the fly, and rejects unrelated or bad keys', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const other = await newTable(user, 'Other');
    const view = (await createView(user, table.id, { name: 'V', type: 'grid' })).body;
    const [name, notes] = table.fields;
    const patched = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, {
      token: user.token,
      body: { field_options: { [name.id]: { width: 150, hidden: true }, [String(notes.id)]: { order: 1, aggregation_raw_type: 'empty_count', aggregation_type: 'empty_count' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.field_options[name.id]).toEqual({ ...DEFAULT_OPTIONS, width: 150, hidden: true });
    expect(patched.body.field_options[notes.id]).toEqual({ ...DEFAULT_OPTIONS, order: 1, aggregation_type: 'empty_count', aggregation_raw_type: 'empty_count' });
    expect(Object.keys(patched.body.field_options).length).toBe(3);

    const field = await t.request('POST', `/api/database/fields/table/${table.id}/`, { token: user.token, body: { name: 'Extra', type: 'text' } });
    const fetched = await t.request('GET', `/api/database/views/${view.id}/field-options/`, { token: user.token });
    expect(fetched.body.field_options[field.body.id]).toEqual(DEFAULT_OPTIONS);
    expect(fetched.body.field_options[name.id].width).toBe(150);

    const unrelated = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, {
      token: user.token,
      body: { field_options: { [name.id]: { width: 1 }, [other.fields[0].id]: { width: 10 } } },
    });
    expect(unrelated.status).toBe(400);
    expect(unrelated.body).toEqual({ error: 'ERROR_UNRELATED_FIELD', detail: 'The field is not related to the provided view.' });
    const badKey = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { abc: { width: 1 } } } });
    expect(badKey.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { field_options: [{ error: 'Field option key must be numeric.', code: 'invalid_key' }] } });
    const badValue = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { [name.id]: { width: 'wide' } } } });
    expect(badValue.body.detail).toEqual({ field_options: [{ error: 'Must be valid field options.', code: 'invalid_value' }] });
    const after = await t.request('GET', `/api/database/views/${view.id}/field-options/`, { token: user.token });
    expect(after.body.field_options[name.id].width).toBe(150);
    const missingView = await t.request('GET', '/api/database/views/999999/field-options/', { token: user.token });
    expect(missingView.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
  });
});

describe('grid view rows', () => {
  async function tableWithRows(user: SignedUp) {
    const table = await newTable(user);
    const [name] = table.fields;
    const rowIds: number[] = [];
    // The two example rows come first (empty names).
    const existing = (await t.request('GET', `/api/database/rows/table/${table.id}/`, { token: user.token })).body.results;
    rowIds.push(...existing.map((r: { id: number }) => r.id));
    const batch = await t.request('POST', `/api/database/rows/table/${table.id}/batch/`, {
      token: user.token,
      body: { items: ['Ada', 'Bob', 'Cy'].map((v) => ({ [`field_${name.id}`]: v })) },
    });
    rowIds.push(...batch.body.items.map((r: { id: number }) => r.id));
    const [grid] = await views(user, table.id);
    return { table, grid, rowIds, name };
  }

  it('pages with page/size and limit/offset, counts, and excludes the count', async () => {
    const user = await signUp(t);
    const { grid, rowIds } = await tableWithRows(user);
    const base = `/api/database/views/grid/${grid.id}/`;
    const page2 = await t.request('GET', `${base}?size=2&page=2`, { token: user.token });
    expect(page2.status).toBe(200);
    expect(Object.keys(page2.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(page2.body.count).toBe(5);
    expect(page2.body.results.map((r: { id: number }) => r.id)).toEqual(rowIds.slice(2, 4));
    expect(page2.body.next).toBe(`${t.url}${base}?size=2&page=3`);
    expect(page2.body.previous).toBe(`${t.url}${base}?size=2`);

    const offset = await t.request('GET', `${base}?limit=2&offset=1`, { token: user.token });
    expect(offset.body.results.map((r: { id: number }) => r.id)).toEqual(rowIds.slice(1, 3));
    expect(offset.body.next).toBe(`${t.url}${base}?limit=2&offset=3`);
    expect(offset.body.previous).toBe(`${t.url}${base}?limit=2`);

    const all = await t.request('GET', base, { token: user.token });
    expect(all.body.results.length).toBe(5);
    expect(Object.keys(all.body.results[0])).toEqual(['id', 'order', ...Object.keys(all.body.results[0]).slice(2)]);
    expect(all.body.next).toBeNull();

    const excluded = await t.request('GET', `${base}?exclude_count=true&limit=1`, { token: user.token });
    expect(excluded.body).toEqual({ results: [all.body.results[0]] });
    const count = await t.request('GET', `${base}?count=true`, { token: user.token });
    expect(count.body).toEqual({ count: 5 });
  });

  it('adds field options and row metadata, searches, orders, picks fields and applies adhoc filters', async () => {
    const user = await signUp(t);
    const { table, grid, rowIds, name } = await tableWithRows(user);
    const base = `/api/database/views/grid/${grid.id}/`;
    const included = await t.request('GET', `${base}?include=field_options,row_metadata&size=2`, { token: user.token });
    expect(Object.keys(included.body)).toEqual(['count', 'next', 'previous', 'results', 'field_options', 'row_metadata']);
    expect(included.body.field_options[table.fields[2].id]).toEqual({ ...DEFAULT_OPTIONS, width: 100 });
    expect(included.body.row_metadata).toEqual({}); // rows without comments (or a notification mode) have nothing to report

    const search = await t.request('GET', `${base}?search=bo`, { token: user.token });
    expect(search.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Bob']);

    const ordered = await t.request('GET', `${base}?order_by=-field_${name.id}&size=3`, { token: user.token });
    expect(ordered.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Cy', 'Bob', 'Ada']);

    const picked = await t.request('GET', `${base}?include_fields=field_${name.id}&size=1`, { token: user.token });
    expect(Object.keys(picked.body.results[0])).toEqual(['id', 'order', `field_${name.id}`]);
    const dropped = await t.request('GET', `${base}?exclude_fields=field_${name.id}&size=1`, { token: user.token });
    expect(Object.keys(dropped.body.results[0])).not.toContain(`field_${name.id}`);

    const idFilter = await t.request('GET', `${base}?filter__field_id__in=${rowIds[3]},${rowIds[4]}`, { token: user.token });
    expect(idFilter.body.count).toBe(2);
    if (t.app.get(FilterTypeRegistry).get('equal')) {
      const equal = await t.request('GET', `${base}?filter__field_${name.id}__equal=Ada`, { token: user.token });
      expect(equal.body.results.map((r: any) => r.id)).toEqual([rowIds[2]]);
    }
    const badOrder = await t.request('GET', `${base}?order_by=field_999999`, { token: user.token });
    expect(badOrder.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
  });

  it('answers ERROR_GRID_DOES_NOT_EXIST for missing views and refreshes listed rows with POST', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    const { grid, rowIds, name } = await tableWithRows(user);
    const missing = await t.request('GET', '/api/database/views/grid/999999/', { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'ERROR_GRID_DOES_NOT_EXIST', detail: 'The requested grid view does not exist.' });
    expect((await t.request('GET', `/api/database/views/grid/${grid.id}/`, { token: other.token })).body.error).toBe('ERROR_USER_NOT_IN_GROUP');

    const refreshed = await t.request('POST', `/api/database/views/grid/${grid.id}/`, { token: user.token, body: { row_ids: [rowIds[3], rowIds[2], 999999], field_ids: [name.id] } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual([
      { id: rowIds[2], order: expect.any(String), [`field_${name.id}`]: 'Ada' },
      { id: rowIds[3], order: expect.any(String), [`field_${name.id}`]: 'Bob' },
    ]);
    const bad = await t.request('POST', `/api/database/views/grid/${grid.id}/`, { token: user.token, body: {} });
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { row_ids: [{ error: 'This field is required.', code: 'required' }] } });
  });

  it('lets the rows endpoint use view_id of the table only', async () => {
    const user = await signUp(t);
    const { table, grid } = await tableWithRows(user);
    const other = await newTable(user, 'Other');
    const [otherGrid] = await views(user, other.id);
    const ok = await t.request('GET', `/api/database/rows/table/${table.id}/?view_id=${grid.id}`, { token: user.token });
    expect(ok.status).toBe(200);
    expect(ok.body.count).toBe(5);
    const wrong = await t.request('GET', `/api/database/rows/table/${table.id}/?view_id=${otherGrid.id}`, { token: user.token });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
  });
});

describe('real-time view messages (§4.9)', () => {
  it('sends view_created, view_updated, field options, views_reordered and view_deleted to the table page, not to the origin or outsiders', async () => {
    const user = await signUp(t);
    const outsider = await signUp(t);
    const table = await newTable(user);
    const watcher = await socket(user.token);
    const origin = await socket(user.token);
    const stranger = await socket(outsider.token);
    await subscribe(watcher, table.id);
    await subscribe(origin, table.id);
    stranger.send({ page: 'table', table_id: table.id });

    const created = await createView(user, table.id, { name: 'Live', type: 'grid' }, origin.origin);
    const message = await watcher.waitFor('view_created');
    expect(message).toEqual({ type: 'view_created', view: { ...created.body, filters: [], filter_groups: [], sortings: [], group_bys: [], decorations: [] } });
    expect(Object.keys(message.view)).toEqual(FULL_VIEW_KEYS);

    const patched = await t.request('PATCH', `/api/database/views/${created.body.id}/`, { token: user.token, body: { name: 'Live 2' }, headers: origin.origin });
    expect(await watcher.waitFor('view_updated')).toEqual({ type: 'view_updated', view_id: created.body.id, view: patched.body });

    const [name] = table.fields;
    const options = await t.request('PATCH', `/api/database/views/${created.body.id}/field-options/`, {
      token: user.token,
      body: { field_options: { [name.id]: { width: 321 } } },
      headers: origin.origin,
    });
    expect(await watcher.waitFor('view_field_options_updated')).toEqual({ type: 'view_field_options_updated', view_id: created.body.id, field_options: options.body.field_options });

    const [grid] = await views(user, table.id);
    await t.request('POST', `/api/database/views/table/${table.id}/order/`, { token: user.token, body: { view_ids: [created.body.id, grid.id] }, headers: origin.origin });
    expect(await watcher.waitFor('views_reordered')).toEqual({ type: 'views_reordered', table_id: table.id, order: [created.body.id, grid.id] });

    const copy = await t.request('POST', `/api/database/views/${grid.id}/duplicate/`, { token: user.token, headers: origin.origin });
    const copied = await watcher.waitFor('view_created');
    expect(copied.view).toEqual(copy.body);
    expect(await watcher.waitFor('views_reordered')).toEqual({ type: 'views_reordered', table_id: table.id, order: [created.body.id, grid.id, copy.body.id] });

    await t.request('DELETE', `/api/database/views/${created.body.id}/`, { token: user.token, headers: origin.origin });
    expect(await watcher.waitFor('view_deleted')).toEqual({ type: 'view_deleted', table_id: table.id, view_id: created.body.id });

    await expectNone(origin, stranger, watcher);
  });

  it('sends to the origin socket too when no WebSocketId is given', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const client = await socket(user.token);
    await subscribe(client, table.id);
    const created = await createView(user, table.id, { name: 'Mine', type: 'grid' });
    expect((await client.waitFor('view_created')).view.id).toBe(created.body.id);
  });
});
