import { signUp, SignedUp, startApp, TestApp } from './support/app';

/**
 * Row filters through `GET /api/database/rows/table/{id}/`: `filter__field_<id>__<type>`,
 * `filter_type`, the `filters` JSON tree, and their errors, for every field type.
 */
let t: TestApp;
let ada: SignedUp;
let tableId: number;
let otherTableId: number;
const f: Record<string, number | null> = {};
const rows: Record<string, number> = {};
const options: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });

async function optionalField(key: string, body: Record<string, unknown>, table = tableId): Promise<void> {
  const res = await api('POST', `/api/database/fields/table/${table}/`, body);
  if (res.status !== 200) throw new Error(`field ${key}: ${res.text}`);
  f[key] = res.body.id;
  for (const o of res.body.select_options ?? []) options[`${key}:${o.value}`] = o.id;
}

/** The ids of the rows a filter query answers, in order. */
async function ids(query: string): Promise<string[]> {
  const res = await api('GET', `/api/database/rows/table/${tableId}/?${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  const byId = Object.fromEntries(Object.entries(rows).map(([k, v]) => [v, k]));
  return res.body.results.map((r: { id: number }) => byId[r.id]);
}

const q = (key: string, type: string, value: string) => `filter__field_${f[key]}__${type}=${encodeURIComponent(value)}`;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  const databaseId = (await api('GET', '/api/applications/')).body[0].id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Filtered' })).body.id;
  const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
  [f.name, f.notes, f.active] = [fields[0].id, fields[1].id, fields[2].id];
  await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [1, 2] });
  f.number = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Number', type: 'number', number_decimal_places: 2 })).body.id;
  f.day = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Day', type: 'date' })).body.id;
  f.at = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'At', type: 'date', date_include_time: true })).body.id;
  await optionalField('url', { name: 'Url', type: 'url' });
  await optionalField('email', { name: 'Email', type: 'email' });
  await optionalField('phone', { name: 'Phone', type: 'phone_number' });
  await optionalField('rating', { name: 'Rating', type: 'rating', max_value: 5 });
  await optionalField('duration', { name: 'Duration', type: 'duration', duration_format: 'h:mm' });
  await optionalField('single', { name: 'Single', type: 'single_select', select_options: [{ value: 'Red', color: 'red' }, { value: 'Dark blue', color: 'blue' }] });
  await optionalField('multi', { name: 'Multi', type: 'multiple_select', select_options: [{ value: 'Hot', color: 'red' }, { value: 'Cold', color: 'blue' }] });
  await optionalField('created', { name: 'Created', type: 'created_on' });
  await optionalField('createdBy', { name: 'Created by', type: 'created_by' });
  await optionalField('collab', { name: 'People', type: 'multiple_collaborators' });
  otherTableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Animals' })).body.id;
  const otherPrimary = (await api('GET', `/api/database/fields/table/${otherTableId}/`)).body[0].id;
  await api('PATCH', `/api/database/rows/table/${otherTableId}/batch/`, { items: [{ id: 1, [`field_${otherPrimary}`]: 'Lion' }, { id: 2, [`field_${otherPrimary}`]: 'Zebra' }] });
  await optionalField('link', { name: 'Animals', type: 'link_row', link_row_table_id: otherTableId });

  const cells = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([k]) => f[k]).map(([k, v]) => [`field_${f[k]}`, v]));
  const create = async (key: string, values: Record<string, unknown>) => {
    const res = await api('POST', `/api/database/rows/table/${tableId}/`, cells(values));
    if (res.status !== 200) throw new Error(`row ${key}: ${res.text}`);
    rows[key] = res.body.id;
  };
  await create('r1', {
    name: 'Apple pie', notes: 'fresh fruit', active: true, number: '10.50', day: '2024-01-15', at: '2024-01-15T10:30:00Z',
    url: 'https://apple.example.com', email: 'ann@apple.com', phone: '+31 6 1234', rating: 4, duration: 5400,
    single: options['single:Red'], multi: [options['multi:Hot']], collab: [{ id: ada.id }], link: [1],
  });
  await create('r2', { name: 'banana', notes: '', active: false, number: '4', day: '2023-06-01', at: '2023-06-01T23:30:00Z', rating: 1, duration: 60, single: options['single:Dark blue'], multi: [options['multi:Cold'], options['multi:Hot']], link: [1, 2] });
  await create('r3', {});
});
afterAll(async () => t?.close());

describe('text filters', () => {
  test('equal and not_equal compare the stripped value case-sensitively; empty is ignored', async () => {
    expect(await ids(q('name', 'equal', ' banana '))).toEqual(['r2']);
    expect(await ids(q('name', 'equal', 'Banana'))).toEqual([]);
    expect(await ids(q('name', 'not_equal', 'banana'))).toEqual(['r1', 'r3']);
    expect(await ids(q('name', 'equal', ''))).toEqual(['r1', 'r2', 'r3']);
  });

  test('contains, contains_not, contains_word, doesnt_contain_word', async () => {
    expect(await ids(q('name', 'contains', 'APPLE'))).toEqual(['r1']);
    expect(await ids(q('name', 'contains', '%'))).toEqual([]);
    expect(await ids(q('name', 'contains_not', 'apple'))).toEqual(['r2', 'r3']);
    expect(await ids(q('notes', 'contains_word', 'Fruit'))).toEqual(['r1']);
    expect(await ids(q('notes', 'contains_word', 'frui'))).toEqual([]);
    expect(await ids(q('name', 'doesnt_contain_word', 'pie'))).toEqual(['r2', 'r3']);
    expect(await ids(q('name', 'contains_word', ''))).toEqual(['r1', 'r2', 'r3']);
  });

  test('length_is_lower_than counts characters; a non-integer value matches nothing', async () => {
    expect(await ids(q('name', 'length_is_lower_than', '7'))).toEqual(['r2']);
    expect(await ids(q('notes', 'length_is_lower_than', '1'))).toEqual(['r2']);
    expect(await ids(q('name', 'length_is_lower_than', 'x'))).toEqual([]);
    expect(await ids(q('name', 'length_is_lower_than', ''))).toEqual([]);
  });

  test('empty and not_empty: null and "" are empty', async () => {
    expect(await ids(q('notes', 'empty', ''))).toEqual(['r2', 'r3']);
    expect(await ids(q('notes', 'not_empty', 'ignored'))).toEqual(['r1']);
    expect(await ids(q('name', 'empty', ''))).toEqual(['r3']);
  });
});

describe('number and boolean filters', () => {
  test('equal parses a decimal; a value that is not a number matches nothing (not_equal: everything)', async () => {
    expect(await ids(q('number', 'equal', '4'))).toEqual(['r2']);
    expect(await ids(q('number', 'equal', '10.5'))).toEqual(['r1']);
    expect(await ids(q('number', 'equal', 'abc'))).toEqual([]);
    expect(await ids(q('number', 'not_equal', 'abc'))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('number', 'not_equal', '4'))).toEqual(['r1', 'r3']);
  });

  test('comparisons, contains on the shown text, is_even_and_whole, empty', async () => {
    expect(await ids(q('number', 'higher_than', '5'))).toEqual(['r1']);
    expect(await ids(q('number', 'higher_than_or_equal', '4'))).toEqual(['r1', 'r2']);
    expect(await ids(q('number', 'lower_than', '10.5'))).toEqual(['r2']);
    expect(await ids(q('number', 'lower_than_or_equal', '10.50'))).toEqual(['r1', 'r2']);
    expect(await ids(q('number', 'lower_than', 'x'))).toEqual([]);
    expect(await ids(q('number', 'lower_than', ''))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('number', 'contains', '.50'))).toEqual(['r1']);
    expect(await ids(q('number', 'contains', '4.00'))).toEqual(['r2']);
    expect(await ids(q('number', 'is_even_and_whole', ''))).toEqual(['r2']);
    expect(await ids(q('number', 'empty', ''))).toEqual(['r3']);
  });

  test('boolean reads truthy words; equal takes Django booleans only; empty is false', async () => {
    expect(await ids(q('active', 'boolean', 'Yes'))).toEqual(['r1']);
    expect(await ids(q('active', 'boolean', ''))).toEqual(['r2', 'r3']);
    expect(await ids(q('active', 'equal', '1'))).toEqual(['r1']);
    expect(await ids(q('active', 'equal', 'yes'))).toEqual([]);
    expect(await ids(q('active', 'empty', ''))).toEqual(['r2', 'r3']);
  });
});

describe('date filters', () => {
  test('multi-step filters on a date and a datetime field', async () => {
    expect(await ids(q('day', 'date_is', 'UTC?2024-01-15?exact_date'))).toEqual(['r1']);
    expect(await ids(q('day', 'date_is_not', 'UTC?2024-01-15?exact_date'))).toEqual(['r2', 'r3']);
    expect(await ids(q('day', 'date_is_before', 'UTC?2024-01-01?exact_date'))).toEqual(['r2']);
    expect(await ids(q('day', 'date_is_on_or_after', '?2023-06-01?exact_date'))).toEqual(['r1', 'r2']);
    expect(await ids(q('at', 'date_is', 'UTC?2023-06-01?exact_date'))).toEqual(['r2']);
    // 23:30 UTC is already the next day in Berlin.
    expect(await ids(q('at', 'date_is', 'Europe/Berlin?2023-06-02?exact_date'))).toEqual(['r2']);
    expect(await ids(q('at', 'date_is', 'Nowhere/Zone?2023-06-02?exact_date'))).toEqual([]);
    expect(await ids(q('at', 'date_is', 'UTC??exact_date'))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('day', 'date_is_within', 'UTC??today'))).toEqual([]);
  });

  test('legacy filters, day of month and contains on the shown date', async () => {
    expect(await ids(q('day', 'date_equal', '2024-01-15'))).toEqual(['r1']);
    expect(await ids(q('day', 'date_not_equal', '2024-01-15'))).toEqual(['r2', 'r3']);
    expect(await ids(q('at', 'date_before', '2024-01-15 10:30'))).toEqual(['r2']);
    expect(await ids(q('at', 'date_before_or_equal', 'UTC?2024-01-15 10:30'))).toEqual(['r1', 'r2']);
    expect(await ids(q('day', 'date_equals_day_of_month', '15'))).toEqual(['r1']);
    expect(await ids(q('at', 'date_equals_day_of_month', 'UTC?1'))).toEqual(['r2']);
    expect(await ids(q('day', 'date_after_days_ago', 'x'))).toEqual([]);
    expect(await ids(q('day', 'contains', '15/01'))).toEqual(['r1']);
    expect(await ids(q('at', 'contains', '01/06/2023 23:30'))).toEqual(['r2']);
    expect(await ids(q('day', 'empty', ''))).toEqual(['r3']);
  });
});

describe('other field types', () => {
  test('url, email, phone_number', async () => {
    expect(await ids(q('url', 'contains', 'APPLE'))).toEqual(['r1']);
    expect(await ids(q('email', 'equal', 'ann@apple.com'))).toEqual(['r1']);
    // Empty url/email/phone cells are '' (length 0).
    expect(await ids(q('phone', 'length_is_lower_than', '20'))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('phone', 'length_is_lower_than', '5'))).toEqual(['r2', 'r3']);
    expect(await ids(q('url', 'empty', ''))).toEqual(['r2', 'r3']);
  });

  test('rating and duration', async () => {
    expect(await ids(q('rating', 'higher_than', '1.5'))).toEqual(['r1']);
    expect(await ids(q('rating', 'equal', '1'))).toEqual(['r2']);
    expect(await ids(q('rating', 'equal', '1.0'))).toEqual([]);
    expect(await ids(q('duration', 'higher_than', '1:00'))).toEqual(['r1']);
    expect(await ids(q('duration', 'equal', '0:01'))).toEqual(['r2']);
  });

  test('single select', async () => {
    expect(await ids(q('single', 'single_select_equal', String(options['single:Red'])))).toEqual(['r1']);
    expect(await ids(q('single', 'single_select_not_equal', String(options['single:Red'])))).toEqual(['r2', 'r3']);
    expect(await ids(q('single', 'single_select_is_any_of', `${options['single:Red']},${options['single:Dark blue']}`))).toEqual(['r1', 'r2']);
    expect(await ids(q('single', 'single_select_is_none_of', `x`))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('single', 'contains', 'BLUE'))).toEqual(['r2']);
    expect(await ids(q('single', 'contains_word', 'dark'))).toEqual(['r2']);
    expect(await ids(q('single', 'empty', ''))).toEqual(['r3']);
  });

  test('multiple select', async () => {
    expect(await ids(q('multi', 'multiple_select_has', String(options['multi:Hot'])))).toEqual(['r1', 'r2']);
    expect(await ids(q('multi', 'multiple_select_has_not', String(options['multi:Cold'])))).toEqual(['r1', 'r3']);
    expect(await ids(q('multi', 'contains', 'col'))).toEqual(['r2']);
    expect(await ids(q('multi', 'empty', ''))).toEqual(['r3']);
  });

  test('created_on, created_by and collaborators', async () => {
    expect(await ids(q('created', 'date_is', 'UTC??today'))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('createdBy', 'user_is', String(ada.id)))).toEqual(['r1', 'r2', 'r3']);
    expect(await ids(q('createdBy', 'user_is_not', String(ada.id)))).toEqual([]);
    expect(await ids(q('collab', 'multiple_collaborators_has', String(ada.id)))).toEqual(['r1']);
    expect(await ids(q('collab', 'multiple_collaborators_has_not', String(ada.id)))).toEqual(['r2', 'r3']);
    expect(await ids(q('collab', 'empty', ''))).toEqual(['r2', 'r3']);
  });

  test('link_row: has, has_not, contains, not_contains, empty, and search through links', async () => {
    const linked = (await api('GET', `/api/database/rows/table/${otherTableId}/`)).body.results.map((r: { id: number }) => r.id);
    expect(await ids(q('link', 'link_row_has', String(linked[0])))).toEqual(['r1', 'r2']);
    expect(await ids(q('link', 'link_row_has', String(linked[1])))).toEqual(['r2']);
    expect(await ids(q('link', 'link_row_has_not', String(linked[1])))).toEqual(['r1', 'r3']);
    expect(await ids(q('link', 'link_row_contains', 'ZEBRA'))).toEqual(['r2']);
    expect(await ids(q('link', 'link_row_not_contains', 'zebra'))).toEqual(['r1', 'r3']);
    expect(await ids(q('link', 'link_row_contains', 'lion'))).toEqual(['r1', 'r2']);
    expect(await ids(q('link', 'empty', ''))).toEqual(['r3']);
    expect(await ids(q('link', 'not_empty', ''))).toEqual(['r1', 'r2']);
    expect(await ids('search=zebra')).toEqual(['r2']);
  });
});

describe('combining filters', () => {
  test('filters are ANDed; filter_type=OR (any case) ORs them', async () => {
    const both = `${q('name', 'contains', 'a')}&${q('number', 'higher_than', '5')}`;
    expect(await ids(both)).toEqual(['r1']);
    expect(await ids(`${both}&filter_type=or`)).toEqual(['r1', 'r2']);
    expect(await ids(`${both}&filter_type=nonsense`)).toEqual(['r1']);
  });

  test('the filters JSON tree with nested groups replaces filter__ parameters', async () => {
    const tree = {
      filter_type: 'AND',
      filters: [{ field: f.active, type: 'boolean', value: '0' }],
      groups: [{ filter_type: 'OR', filters: [{ field: f.name, type: 'empty', value: '' }, { field: f.number, type: 'equal', value: '4' }], groups: [] }],
    };
    expect(await ids(`filters=${encodeURIComponent(JSON.stringify(tree))}&${q('name', 'equal', 'nothing')}`)).toEqual(['r2', 'r3']);
    const nested = { filter_type: 'OR', filters: [], groups: [{ filter_type: 'AND', groups: [{ filter_type: 'AND', filters: [{ field: String(f.name), type: 'contains', value: 'pie' }] }] }] };
    expect(await ids(`filters=${encodeURIComponent(JSON.stringify(nested))}`)).toEqual(['r1']);
  });
});

describe('errors', () => {
  const get = (query: string) => api('GET', `/api/database/rows/table/${tableId}/?${query}`);
  const json = (tree: unknown) => get(`filters=${encodeURIComponent(typeof tree === 'string' ? tree : JSON.stringify(tree))}`);

  test('unknown field, unknown type, incompatible type', async () => {
    expect((await get('filter__field_999999__equal=1')).body).toEqual({ error: 'ERROR_FILTER_FIELD_NOT_FOUND', detail: 'The field field_999999 was not found in the table.' });
    const unknownType = await get(q('name', 'nope', '1'));
    expect(unknownType.status).toBe(400);
    expect(unknownType.body).toEqual({ error: 'ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST', detail: "The view filter type nope doesn't exist." });
    const incompatible = await get(q('name', 'higher_than', '1'));
    expect(incompatible.status).toBe(400);
    expect(incompatible.body).toEqual({ error: 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD', detail: 'The filter higher_than is not compatible with field type text.' });
    expect((await get(q('active', 'contains', 'x'))).body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
    expect((await json({ filter_type: 'AND', filters: [{ field: 999999, type: 'equal', value: '' }] })).body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
    expect((await json({ filter_type: 'OR', groups: [{ filter_type: 'AND', filters: [{ field: f.day, type: 'equal', value: '' }] }] })).body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
  });

  test('the filters JSON answers the serializer validation tree', async () => {
    const err = (detail: unknown) => ({ error: 'ERROR_FILTERS_PARAM_VALIDATION_ERROR', detail });
    const e = (error: string, code: string) => [{ error, code }];
    const invalid = await json('{nope');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual(err({ error: 'The provided filters are not valid JSON.', code: 'invalid_json' }));
    expect((await json([])).body).toEqual(err({ non_field_errors: e('Invalid data. Expected a dictionary, but got list.', 'invalid') }));
    expect((await json('null')).body).toEqual(err({ non_field_errors: e('No data provided', 'null') }));
    expect((await json({})).body).toEqual(err({ filter_type: e('This field is required.', 'required') }));
    expect((await json({ filter_type: 'and', filters: 'x', groups: {} })).body).toEqual(
      err({
        filter_type: e('"and" is not a valid choice.', 'invalid_choice'),
        filters: e('Expected a list of items but got type "str".', 'not_a_list'),
        groups: { non_field_errors: e('Expected a list of items but got type "dict".', 'not_a_list') },
      }),
    );
    expect((await json({ filter_type: 'AND', filters: [{ field: f.name, type: 'equal', value: 'x' }, { field: 'abc', type: '', value: true }, 5, {}] })).body).toEqual(
      err({
        filters: {
          '1': { field: e('A valid integer is required.', 'invalid'), type: e('This field may not be blank.', 'blank'), value: e('Not a valid string.', 'invalid') },
          '2': { non_field_errors: e('Invalid data. Expected a dictionary, but got int.', 'invalid') },
          '3': { field: e('This field is required.', 'required'), type: e('This field is required.', 'required'), value: e('This field is required.', 'required') },
        },
      }),
    );
    expect((await json({ filter_type: 'AND', groups: [{ filter_type: 'OR' }, { filter_type: 'XOR', groups: [{}] }] })).body).toEqual(
      err({ groups: [{}, { filter_type: e('"XOR" is not a valid choice.', 'invalid_choice'), groups: [{ filter_type: e('This field is required.', 'required') }] }] }),
    );
    const rowsLeft = await ids('');
    expect(rowsLeft).toEqual(['r1', 'r2', 'r3']);
  });
});
