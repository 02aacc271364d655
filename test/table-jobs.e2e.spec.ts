import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { endedJob } from './support/fixtures';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

const finished = (jobId: number, token = ada.token): Promise<any> => endedJob(t, token, jobId);

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = (await api('GET', '/api/applications/')).body[0].id;
});
afterAll(async () => t?.close());

describe('table jobs', () => {
  test('async create runs a file_import job that creates the table', async () => {
    const res = await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Imported', data: [['Name', 'City'], ['Ada', 'London']], first_row_header: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'file_import',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      database_id: databaseId,
      name: 'Imported',
      table_id: null,
      first_row_header: true,
      report: { failing_rows: {} },
    });
    const job = await finished(res.body.id);
    expect(job).toMatchObject({ state: 'finished', progress_percentage: 100 });
    const rows = (await api('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true`)).body;
    expect(rows.results).toEqual([{ id: 1, order: '1.00000000000000000000', Name: 'Ada', City: 'London' }]);
  });

  test('a failing import ends as failed with a readable error and leaves no table', async () => {
    const before = (await api('GET', `/api/database/tables/database/${databaseId}/`)).body.length;
    const res = await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Bad', data: [['a', 'a']], first_row_header: true });
    const job = await finished(res.body.id);
    expect(job.state).toBe('failed');
    expect(job.human_readable_error).toMatch(/duplicate field names/);
    expect((await api('GET', `/api/database/tables/database/${databaseId}/`)).body.length).toBe(before);
  });

  test('async create validates the body and the database first', async () => {
    expect((await api('POST', `/api/database/tables/database/${databaseId}/async/`, {})).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'x' }, eve.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    expect((await api('POST', '/api/database/tables/database/999999/async/', { name: 'x' })).status).toBe(404);
  });

  test('duplicate copies fields, rows with their ids and orders, and is placed right after', async () => {
    const tables = (await api('GET', `/api/database/tables/database/${databaseId}/`)).body;
    const customers = tables.find((x: any) => x.name === 'Customers');
    await api('DELETE', `/api/database/rows/table/${customers.id}/2/`);
    const res = await api('POST', `/api/database/tables/${customers.id}/duplicate/async/`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ type: 'duplicate_table', state: 'pending', original_table: customers, duplicated_table: null });
    const job = await finished(res.body.id);
    expect(job.state).toBe('finished');
    expect(job.duplicated_table).toMatchObject({ name: 'Customers 2', order: customers.order + 1, database_id: databaseId });
    const copyId = job.duplicated_table.id;
    const original = (await api('GET', `/api/database/rows/table/${customers.id}/?user_field_names=true`)).body.results;
    const copied = (await api('GET', `/api/database/rows/table/${copyId}/?user_field_names=true`)).body.results;
    expect(copied).toEqual(original);
    const fields = (await api('GET', `/api/database/fields/table/${copyId}/`)).body;
    expect(fields.map((f: any) => [f.name, f.type, f.primary])).toEqual([
      ['Name', 'text', true],
      ['Last name', 'text', false],
      ['Notes', 'long_text', false],
      ['Active', 'boolean', false],
    ]);
    const views = (await api('GET', `/api/database/views/table/${copyId}/`)).body;
    expect(views.map((v: any) => [v.name, v.type])).toEqual([['Grid', 'grid']]);
    const options = (await api('GET', `/api/database/views/${views[0].id}/field-options/`)).body.field_options;
    const notes = fields.find((f: any) => f.name === 'Notes');
    expect(options[String(notes.id)].width).toBe(400);
    const order = (await api('GET', `/api/database/tables/database/${databaseId}/`)).body.map((x: any) => x.name);
    expect(order.indexOf('Customers 2')).toBe(order.indexOf('Customers') + 1);
    const created = await api('POST', `/api/database/rows/table/${copyId}/`, {});
    expect(created.body.id).toBe(6);
    const again = await finished((await api('POST', `/api/database/tables/${customers.id}/duplicate/async/`)).body.id);
    expect(again.duplicated_table.name).toBe('Customers 3');
  });

  test('duplicate of another user\'s table is refused', async () => {
    const tableId = (await api('GET', '/api/applications/')).body[0].tables[0].id;
    expect((await api('POST', `/api/database/tables/${tableId}/duplicate/async/`, undefined, eve.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
  });
});
