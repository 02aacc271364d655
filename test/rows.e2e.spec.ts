import { signUp, SignedUp, startApp, TestApp } from './support/app';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;
let tableId: number;
let name: number;
let price: number;
let active: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = (await api('GET', '/api/applications/')).body[0].id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Items' })).body.id;
  const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
  name = fields[0].id;
  active = fields[2].id;
  price = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Price', type: 'number', number_decimal_places: 2 })).body.id;
  await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [1, 2] });
});
afterAll(async () => t?.close());

const list = (query = '') => api('GET', `/api/database/rows/table/${tableId}/${query}`);

describe('rows', () => {
  test('create, get, update, delete a row with field_<id> keys and user field names', async () => {
    const created = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${name}`]: 'Apple', [`field_${price}`]: '1.5', unknown: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: 3, order: '1.00000000000000000000', [`field_${name}`]: 'Apple', [`field_${2 + name - 1 + 0}`]: null, [`field_${active}`]: false, [`field_${price}`]: '1.50' });
    const got = await api('GET', `/api/database/rows/table/${tableId}/3/?user_field_names=true`);
    expect(got.body).toEqual({ id: 3, order: '1.00000000000000000000', Name: 'Apple', Notes: null, Active: false, Price: '1.50' });
    const updated = await api('PATCH', `/api/database/rows/table/${tableId}/3/?user_field_names=true`, { Price: 2, Active: 'yes', id: 99 });
    expect(updated.body).toMatchObject({ id: 3, Name: 'Apple', Active: true, Price: '2.00' });
    expect((await api('GET', `/api/database/rows/table/${tableId}/3/?include=metadata`)).body.metadata).toEqual({});
    expect((await api('DELETE', `/api/database/rows/table/${tableId}/3/`)).status).toBe(204);
    expect((await api('GET', `/api/database/rows/table/${tableId}/3/`)).body).toEqual({ error: 'ERROR_ROW_DOES_NOT_EXIST', detail: "The rows ['3'] do not exist." });
  });

  test('bad values answer the validation tree and write nothing', async () => {
    const res = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${price}`]: 'abc', [`field_${active}`]: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        [`field_${active}`]: [{ error: 'Must be a valid boolean.', code: 'invalid' }],
        [`field_${price}`]: [{ error: 'A valid number is required.', code: 'invalid' }],
      },
    });
    const negative = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${price}`]: -1 });
    expect(negative.body.detail[`field_${price}`][0].code).toBe('min_value');
    const notObject = await api('POST', `/api/database/rows/table/${tableId}/`, [1]);
    expect(notObject.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { non_field_errors: [{ error: 'Invalid data. Expected a dictionary, but got list.', code: 'invalid' }] } });
    const left = (await list()).body;
    expect(left.results).toEqual([]);
  });

  test('batch create, update and delete are all or nothing', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ [`field_${name}`]: `Item ${i}`, [`field_${price}`]: i }));
    const created = await api('POST', `/api/database/rows/table/${tableId}/batch/?include_metadata=true`, { items });
    expect(created.status).toBe(200);
    expect(created.body.items.map((r: any) => r[`field_${name}`])).toEqual(['Item 0', 'Item 1', 'Item 2', 'Item 3', 'Item 4']);
    expect(created.body.metadata.updated_field_ids.sort()).toEqual([name, price].sort());
    const ids = created.body.items.map((r: any) => r.id);
    const orders = created.body.items.map((r: any) => r.order);
    expect(new Set(orders).size).toBe(5);

    const badBatch = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{}, { [`field_${price}`]: 'x' }] });
    expect(badBatch.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { items: { '1': { [`field_${price}`]: [{ error: 'A valid number is required.', code: 'invalid' }] } } },
    });
    const tooMany = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: Array.from({ length: 201 }, () => ({})) });
    expect(tooMany.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { items: [{ error: 'Ensure this field has no more than 200 elements.', code: 'max_length' }] } });
    const none = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [] });
    expect(none.body.detail.items[0].code).toBe('min_length');
    expect((await list()).body.count).toBe(5);

    const updated = await api('PATCH', `/api/database/rows/table/${tableId}/batch/?user_field_names=true`, { items: [{ id: ids[0], Price: 10 }, { id: String(ids[1]), Name: 'Renamed' }] });
    expect(updated.status).toBe(200);
    expect(updated.body.items.map((r: any) => [r.id, r.Name, r.Price])).toEqual([
      [ids[0], 'Item 0', '10.00'],
      [ids[1], 'Renamed', '1.00'],
    ]);
    const duplicate = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: [{ id: ids[0] }, { id: ids[0] }] });
    expect(duplicate.body).toEqual({ error: 'ERROR_ROW_IDS_NOT_UNIQUE', detail: `The provided row ids [${ids[0]}] are not unique.` });
    const missing = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: [{ id: ids[0], [`field_${price}`]: 5 }, { id: 99999 }] });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'ERROR_ROW_DOES_NOT_EXIST', detail: 'The rows [99999] do not exist.' });
    const noId = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: [{ [`field_${price}`]: 5 }] });
    expect(noId.body.detail).toEqual({ items: { '0': { id: [{ error: 'This field is required.', code: 'required' }] } } });
    expect((await api('GET', `/api/database/rows/table/${tableId}/${ids[0]}/`)).body[`field_${price}`]).toBe('10.00');

    const badDelete = await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [ids[3], 99999] });
    expect(badDelete.status).toBe(404);
    expect((await list()).body.count).toBe(5);
    expect((await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [String(ids[3]), ids[4]] })).status).toBe(204);
    expect((await list()).body.count).toBe(3);
  });

  test('before, move and the default order', async () => {
    const first = (await list()).body.results[0];
    const placed = await api('POST', `/api/database/rows/table/${tableId}/?before=${first.id}`, { [`field_${name}`]: 'Front' });
    expect(Number(placed.body.order)).toBeLessThan(Number(first.order));
    expect(placed.body.order).toMatch(/^\d+\.\d{20}$/);
    expect((await list()).body.results[0].id).toBe(placed.body.id);
    const moved = await api('PATCH', `/api/database/rows/table/${tableId}/${placed.body.id}/move/`);
    expect(moved.status).toBe(200);
    const results = (await list()).body.results;
    expect(results[results.length - 1].id).toBe(placed.body.id);
    const back = await api('PATCH', `/api/database/rows/table/${tableId}/${placed.body.id}/move/?before_id=${first.id}`);
    expect((await list()).body.results[0].id).toBe(back.body.id);
  });

  test('rows of other tables and other users are not reachable', async () => {
    const eveDb = (await api('GET', '/api/applications/', undefined, eve.token)).body[0];
    const eveTable = eveDb.tables[0].id;
    expect((await api('GET', `/api/database/rows/table/${eveTable}/`)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    expect((await api('POST', `/api/database/rows/table/${eveTable}/`, {})).status).toBe(400);
    expect((await api('PATCH', `/api/database/rows/table/${eveTable}/1/`, {})).status).toBe(400);
    expect((await api('DELETE', `/api/database/rows/table/${eveTable}/1/`)).status).toBe(400);
    expect((await api('GET', `/api/database/rows/table/${eveTable}/`, undefined, eve.token)).body.count).toBe(5);
  });
});

describe('listing', () => {
  beforeAll(async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ [`field_${name}`]: `Row ${String(i).padStart(2, '0')}`, [`field_${price}`]: i % 7 }));
    await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
  });

  test('page and size with an exact count and absolute links', async () => {
    const total = (await list()).body.count;
    const page = await list('?size=10&page=2&user_field_names=1');
    expect(page.body.count).toBe(total);
    expect(page.body.results).toHaveLength(10);
    expect(page.body.next).toBe(`${t.url}/api/database/rows/table/${tableId}/?size=10&page=3&user_field_names=1`);
    expect(page.body.previous).toBe(`${t.url}/api/database/rows/table/${tableId}/?size=10&user_field_names=1`);
    const last = await list(`?size=10&page=${Math.ceil(total / 10)}`);
    expect(last.body.next).toBeNull();
    const past = await list('?size=10&page=99');
    expect(past.body).toMatchObject({ count: total, next: null, results: [] });
    expect((await list('?size=201')).body).toEqual({ error: 'ERROR_PAGE_SIZE_LIMIT', detail: 'The page size is limited to 200.' });
    expect((await list('?size=abc')).body.results.length).toBe(Math.min(total, 100));
  });

  test('search, order_by, include and exclude', async () => {
    const found = await list('?search=row 1');
    expect(found.body.count).toBe(10);
    // Numbers are searched as the API shows them; a term without digits never matches one.
    const byPrice = await list(`?search=10.00&include=field_${price}`);
    expect(byPrice.body.results.map((r: any) => r[`field_${price}`])).toEqual(['10.00']);
    expect((await list('?search=.00')).body.count).toBe((await list(`?filter__field_${price}__not_empty=`)).body.count);
    expect((await list('?search=zzz')).body.count).toBe(0);
    const sorted = await list(`?order_by=-field_${price},field_${name}&size=3&user_field_names=true`);
    expect(sorted.body.results.map((r: any) => [r.Name, r.Price])).toEqual([
      ['Item 0', '10.00'],
      ['Row 06', '6.00'],
      ['Row 13', '6.00'],
    ]);
    expect((await list(`?order_by=-${price}&size=1`)).body.results[0][`field_${price}`]).toBe('10.00');
    expect((await list('?order_by=-Price&size=1&user_field_names=true')).body.results[0].Price).toBe('10.00');
    expect((await list('?order_by=field_99999')).body).toEqual({ error: 'ERROR_ORDER_BY_FIELD_NOT_FOUND', detail: 'The field field_99999 was not found in the table.' });
    const included = await list(`?include=field_${name},field_${price}&exclude=field_${price}&size=1`);
    expect(Object.keys(included.body.results[0])).toEqual(['id', 'order', `field_${name}`]);
    const named = await list('?user_field_names=true&include=Name,"Price"&size=1');
    expect(Object.keys(named.body.results[0])).toEqual(['id', 'order', 'Name', 'Price']);
    expect((await list('?search_mode=foo')).body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: { search_mode: [{ error: '"foo" is not a valid choice.', code: 'invalid_choice' }] },
    });
  });

  test('filters errors', async () => {
    expect((await list('?filter__field_99999__equal=1')).body).toEqual({ error: 'ERROR_FILTER_FIELD_NOT_FOUND', detail: 'The field field_99999 was not found in the table.' });
    expect((await list(`?filter__field_${name}__nope=1`)).body).toEqual({ error: 'ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST', detail: "The view filter type nope doesn't exist." });
    expect((await list('?filters=notjson')).body).toEqual({
      error: 'ERROR_FILTERS_PARAM_VALIDATION_ERROR',
      detail: { error: 'The provided filters are not valid JSON.', code: 'invalid_json' },
    });
  });

  test('names', async () => {
    const res = await api('GET', `/api/database/rows/names/?table__${tableId}=4,5`);
    expect(res.body).toEqual({ [String(tableId)]: { '4': 'Item 0', '5': 'Renamed' } });
    expect((await api('GET', '/api/database/rows/names/?foo=1')).body.error).toBe('ERROR_QUERY_PARAMETER_VALIDATION');
  });

  test('adjacent', async () => {
    const rows = (await list('?size=3')).body.results;
    const next = await api('GET', `/api/database/rows/table/${tableId}/${rows[0].id}/adjacent/`);
    expect(next.body.id).toBe(rows[1].id);
    const previous = await api('GET', `/api/database/rows/table/${tableId}/${rows[1].id}/adjacent/?previous=true`);
    expect(previous.body.id).toBe(rows[0].id);
    const none = await api('GET', `/api/database/rows/table/${tableId}/${rows[0].id}/adjacent/?previous=true`);
    expect(none.status).toBe(204);
  });
});
