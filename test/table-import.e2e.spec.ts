import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable, endedJob } from './support/fixtures';
import { connect, WsClient } from './support/ws';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;
const sockets: WsClient[] = [];

const api = (method: string, path: string, body?: unknown, token = ada.token, headers: Record<string, string> = {}) => t.request(method, path, { token, body, headers });

const ended = (jobId: number, token = ada.token): Promise<any> => endedJob(t, token, jobId);

/** A table with Name (text, primary), Amount (number, 2 places), Done (boolean), Email, Kind (single select). */
async function typedTable(name: string): Promise<{ id: number; fields: Record<string, number> }> {
  const id = await emptyTable(t, ada, databaseId, name);
  const existing = (await api('GET', `/api/database/fields/table/${id}/`)).body;
  for (const field of existing.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Amount', type: 'number', number_decimal_places: 2 });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Done', type: 'boolean' });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Email', type: 'email' });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Kind', type: 'single_select', select_options: [{ value: 'A', color: 'blue' }, { value: 'B', color: 'red' }] });
  const fields = (await api('GET', `/api/database/fields/table/${id}/`)).body;
  return { id, fields: Object.fromEntries(fields.map((f: any) => [f.name, f.id])) };
}

const rowsOf = async (tableId: number) => (await api('GET', `/api/database/rows/table/${tableId}/?user_field_names=true&size=200`)).body;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = await databaseOf(t, ada);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

describe('import into an existing table', () => {
  test('values are parsed per field type; failing rows are reported by index and left out', async () => {
    const { id, fields } = await typedTable('Typed');
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, {
      data: [
        ['Ada', '12.5', 'true', 'ada@example.com', 'A'],
        ['Bob', 'not a number', 'yes', 'bob@example.com', 'B'],
        ['Cy', 3, false, 'nope', 'A'],
        ['Dee', null, 'no', '', 'Z'],
        ['Eve'],
      ],
    });
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'file_import',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      database_id: databaseId,
      name: null,
      table_id: id,
      first_row_header: false,
      report: { failing_rows: {} },
    });
    const job = await ended(res.body.id);
    expect(job.state).toBe('finished');
    expect(job.progress_percentage).toBe(100);
    expect(Object.keys(job.report.failing_rows).sort()).toEqual(['1', '2', '3']);
    expect(Object.keys(job.report.failing_rows['1'])).toEqual([`field_${fields.Amount}`]);
    expect(job.report.failing_rows['1'][`field_${fields.Amount}`]).toEqual([expect.any(String)]);
    expect(Object.keys(job.report.failing_rows['2'])).toEqual([`field_${fields.Email}`]);
    expect(Object.keys(job.report.failing_rows['3'])).toEqual([`field_${fields.Kind}`]);
    const rows = (await rowsOf(id)).results;
    expect(rows.map((r: any) => [r.Name, r.Amount, r.Done, r.Email, r.Kind?.value ?? null])).toEqual([
      ['Ada', '12.50', true, 'ada@example.com', 'A'],
      ['Eve', null, false, '', null],
    ]);
  });

  test('rows are appended after the existing ones; skipped fields keep their defaults', async () => {
    const { id, fields } = await typedTable('Append');
    await api('POST', `/api/database/rows/table/${id}/?user_field_names=true`, { Name: 'First' });
    const job = await ended((await api('POST', `/api/database/tables/${id}/import/async/`, { data: [['Second', '1', 'true']], configuration: { skipped_fields: [fields.Amount] } })).body.id);
    expect(job.state).toBe('finished');
    const rows = (await rowsOf(id)).results;
    expect(rows.map((r: any) => [r.order, r.Name, r.Amount, r.Done])).toEqual([
      ['1.00000000000000000000', 'First', null, false],
      ['2.00000000000000000000', 'Second', null, true],
    ]);
    expect(rows[1].id).toBe(rows[0].id + 1);
  });

  test('upsert updates the rows whose upsert values match and creates the others', async () => {
    const { id, fields } = await typedTable('Upsert');
    const formula = await api('POST', `/api/database/fields/table/${id}/`, { name: 'Double', type: 'formula', formula: "field('Amount') * 2" });
    expect(formula.status).toBe(200);
    await api('POST', `/api/database/rows/table/${id}/batch/?user_field_names=true`, { items: [{ Name: 'a', Amount: '1' }, { Name: 'b', Amount: '2' }] });
    const job = await ended(
      (
        await api('POST', `/api/database/tables/${id}/import/async/`, {
          data: [
            ['a', '10'],
            ['c', '30'],
          ],
          configuration: { upsert_fields: [fields.Name], upsert_values: [['a'], ['c']] },
        })
      ).body.id,
    );
    expect(job.state).toBe('finished');
    const rows = (await rowsOf(id)).results;
    const first = rows[0].id;
    expect(rows.map((r: any) => [r.id - first, r.Name, r.Amount])).toEqual([
      [0, 'a', '10.00'],
      [1, 'b', '2.00'],
      [2, 'c', '30.00'],
    ]);
    // Computed cells follow the updated and the new rows.
    expect(rows.map((r: any) => Number(r.Double))).toEqual([20, 4, 60]);
  });

  test('bad bodies, unknown fields, missing tables and outsiders are refused before any job', async () => {
    const { id } = await typedTable('Refusals');
    expect((await api('POST', `/api/database/tables/${id}/import/async/`, {})).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', `/api/database/tables/${id}/import/async/`, { data: [] })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', `/api/database/tables/${id}/import/async/`, { data: ['not a row'] })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    const mismatch = await api('POST', `/api/database/tables/${id}/import/async/`, { data: [['a']], configuration: { upsert_fields: [1], upsert_values: [] } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(Object.keys(mismatch.body.detail)).toEqual(['configuration']);
    // Baserow's TableImportConfiguration and TableImportSerializer, detail for detail.
    const refused = async (configuration: unknown, data: unknown[][] = [['a'], ['b']]) => {
      const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data, configuration });
      expect([JSON.stringify(configuration), res.status, res.body.error]).toEqual([JSON.stringify(configuration), 400, 'ERROR_REQUEST_BODY_VALIDATION']);
      return res.body.detail;
    };
    expect(await refused({ upsert_fields: [] })).toEqual({ configuration: { upsert_fields: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] } });
    expect(await refused({ upsert_fields: [0, 'x'] })).toEqual({
      configuration: { upsert_fields: { 0: [{ error: 'Ensure this value is greater than or equal to 1.', code: 'min_value' }], 1: [{ error: 'A valid integer is required.', code: 'invalid' }] } },
    });
    expect(await refused({ upsert_fields: 'x' })).toEqual({ configuration: { upsert_fields: [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }] } });
    expect(await refused({ upsert_fields: [1], upsert_values: [['a'], []] })).toEqual({ configuration: { upsert_values: { 1: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] } } });
    expect(await refused({ upsert_fields: [1, 2] })).toEqual({ configuration: { upsert_value: [{ error: 'upsert_values must not be empty when upsert_fields are provided.', code: 'invalid' }] } });
    const sameLength = { error: '`data` and `configuration.upsert_values` should have the same length.', code: 'invalid' };
    expect(await refused({ upsert_fields: [1, 2], upsert_values: [['a']] })).toEqual({ data: [sameLength], configuration: { upsert_values: sameLength } });
    expect((await api('POST', `/api/database/tables/${id}/import/async/`, { data: [['a']], configuration: { skipped_fields: [999999] } })).body).toEqual({
      error: 'ERROR_FIELD_NOT_IN_TABLE',
      detail: 'The provided field does not belong in the related table.',
    });
    expect((await api('POST', '/api/database/tables/999999/import/async/', { data: [['a']] })).status).toBe(404);
    expect((await api('POST', `/api/database/tables/${id}/import/async/`, { data: [['a']] }, eve.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    expect((await api('GET', '/api/jobs/')).body.jobs.filter((j: any) => j.table_id === id)).toEqual([]);
  });

  test('a small import is announced as rows_created to the table page, leaving the origin socket out', async () => {
    const { id } = await typedTable('Realtime');
    const watcher = await connect(t, ada.token);
    const origin = await connect(t, ada.token);
    sockets.push(watcher, origin);
    for (const socket of [watcher, origin]) {
      socket.send({ page: 'table', table_id: id });
      await socket.waitFor('page_add');
    }
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data: [['x'], ['y']] }, ada.token, origin.origin);
    await ended(res.body.id);
    const message = await watcher.waitFor('rows_created');
    expect(message).toMatchObject({ type: 'rows_created', table_id: id, before_row_id: null });
    expect(message.rows.map((r: any) => r.id)).toEqual((await rowsOf(id)).results.map((r: any) => r.id));
    expect(message.rows).toHaveLength(2);
    expect(origin.received.filter((m) => m.type === 'rows_created')).toEqual([]);
  });

  test('a large import is one job, in chunks, announced once as a forced table refresh', async () => {
    const { id } = await typedTable('Large');
    const watcher = await connect(t, ada.token);
    sockets.push(watcher);
    watcher.send({ page: 'table', table_id: id });
    await watcher.waitFor('page_add');
    const data = Array.from({ length: 100_000 }, (_, i) => [`row ${i}`, String(i % 1000), i % 2 ? 'true' : 'false', `u${i}@example.com`, i % 3 ? 'A' : 'B']);
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data });
    expect(res.status).toBe(200);
    const job = await ended(res.body.id);
    expect(job).toMatchObject({ state: 'finished', progress_percentage: 100, report: { failing_rows: {} } });
    const page = (await api('GET', `/api/database/rows/table/${id}/?user_field_names=true&size=1&page=100000`)).body;
    expect(page.count).toBe(100_000);
    expect(page.results[0]).toMatchObject({ Name: 'row 99999', Amount: '999.00', Done: true, Email: 'u99999@example.com' });
    const message = await watcher.waitFor('table_updated', 5000);
    expect(message).toMatchObject({ table_id: id, force_table_refresh: true });
    expect(watcher.received.filter((m) => m.type === 'rows_created')).toEqual([]);
  }, 120_000);

  test('a cancelled import stops and leaves nothing; progress shows while it runs', async () => {
    const { id } = await typedTable('Cancelled');
    const data = Array.from({ length: 100_000 }, (_, i) => [`row ${i}`, String(i), 'true', '', 'A']);
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data });
    let seen = 0;
    for (let i = 0; i < 2000 && seen === 0; i++) {
      const job = (await api('GET', `/api/jobs/${res.body.id}/`)).body;
      if (job.state === 'finished') throw new Error('The import ended before it could be cancelled.');
      seen = job.progress_percentage;
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(100);
    const cancel = await api('POST', `/api/jobs/${res.body.id}/cancel/`);
    expect(cancel.status).toBe(200);
    const job = await ended(res.body.id);
    expect(job.state).toBe('cancelled');
    // An append commits chunk by chunk; the job shows cancelled at once and its undo follows.
    for (let i = 0; i < 1500 && (await rowsOf(id)).count > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await rowsOf(id)).count).toBe(0);
  }, 120_000);

  test('too many failing rows fail the import, which writes nothing', async () => {
    const { id } = await typedTable('Failing');
    const data = [['ok', '1'], ...Array.from({ length: 30_001 }, () => ['bad', 'x'])];
    const job = await ended((await api('POST', `/api/database/tables/${id}/import/async/`, { data })).body.id);
    expect(job.state).toBe('failed');
    expect(job.human_readable_error).toBe('This file import has raised too many errors.');
    // The failed job keeps the report of the rows that failed (by index; the first row was fine).
    expect(Object.keys(job.report.failing_rows)).toHaveLength(30_001);
    expect(job.report.failing_rows['0']).toBeUndefined();
    expect(Object.keys(job.report.failing_rows['1'])).toHaveLength(1);
    expect((await rowsOf(id)).count).toBe(0);
  }, 60_000);
});
