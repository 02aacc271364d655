import { SignedUp, signUp, startApp, TestApp } from './support/app';

/**
 * Query parameters are validated by one pipe from the routes' query DTOs: ids beyond the
 * 32-bit range name nothing (404 as Baserow), negative ids are ids (404), non-numeric
 * values are DRF's "A valid integer is required.", NUL characters never reach the
 * database, and the paginators ignore bad values. Same answers on SQLite and PostgreSQL.
 */
let t: TestApp;
let user: SignedUp;
let tableId: number;
let rowId: number;
let gridId: number;
let fieldId: number;
/** Rows of the table (the new table's example rows and one more). */
let rowCount: number;

const BEYOND = '99999999999';
const HUGE = '9'.repeat(400);
const invalidInteger = (name: string) => ({ error: 'ERROR_QUERY_PARAMETER_VALIDATION', detail: { [name]: [{ error: 'A valid integer is required.', code: 'invalid' }] } });

beforeAll(async () => {
  t = await startApp();
  user = await signUp(t);
  const apps = (await t.request('GET', '/api/applications/', { token: user.token })).body;
  const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
  tableId = (await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: user.token, body: { name: 'Things' } })).body.id;
  fieldId = (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token: user.token })).body[0].id;
  rowId = (await t.request('POST', `/api/database/rows/table/${tableId}/`, { token: user.token, body: { [`field_${fieldId}`]: 'one' } })).body.id;
  rowCount = (await t.request('GET', `/api/database/rows/table/${tableId}/`, { token: user.token })).body.count;
  gridId = (await t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Grid', type: 'grid' } })).body.id;
});
afterAll(() => t.close());

const get = (path: string) => t.request('GET', path, { token: user.token });

describe('ids in query parameters', () => {
  it.each([BEYOND, HUGE, '-1', '0'])('view_id=%s names no view: 404', async (value) => {
    const res = await get(`/api/database/rows/table/${tableId}/?view_id=${value}`);
    expect([res.status, res.body.error]).toEqual([404, 'ERROR_VIEW_DOES_NOT_EXIST']);
  });

  it.each(['abc', '1x', '%00', '', '1.5'])('view_id=%s is not an integer: 400', async (value) => {
    const res = await get(`/api/database/rows/table/${tableId}/?view_id=${value}`);
    expect([res.status, res.body]).toEqual([400, invalidInteger('view_id')]);
  });

  it('reads a repeated parameter as its last value, as Django does', async () => {
    expect((await get(`/api/database/rows/table/${tableId}/?view_id=abc&view_id=${gridId}`)).status).toBe(200);
    expect((await get(`/api/database/rows/table/${tableId}/?view_id=${gridId}&view_id=abc`)).status).toBe(400);
  });

  it.each([BEYOND, '-5'])('before=%s names no row: 404 and nothing created', async (value) => {
    const res = await t.request('POST', `/api/database/rows/table/${tableId}/?before=${value}`, { token: user.token, body: {} });
    expect([res.status, res.body.error]).toEqual([404, 'ERROR_ROW_DOES_NOT_EXIST']);
    const batch = await t.request('POST', `/api/database/rows/table/${tableId}/batch/?before=${value}`, { token: user.token, body: { items: [{}] } });
    expect([batch.status, batch.body.error]).toEqual([404, 'ERROR_ROW_DOES_NOT_EXIST']);
    expect((await get(`/api/database/rows/table/${tableId}/`)).body.count).toBe(rowCount);
  });

  it('before and before_id refuse non-integers', async () => {
    const create = await t.request('POST', `/api/database/rows/table/${tableId}/?before=x`, { token: user.token, body: {} });
    expect([create.status, create.body]).toEqual([400, invalidInteger('before')]);
    const move = await t.request('PATCH', `/api/database/rows/table/${tableId}/${rowId}/move/?before_id=%00`, { token: user.token });
    expect([move.status, move.body]).toEqual([400, invalidInteger('before_id')]);
  });

  it('before_id beyond the range names no row', async () => {
    const move = await t.request('PATCH', `/api/database/rows/table/${tableId}/${rowId}/move/?before_id=${BEYOND}`, { token: user.token });
    expect([move.status, move.body.error]).toEqual([404, 'ERROR_ROW_DOES_NOT_EXIST']);
  });

  it('rows/names: table ids beyond the range are not found, row ids beyond it name no row', async () => {
    const table = await get(`/api/database/rows/names/?table__${BEYOND}=1`);
    expect([table.status, table.body.error]).toEqual([404, 'ERROR_TABLE_DOES_NOT_EXIST']);
    const rows = await get(`/api/database/rows/names/?table__${tableId}=${rowId},${BEYOND}`);
    expect([rows.status, rows.body]).toEqual([200, { [tableId]: { [rowId]: 'one' } }]);
    const other = await get(`/api/database/rows/names/?table__${tableId}=1&size=2`);
    expect([other.status, other.body.detail]).toEqual([400, { size: [{ error: "Only table Id prefixed by 'table__' are allowed as parameter.", code: 'invalid_parameter' }] }]);
    const nul = await get(`/api/database/rows/names/?table__${tableId}=1%00`);
    expect(nul.status).toBe(200);
  });

  it('row ids beyond the range in batch bodies name no row', async () => {
    const update = await t.request('PATCH', `/api/database/rows/table/${tableId}/batch/`, { token: user.token, body: { items: [{ id: 2147483648 }] } });
    expect([update.status, update.body.error]).toEqual([404, 'ERROR_ROW_DOES_NOT_EXIST']);
    const remove = await t.request('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { token: user.token, body: { items: [2147483648] } });
    expect([remove.status, remove.body.error]).toEqual([404, 'ERROR_ROW_DOES_NOT_EXIST']);
  });

  it('adjacent: view_id beyond the range is not found', async () => {
    const res = await get(`/api/database/rows/table/${tableId}/${rowId}/adjacent/?view_id=${BEYOND}`);
    expect([res.status, res.body.error]).toEqual([404, 'ERROR_VIEW_DOES_NOT_EXIST']);
  });
});

describe('integers in query parameters', () => {
  it.each([
    [BEYOND, 400, 'max_value'],
    ['-1', 400, 'min_value'],
    ['abc', 400, 'invalid'],
  ])('views list limit=%s', async (value, status, code) => {
    const res = await get(`/api/database/views/table/${tableId}/?limit=${value}`);
    expect([res.status, res.body.error, res.body.detail.limit[0].code]).toEqual([status, 'ERROR_QUERY_PARAMETER_VALIDATION', code]);
  });

  it('unique_row_values bounds limit', async () => {
    const res = await get(`/api/database/fields/${fieldId}/unique_row_values/?limit=${BEYOND}`);
    expect([res.status, res.body.detail]).toEqual([400, { limit: [{ error: 'Ensure this value is less than or equal to 100.', code: 'max_value' }] }]);
  });

  it.each([`page=${BEYOND}`, `page=${HUGE}`, 'page=-1', 'page=abc', 'size=abc', 'size=0', 'size=-3', 'page=%00'])('rows list ignores a bad page value (%s), as DRF paginators do', async (query) => {
    const res = await get(`/api/database/rows/table/${tableId}/?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(rowCount);
  });

  it('rows list refuses a page size beyond the limit', async () => {
    const res = await get(`/api/database/rows/table/${tableId}/?size=${BEYOND}`);
    expect([res.status, res.body.error]).toEqual([400, 'ERROR_PAGE_SIZE_LIMIT']);
  });

  it.each([`limit=${BEYOND}`, `limit=${HUGE}&offset=${BEYOND}`, 'limit=abc&offset=-1', 'limit=0', `page=${BEYOND}&size=${BEYOND}`, 'limit_linked_items=x', `limit_linked_items=${BEYOND}`])(
    'grid view rows ignore bad pagination values (%s)',
    async (query) => {
      const res = await get(`/api/database/views/grid/${gridId}/?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(rowCount);
    },
  );

  it('grid view: limit/offset within the range pages as asked', async () => {
    const res = await get(`/api/database/views/grid/${gridId}/?limit=1&offset=${BEYOND}`);
    expect([res.status, res.body.results]).toEqual([200, []]);
  });
});

describe('flags and text in query parameters', () => {
  it.each([['', true], ['true', true], ['1', true], ['false', false], ['0', false], ['nonsense', false]])('user_field_names=%s', async (value, names) => {
    const res = await get(`/api/database/rows/table/${tableId}/${rowId}/?user_field_names=${value}`);
    expect(res.status).toBe(200);
    expect('Name' in res.body).toBe(names);
  });

  it('search with NUL answers alike on both databases', async () => {
    const res = await get(`/api/database/rows/table/${tableId}/?search=o%00ne`);
    expect([res.status, res.body.count]).toEqual([200, 1]);
  });

  it('search_mode is a choice', async () => {
    const res = await get(`/api/database/rows/table/${tableId}/?search_mode=fuzzy`);
    expect([res.status, res.body.detail]).toEqual([400, { search_mode: [{ error: '"fuzzy" is not a valid choice.', code: 'invalid_choice' }] }]);
  });
});
