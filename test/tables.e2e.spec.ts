import { signUp, SignedUp, startApp, TestApp } from './support/app';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  const apps = await t.request('GET', '/api/applications/', { token: ada.token });
  databaseId = apps.body[0].id;
});
afterAll(async () => t?.close());

const fieldsOf = async (tableId: number, token = ada.token) => (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token })).body;
const rowsOf = async (tableId: number) => (await t.request('GET', `/api/database/rows/table/${tableId}/?user_field_names=true`, { token: ada.token })).body;

describe('example workspace', () => {
  test('sign-up gives Customers and Projects with their fields and rows', async () => {
    const apps = await t.request('GET', '/api/applications/', { token: ada.token });
    expect(apps.body[0].name).toBe("Ada's company");
    const [customers, projects] = apps.body[0].tables;
    expect(customers).toEqual({ id: customers.id, name: 'Customers', order: 1, database_id: databaseId, data_sync: null });
    expect(projects.name).toBe('Projects');
    const fields = await fieldsOf(customers.id);
    expect(fields.map((f: any) => [f.name, f.type, f.primary])).toEqual([
      ['Name', 'text', true],
      ['Last name', 'text', false],
      ['Notes', 'long_text', false],
      ['Active', 'boolean', false],
    ]);
    const rows = await rowsOf(customers.id);
    expect(rows.count).toBe(5);
    expect(rows.results[0]).toEqual({ id: 1, order: '1.00000000000000000000', Name: 'Ada', 'Last name': 'Lovelace', Notes: '', Active: true });
    expect(rows.results.map((r: any) => `${r.Name} ${r['Last name']}`)).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'John Von Neumann', 'Blaise Pascal']);
    const projectRows = await rowsOf(projects.id);
    expect(projectRows.results.map((r: any) => [r.Name, r.Started, r.Active])).toEqual([
      ['Calculator', '1642-01-01', false],
      ['Turing machine', '1936-06-01', true],
      ['Computer architecture', '1945-01-01', false],
      ['Cellular Automata', '1952-06-01', false],
    ]);
    const started = (await fieldsOf(projects.id)).find((f: any) => f.name === 'Started');
    expect(started).toMatchObject({ type: 'date', date_include_time: false, date_format: 'EU' });
  });

  test('init_with_data gives a table "Table" with the example fields and two empty rows', async () => {
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: ada.token })).body[0].id;
    const res = await t.request('POST', `/api/applications/workspace/${workspaceId}/`, { token: ada.token, body: { name: 'Init', type: 'database', init_with_data: true } });
    expect(res.status).toBe(200);
    expect(res.body.tables).toHaveLength(1);
    expect(res.body.tables[0].name).toBe('Table');
    const rows = await rowsOf(res.body.tables[0].id);
    expect(rows.results).toEqual([
      { id: 1, order: '1.00000000000000000000', Name: null, Notes: null, Active: false },
      { id: 2, order: '2.00000000000000000000', Name: null, Notes: null, Active: false },
    ]);
    const plain = await t.request('POST', `/api/applications/workspace/${workspaceId}/`, { token: ada.token, body: { name: 'Plain', type: 'database' } });
    expect(plain.body.tables).toEqual([]);
  });
});

describe('tables', () => {
  test('create without data: Name, Notes, Active and rows 1 and 2', async () => {
    const res = await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, body: { name: 'Orders' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'order', 'database_id', 'data_sync']);
    expect(res.body).toMatchObject({ name: 'Orders', database_id: databaseId, data_sync: null });
    const fields = await fieldsOf(res.body.id);
    expect(fields.map((f: any) => [f.name, f.type, f.primary])).toEqual([
      ['Name', 'text', true],
      ['Notes', 'long_text', false],
      ['Active', 'boolean', false],
    ]);
    const rows = await rowsOf(res.body.id);
    expect(rows.results.map((r: any) => r.id)).toEqual([1, 2]);
  });

  test('create with data and first_row_header', async () => {
    const res = await t.request('POST', `/api/database/tables/database/${databaseId}/`, {
      token: ada.token,
      body: { name: 'Import', data: [['Name', '', 'Age'], ['Bob', 'x', 42], ['Carl']], first_row_header: true },
    });
    expect(res.status).toBe(200);
    const fields = await fieldsOf(res.body.id);
    expect(fields.map((f: any) => [f.name, f.type, f.primary])).toEqual([
      ['Name', 'text', true],
      ['Field 2', 'text', false],
      ['Age', 'text', false],
    ]);
    const rows = await rowsOf(res.body.id);
    expect(rows.results.map((r: any) => [r.id, r.Name, r['Field 2'], r.Age])).toEqual([
      [1, 'Bob', 'x', '42'],
      [2, 'Carl', null, null],
    ]);
  });

  test('create with data without header names the fields Field N', async () => {
    const res = await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, body: { name: 'Raw', data: [['a', 'b']] } });
    const fields = await fieldsOf(res.body.id);
    expect(fields.map((f: any) => f.name)).toEqual(['Field 1', 'Field 2']);
  });

  test.each([
    [{ name: 'X', data: [] }, 'ERROR_REQUEST_BODY_VALIDATION', { data: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] }],
    [{ name: 'X', data: [[]] }, 'ERROR_INVALID_INITIAL_TABLE_DATA', 'The provided table data must at least contain one row and one column.'],
    [{ name: 'X', data: [['a', 'a']], first_row_header: true }, 'ERROR_INITIAL_TABLE_DATA_HAS_DUPLICATE_NAMES', expect.any(String)],
    [{ name: 'X', data: [['id']], first_row_header: true }, 'ERROR_RESERVED_BASEROW_FIELD_NAME', expect.any(String)],
    [{ name: 'X', data: [['x'.repeat(256)]], first_row_header: true }, 'ERROR_MAX_FIELD_NAME_LENGTH_EXCEEDED', expect.any(String)],
    [{ name: 'X', data: [Array.from({ length: 601 }, (_, i) => i)] }, 'ERROR_MAX_FIELD_COUNT_EXCEEDED', ''],
    [{}, 'ERROR_REQUEST_BODY_VALIDATION', { name: [{ error: 'This field is required.', code: 'required' }] }],
  ])('invalid create %#', async (body, error, detail) => {
    const before = (await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: ada.token })).body.length;
    const res = await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, detail });
    const after = (await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: ada.token })).body.length;
    expect(after).toBe(before);
  });

  test('get, rename, order, delete and the errors of other users', async () => {
    const created = (await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, body: { name: 'Temp' } })).body;
    expect((await t.request('GET', `/api/database/tables/${created.id}/`, { token: ada.token })).body).toEqual(created);
    const renamed = await t.request('PATCH', `/api/database/tables/${created.id}/`, { token: ada.token, body: { name: 'Renamed' } });
    expect(renamed.body.name).toBe('Renamed');
    expect((await t.request('GET', `/api/database/tables/${created.id}/`, { token: eve.token })).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    expect((await t.request('PATCH', `/api/database/tables/${created.id}/`, { token: eve.token, body: { name: 'x' } })).status).toBe(400);
    expect((await t.request('GET', `/api/database/tables/999999/`, { token: ada.token })).body).toEqual({
      error: 'ERROR_TABLE_DOES_NOT_EXIST',
      detail: 'The requested table does not exist.',
    });
    expect((await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: eve.token })).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    const ids = (await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: ada.token })).body.map((x: any) => x.id);
    const reversed = [...ids].reverse();
    expect((await t.request('POST', `/api/database/tables/database/${databaseId}/order/`, { token: ada.token, body: { table_ids: reversed } })).status).toBe(204);
    expect((await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: ada.token })).body.map((x: any) => x.id)).toEqual(reversed);
    const bad = await t.request('POST', `/api/database/tables/database/${databaseId}/order/`, { token: ada.token, body: { table_ids: [999999] } });
    expect(bad.body).toEqual({ error: 'ERROR_TABLE_NOT_IN_DATABASE', detail: 'The table id 999999 does not belong to the database.' });
    expect((await t.request('DELETE', `/api/database/tables/${created.id}/`, { token: eve.token })).status).toBe(400);
    expect((await t.request('DELETE', `/api/database/tables/${created.id}/`, { token: ada.token })).status).toBe(204);
    expect((await t.request('GET', `/api/database/tables/${created.id}/`, { token: ada.token })).status).toBe(404);
    expect((await t.request('GET', `/api/database/rows/table/${created.id}/`, { token: ada.token })).status).toBe(404);
  });
});
