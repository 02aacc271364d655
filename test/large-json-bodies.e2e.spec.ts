import { JSON_BODY_WORKER_BYTES } from '../src/core/http/json-body.guard';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable, endedJob } from './support/fixtures';

/**
 * A JSON body larger than JSON_BODY_WORKER_BYTES is parsed in a worker thread and handed back in
 * pieces: the routes answer exactly as for a small body (the same values, the same 400s).
 */
let t: TestApp;
let ada: SignedUp;
let databaseId: number;

const ROWS = 20_000;
const rows = (): unknown[][] => Array.from({ length: ROWS }, (_, i) => [`row ${i}`, String(i), i % 2 ? 'words here' : '']);
const json = { 'Content-Type': 'application/json' };
const post = (path: string, raw: string) => t.request('POST', path, { token: ada.token, raw, headers: json });

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  databaseId = await databaseOf(t, ada);
});
afterAll(async () => {
  await t?.close();
});

describe('large JSON bodies', () => {
  test('a large create body makes the table with every row, in order', async () => {
    const raw = JSON.stringify({ name: 'Big', data: [['Name', 'Number', 'Words'], ...rows()], first_row_header: true });
    expect(raw.length).toBeGreaterThan(JSON_BODY_WORKER_BYTES);
    const res = await post(`/api/database/tables/database/${databaseId}/async/`, raw);
    expect(res.status).toBe(200);
    const job = await endedJob(t, ada.token, res.body.id);
    expect(job.state).toBe('finished');
    const list = await t.request('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true&size=2`, { token: ada.token });
    expect(list.body.count).toBe(ROWS);
    expect(list.body.results.map((r: any) => [r.Name, r.Number, r.Words])).toEqual([
      ['row 0', '0', ''],
      ['row 1', '1', 'words here'],
    ]);
    const last = await t.request('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true&size=1&page=${ROWS}`, { token: ada.token });
    expect(last.body.results.map((r: any) => [r.Name, r.Number])).toEqual([[`row ${ROWS - 1}`, String(ROWS - 1)]]);
  });

  test('a large import body appends every row', async () => {
    // Three text fields and one row.
    const tableId = (await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, body: { name: 'Target', data: [['a', 'b', 'c']] } })).body.id;
    const res = await post(`/api/database/tables/${tableId}/import/async/`, JSON.stringify({ data: rows() }));
    expect(res.status).toBe(200);
    const job = await endedJob(t, ada.token, res.body.id);
    expect(job).toMatchObject({ state: 'finished', report: { failing_rows: {} } });
    const list = await t.request('GET', `/api/database/rows/table/${tableId}/?size=1`, { token: ada.token });
    expect(list.body.count).toBe(ROWS + 1);
  });

  test('a large body that is not JSON answers the parse error JSON.parse gives', async () => {
    const raw = JSON.stringify({ name: 'Bad', data: rows() }).slice(0, -3) + '}x';
    let message = '';
    try {
      JSON.parse(raw);
    } catch (error) {
      message = (error as Error).message;
    }
    const res = await post(`/api/database/tables/database/${databaseId}/async/`, raw);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: `JSON parse error - ${message}` });
  });

  test('bad rows deep in a large body answer the same detail tree as in a small one', async () => {
    const data = rows();
    data[15_000] = ['a', null, 'c'];
    (data as unknown[])[17_000] = 'not a row';
    const big = await post(`/api/database/tables/database/${databaseId}/async/`, JSON.stringify({ name: 'Bad', data }));
    expect(big.status).toBe(400);
    expect(big.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        data: {
          '15000': { '1': [{ error: 'This field may not be null.', code: 'null' }] },
          '17000': [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }],
        },
      },
    });
    const small = await post(`/api/database/tables/database/${databaseId}/async/`, JSON.stringify({ name: 'Bad', data: [['a'], ['a', null, 'c'], 'not a row'] }));
    expect(small.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        data: {
          '1': { '1': [{ error: 'This field may not be null.', code: 'null' }] },
          '2': [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }],
        },
      },
    });
    // An import's cells may be null; a row that is no list is refused.
    const tableId = await emptyTable(t, ada, databaseId, 'Nulls');
    const imported = await post(`/api/database/tables/${tableId}/import/async/`, JSON.stringify({ data }));
    expect(imported.status).toBe(400);
    expect(imported.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { data: { '17000': [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }] } },
    });
  });

  test('a large body that is a list, not an object, answers non_field_errors', async () => {
    const res = await post(`/api/database/tables/database/${databaseId}/async/`, JSON.stringify(rows()));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { non_field_errors: [{ error: 'Invalid data. Expected a dictionary, but got list.', code: 'invalid' }] },
    });
  });

  test('a large body on another route is read the same way (too many items for a batch)', async () => {
    const tableId = await emptyTable(t, ada, databaseId, 'Batch');
    const items = Array.from({ length: 50_000 }, (_, i) => ({ Name: `r${i}` }));
    const res = await post(`/api/database/rows/table/${tableId}/batch/?user_field_names=true`, JSON.stringify({ items }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(res.body.detail.items).toBeDefined();
  });
});
