import { DataSource } from 'typeorm';
import { signUp, SignedUp, startApp, TestApp } from './support/app';

/**
 * The built-in filter names of `GET /api/database/rows/table/{id}/`:
 * `filter__field_created_on__<type>` and `filter__field_updated_on__<type>` filter on the
 * row's own timestamps in a table that has no created_on or last_modified field (Baserow's
 * `filter_by_fields_object`, which Zapier's triggers use); other names that are neither
 * `field_<id>` nor a field name are ignored; `field_<id>` of a missing field is an error.
 */
let t: TestApp;
let ada: SignedUp;
let tableId: number;
let nameField: number;
const rows: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
const get = (query: string) => api('GET', `/api/database/rows/table/${tableId}/?${query}`);

/** The keys of the rows a query answers, in order. */
async function keys(query: string): Promise<string[]> {
  const res = await get(query);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  const byId = Object.fromEntries(Object.entries(rows).map(([k, v]) => [v, k]));
  return res.body.results.map((r: { id: number }) => byId[r.id]);
}

const created = (type: string, value: string) => `filter__field_created_on__${type}=${encodeURIComponent(value)}`;
const updated = (type: string, value: string) => `filter__field_updated_on__${type}=${encodeURIComponent(value)}`;

/** Puts a row's timestamps at known instants (rows made through the API are stamped "now"). */
async function stamp(key: string, createdOn: string, updatedOn: string): Promise<void> {
  await t.app.get(DataSource).query(`UPDATE "database_table_${tableId}" SET "created_on" = '${createdOn}', "updated_on" = '${updatedOn}' WHERE "id" = ${rows[key]}`);
}

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  const databaseId = (await api('GET', '/api/applications/')).body[0].id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Events' })).body.id;
  const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
  expect(fields.map((f: { type: string }) => f.type)).not.toEqual(expect.arrayContaining(['created_on']));
  expect(fields.map((f: { type: string }) => f.type)).not.toEqual(expect.arrayContaining(['last_modified']));
  nameField = fields[0].id;
  await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [1, 2] });
  for (const key of ['r1', 'r2', 'r3']) {
    const res = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: key });
    rows[key] = res.body.id;
  }
  // r1 is on 10 March in UTC but already 11 March in Amsterdam (UTC+1) and Tokyo (UTC+9).
  await stamp('r1', '2024-03-10T23:30:00.000000Z', '2024-03-12T00:00:00.000000Z');
  await stamp('r2', '2024-03-11T12:00:00.000000Z', '2024-03-12T00:00:00.000000Z');
  await stamp('r3', '2024-03-12T08:00:00.000000Z', '2024-03-12T00:00:00.000000Z');
});
afterAll(async () => t?.close());

describe('filter__field_created_on__<type>', () => {
  test('legacy date filters compare the local date, in UTC or the value’s timezone', async () => {
    expect(await keys(created('date_equal', '2024-03-11'))).toEqual(['r2']);
    expect(await keys(created('date_equal', 'Europe/Amsterdam?2024-03-11'))).toEqual(['r1', 'r2']);
    expect(await keys(created('date_not_equal', 'UTC?2024-03-11'))).toEqual(['r1', 'r3']);
    expect(await keys(created('date_after', 'UTC?2024-03-10'))).toEqual(['r2', 'r3']);
    expect(await keys(created('date_after', 'Europe/Amsterdam?2024-03-11'))).toEqual(['r3']);
    expect(await keys(created('date_before', 'UTC?2024-03-11'))).toEqual(['r1']);
    expect(await keys(created('date_before', 'Europe/Amsterdam?2024-03-11'))).toEqual([]);
    expect(await keys(created('date_before_or_equal', 'Asia/Tokyo?2024-03-11'))).toEqual(['r1', 'r2']);
  });

  test('a value with a time compares the exact instant (Zapier sends ISO instants)', async () => {
    expect(await keys(created('date_after', '2024-03-11T11:00:00.000Z'))).toEqual(['r2', 'r3']);
    expect(await keys(created('date_after', 'UTC?2024-03-11 12:00'))).toEqual(['r3']);
    expect(await keys(created('date_before', '2024-03-11T12:00:00.000Z'))).toEqual(['r1']);
    expect(await keys(created('date_equal', 'UTC?2024-03-11 12:00'))).toEqual(['r2']);
  });

  test('multi-step date filters', async () => {
    expect(await keys(created('date_is', 'UTC?2024-03-11?exact_date'))).toEqual(['r2']);
    expect(await keys(created('date_is', 'Asia/Tokyo?2024-03-12?exact_date'))).toEqual(['r3']);
    expect(await keys(created('date_is_after', 'Europe/Amsterdam?2024-03-10?exact_date'))).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(created('date_is_after', 'UTC?2024-03-10?exact_date'))).toEqual(['r2', 'r3']);
    expect(await keys(created('date_is_on_or_before', 'UTC?2024-03-11?exact_date'))).toEqual(['r1', 'r2']);
    expect(await keys(created('date_is_not', 'UTC?2024-03-11?exact_date'))).toEqual(['r1', 'r3']);
  });

  test('other filter types of a created_on field apply; the others are Baserow’s errors', async () => {
    expect(await keys(created('empty', ''))).toEqual([]);
    expect(await keys(created('not_empty', ''))).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(created('contains', '11/03/2024'))).toEqual(['r2']);
    const incompatible = await get(created('higher_than', '1'));
    expect(incompatible.status).toBe(400);
    expect(incompatible.body).toEqual({ error: 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD', detail: 'The filter higher_than is not compatible with field type created_on.' });
    const unknown = await get(created('nope', '1'));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST', detail: "The view filter type nope doesn't exist." });
  });

  test('combines with field filters, filter_type and user_field_names', async () => {
    const name = `filter__field_${nameField}__equal=r1`;
    expect(await keys(`${created('date_after', 'UTC?2024-03-10')}&${name}`)).toEqual([]);
    expect(await keys(`${created('date_after', 'UTC?2024-03-10')}&${name}&filter_type=OR`)).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(`${created('date_before', 'UTC?2024-03-12')}&${updated('date_equal', 'UTC?2024-03-12')}&filter__Name__equal=r2&user_field_names=true`)).toEqual(['r2']);
  });
});

describe('the grid view endpoint', () => {
  test('takes the built-in names too', async () => {
    const view = await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Grid', type: 'grid' });
    expect(view.status).toBe(200);
    const res = await api('GET', `/api/database/views/grid/${view.body.id}/?${created('date_after', 'Europe/Amsterdam?2024-03-10')}&filter__nonsense__equal=x`);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([rows.r1, rows.r2, rows.r3]);
    const after = await api('GET', `/api/database/views/grid/${view.body.id}/?${created('date_after', 'UTC?2024-03-11')}`);
    expect(after.body.results.map((r: { id: number }) => r.id)).toEqual([rows.r3]);
  });
});

describe('filter__field_updated_on__<type>', () => {
  test('follows the row’s last change: a PATCH moves updated_on, never created_on', async () => {
    expect(await keys(updated('date_equal', 'UTC?2024-03-12'))).toEqual(['r1', 'r2', 'r3']);
    const patched = await api('PATCH', `/api/database/rows/table/${tableId}/${rows.r2}/`, { [`field_${nameField}`]: 'r2 again' });
    expect(patched.status).toBe(200);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    // One second ahead: the stamp was taken on the server's clock before the answer came back.
    const soon = new Date(Date.now() + 1000).toISOString();
    expect(await keys(updated('date_equal', 'UTC?2024-03-12'))).toEqual(['r1', 'r3']);
    expect(await keys(updated('date_is_after', 'UTC?2025-01-01?exact_date'))).toEqual(['r2']);
    expect(await keys(created('date_is_after', 'UTC?2025-01-01?exact_date'))).toEqual([]);
    // The "row updated" trigger of Baserow's Zapier app.
    const zapier = [updated('date_before', soon), updated('date_after', twoHoursAgo), created('date_before', twoHoursAgo)].join('&');
    expect(await keys(`${zapier}&filter_type=AND&user_field_names=true`)).toEqual(['r2']);
  });
});

describe('names that are not fields', () => {
  test('are ignored unless they are field_<id>, whose missing field is an error', async () => {
    expect(await keys('filter__nonsense__equal=x')).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(`filter__created_on__date_after=${encodeURIComponent('UTC?2030-01-01')}`)).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(`filter__${nameField}__equal=r1`)).toEqual(['r1', 'r2', 'r3']);
    expect(await keys('filter__Name__equal=r1')).toEqual(['r1', 'r2', 'r3']);
    expect(await keys('filter__Name__equal=r1&user_field_names=true')).toEqual(['r1']);
    expect(await keys('filter__Nobody__equal=r1&user_field_names=true')).toEqual(['r1', 'r2', 'r3']);
    expect(await keys(`filter__field_${nameField}__equal=r1&user_field_names=true`)).toEqual(['r1']);
    for (const query of ['filter__field_999999__equal=1', 'filter__field_999999__equal=1&user_field_names=true', 'filter__field_99999999999999999999__equal=1']) {
      const missing = await get(query);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
    }
    expect((await get('filter__field_999999__equal=1')).body.detail).toBe('The field field_999999 was not found in the table.');
  });

  test('filter__field_id__in without a valid id filters nothing, as in Baserow', async () => {
    expect(await keys(`filter__field_id__in=${rows.r1},${rows.r3}`)).toEqual(['r1', 'r3']);
    expect(await keys(`filter__field_id__in=${rows.r1},nope`)).toEqual(['r1']);
    expect(await keys('filter__field_id__in=nope,never')).toEqual(['r1', 'r2', 'r3']);
    expect(await keys('filter__field_id__in=')).toEqual(['r1', 'r2', 'r3']);
    expect(await keys('filter__field_id__in=999999')).toEqual([]);
  });

  test('a field named like a built-in wins with user_field_names', async () => {
    const field = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'field_created_on', type: 'text' });
    expect(field.status).toBe(200);
    try {
      expect(await keys(created('date_before', 'UTC?2024-03-11'))).toEqual(['r1']);
      const asText = await get(`${created('date_before', 'UTC?2024-03-11')}&user_field_names=true`);
      expect(asText.status).toBe(400);
      expect(asText.body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
    } finally {
      await api('DELETE', `/api/database/fields/${field.body.id}/`);
    }
  });

  test('the filters JSON names fields by id (or name) only, as Baserow’s serializer does', async () => {
    const json = (tree: unknown, extra = '') => get(`filters=${encodeURIComponent(JSON.stringify(tree))}${extra}`);
    const leaf = { field: 'field_created_on', type: 'date_after', value: 'UTC?2024-03-10' };
    const byId = await json({ filter_type: 'AND', filters: [leaf] });
    expect(byId.status).toBe(400);
    expect(byId.body).toEqual({ error: 'ERROR_FILTERS_PARAM_VALIDATION_ERROR', detail: { filters: { '0': { field: [{ error: 'A valid integer is required.', code: 'invalid' }] } } } });
    const byName = await json({ filter_type: 'AND', filters: [leaf] }, '&user_field_names=true');
    expect(byName.status).toBe(400);
    expect(byName.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
  });

  test('the filters JSON replaces every filter__ parameter, unknown fields and row ids included', async () => {
    const tree = encodeURIComponent(JSON.stringify({ filter_type: 'OR', filters: [{ field: nameField, type: 'equal', value: 'r1' }, { field: nameField, type: 'equal', value: 'r3' }] }));
    const ignored = [`filter__field_id__in=${rows.r1}`, 'filter__field_999999__equal=1', created('date_after', 'UTC?2030-01-01'), 'filter_type=AND'].join('&');
    expect(await keys(`filters=${tree}&${ignored}`)).toEqual(['r1', 'r3']);
  });
});
