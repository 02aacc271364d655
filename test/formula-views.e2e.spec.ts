import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable, settleJob } from './support/fixtures';
import { connect, expectNone, WsClient } from './support/ws';

/**
 * Computed fields (formula, lookup, rollup, count) everywhere else in the API: grid
 * aggregations, saved sorts and group-bys, unique row values, form views, shared views and
 * their real time, `field_updated` of dependent fields of other tables, table duplication and
 * the trash — as Baserow answers them.
 */
let t: TestApp;
let ada: SignedUp;
let database: number;
const open: WsClient[] = [];

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  database = await databaseOf(t, ada);
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => t?.close());

const req = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
/** A request without credentials (a visitor of a shared view or form). */
const anon = (method: string, path: string, body?: unknown) => t.request(method, path, { body });
async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await req(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}
async function socket(token: string): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}

/** A new table (Name, Notes, Active) without the rows a table starts with. */
const createTable = (name: string): Promise<number> => emptyTable(t, ada, database, name);
const createField = (table: number, body: Record<string, unknown>) => ok('POST', `/api/database/fields/table/${table}/`, body);
const createRow = (table: number, body: Record<string, unknown>) => ok('POST', `/api/database/rows/table/${table}/?user_field_names=true`, body);
const updateRow = (table: number, id: number, body: Record<string, unknown>) => ok('PATCH', `/api/database/rows/table/${table}/${id}/?user_field_names=true`, body);
const rowsOf = async (table: number, query = ''): Promise<any[]> => (await ok('GET', `/api/database/rows/table/${table}/?user_field_names=true${query}`)).results;
const fieldsOf = (table: number): Promise<any[]> => ok('GET', `/api/database/fields/table/${table}/`);
const gridOf = async (table: number): Promise<number> => (await ok('GET', `/api/database/views/table/${table}/`)).find((v: any) => v.type === 'grid').id;

interface Chain {
  items: number;
  orders: number;
  /** Fields by name, of both tables. */
  f: Record<string, any>;
  /** Row ids by name, of both tables. */
  r: Record<string, number>;
}

/**
 * Items (Name, Amount, When, Active, Status and the formulas Twice, Shout, Day, Flag, Tone,
 * Web) and Orders (Name, a link to Items, the lookup Amounts, the rollup Total, the count N
 * and the formula Caption), with rows.
 */
async function chain(prefix: string): Promise<Chain> {
  const items = await createTable(`${prefix} items`);
  const orders = await createTable(`${prefix} orders`);
  const f: Record<string, any> = {};
  const add = async (table: number, body: Record<string, unknown>) => (f[body.name as string] = await createField(table, body));
  for (const field of await fieldsOf(items)) f[field.name] = field;
  await add(items, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
  await add(items, { name: 'When', type: 'date', date_format: 'ISO' });
  await add(items, { name: 'Status', type: 'single_select', select_options: [{ value: 'Red', color: 'red' }, { value: 'Blue', color: 'blue' }] });
  await add(items, { name: 'Twice', type: 'formula', formula: "field('Amount') * 2" });
  await add(items, { name: 'Shout', type: 'formula', formula: "upper(field('Name'))" });
  await add(items, { name: 'Day', type: 'formula', formula: "field('When')" });
  await add(items, { name: 'Flag', type: 'formula', formula: "field('Active')" });
  await add(items, { name: 'Tone', type: 'formula', formula: "field('Status')" });
  await add(items, { name: 'Web', type: 'formula', formula: "link(field('Name'))" });
  f.OrderName = (await fieldsOf(orders)).find((x) => x.primary);
  await add(orders, { name: 'Items', type: 'link_row', link_row_table_id: items });
  const r: Record<string, number> = {};
  const [red, blue] = f.Status.select_options.map((o: any) => o.id);
  r.pen = (await createRow(items, { Name: 'pen', Amount: '1.50', When: '2024-01-02', Active: true, Status: red })).id;
  r.ink = (await createRow(items, { Name: 'ink', Amount: '2.25', When: '2024-03-04', Active: false, Status: blue })).id;
  r.pad = (await createRow(items, { Name: 'pad', Amount: null, When: null, Active: true, Status: red })).id;
  r.cap = (await createRow(items, { Name: 'cap', Amount: '10', When: '2023-12-31', Active: false, Status: null })).id;
  r.a = (await createRow(orders, { Name: 'a', Items: [r.pen, r.ink] })).id;
  r.b = (await createRow(orders, { Name: 'b', Items: [r.cap] })).id;
  r.c = (await createRow(orders, { Name: 'c', Items: [] })).id;
  await add(orders, { name: 'Amounts', type: 'lookup', through_field_name: 'Items', target_field_name: 'Amount' });
  await add(orders, { name: 'Total', type: 'rollup', through_field_id: f.Items.id, target_field_id: f.Amount.id, rollup_function: 'sum' });
  await add(orders, { name: 'N', type: 'count', through_field_id: f.Items.id });
  await add(orders, { name: 'Caption', type: 'formula', formula: "concat(field('Name'), '!')" });
  return { items, orders, f, r };
}

describe('grid aggregations of computed fields', () => {
  let c: Chain;
  let ordersGrid: number;
  let itemsGrid: number;
  const agg = (view: number, field: any, type: string) => req('GET', `/api/database/views/grid/${view}/aggregation/${field.id}/?type=${type}`);
  const value = async (view: number, field: any, type: string) => {
    const res = await agg(view, field, type);
    expect(res.status).toBe(200);
    return res.body.value;
  };

  beforeAll(async () => {
    c = await chain('Agg');
    ordersGrid = await gridOf(c.orders);
    itemsGrid = await gridOf(c.items);
  });

  test('rollups, counts and number formulas take the number aggregations', async () => {
    const { Total, N, Twice } = c.f;
    expect(await value(ordersGrid, Total, 'sum')).toBe(13.75);
    expect(await value(ordersGrid, Total, 'min')).toBe(0);
    expect(await value(ordersGrid, Total, 'max')).toBe(10);
    expect(await value(ordersGrid, Total, 'average')).toBeCloseTo(13.75 / 3, 10);
    expect(await value(ordersGrid, Total, 'median')).toBe(3.75);
    expect(await value(ordersGrid, Total, 'variance')).toBeCloseTo(((3.75 - 13.75 / 3) ** 2 + (10 - 13.75 / 3) ** 2 + (13.75 / 3) ** 2) / 3, 10);
    expect(await value(ordersGrid, Total, 'std_dev')).toBeCloseTo(Math.sqrt(((3.75 - 13.75 / 3) ** 2 + (10 - 13.75 / 3) ** 2 + (13.75 / 3) ** 2) / 3), 10);
    expect(await value(ordersGrid, N, 'sum')).toBe(3);
    expect(await value(ordersGrid, N, 'unique_count')).toBe(3);
    expect(await value(itemsGrid, Twice, 'sum')).toBe(27.5);
    // An empty number reads as 0 in arithmetic: pad's Twice is 0.00, not empty.
    expect(await value(itemsGrid, Twice, 'empty_count')).toBe(0);
    expect(await value(itemsGrid, Twice, 'not_empty_count')).toBe(4);
    expect((await value(itemsGrid, Twice, 'decile')) as number[]).toHaveLength(9);
  });

  test('text, date and boolean formulas take the aggregations Baserow allows for them', async () => {
    const { Caption, Shout, Day, Flag } = c.f;
    expect(await value(ordersGrid, Caption, 'unique_count')).toBe(3);
    expect(await value(ordersGrid, Caption, 'empty_count')).toBe(0);
    expect(await value(ordersGrid, Caption, 'distribution')).toEqual([
      ['a!', 1],
      ['b!', 1],
      ['c!', 1],
    ]);
    expect(await value(itemsGrid, Shout, 'not_empty_count')).toBe(4);
    expect(await value(itemsGrid, Day, 'min')).toBe('2023-12-31');
    expect(await value(itemsGrid, Day, 'max')).toBe('2024-03-04');
    expect(await value(itemsGrid, Day, 'empty_count')).toBe(1);
    // A false boolean is an empty cell.
    expect(await value(itemsGrid, Flag, 'empty_count')).toBe(2);
    expect(await value(itemsGrid, Flag, 'distribution')).toEqual([
      [false, 2],
      [true, 2],
    ]);
  });

  test('the other combinations answer the existing error', async () => {
    const refused: [number, string, string][] = [
      [ordersGrid, 'Caption', 'sum'],
      [ordersGrid, 'Amounts', 'sum'],
      [ordersGrid, 'Amounts', 'empty_count'],
      [ordersGrid, 'Amounts', 'unique_count'],
      [itemsGrid, 'Day', 'sum'],
      [itemsGrid, 'Flag', 'unique_count'],
      [itemsGrid, 'Tone', 'empty_count'],
      [itemsGrid, 'Tone', 'distribution'],
      [itemsGrid, 'Web', 'not_empty_count'],
    ];
    for (const [view, name, type] of refused) {
      const res = await agg(view, c.f[name], type);
      expect([name, type, res.status, res.body]).toEqual([
        name,
        type,
        400,
        { error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' },
      ]);
    }
  });

  test('field options name aggregations of computed fields; the view answers them with the selection', async () => {
    const { Total, N, Caption } = c.f;
    const options = await req('PATCH', `/api/database/views/${ordersGrid}/field-options/`, {
      field_options: { [Total.id]: { aggregation_type: 'sum', aggregation_raw_type: 'sum' }, [N.id]: { aggregation_type: 'max', aggregation_raw_type: 'max' } },
    });
    expect(options.status).toBe(200);
    const refused = await req('PATCH', `/api/database/views/${ordersGrid}/field-options/`, { field_options: { [Caption.id]: { aggregation_raw_type: 'sum' } } });
    expect(refused.body.error).toBe('ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD');
    const all = await ok('GET', `/api/database/views/grid/${ordersGrid}/aggregations/?include=total`);
    expect(all).toEqual({ [`field_${Total.id}`]: 13.75, [`field_${N.id}`]: 2, total: 3 });
    const filtered = await ok('GET', `/api/database/views/grid/${ordersGrid}/aggregations/?filter__field_${Total.id}__higher_than=1&include=total`);
    expect(filtered).toEqual({ [`field_${Total.id}`]: 13.75, [`field_${N.id}`]: 2, total: 2 });
    // A write recomputes the rollup before the next aggregation.
    await updateRow(c.items, c.r.cap, { Amount: '20' });
    expect((await ok('GET', `/api/database/views/grid/${ordersGrid}/aggregations/`))[`field_${Total.id}`]).toBe(23.75);
  });
});

describe('sorts and group-bys on computed fields', () => {
  let c: Chain;
  let ordersGrid: number;
  let itemsGrid: number;
  const sort = (view: number, field: any, order = 'ASC') => req('POST', `/api/database/views/${view}/sortings/`, { field: field.id, order });
  const groupBy = (view: number, field: any, order = 'ASC') => req('POST', `/api/database/views/${view}/group_bys/`, { field: field.id, order });
  const names = async (view: number, nameField: any) => (await ok('GET', `/api/database/views/grid/${view}/`)).results.map((row: any) => row[`field_${nameField.id}`]);

  beforeAll(async () => {
    c = await chain('Sort');
    ordersGrid = await gridOf(c.orders);
    itemsGrid = await gridOf(c.items);
  });

  test('a grid sorted by a rollup, a count or a text formula lists in that order', async () => {
    const byTotal = await sort(ordersGrid, c.f.Total, 'DESC');
    expect(byTotal.status).toBe(200);
    expect(byTotal.body).toMatchObject({ field: c.f.Total.id, order: 'DESC', type: 'default' });
    expect(await names(ordersGrid, c.f.OrderName)).toEqual(['b', 'a', 'c']);
    await ok('DELETE', `/api/database/views/sort/${byTotal.body.id}/`);
    expect((await sort(ordersGrid, c.f.N, 'DESC')).status).toBe(200);
    expect((await sort(ordersGrid, c.f.Caption, 'DESC')).status).toBe(200);
    expect(await names(ordersGrid, c.f.OrderName)).toEqual(['a', 'b', 'c']);
  });

  test('number, date, boolean and single select formulas sort; a single select formula by its option value', async () => {
    for (const name of ['Twice', 'Day', 'Flag', 'Tone']) expect([name, (await sort(itemsGrid, c.f[name])).status]).toEqual([name, 200]);
    const sorted = await ok('GET', `/api/database/views/grid/${itemsGrid}/`);
    // Tone is sorted after Twice, Day and Flag: those decide here.
    expect(sorted.results.map((row: any) => row[`field_${c.f.Name.id}`])).toEqual(['pad', 'pen', 'ink', 'cap']);
    const byTone = await ok('GET', `/api/database/rows/table/${c.items}/?user_field_names=true&order_by=-field_${c.f.Tone.id}`);
    expect(byTone.results.map((row: any) => row.Tone?.value ?? null)).toEqual(['Red', 'Red', 'Blue', null]);
  });

  test('link formulas cannot be sorted; arrays, links and single selects cannot be grouped', async () => {
    const res = await sort(itemsGrid, c.f.Web);
    expect([res.status, res.body.error]).toEqual([400, 'ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED']);
    const adHoc = await req('GET', `/api/database/rows/table/${c.items}/?order_by=field_${c.f.Web.id}`);
    expect([adHoc.status, adHoc.body.error]).toEqual([400, 'ERROR_ORDER_BY_FIELD_NOT_POSSIBLE']);
    for (const name of ['Amounts', 'Web', 'Tone']) {
      const grouped = await groupBy(name === 'Amounts' ? ordersGrid : itemsGrid, c.f[name]);
      expect([name, grouped.status, grouped.body.error]).toEqual([name, 400, 'ERROR_VIEW_GROUP_BY_FIELD_NOT_SUPPORTED']);
    }
  });

  test('a grid grouped by a count and a number formula lists its groups with their counts', async () => {
    const grouped = await groupBy(ordersGrid, c.f.N);
    expect(grouped.status).toBe(200);
    expect(grouped.body).toMatchObject({ field: c.f.N.id, order: 'ASC', width: 200 });
    const page = await ok('GET', `/api/database/views/grid/${ordersGrid}/`);
    expect(page.results.map((row: any) => row[`field_${c.f.OrderName.id}`])).toEqual(['c', 'b', 'a']);
    expect(page.group_by_metadata).toEqual({
      [`field_${c.f.N.id}`]: [
        { [`field_${c.f.N.id}`]: '0', count: 1 },
        { [`field_${c.f.N.id}`]: '1', count: 1 },
        { [`field_${c.f.N.id}`]: '2', count: 1 },
      ],
    });
    expect((await groupBy(itemsGrid, c.f.Twice)).status).toBe(200);
    const items = await ok('GET', `/api/database/views/grid/${itemsGrid}/`);
    expect(items.group_by_metadata[`field_${c.f.Twice.id}`]).toEqual([
      { [`field_${c.f.Twice.id}`]: '0.00', count: 1 },
      { [`field_${c.f.Twice.id}`]: '3.00', count: 1 },
      { [`field_${c.f.Twice.id}`]: '4.50', count: 1 },
      { [`field_${c.f.Twice.id}`]: '20.00', count: 1 },
    ]);
  });

  test('a formula that stops being sortable loses its sorts, group-bys and filters instead of breaking its views', async () => {
    const view = (await ok('POST', `/api/database/views/table/${c.orders}/`, { name: 'By total', type: 'grid' })).id;
    expect((await sort(view, c.f.Total)).status).toBe(200);
    expect((await groupBy(view, c.f.Caption)).status).toBe(200);
    expect((await req('POST', `/api/database/views/${view}/filters/`, { field: c.f.Total.id, type: 'higher_than', value: '1' })).status).toBe(200);
    await ok('PATCH', `/api/database/views/${view}/field-options/`, { field_options: { [c.f.Total.id]: { aggregation_type: 'sum', aggregation_raw_type: 'sum' } } });
    // The link the rollup reads goes to the trash: the rollup is invalid, and so is Caption once it reads a field that is gone.
    await ok('PATCH', `/api/database/fields/${c.f.Caption.id}/`, { formula: "concat(field('Name'), field('Total'))" });
    await ok('DELETE', `/api/database/fields/${c.f.Items.id}/`);
    const listed = await req('GET', `/api/database/views/grid/${view}/`);
    expect(listed.status).toBe(200);
    expect(listed.body.results).toHaveLength(3);
    const saved = await ok('GET', `/api/database/views/${view}/?include=filters,sortings,group_bys`);
    expect([saved.filters, saved.sortings, saved.group_bys]).toEqual([[], [], []]);
    const options = (await ok('GET', `/api/database/views/${view}/field-options/`)).field_options[c.f.Total.id];
    expect(options).toMatchObject({ aggregation_type: '', aggregation_raw_type: '' });
  });
});

describe('unique_row_values of computed fields', () => {
  let c: Chain;
  let extra: number;
  beforeAll(async () => {
    c = await chain('Unique');
    extra = (await createRow(c.items, { Name: 'pen', Amount: '1.50' })).id;
  });
  const unique = (field: any, query = '') => req('GET', `/api/database/fields/${field.id}/unique_row_values/${query}`);

  test('text and number formulas answer their distinct values, most frequent first', async () => {
    const shout = (await unique(c.f.Shout)).body.values;
    expect([shout[0], shout.slice(1).sort()]).toEqual(['PEN', ['CAP', 'INK', 'PAD']]);
    const twice = (await unique(c.f.Twice)).body.values;
    expect([twice[0], twice.slice(1).sort()]).toEqual(['3.00', ['0.00', '20.00', '4.50']]);
    const captions = (await unique(c.f.Caption, '?limit=2')).body.values;
    expect(captions).toHaveLength(2);
    for (const caption of captions) expect(['a!', 'b!', 'c!']).toContain(caption);
    // Rows in the trash are left out.
    await ok('DELETE', `/api/database/rows/table/${c.items}/${extra}/`);
    expect((await unique(c.f.Shout)).body.values.sort()).toEqual(['CAP', 'INK', 'PAD', 'PEN']);
    expect((await unique(c.f.Twice)).body.values.sort()).toEqual(['0.00', '20.00', '3.00', '4.50']);
  });

  test('lookups, rollups and counts do not have unique values, as Baserow', async () => {
    for (const name of ['Amounts', 'Total', 'N']) {
      const res = await unique(c.f[name]);
      expect([name, res.status, res.body.error]).toEqual([name, 400, 'ERROR_INCOMPATIBLE_FIELD_TYPE_FOR_UNIQUE_VALUES']);
    }
  });
});

describe('form views', () => {
  let c: Chain;
  let form: any;
  beforeAll(async () => {
    c = await chain('Form');
    form = await ok('POST', `/api/database/views/table/${c.orders}/`, { name: 'Order form', type: 'form', public: true });
    await ok('PATCH', `/api/database/views/${form.id}/field-options/`, {
      field_options: { [c.f.OrderName.id]: { enabled: true, required: true }, [c.f.Items.id]: { enabled: true, required: false } },
    });
  });

  test('computed fields cannot be form fields and are not shown', async () => {
    for (const name of ['Amounts', 'Total', 'N', 'Caption']) {
      const res = await req('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: { [c.f[name].id]: { enabled: true } } });
      expect([name, res.status, res.body.error]).toEqual([name, 400, 'ERROR_FORM_VIEW_READ_ONLY_FIELD_IS_NOT_SUPPORTED']);
    }
    const shown = await anon('GET', `/api/database/views/form/${form.slug}/submit/`);
    expect(shown.status).toBe(200);
    expect(shown.body.fields.map((x: any) => x.field.id)).toEqual([c.f.OrderName.id, c.f.Items.id]);
  });

  test('conditions on computed fields see the submitted row’s computed cells', async () => {
    const notes = (await fieldsOf(c.orders)).find((x) => x.name === 'Notes');
    const set = await req('PATCH', `/api/database/views/${form.id}/field-options/`, {
      field_options: { [notes.id]: { enabled: true, required: true, show_when_matching_conditions: true, conditions: [{ id: 1, field: c.f.Total.id, type: 'higher_than', value: '5' }] } },
    });
    expect(set.status).toBe(200);
    const submit = (items: number[], extra: Record<string, unknown> = {}) =>
      anon('POST', `/api/database/views/form/${form.slug}/submit/`, { [`field_${c.f.OrderName.id}`]: 'cond', [`field_${c.f.Items.id}`]: items, ...extra });
    // 1.50 + 10.00: the rollup is above 5, so Notes is shown and required.
    const missing = await submit([c.r.pen, c.r.cap]);
    expect([missing.status, missing.body.detail]).toEqual([400, { [`field_${notes.id}`]: [{ error: 'This field is required.', code: 'required' }] }]);
    expect((await submit([c.r.pen, c.r.cap], { [`field_${notes.id}`]: 'big' })).status).toBe(200);
    // 1.50 alone: Notes is not shown, the value given is not kept.
    const small = await submit([c.r.pen], { [`field_${notes.id}`]: 'dropped' });
    expect(small.status).toBe(200);
    const rows = await rowsOf(c.orders, `&filter__field_${c.f.OrderName.id}__equal=cond`);
    expect(rows.map((row) => [row.Total, row.Notes])).toEqual([
      ['11.50', 'big'],
      ['1.50', null],
    ]);
    await ok('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: { [notes.id]: { enabled: false } } });
  });

  test('a submission computes the new row’s computed cells (a computed value sent is ignored), with its rows_created', async () => {
    const client = await socket(ada.token);
    client.send({ page: 'table', table_id: c.orders });
    await client.waitFor('page_add');
    const res = await anon('POST', `/api/database/views/form/${form.slug}/submit/`, {
      [`field_${c.f.OrderName.id}`]: 'd',
      [`field_${c.f.Items.id}`]: [c.r.pen, c.r.cap],
      [`field_${c.f.Caption.id}`]: 'ignored',
    });
    expect(res.status).toBe(200);
    const [row] = await rowsOf(c.orders, `&filter__field_${c.f.OrderName.id}__equal=d`);
    expect(row).toMatchObject({ id: res.body.row_id, Caption: 'd!', Total: '11.50', N: '2', Amounts: [{ id: c.r.pen, value: '1.50' }, { id: c.r.cap, value: '10.00' }] });
    const message = await client.waitFor('rows_created');
    expect(message.rows[0]).toMatchObject({ id: row.id, [`field_${c.f.Caption.id}`]: 'd!', [`field_${c.f.Total.id}`]: '11.50' });
  });
});

describe('shared views', () => {
  let c: Chain;
  let view: any;
  beforeAll(async () => {
    c = await chain('Public');
    view = await ok('PATCH', `/api/database/views/${await gridOf(c.orders)}/`, { public: true });
  });

  test('a public grid shows the computed cells and fields', async () => {
    const rows = await anon('GET', `/api/database/views/grid/${view.slug}/public/rows/`);
    expect(rows.status).toBe(200);
    expect(rows.body.results.map((row: any) => [row[`field_${c.f.Caption.id}`], row[`field_${c.f.Total.id}`], row[`field_${c.f.N.id}`], row[`field_${c.f.Amounts.id}`]])).toEqual([
      ['a!', '3.75', '2', [{ id: c.r.pen, value: '1.50' }, { id: c.r.ink, value: '2.25' }]],
      ['b!', '10.00', '1', [{ id: c.r.cap, value: '10.00' }]],
      ['c!', '0.00', '0', []],
    ]);
    const sorted = await anon('GET', `/api/database/views/grid/${view.slug}/public/rows/?order_by=-field_${c.f.Total.id}`);
    expect(sorted.body.results.map((row: any) => row.id)).toEqual([c.r.b, c.r.a, c.r.c]);
    const info = await anon('GET', `/api/database/views/${view.slug}/public/info/`);
    expect(info.body.fields.find((x: any) => x.id === c.f.Total.id)).toMatchObject({ type: 'rollup', formula_type: 'number', table_id: 0 });
  });

  test('a write to another table reaches a filtered shared view through its lookups: entering, staying, leaving, never shown', async () => {
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: c.f.Total.id, type: 'higher_than', value: '5' });
    const anonymous = await socket('anonymous');
    anonymous.send({ page: 'view', slug: view.slug });
    await anonymous.waitFor('page_add');
    await anonymous.drain();
    const total = `field_${c.f.Total.id}`;

    // a: 3.75 → 7.25, enters the view.
    await updateRow(c.items, c.r.pen, { Amount: '5' });
    const created = await anonymous.waitFor('rows_created');
    expect(created).toMatchObject({ table_id: 0, metadata: {}, before_row_id: null });
    expect(created.rows.map((row: any) => [row.id, row[total]])).toEqual([[c.r.a, '7.25']]);
    await expectNone(anonymous);

    // a: 7.25 → 8.00, stays.
    await updateRow(c.items, c.r.ink, { Amount: '3' });
    const updated = await anonymous.waitFor('rows_updated');
    expect(updated.rows.map((row: any) => [row.id, row[total]])).toEqual([[c.r.a, '8.00']]);
    expect(updated.rows_before_update.map((row: any) => [row.id, row[total]])).toEqual([[c.r.a, '7.25']]);
    await expectNone(anonymous);

    // b: 10.00 → 1.00, leaves, with what the view showed.
    await updateRow(c.items, c.r.cap, { Amount: '1' });
    const deleted = await anonymous.waitFor('rows_deleted');
    expect(deleted).toMatchObject({ table_id: 0, row_ids: [c.r.b] });
    expect(deleted.rows[0][total]).toBe('10.00');
    await expectNone(anonymous);

    // c is linked to a row and stays below 5: never shown, nothing sent.
    await updateRow(c.orders, c.r.c, { Items: [c.r.pad] });
    await updateRow(c.items, c.r.pad, { Amount: '2' });
    await expectNone(anonymous);
  });
});

describe('field changes reach the pages of tables with dependent fields', () => {
  let c: Chain;
  beforeAll(async () => {
    c = await chain('Deps');
  });

  test('changing the target of a lookup sends field_updated of the dependent fields to the other table', async () => {
    const client = await socket(ada.token);
    client.send({ page: 'table', table_id: c.orders });
    await client.waitFor('page_add');
    const items = await socket(ada.token);
    items.send({ page: 'table', table_id: c.items });
    await items.waitFor('page_add');

    await ok('PATCH', `/api/database/fields/${c.f.Amount.id}/`, { number_decimal_places: 3 });
    const own = await items.waitFor('field_updated');
    expect(own.field.id).toBe(c.f.Amount.id);
    expect(own.related_fields.map((x: any) => x.id)).toEqual([c.f.Twice.id]);
    const message = await client.waitFor('field_updated');
    const changed = [message.field, ...message.related_fields];
    expect(message.field_id).toBe(message.field.id);
    expect(changed.map((x: any) => x.id).sort()).toEqual([c.f.Amounts.id, c.f.Total.id].sort());
    for (const field of changed) expect(field).toMatchObject({ table_id: c.orders, number_decimal_places: 3 });
    await expectNone(client);
    expect((await rowsOf(c.orders)).map((row) => row.Total)).toEqual(['3.750', '10.000', '0.000']);

    await ok('PATCH', `/api/database/fields/${c.f.Amount.id}/`, { name: 'Cost' });
    const renamed = await client.waitFor('field_updated');
    const lookup = [renamed.field, ...renamed.related_fields].find((x: any) => x.id === c.f.Amounts.id);
    expect(lookup).toMatchObject({ target_field_id: c.f.Amount.id, target_field_name: 'Cost', formula_type: 'array', error: null });
    expect((await rowsOf(c.orders))[0].Amounts).toEqual([
      { id: c.r.pen, value: '1.500' },
      { id: c.r.ink, value: '2.250' },
    ]);
  });
});

describe('table duplication', () => {
  test('the copy has working formula, lookup, rollup and count fields', async () => {
    const c = await chain('Copy');
    // A formula reading a formula created after it (a field converted to a formula later).
    const early = await createField(c.orders, { name: 'Early', type: 'text' });
    await createField(c.orders, { name: 'Late', type: 'formula', formula: "field('Total') + 1" });
    await ok('PATCH', `/api/database/fields/${early.id}/`, { type: 'formula', formula: "field('Late') * 2" });
    const original = await rowsOf(c.orders);

    const job = await ok('POST', `/api/database/tables/${c.orders}/duplicate/async/`);
    await settleJob(t, ada.token, job.id);
    const done = await ok('GET', `/api/jobs/${job.id}/`);
    expect(done.state).toBe('finished');
    const copy = done.duplicated_table.id;
    const fields = await fieldsOf(copy);
    const byName = (name: string) => fields.find((x) => x.name === name);
    const link = byName('Items');
    expect(byName('Amounts')).toMatchObject({ type: 'lookup', through_field_id: link.id, through_field_name: 'Items', target_field_id: c.f.Amount.id, formula_type: 'array', error: null });
    expect(byName('Total')).toMatchObject({ type: 'rollup', through_field_id: link.id, target_field_id: c.f.Amount.id, formula_type: 'number', error: null });
    expect(byName('N')).toMatchObject({ type: 'count', through_field_id: link.id, formula_type: 'number', error: null });
    expect(byName('Early')).toMatchObject({ type: 'formula', formula_type: 'number', error: null });
    const strip = (rows: any[]) => rows.map(({ id, Name, Amounts, Total, N, Caption, Late, Early }) => ({ id, Name, Amounts, Total, N, Caption, Late, Early }));
    expect(strip(await rowsOf(copy))).toEqual(strip(original));

    // The copy follows writes like the original.
    await updateRow(c.items, c.r.cap, { Amount: '4' });
    const [copied, first] = [await rowsOf(copy), await rowsOf(c.orders)];
    expect(copied.map((row) => [row.Total, row.Late, row.Early])).toEqual([
      ['3.75', '4.75', '9.50'],
      ['4.00', '5.00', '10.00'],
      ['0.00', '1.00', '2.00'],
    ]);
    expect(first.map((row) => row.Total)).toEqual(copied.map((row) => row.Total));
    await updateRow(copy, c.r.c, { Items: [c.r.pen] });
    expect((await rowsOf(copy))[2]).toMatchObject({ Total: '1.50', N: '1', Amounts: [{ id: c.r.pen, value: '1.50' }] });
    expect((await rowsOf(c.orders))[2]).toMatchObject({ Total: '0.00', N: '0' });
  });
});

describe('the trash', () => {
  test('a trashed link makes its lookups invalid until it is restored', async () => {
    const c = await chain('Trash link');
    const deleted = await ok('DELETE', `/api/database/fields/${c.f.Items.id}/`);
    const related = new Map(deleted.related_fields.map((x: any) => [x.id, x]));
    for (const name of ['Amounts', 'Total', 'N']) {
      expect(related.get(c.f[name].id)).toMatchObject({ formula_type: 'invalid', error: expect.any(String) });
    }
    const fields = await fieldsOf(c.orders);
    expect(fields.find((x) => x.id === c.f.Amounts.id)).toMatchObject({ formula_type: 'invalid', array_formula_type: null, error: expect.stringContaining('Items') });
    expect((await rowsOf(c.orders)).map((row) => [row.Amounts, row.Total, row.N])).toEqual([
      [null, null, null],
      [null, null, null],
      [null, null, null],
    ]);
    // Writes to the linked table still work while the lookups are invalid.
    await updateRow(c.items, c.r.pen, { Amount: '2' });

    expect((await req('PATCH', '/api/trash/restore/', { trash_item_type: 'field', trash_item_id: c.f.Items.id })).status).toBe(204);
    const back = await fieldsOf(c.orders);
    expect(back.find((x) => x.id === c.f.Amounts.id)).toMatchObject({ formula_type: 'array', array_formula_type: 'number', error: null });
    expect((await rowsOf(c.orders)).map((row) => [row.Total, row.N])).toEqual([
      ['4.25', '2'],
      ['10.00', '1'],
      ['0.00', '0'],
    ]);
  });

  test('a trashed table makes the lookups of other tables that read it invalid until it is restored', async () => {
    const c = await chain('Trash table');
    const client = await socket(ada.token);
    client.send({ page: 'table', table_id: c.orders });
    await client.waitFor('page_add');
    expect((await req('DELETE', `/api/database/tables/${c.items}/`)).status).toBe(204);
    const deleted = await client.waitFor('field_deleted');
    expect(deleted.field_id).toBe(c.f.Items.id);
    expect(deleted.related_fields.map((x: any) => [x.id, x.formula_type]).sort()).toEqual(
      [
        [c.f.Amounts.id, 'invalid'],
        [c.f.Total.id, 'invalid'],
        [c.f.N.id, 'invalid'],
      ].sort(),
    );
    const fields = await fieldsOf(c.orders);
    expect(fields.map((x) => x.name)).toEqual(['Name', 'Notes', 'Active', 'Amounts', 'Total', 'N', 'Caption']);
    expect(fields.filter((x) => ['Amounts', 'Total', 'N'].includes(x.name)).map((x) => x.formula_type)).toEqual(['invalid', 'invalid', 'invalid']);
    expect((await rowsOf(c.orders)).map((row) => [row.Caption, row.Total])).toEqual([
      ['a!', null],
      ['b!', null],
      ['c!', null],
    ]);
    await updateRow(c.orders, c.r.a, { Name: 'a2' });

    expect((await req('PATCH', '/api/trash/restore/', { trash_item_type: 'table', trash_item_id: c.items })).status).toBe(204);
    const back = await fieldsOf(c.orders);
    expect(back.filter((x) => ['Amounts', 'Total', 'N'].includes(x.name)).map((x) => [x.formula_type, x.error])).toEqual([
      ['array', null],
      ['number', null],
      ['number', null],
    ]);
    expect((await rowsOf(c.orders)).map((row) => [row.Caption, row.Total, row.N])).toEqual([
      ['a2!', '3.75', '2'],
      ['b!', '10.00', '1'],
      ['c!', '0.00', '0'],
    ]);
  });
});
