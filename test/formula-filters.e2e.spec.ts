import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';

/**
 * Filters on computed fields: Baserow's array filters (`has_value_equal`, `has_date_before`,
 * …) on lookup arrays of every element type, `empty`/`not_empty` on arrays and links, and
 * the scalar filters on formulas filtered as the plain field of their result (a single
 * select formula included), through the rows endpoint's `filter__` parameters, its `filters`
 * tree and saved view filters (with their applicability check).
 */

let t: TestApp;
let ada: SignedUp;
let database: number;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  database = await databaseOf(t, ada);
});
afterAll(async () => t?.close());

const req = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await req(method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const createTable = (name: string): Promise<number> => emptyTable(t, ada, database, name);
const createField = (table: number, body: Record<string, unknown>) => ok('POST', `/api/database/fields/table/${table}/`, body);
const createRow = (table: number, body: Record<string, unknown>) => ok('POST', `/api/database/rows/table/${table}/?user_field_names=true`, body);

/** The names of the rows the query keeps, sorted. */
async function names(table: number, query: string): Promise<string[]> {
  const res = await req('GET', `/api/database/rows/table/${table}/?user_field_names=true&size=200&${query}`);
  if (res.status !== 200) throw new Error(`${query} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results.map((r: any) => r.Name).sort();
}
const filter = (field: { id: number }, type: string, value = '') => `filter__field_${field.id}__${type}=${encodeURIComponent(value)}`;

describe('filters on computed fields', () => {
  let items: number;
  let orders: number;
  const option: Record<string, number> = {};
  const f: Record<string, any> = {};

  /** The orders a filter on one of their fields keeps. */
  const orderNames = (field: string, type: string, value = '') => names(orders, filter(f[field], type, value));
  /** The items a filter on one of their fields keeps. */
  const itemNames = (field: string, type: string, value = '') => names(items, filter(f[field], type, value));

  beforeAll(async () => {
    items = await createTable('Items');
    orders = await createTable('Orders');
    await createField(items, { name: 'Tag', type: 'text' });
    await createField(items, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
    await createField(items, { name: 'Done', type: 'boolean' });
    await createField(items, { name: 'Due', type: 'date' });
    await createField(items, { name: 'At', type: 'date', date_include_time: true });
    const status = await createField(items, {
      name: 'Status',
      type: 'single_select',
      select_options: [
        { value: 'Alpha', color: 'blue' },
        { value: 'Beta Max', color: 'red' },
        { value: 'Gamma', color: 'green' },
      ],
    });
    for (const o of status.select_options) option[o.value] = o.id;
    await createField(orders, { name: 'Items', type: 'link_row', link_row_table_id: items });

    const apple = await createRow(items, { Name: 'apple', Tag: 'Red Fruit', Amount: '1.5', Done: true, Due: '2024-01-10', At: '2024-01-10T10:00:00Z', Status: option.Alpha });
    const banana = await createRow(items, { Name: 'banana', Tag: 'yellow', Amount: '10', Done: false, Due: '2024-02-01', At: '2024-02-01T23:30:00Z', Status: option['Beta Max'] });
    const cherry = await createRow(items, { Name: 'cherry', Done: true });
    const date = await createRow(items, { Name: 'date', Tag: 'red', Amount: '-2', Done: true, Due: '2030-06-15', At: '2030-06-15T12:00:00Z', Status: option.Alpha });
    await createRow(orders, { Name: 'one', Items: [apple.id, banana.id] });
    await createRow(orders, { Name: 'two', Items: [cherry.id] });
    await createRow(orders, { Name: 'three', Items: [date.id] });
    await createRow(orders, { Name: 'none', Items: [] });
    await createRow(orders, { Name: 'five', Items: [apple.id, date.id] });

    const lookups: Record<string, string> = { Tags: 'Tag', Amounts: 'Amount', Dones: 'Done', Dues: 'Due', Ats: 'At', Statuses: 'Status' };
    for (const [name, target] of Object.entries(lookups)) {
      f[name] = await createField(orders, { name, type: 'lookup', through_field_name: 'Items', target_field_name: target });
    }
    const formulas: Record<string, string> = {
      Label: "concat(field('Name'), '!')",
      AmountF: "field('Amount')",
      StatusF: "field('Status')",
      DueF: "field('Due')",
      DoneF: "field('Done')",
      LinkF: "link(field('Tag'))",
    };
    for (const [name, formula] of Object.entries(formulas)) f[name] = await createField(items, { name, type: 'formula', formula });
  });

  test('the lookups and formulas are typed as the filters expect', () => {
    expect(Object.fromEntries(['Tags', 'Amounts', 'Dones', 'Dues', 'Ats', 'Statuses'].map((n) => [n, [f[n].formula_type, f[n].array_formula_type]]))).toEqual({
      Tags: ['array', 'text'],
      Amounts: ['array', 'number'],
      Dones: ['array', 'boolean'],
      Dues: ['array', 'date'],
      Ats: ['array', 'date'],
      Statuses: ['array', 'single_select'],
    });
    expect(['Label', 'AmountF', 'StatusF', 'DueF', 'DoneF', 'LinkF'].map((n) => f[n].formula_type)).toEqual(['text', 'number', 'single_select', 'date', 'boolean', 'link']);
  });

  test('text arrays: equal, contains, contains word, length, empty values', async () => {
    expect(await orderNames('Tags', 'has_value_equal', 'red')).toEqual(['five', 'three']);
    expect(await orderNames('Tags', 'has_value_equal', 'Red')).toEqual([]);
    expect(await orderNames('Tags', 'has_value_equal', '')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Tags', 'has_not_value_equal', 'red')).toEqual(['none', 'one', 'two']);
    expect(await orderNames('Tags', 'has_value_contains', 'RED')).toEqual(['five', 'one', 'three']);
    expect(await orderNames('Tags', 'has_value_contains', 'd_f')).toEqual([]);
    expect(await orderNames('Tags', 'has_not_value_contains', 'red')).toEqual(['none', 'two']);
    expect(await orderNames('Tags', 'has_value_contains_word', 'FRUIT')).toEqual(['five', 'one']);
    expect(await orderNames('Tags', 'has_value_contains_word', 'fru')).toEqual([]);
    expect(await orderNames('Tags', 'has_not_value_contains_word', 'fruit')).toEqual(['none', 'three', 'two']);
    expect(await orderNames('Tags', 'has_value_length_is_lower_than', '4')).toEqual(['five', 'three', 'two']);
    expect(await orderNames('Tags', 'has_value_length_is_lower_than', '1')).toEqual(['two']);
    expect(await orderNames('Tags', 'has_value_length_is_lower_than', 'x')).toEqual([]);
    expect(await orderNames('Tags', 'has_empty_value')).toEqual(['two']);
    expect(await orderNames('Tags', 'has_not_empty_value')).toEqual(['five', 'none', 'one', 'three']);
  });

  test('number arrays: equal, comparisons and their negations, contains as shown, empty values', async () => {
    expect(await orderNames('Amounts', 'has_value_equal', '10')).toEqual(['one']);
    expect(await orderNames('Amounts', 'has_value_equal', '10.000001')).toEqual([]);
    expect(await orderNames('Amounts', 'has_value_equal', 'ten')).toEqual([]);
    expect(await orderNames('Amounts', 'has_not_value_equal', '10')).toEqual(['five', 'none', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_not_value_equal', 'ten')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_value_higher', '1.5')).toEqual(['one']);
    expect(await orderNames('Amounts', 'has_value_higher', 'x')).toEqual([]);
    expect(await orderNames('Amounts', 'has_value_higher', '')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_value_higher_or_equal', '1.5')).toEqual(['five', 'one']);
    expect(await orderNames('Amounts', 'has_value_lower', '0')).toEqual(['five', 'three']);
    expect(await orderNames('Amounts', 'has_value_lower_or_equal', '-2')).toEqual(['five', 'three']);
    expect(await orderNames('Amounts', 'has_value_lower_or_equal', '-2.01')).toEqual([]);
    expect(await orderNames('Amounts', 'has_not_value_higher', '1.5')).toEqual(['five', 'none', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_not_value_higher', 'x')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_not_value_higher_or_equal', '1.5')).toEqual(['none', 'three', 'two']);
    expect(await orderNames('Amounts', 'has_not_value_lower', '0')).toEqual(['none', 'one', 'two']);
    expect(await orderNames('Amounts', 'has_not_value_lower_or_equal', '-2')).toEqual(['none', 'one', 'two']);
    // Numbers contain as they show, with their decimal places: 10.00, 1.50, -2.00.
    expect(await orderNames('Amounts', 'has_value_contains', '0.0')).toEqual(['one']);
    expect(await orderNames('Amounts', 'has_value_contains', '1.50')).toEqual(['five', 'one']);
    expect(await orderNames('Amounts', 'has_not_value_contains', '2.00')).toEqual(['none', 'one', 'two']);
    expect(await orderNames('Amounts', 'has_empty_value')).toEqual(['two']);
    expect(await orderNames('Amounts', 'has_not_empty_value')).toEqual(['five', 'none', 'one', 'three']);
  });

  test('boolean arrays: a value, all values', async () => {
    expect(await orderNames('Dones', 'has_value_equal', '0')).toEqual(['one']);
    expect(await orderNames('Dones', 'has_value_equal', 'True')).toEqual(['five', 'one', 'three', 'two']);
    expect(await orderNames('Dones', 'has_value_equal', 'yes')).toEqual([]);
    expect(await orderNames('Dones', 'has_not_value_equal', 'f')).toEqual(['five', 'none', 'three', 'two']);
    expect(await orderNames('Dones', 'has_all_values_equal', '1')).toEqual(['five', 'three', 'two']);
    expect(await orderNames('Dones', 'has_all_values_equal', 'False')).toEqual([]);
    expect(await orderNames('Dones', 'has_all_values_equal', 'nope')).toEqual([]);
    expect(await orderNames('Dones', 'has_all_values_equal', '')).toEqual(['five', 'none', 'one', 'three', 'two']);
  });

  test('single select arrays: option ids, option values, empty values', async () => {
    expect(await orderNames('Statuses', 'has_any_select_option_equal', `${option['Beta Max']},${option.Gamma}`)).toEqual(['one']);
    expect(await orderNames('Statuses', 'has_any_select_option_equal', `${option.Alpha}`)).toEqual(['five', 'one', 'three']);
    expect(await orderNames('Statuses', 'has_any_select_option_equal', 'x')).toEqual([]);
    expect(await orderNames('Statuses', 'has_none_select_option_equal', `${option.Alpha}`)).toEqual(['none', 'two']);
    expect(await orderNames('Statuses', 'has_none_select_option_equal', 'x')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Statuses', 'has_value_equal', `${option['Beta Max']}`)).toEqual(['one']);
    expect(await orderNames('Statuses', 'has_not_value_equal', `${option.Alpha}`)).toEqual(['none', 'two']);
    expect(await orderNames('Statuses', 'has_value_contains', 'max')).toEqual(['one']);
    expect(await orderNames('Statuses', 'has_value_contains', 'ph')).toEqual(['five', 'one', 'three']);
    expect(await orderNames('Statuses', 'has_not_value_contains', 'ph')).toEqual(['none', 'two']);
    expect(await orderNames('Statuses', 'has_value_contains_word', 'max')).toEqual(['one']);
    expect(await orderNames('Statuses', 'has_value_contains_word', 'ma')).toEqual([]);
    expect(await orderNames('Statuses', 'has_not_value_contains_word', 'alpha')).toEqual(['none', 'two']);
    expect(await orderNames('Statuses', 'has_empty_value')).toEqual(['two']);
    expect(await orderNames('Statuses', 'has_not_empty_value')).toEqual(['five', 'none', 'one', 'three']);
  });

  test('date arrays: the multi-step date value, in its time zone', async () => {
    const exact = (day: string, tz = 'UTC') => `${tz}?${day}?exact_date`;
    expect(await orderNames('Dues', 'has_date_equal', exact('2024-02-01'))).toEqual(['one']);
    expect(await orderNames('Dues', 'has_not_date_equal', exact('2024-02-01'))).toEqual(['five', 'none', 'three', 'two']);
    expect(await orderNames('Dues', 'has_date_before', exact('2024-01-11'))).toEqual(['five', 'one']);
    expect(await orderNames('Dues', 'has_date_before', exact('2024-01-10'))).toEqual([]);
    expect(await orderNames('Dues', 'has_not_date_before', exact('2024-01-11'))).toEqual(['none', 'three', 'two']);
    expect(await orderNames('Dues', 'has_date_on_or_before', exact('2024-01-10'))).toEqual(['five', 'one']);
    expect(await orderNames('Dues', 'has_date_on_or_before', exact('2024-01-09', ''))).toEqual([]);
    expect(await orderNames('Dues', 'has_not_date_on_or_before', exact('2024-01-10'))).toEqual(['none', 'three', 'two']);
    expect(await orderNames('Dues', 'has_date_after', exact('2024-02-01'))).toEqual(['five', 'three']);
    expect(await orderNames('Dues', 'has_not_date_after', exact('2024-02-01'))).toEqual(['none', 'one', 'two']);
    expect(await orderNames('Dues', 'has_date_on_or_after', exact('2024-02-01'))).toEqual(['five', 'one', 'three']);
    expect(await orderNames('Dues', 'has_not_date_on_or_after', exact('2024-02-01'))).toEqual(['none', 'two']);
    // Within: from today to the end of the operator's period (the 2030 date, not the past ones).
    expect(await orderNames('Dues', 'has_date_within', 'UTC?10?nr_years_from_now')).toEqual(['five', 'three']);
    expect(await orderNames('Dues', 'has_date_within', 'UTC??yesterday')).toEqual([]);
    expect(await orderNames('Dues', 'has_not_date_within', 'UTC?10?nr_years_from_now')).toEqual(['none', 'one', 'two']);
    // An empty value is ignored; an invalid one matches nothing (its negation everything).
    expect(await orderNames('Dues', 'has_date_equal', 'UTC??exact_date')).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Dues', 'has_date_equal', exact('2024-13-45'))).toEqual([]);
    expect(await orderNames('Dues', 'has_not_date_equal', exact('2024-13-45'))).toEqual(['five', 'none', 'one', 'three', 'two']);
    expect(await orderNames('Dues', 'has_date_equal', 'Mars/Olympus?2024-02-01?exact_date')).toEqual([]);
    // Baserow reads a date item as midnight UTC and takes its date in the filter's zone.
    expect(await orderNames('Dues', 'has_date_equal', exact('2024-01-09', 'America/New_York'))).toEqual(['five', 'one']);
    // Datetime items: their date in the filter's zone (23:30 UTC is the next day in Berlin).
    expect(await orderNames('Ats', 'has_date_equal', exact('2024-02-02', 'Europe/Berlin'))).toEqual(['one']);
    expect(await orderNames('Ats', 'has_date_equal', exact('2024-02-02'))).toEqual([]);
    expect(await orderNames('Ats', 'has_date_on_or_after', exact('2024-02-01'))).toEqual(['five', 'one', 'three']);
    expect(await orderNames('Dues', 'has_value_contains', '10/01')).toEqual(['five', 'one']);
    expect(await orderNames('Dues', 'has_empty_value')).toEqual(['two']);
  });

  test('empty and not_empty: an array without items, a link without a URL', async () => {
    expect(await orderNames('Tags', 'empty')).toEqual(['none']);
    expect(await orderNames('Tags', 'not_empty')).toEqual(['five', 'one', 'three', 'two']);
    expect(await orderNames('Dones', 'empty')).toEqual(['none']);
    expect(await itemNames('LinkF', 'empty')).toEqual(['cherry']);
    expect(await itemNames('LinkF', 'not_empty')).toEqual(['apple', 'banana', 'date']);
    expect(await itemNames('StatusF', 'empty')).toEqual(['cherry']);
    expect(await itemNames('StatusF', 'not_empty')).toEqual(['apple', 'banana', 'date']);
  });

  test('scalar formulas take the filters of their result type', async () => {
    expect(await itemNames('Label', 'contains', 'PPL')).toEqual(['apple']);
    expect(await itemNames('Label', 'equal', 'date!')).toEqual(['date']);
    expect(await itemNames('Label', 'length_is_lower_than', '6')).toEqual(['date']);
    expect(await itemNames('AmountF', 'contains', '1.5')).toEqual(['apple']);
    expect(await itemNames('AmountF', 'higher_than', '5')).toEqual(['banana']);
    expect(await itemNames('StatusF', 'single_select_equal', `${option.Alpha}`)).toEqual(['apple', 'date']);
    expect(await itemNames('StatusF', 'single_select_not_equal', `${option.Alpha}`)).toEqual(['banana', 'cherry']);
    expect(await itemNames('StatusF', 'single_select_is_any_of', `${option['Beta Max']},${option.Gamma}`)).toEqual(['banana']);
    expect(await itemNames('StatusF', 'single_select_is_none_of', `${option['Beta Max']}`)).toEqual(['apple', 'cherry', 'date']);
    expect(await itemNames('StatusF', 'contains', 'max')).toEqual(['banana']);
    expect(await itemNames('StatusF', 'contains_word', 'beta')).toEqual(['banana']);
    expect(await itemNames('StatusF', 'doesnt_contain_word', 'beta')).toEqual(['apple', 'cherry', 'date']);
    expect(await itemNames('DueF', 'date_is', 'UTC?2024-01-10?exact_date')).toEqual(['apple']);
    expect(await itemNames('DoneF', 'boolean', '1')).toEqual(['apple', 'cherry', 'date']);
  });

  test('the filters JSON tree combines array and scalar filters', async () => {
    const tree = {
      filter_type: 'OR',
      filters: [
        { field: f.Amounts.id, type: 'has_value_higher', value: '5' },
        { field: 'Tags', type: 'has_value_equal', value: 'red' },
      ],
      groups: [{ filter_type: 'AND', filters: [{ field: 'Statuses', type: 'has_empty_value', value: '' }], groups: [] }],
    };
    expect(await names(orders, `filters=${encodeURIComponent(JSON.stringify(tree))}`)).toEqual(['five', 'one', 'three', 'two']);
  });

  test('array filters are refused on fields they do not apply to, and others on arrays', async () => {
    const refused: [string, string, number][] = [
      ['has_value_higher', 'Tags', orders],
      ['has_date_equal', 'Amounts', orders],
      ['has_all_values_equal', 'Tags', orders],
      ['has_value_equal', 'Dues', orders],
      ['has_value_contains_word', 'Amounts', orders],
      ['has_value_length_is_lower_than', 'Statuses', orders],
      ['has_any_select_option_equal', 'Tags', orders],
      ['has_empty_value', 'Dones', orders],
      ['equal', 'Tags', orders],
      ['higher_than', 'Amounts', orders],
      ['has_value_equal', 'Label', items],
      ['has_empty_value', 'StatusF', items],
    ];
    for (const [type, field, table] of refused) {
      const res = await req('GET', `/api/database/rows/table/${table}/?${filter(f[field], type, '1')}`);
      expect([type, field, res.status, res.body.error]).toEqual([type, field, 400, 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD']);
    }
  });

  test('saved view filters: the applicability check, and the rows of the view', async () => {
    const view = await ok('POST', `/api/database/views/table/${orders}/`, { name: 'Filtered', type: 'grid' });
    const refused = await req('POST', `/api/database/views/${view.id}/filters/`, { field: f.Tags.id, type: 'has_value_higher', value: '1' });
    expect([refused.status, refused.body.error]).toEqual([400, 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD']);
    const saved = await ok('POST', `/api/database/views/${view.id}/filters/`, { field: f.Tags.id, type: 'has_value_contains', value: 'red' });
    expect(saved).toMatchObject({ field: f.Tags.id, type: 'has_value_contains', value: 'red' });
    expect(await names(orders, `view_id=${view.id}`)).toEqual(['five', 'one', 'three']);
    const changed = await req('PATCH', `/api/database/views/filter/${saved.id}/`, { type: 'has_date_before' });
    expect([changed.status, changed.body.error]).toEqual([400, 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD']);
    await ok('PATCH', `/api/database/views/filter/${saved.id}/`, { field: f.Dues.id, type: 'has_date_before', value: 'UTC?2024-01-11?exact_date' });
    expect(await names(orders, `view_id=${view.id}`)).toEqual(['five', 'one']);
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: f.Dones.id, type: 'has_all_values_equal', value: '1' });
    expect(await names(orders, `view_id=${view.id}`)).toEqual(['five']);
  });
});
