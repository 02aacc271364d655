import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { PasswordHasher } from '../src/users/password-hasher';
import { signUp, SignedUp, startApp, TestApp } from './support/app';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;

const api = (method: string, path: string, body?: unknown, token: string | undefined = ada.token) => t.request(method, path, { token, body });

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const today = (): string => new Date().toISOString().slice(0, 10);

/** A new table without rows (the example rows are deleted); answers its id and primary field id. */
async function emptyTable(name: string): Promise<{ id: number; primary: number }> {
  const id = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id;
  const rows = (await api('GET', `/api/database/rows/table/${id}/`)).body.results.map((r: any) => r.id);
  if (rows.length) await api('POST', `/api/database/rows/table/${id}/batch-delete/`, { items: rows });
  const fields = (await api('GET', `/api/database/fields/table/${id}/`)).body;
  return { id, primary: fields.find((f: any) => f.primary).id };
}

async function addField(tableId: number, body: Record<string, unknown>): Promise<any> {
  const res = await api('POST', `/api/database/fields/table/${tableId}/`, body);
  if (res.status !== 200) throw new Error(`field create failed: ${res.status} ${res.text}`);
  return res.body;
}

const createRow = (tableId: number, body: Record<string, unknown>) => api('POST', `/api/database/rows/table/${tableId}/`, body);
const updateRow = (tableId: number, rowId: number, body: Record<string, unknown>) => api('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, body);
const listRows = async (tableId: number, query = ''): Promise<any[]> => (await api('GET', `/api/database/rows/table/${tableId}/${query}`)).body.results;
const changeType = (fieldId: number, body: Record<string, unknown>) => api('PATCH', `/api/database/fields/${fieldId}/`, body);

const DATE_DEFAULTS = { date_format: 'EU', date_include_time: false, date_time_format: '24', date_show_tzinfo: false, date_force_timezone: null };

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = (await api('GET', '/api/applications/')).body[0].id;
});
afterAll(async () => t?.close());

describe('field JSON', () => {
  let tableId: number;
  beforeAll(async () => {
    tableId = (await emptyTable('Json')).id;
  });

  const cases: [string, boolean, Record<string, unknown> | (() => Record<string, unknown>)][] = [
    ['text', false, { text_default: '' }],
    ['long_text', false, { long_text_enable_rich_text: false }],
    ['number', false, { number_decimal_places: 0, number_negative: false, number_prefix: '', number_suffix: '', number_separator: '', number_default: null }],
    ['boolean', false, { boolean_default: false }],
    ['date', false, DATE_DEFAULTS],
    ['url', false, {}],
    ['email', false, {}],
    ['phone_number', false, {}],
    ['rating', false, { max_value: 5, color: 'dark-orange', style: 'star' }],
    ['duration', false, { duration_format: 'h:mm' }],
    ['uuid', true, {}],
    ['autonumber', true, {}],
    ['password', false, { allow_endpoint_authentication: false }],
    ['created_on', true, DATE_DEFAULTS],
    ['last_modified', true, DATE_DEFAULTS],
    ['created_by', true, () => ({ available_collaborators: [{ id: ada.id, name: 'Ada' }] })],
    ['last_modified_by', true, () => ({ available_collaborators: [{ id: ada.id, name: 'Ada' }] })],
  ];

  test.each(cases)('%s: exact keys and defaults on create', async (type, readOnly, props) => {
    const res = await api('POST', `/api/database/fields/table/${tableId}/`, { name: `F ${type}`, type });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      table_id: tableId,
      name: `F ${type}`,
      order: expect.any(Number),
      type,
      primary: false,
      read_only: readOnly,
      description: null,
      db_index: false,
      field_constraints: [],
      ...(typeof props === 'function' ? props() : props),
      immutable_properties: false,
      immutable_type: false,
      database_id: databaseId,
      workspace_id: expect.any(Number),
      related_fields: [],
    });
    const got = await api('GET', `/api/database/fields/${res.body.id}/`);
    const { related_fields: _, ...withoutRelated } = res.body;
    expect(got.body).toEqual(withoutRelated);
  });

  test('properties are validated with the DRF messages', async () => {
    const bad = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'R', type: 'rating', max_value: 11, style: 'moon' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        max_value: [{ error: 'Ensure this value is less than or equal to 10.', code: 'max_value' }],
        style: [{ error: '"moon" is not a valid choice.', code: 'invalid_choice' }],
      },
    });
    const zero = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'R', type: 'rating', max_value: 0 });
    expect(zero.body.detail).toEqual({ max_value: [{ error: 'Ensure this value is greater than or equal to 1.', code: 'min_value' }] });
    const duration = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'D', type: 'duration', duration_format: 'hh' });
    expect(duration.body.detail).toEqual({ duration_format: [{ error: '"hh" is not a valid choice.', code: 'invalid_choice' }] });
    const rating = await addField(tableId, { name: 'R10', type: 'rating', max_value: 10, color: 'red', style: 'heart' });
    expect(rating).toMatchObject({ max_value: 10, color: 'red', style: 'heart' });
    const password = await addField(tableId, { name: 'P on', type: 'password', allow_endpoint_authentication: true });
    expect(password.allow_endpoint_authentication).toBe(true);
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    expect(fields.some((f: any) => f.name === 'R' || f.name === 'D')).toBe(false);
  });

  test('password cannot be primary', async () => {
    const password = await addField(tableId, { name: 'P primary', type: 'password' });
    const res = await api('POST', `/api/database/fields/table/${tableId}/change-primary-field/`, { new_primary_field_id: password.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_INCOMPATIBLE_PRIMARY_FIELD_TYPE');
  });
});

describe('cells', () => {
  let tableId: number;
  const f: Record<string, number> = {};
  const key = (name: string): string => `field_${f[name]}`;

  beforeAll(async () => {
    const table = await emptyTable('Cells');
    tableId = table.id;
    f.text = table.primary;
    for (const [name, body] of Object.entries({
      long_text: { type: 'long_text' },
      number: { type: 'number', number_decimal_places: 2 },
      boolean: { type: 'boolean' },
      date: { type: 'date' },
      datetime: { type: 'date', date_include_time: true },
      url: { type: 'url' },
      email: { type: 'email' },
      phone_number: { type: 'phone_number' },
      rating: { type: 'rating' },
      duration: { type: 'duration' },
      duration_s: { type: 'duration', duration_format: 'h:mm:ss.s' },
      uuid: { type: 'uuid' },
      autonumber: { type: 'autonumber' },
      password: { type: 'password', allow_endpoint_authentication: true },
      created_on: { type: 'created_on' },
      created_on_time: { type: 'created_on', date_include_time: true },
      last_modified: { type: 'last_modified', date_include_time: true },
      created_by: { type: 'created_by' },
      last_modified_by: { type: 'last_modified_by' },
    })) {
      f[name] = (await addField(tableId, { name, ...body })).id;
    }
  });

  test('a new row gets the defaults and the generated values', async () => {
    const first = await createRow(tableId, {});
    const second = await createRow(tableId, {});
    expect(first.status).toBe(200);
    const row = first.body;
    expect(row[key('text')]).toBeNull();
    expect(row[key('long_text')]).toBeNull();
    expect(row[key('number')]).toBeNull();
    expect(row[key('boolean')]).toBe(false);
    expect(row[key('date')]).toBeNull();
    expect(row[key('url')]).toBe('');
    expect(row[key('email')]).toBe('');
    expect(row[key('phone_number')]).toBe('');
    expect(row[key('rating')]).toBe(0);
    expect(row[key('duration')]).toBeNull();
    expect(row[key('uuid')]).toMatch(UUID_RE);
    expect(second.body[key('uuid')]).toMatch(UUID_RE);
    expect(second.body[key('uuid')]).not.toBe(row[key('uuid')]);
    expect(row[key('autonumber')]).toBe(1);
    expect(second.body[key('autonumber')]).toBe(2);
    expect(row[key('password')]).toBeNull();
    expect(row[key('created_on')]).toBe(today());
    expect(row[key('created_on_time')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/);
    expect(row[key('last_modified')]).toBe(row[key('created_on_time')]);
    expect(row[key('created_by')]).toEqual({ id: ada.id, name: 'Ada' });
    expect(row[key('last_modified_by')]).toEqual({ id: ada.id, name: 'Ada' });
    const batch = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{}, {}] });
    expect(batch.body.items.map((r: any) => r[key('autonumber')])).toEqual([3, 4]);
    const got = await api('GET', `/api/database/rows/table/${tableId}/${row.id}/`);
    expect(got.body).toEqual(row);
  });

  test('good values round-trip as Baserow answers them', async () => {
    const { body: row } = await createRow(tableId, {});
    const res = await updateRow(tableId, row.id, {
      [key('text')]: 'hello',
      [key('long_text')]: 'a\nb',
      [key('number')]: '1.5',
      [key('boolean')]: 'yes',
      [key('date')]: '2020-02-01',
      [key('datetime')]: '2020-02-01T01:23:00+01:00',
      [key('url')]: ' https://baserow.io/path ',
      [key('email')]: 'ada@example.com',
      [key('phone_number')]: '+1 (555) 123-4567',
      [key('rating')]: '4',
      [key('duration')]: '1:30',
      [key('duration_s')]: 3666.66,
      [key('password')]: 'secret-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      [key('text')]: 'hello',
      [key('long_text')]: 'a\nb',
      [key('number')]: '1.50',
      [key('boolean')]: true,
      [key('date')]: '2020-02-01',
      [key('datetime')]: '2020-02-01T00:23:00Z',
      [key('url')]: 'https://baserow.io/path',
      [key('email')]: 'ada@example.com',
      [key('phone_number')]: '+1 (555) 123-4567',
      [key('rating')]: 4,
      [key('duration')]: 5400,
      [key('duration_s')]: 3666.7,
      [key('password')]: true,
      [key('uuid')]: row[key('uuid')],
      [key('autonumber')]: row[key('autonumber')],
    });
    expect(res.body[key('last_modified')] >= row[key('last_modified')]).toBe(true);

    // Empty values: url/email/phone answer "", rating 0 is a value, password null clears.
    const cleared = await updateRow(tableId, row.id, { [key('url')]: null, [key('email')]: '', [key('phone_number')]: null, [key('rating')]: 0, [key('duration')]: null });
    expect(cleared.body).toMatchObject({ [key('url')]: '', [key('email')]: '', [key('phone_number')]: '', [key('rating')]: 0, [key('duration')]: null, [key('password')]: true });

    // `true` (what clients read back) leaves the password as it is; null clears it.
    const kept = await updateRow(tableId, row.id, { [key('password')]: true });
    expect(kept.body[key('password')]).toBe(true);
    const auth = await api('POST', '/api/database/fields/password-authentication/', { field_id: f.password, row_id: row.id, password: 'secret-1' });
    expect(auth.status).toBe(200);
    expect(auth.body).toEqual({ is_correct: true });
    const created = await createRow(tableId, { [key('password')]: true });
    expect(created.body[key('password')]).toBeNull();
    expect((await updateRow(tableId, row.id, { [key('password')]: null })).body[key('password')]).toBeNull();
  });

  test('bad values answer the validation tree with Baserow messages and write nothing', async () => {
    const before = (await api('GET', `/api/database/rows/table/${tableId}/`)).body.count;
    const res = await createRow(tableId, {
      [key('text')]: true,
      [key('number')]: 'abc',
      [key('boolean')]: 'maybe',
      [key('date')]: 'soon',
      [key('url')]: 'nope',
      [key('email')]: 'not-an-email',
      [key('phone_number')]: 'call me',
      [key('rating')]: 6,
      [key('duration')]: 'abc',
      [key('password')]: false,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        [key('text')]: [{ error: 'Not a valid string.', code: 'invalid' }],
        [key('number')]: [{ error: 'A valid number is required.', code: 'invalid' }],
        [key('boolean')]: [{ error: 'Must be a valid boolean.', code: 'invalid' }],
        [key('date')]: [{ error: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.', code: 'invalid' }],
        [key('url')]: [{ error: 'Enter a valid value.', code: 'invalid' }],
        [key('email')]: [{ error: 'Enter a valid value.', code: 'invalid' }],
        [key('phone_number')]: [{ error: 'Enter a valid value.', code: 'invalid' }],
        [key('rating')]: [{ error: 'Ensure this value is less than or equal to 5.', code: 'max_value' }],
        [key('duration')]: [{ error: 'The value abc is not a valid duration.', code: 'invalid' }],
        [key('password')]: [{ error: 'Not a valid string.', code: 'invalid' }],
      },
    });
    const rating = async (value: unknown) => (await createRow(tableId, { [key('rating')]: value })).body.detail?.[key('rating')];
    expect(await rating(-1)).toEqual([{ error: 'Ensure this value is greater than or equal to 0.', code: 'min_value' }]);
    expect(await rating('x')).toEqual([{ error: 'A valid integer is required.', code: 'invalid' }]);
    expect(await rating(2.5)).toEqual([{ error: 'A valid integer is required.', code: 'invalid' }]);
    expect(await rating(null)).toEqual([{ error: 'This field may not be null.', code: 'null' }]);
    expect((await createRow(tableId, { [key('rating')]: 3.0 })).body[key('rating')]).toBe(3);
    const phone = await createRow(tableId, { [key('phone_number')]: '1'.repeat(101) });
    expect(phone.body.detail[key('phone_number')]).toEqual([
      { error: 'Enter a valid value.', code: 'invalid' },
      { error: 'Ensure this field has no more than 100 characters.', code: 'max_length' },
    ]);
    expect((await api('GET', `/api/database/rows/table/${tableId}/`)).body.count).toBe(before + 1);
  });

  test('read-only types reject writes with a string detail', async () => {
    const { body: row } = await createRow(tableId, {});
    for (const type of ['uuid', 'autonumber', 'created_on', 'last_modified', 'created_by', 'last_modified_by']) {
      const detail = `Field of type ${type} is read only and should not be set manually.`;
      const created = await createRow(tableId, { [key(type)]: 'x' });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail });
      const updated = await updateRow(tableId, row.id, { [key(type)]: null });
      expect(updated.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail });
    }
  });

  test('system fields sort and search', async () => {
    const byCreated = await api('GET', `/api/database/rows/table/${tableId}/?order_by=-${key('created_on_time')}`);
    expect(byCreated.status).toBe(200);
    const byAutonumber = await listRows(tableId, `?order_by=-${key('autonumber')}`);
    const numbers = byAutonumber.map((r: any) => r[key('autonumber')]);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect((await api('GET', `/api/database/rows/table/${tableId}/?order_by=${key('created_by')}`)).status).toBe(200);
    const passwordSort = await api('GET', `/api/database/rows/table/${tableId}/?order_by=${key('password')}`);
    expect(passwordSort.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_POSSIBLE');
    const { body: row } = await createRow(tableId, { [key('url')]: 'https://searchable.example' });
    const found = await listRows(tableId, `?search=${encodeURIComponent(row[key('uuid')])}`);
    expect(found.map((r: any) => r.id)).toEqual([row.id]);
    const byUrl = await listRows(tableId, '?search=searchable.example');
    expect(byUrl.map((r: any) => r.id)).toEqual([row.id]);
  });
});

describe('generated values for existing rows', () => {
  test('a new uuid field gives every existing row its own UUID', async () => {
    const table = await emptyTable('Uuid');
    await api('POST', `/api/database/rows/table/${table.id}/batch/`, { items: [{}, {}, {}] });
    const field = await addField(table.id, { name: 'U', type: 'uuid' });
    const values = (await listRows(table.id)).map((r) => r[`field_${field.id}`]);
    expect(values).toHaveLength(3);
    values.forEach((v) => expect(v).toMatch(UUID_RE));
    expect(new Set(values).size).toBe(3);
  });

  test('a new autonumber field numbers the rows in their order; new rows get max + 1', async () => {
    const table = await emptyTable('Auto');
    const name = `field_${table.primary}`;
    const created = (await api('POST', `/api/database/rows/table/${table.id}/batch/`, { items: [{ [name]: 'A' }, { [name]: 'B' }, { [name]: 'C' }] })).body.items;
    await api('PATCH', `/api/database/rows/table/${table.id}/${created[2].id}/move/?before_id=${created[0].id}`);
    const field = await addField(table.id, { name: 'N', type: 'autonumber' });
    const rows = await listRows(table.id);
    expect(rows.map((r) => [r[name], r[`field_${field.id}`]])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
    await api('DELETE', `/api/database/rows/table/${table.id}/${created[1].id}/`);
    const next = await createRow(table.id, { [name]: 'D' });
    expect(next.body[`field_${field.id}`]).toBe(3);
    const after = await createRow(table.id, { [name]: 'E' });
    expect(after.body[`field_${field.id}`]).toBe(4);
  });

  test('autonumber with a view that is not there is refused and creates nothing', async () => {
    const table = await emptyTable('AutoView');
    const res = await api('POST', `/api/database/fields/table/${table.id}/`, { name: 'N', type: 'autonumber', view_id: 999999 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    const fields = (await api('GET', `/api/database/fields/table/${table.id}/`)).body;
    expect(fields.map((f: any) => f.name)).not.toContain('N');
  });
});

describe('type conversions', () => {
  let tableId: number;
  let name: string;
  let rowIds: number[];
  const texts = ['3', '7', 'abc', null, '2.5', 'https://baserow.io', 'a@b.io', '1:30'];

  beforeAll(async () => {
    const table = await emptyTable('Convert');
    tableId = table.id;
    name = `field_${table.primary}`;
    const items = texts.map((_, i) => ({ [name]: `row ${i}` }));
    rowIds = (await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items })).body.items.map((r: any) => r.id);
  });

  /** A text field holding `values` (aligned with the rows), converted with `body`; answers the new cells. */
  async function convert(values: unknown[], body: Record<string, unknown>, from: Record<string, unknown> = { type: 'text' }): Promise<unknown[]> {
    const field = await addField(tableId, { name: `C ${Math.random()}`, ...from });
    const key = `field_${field.id}`;
    if (values.length) {
      const items = values.map((value, i) => ({ id: rowIds[i], [key]: value }));
      const written = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items });
      if (written.status !== 200) throw new Error(written.text);
    }
    const res = await changeType(field.id, body);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe(body.type ?? from.type);
    const rows = await listRows(tableId);
    return rowIds.map((id) => rows.find((r) => r.id === id)[key]);
  }

  test('text → rating: numbers rounded and clamped, the rest 0', async () => {
    expect(await convert(texts, { type: 'rating' })).toEqual([3, 5, 0, 0, 3, 0, 0, 0]);
  });

  test('rating → text and a lower max_value clamps', async () => {
    const ratings = [1, 5, 3, 0, 2, 4, 0, 0];
    expect(await convert(ratings, { type: 'text' }, { type: 'rating' })).toEqual(['1', '5', '3', '0', '2', '4', '0', '0']);
    expect(await convert(ratings, { max_value: 3 }, { type: 'rating' })).toEqual([1, 3, 3, 0, 2, 3, 0, 0]);
  });

  test('boolean → rating', async () => {
    expect(await convert([true, false, true], { type: 'rating' }, { type: 'boolean' })).toEqual([1, 0, 1, 0, 0, 0, 0, 0]);
  });

  test('text → url, email and phone number keep the valid values', async () => {
    // Baserow's URL check is lenient: anything with a "." or "//" in it ("2.5", "a@b.io").
    expect(await convert(texts, { type: 'url' })).toEqual(['', '', '', '', '2.5', 'https://baserow.io', 'a@b.io', '']);
    expect(await convert(texts, { type: 'email' })).toEqual(['', '', '', '', '', '', 'a@b.io', '']);
    expect(await convert(texts, { type: 'phone_number' })).toEqual(['3', '7', '', '', '2.5', '', '', '']);
  });

  test('url → text', async () => {
    expect(await convert(['https://a.io', null], { type: 'text' }, { type: 'url' })).toEqual(['https://a.io', null, null, null, null, null, null, null]);
  });

  test('number → text and number → rating', async () => {
    const numbers = ['1.50', '12', null];
    expect(await convert(numbers, { type: 'text' }, { type: 'number', number_decimal_places: 2 })).toEqual(['1.50', '12.00', null, null, null, null, null, null]);
    expect(await convert(numbers, { type: 'rating' }, { type: 'number', number_decimal_places: 2 })).toEqual([2, 5, 0, 0, 0, 0, 0, 0]);
  });

  test('text → number as Baserow alters the column: rounded, not-a-number empty; without negatives a negative or an empty cell is 0', async () => {
    // Baserow's test_alter_number_field_column_type: round(p_in::numeric, places), then greatest(…, 0).
    const values = ['100', '100.22', '-100.5999', '100.59.99', '', null, ' 7 ', 'abc'];
    expect(await convert(values, { type: 'number', number_decimal_places: 1 })).toEqual(['100.0', '100.2', '0.0', null, null, '0.0', '7.0', null]);
    expect(await convert(values, { type: 'number', number_decimal_places: 3, number_negative: true })).toEqual(['100.000', '100.220', '-100.600', null, null, null, '7.000', null]);
    // test_alter_number_field_column_type_negative: forbidding negatives makes them 0 (and empty cells, by the same GREATEST).
    const numbers = ['-10.10', '2', null];
    const from = { type: 'number', number_decimal_places: 2, number_negative: true };
    expect(await convert(numbers, { number_negative: false }, from)).toEqual(['0.00', '2.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00']);
    expect(await convert(numbers, { number_decimal_places: 1 }, from)).toEqual(['-10.1', '2.0', null, null, null, null, null, null]);
  });

  test('text ↔ duration', async () => {
    expect(await convert(['1:30', '90', 'x'], { type: 'duration' })).toEqual([5400, 120, null, null, null, null, null, null]);
    expect(await convert([5400, 3660], { type: 'text' }, { type: 'duration' })).toEqual(['1:30', '1:01', null, null, null, null, null, null]);
    expect(await convert([3666], { duration_format: 'd h' }, { type: 'duration', duration_format: 'h:mm:ss' })).toEqual([3600, null, null, null, null, null, null, null]);
  });

  test('anything → uuid and autonumber regenerates', async () => {
    const uuids = await convert(texts, { type: 'uuid' });
    uuids.forEach((v) => expect(v).toMatch(UUID_RE));
    expect(new Set(uuids).size).toBe(texts.length);
    expect(await convert(texts, { type: 'autonumber' })).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const back = await convert([], { type: 'text' }, { type: 'autonumber' });
    expect(back).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  test('uuid → text keeps the UUIDs', async () => {
    const field = await addField(tableId, { name: 'U to text', type: 'uuid' });
    const before = (await listRows(tableId)).map((r) => r[`field_${field.id}`]);
    await changeType(field.id, { type: 'text' });
    expect((await listRows(tableId)).map((r) => r[`field_${field.id}`])).toEqual(before);
  });

  test('password keeps nothing either way', async () => {
    expect(await convert(texts, { type: 'password' })).toEqual([null, null, null, null, null, null, null, null]);
    const back = await convert(['secret'], { type: 'text' }, { type: 'password' });
    expect(back).toEqual([null, null, null, null, null, null, null, null]);
  });

  test('created_on → text and date, text → created_on', async () => {
    const [d, m, y] = [today().slice(8, 10), today().slice(5, 7), today().slice(0, 4)];
    expect((await convert([], { type: 'text' }, { type: 'created_on' }))[0]).toBe(`${d}/${m}/${y}`);
    expect((await convert([], { type: 'date' }, { type: 'created_on' }))[0]).toBe(today());
    expect((await convert(texts, { type: 'created_on', date_include_time: true }))[0]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('created_by → text gives the name', async () => {
    expect((await convert([], { type: 'text' }, { type: 'created_by' }))[0]).toBe('Ada');
  });
});

describe('password authentication', () => {
  let tableId: number;
  let enabled: number;
  let disabled: number;
  let rowId: number;
  let emptyRowId: number;
  const url = '/api/database/fields/password-authentication/';

  beforeAll(async () => {
    tableId = (await emptyTable('Auth')).id;
    enabled = (await addField(tableId, { name: 'Secret', type: 'password', allow_endpoint_authentication: true })).id;
    disabled = (await addField(tableId, { name: 'Hidden', type: 'password' })).id;
    rowId = (await createRow(tableId, { [`field_${enabled}`]: 'open sesame', [`field_${disabled}`]: 'open sesame' })).body.id;
    emptyRowId = (await createRow(tableId, {})).body.id;
  });

  test('the right password', async () => {
    const res = await api('POST', url, { field_id: enabled, row_id: rowId, password: 'open sesame' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ is_correct: true });
  });

  test('a wrong password or an empty cell is 401', async () => {
    const wrong = await api('POST', url, { field_id: enabled, row_id: rowId, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'ERROR_INVALID_PASSWORD_FIELD_PASSWORD', detail: 'The provided password in incorrect.' });
    const empty = await api('POST', url, { field_id: enabled, row_id: emptyRowId, password: 'open sesame' });
    expect(empty.status).toBe(401);
    expect(empty.body.error).toBe('ERROR_INVALID_PASSWORD_FIELD_PASSWORD');
  });

  test('fields without endpoint authentication, other types and missing ones do not exist', async () => {
    for (const fieldId of [disabled, 999999]) {
      const res = await api('POST', url, { field_id: fieldId, row_id: rowId, password: 'open sesame' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'ERROR_FIELD_DOES_NOT_EXIST', detail: 'The requested field does not exist.' });
    }
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    const text = fields.find((f: any) => f.primary).id;
    expect((await api('POST', url, { field_id: text, row_id: rowId, password: 'x' })).status).toBe(404);
  });

  test('a batch hashes all its password cells at once, each verifying with its own password', async () => {
    // Hashes in flight at the same time: one after the other would never be more than 1.
    let inFlight = 0;
    let most = 0;
    const hashCell = PasswordHasher.prototype.hashCell;
    const spy = jest.spyOn(PasswordHasher.prototype, 'hashCell').mockImplementation(function (this: PasswordHasher, password: string) {
      most = Math.max(most, ++inFlight);
      return hashCell.call(this, password).finally(() => inFlight--);
    });
    try {
      const items = Array.from({ length: 12 }, (_, i) => ({ [`field_${enabled}`]: `secret ${i}`, [`field_${disabled}`]: i }));
      const created = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
      expect(created.status).toBe(200);
      expect(created.body.items.map((row: any) => [row[`field_${enabled}`], row[`field_${disabled}`]])).toEqual(items.map(() => [true, true]));
      expect(spy).toHaveBeenCalledTimes(24);
      expect(most).toBe(24);
      const ids: number[] = created.body.items.map((row: any) => row.id);
      most = 0;
      const updated = await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: ids.map((id, i) => ({ id, [`field_${enabled}`]: `new ${i}` })) });
      expect(updated.status).toBe(200);
      expect(most).toBe(12);
      for (const i of [0, 5, 11]) {
        expect((await api('POST', url, { field_id: enabled, row_id: ids[i], password: `new ${i}` })).body).toEqual({ is_correct: true });
        expect((await api('POST', url, { field_id: enabled, row_id: ids[i], password: `secret ${i}` })).status).toBe(401);
      }
      expect((await api('POST', url, { field_id: enabled, row_id: ids[3], password: 'new 4' })).status).toBe(401);
    } finally {
      spy.mockRestore();
    }
  });

  test('a cell hashed at another cost (its parameters are in the hash) still verifies', async () => {
    // argon2's own default cost, as hashes written before the costs were chosen have it.
    const hash = await argon2.hash('older secret', { type: argon2.argon2id });
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,/);
    await t.app.get(DataSource).query(`UPDATE "database_table_${tableId}" SET "field_${enabled}" = '${hash}' WHERE "id" = ${rowId}`);
    expect((await api('POST', url, { field_id: enabled, row_id: rowId, password: 'older secret' })).body).toEqual({ is_correct: true });
    expect((await api('POST', url, { field_id: enabled, row_id: rowId, password: 'open sesame' })).status).toBe(401);
    expect((await api('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, { [`field_${enabled}`]: 'open sesame' })).status).toBe(200);
    expect((await api('POST', url, { field_id: enabled, row_id: rowId, password: 'open sesame' })).body).toEqual({ is_correct: true });
  });

  test('a missing row is 404', async () => {
    const res = await api('POST', url, { field_id: enabled, row_id: 999999, password: 'open sesame' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERROR_ROW_DOES_NOT_EXIST', detail: 'The rows [999999] do not exist.' });
  });

  test('other users and anonymous requests are refused; the body is validated', async () => {
    const other = await api('POST', url, { field_id: enabled, row_id: rowId, password: 'open sesame' }, eve.token);
    expect(other.status).toBe(401);
    expect(other.body.error).toBe('PERMISSION_DENIED');
    const anonymous = await t.request('POST', url, { body: { field_id: enabled, row_id: rowId, password: 'open sesame' } });
    expect(anonymous.status).toBe(401);
    const bad = await api('POST', url, { field_id: 'x', password: '' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        field_id: [{ error: 'A valid integer is required.', code: 'invalid' }],
        row_id: [{ error: 'This field is required.', code: 'required' }],
        password: [{ error: 'This field may not be blank.', code: 'blank' }],
      },
    });
  });
});
