import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';
import { connect, WsClient } from './support/ws';

let t: TestApp;
let ada: SignedUp;
let database: number;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  database = await databaseOf(t, ada);
});
afterAll(async () => t?.close());

const req = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const createTable = (name: string): Promise<number> => emptyTable(t, ada, database, name);
const createField = (table: number, body: Record<string, unknown>) => req('POST', `/api/database/fields/table/${table}/`, body);
const updateField = (id: number, body: Record<string, unknown>) => req('PATCH', `/api/database/fields/${id}/`, body);
const createRow = async (table: number, body: Record<string, unknown>) => (await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, body)).body;
const updateRow = (table: number, id: number, body: Record<string, unknown>) => req('PATCH', `/api/database/rows/table/${table}/${id}/?user_field_names=true`, body);
const rowsOf = async (table: number, query = '') => (await req('GET', `/api/database/rows/table/${table}/?user_field_names=true${query}`)).body.results as any[];
const fieldsOf = async (table: number) => (await req('GET', `/api/database/fields/table/${table}/`)).body as any[];

describe('formula fields', () => {
  let table: number;
  let price: any;
  let doubled: any;

  beforeAll(async () => {
    table = await createTable('Products');
    price = (await createField(table, { name: 'Price', type: 'number', number_decimal_places: 2, number_negative: true })).body;
    await createField(table, { name: 'Label', type: 'text' });
    await createRow(table, { Name: 'a', Price: '1.50', Label: 'x' });
    await createRow(table, { Name: 'b', Price: '10', Label: 'y' });
  });

  test('a number formula is typed, stored for existing rows and answered with its properties', async () => {
    const res = await createField(table, { name: 'Doubled', type: 'formula', formula: "field('Price') * 2" });
    expect(res.status).toBe(200);
    doubled = res.body;
    expect(doubled).toMatchObject({ type: 'formula', formula: "field('Price') * 2", formula_type: 'number', error: null, read_only: true, array_formula_type: null, date_format: null });
    expect(doubled.number_decimal_places).toBe(2);
    const rows = await rowsOf(table);
    expect(rows.map((r) => r.Doubled)).toEqual(['3.00', '20.00']);
  });

  test('a row write recomputes the formula in the same request', async () => {
    const [a] = await rowsOf(table);
    const res = await updateRow(table, a.id, { Price: '4.25' });
    expect(res.status).toBe(200);
    expect(res.body.Doubled).toBe('8.50');
    const created = await createRow(table, { Name: 'c', Price: '0.5' });
    expect(created.Doubled).toBe('1.00');
  });

  test('formula cells filter, sort and search as their result type', async () => {
    const filtered = await rowsOf(table, `&filter__field_${doubled.id}__higher_than=5`);
    expect(filtered.map((r) => r.Name).sort()).toEqual(['a', 'b']);
    const sorted = await rowsOf(table, `&order_by=-field_${doubled.id}`);
    expect(sorted.map((r) => r.Doubled)).toEqual(['20.00', '8.50', '1.00']);
    const searched = await rowsOf(table, '&search=20.00');
    expect(searched.map((r) => r.Name)).toEqual(['b']);
  });

  test('division by zero gives NaN, as Baserow, not an error', async () => {
    const ratio = await createField(table, { name: 'Ratio', type: 'formula', formula: "field('Price') / (field('Price') - field('Price'))" });
    expect(ratio.status).toBe(200);
    expect((await rowsOf(table)).map((r) => r.Ratio)).toEqual(['NaN', 'NaN', 'NaN']);
    expect((await req('DELETE', `/api/database/fields/${ratio.body.id}/`)).status).toBe(200);
  });

  test('text, boolean and conditional formulas', async () => {
    const text = await createField(table, { name: 'Text', type: 'formula', formula: "concat(field('Name'), '-', upper(field('Label')))" });
    expect(text.body.formula_type).toBe('text');
    const flag = await createField(table, { name: 'Expensive', type: 'formula', formula: "if(field('Price') > 5, true, false)" });
    expect(flag.body.formula_type).toBe('boolean');
    const rows = await rowsOf(table);
    expect(rows.map((r) => [r.Text, r.Expensive])).toEqual([
      ['a-X', false],
      ['b-Y', true],
      ['c-', false],
    ]);
  });

  test('bad formulas are refused with Baserow errors and nothing is created', async () => {
    const before = (await fieldsOf(table)).length;
    const syntax = await createField(table, { name: 'Bad', type: 'formula', formula: "field('Price' +" });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error).toBe('ERROR_WITH_FORMULA');
    const unknown = await createField(table, { name: 'Bad', type: 'formula', formula: "field('Nope')" });
    expect(unknown.body).toEqual({ error: 'ERROR_WITH_FORMULA', detail: 'Error with formula: references the deleted or unknown field Nope.' });
    const types = await createField(table, { name: 'Bad', type: 'formula', formula: 'upper(1)' });
    expect(types.body.detail).toBe('Error with formula: argument number 1 given to function upper was of type number but the only usable type for this argument is text.');
    // Baserow's MaximumFormulaSizeError (ERROR_TOO_DEEPLY_NESTED_FORMULA is the database's own stack limit).
    for (const depth of [300, 1000]) {
      const nested = await createField(table, { name: 'Bad', type: 'formula', formula: `${'upper('.repeat(depth)}'a'${')'.repeat(depth)}` });
      expect(nested.body).toEqual({ error: 'ERROR_WITH_FORMULA', detail: 'Error with formula: it exceeded the maximum formula size.' });
    }
    const self = await createField(table, { name: 'Self', type: 'formula', formula: "field('Self') + 1" });
    expect(self.body.error).toBe('ERROR_FIELD_SELF_REFERENCE');
    const circular = await updateField(doubled.id, { formula: "field('Text')" });
    expect(circular.status).toBe(200);
    const back = await updateField(doubled.id, { formula: "field('Price') * 2" });
    expect(back.status).toBe(200);
    const a = await createField(table, { name: 'A', type: 'formula', formula: "field('Doubled') + 1" });
    expect(a.status).toBe(200);
    const loop = await updateField(doubled.id, { formula: "field('A') + 1" });
    expect(loop.body.error).toBe('ERROR_FIELD_CIRCULAR_REFERENCE');
    expect((await fieldsOf(table)).length).toBe(before + 1);
    const write = await updateRow(table, (await rowsOf(table))[0].id, { Doubled: '1' });
    expect(write.status).toBe(400);
    expect(write.body.detail).toBe('Field of type formula is read only and should not be set manually.');
  });

  test('renaming a field rewrites formulas; deleting it makes them invalid until it is restored', async () => {
    const renamed = await updateField(price.id, { name: 'Cost' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.related_fields.map((f: any) => f.id)).toContain(doubled.id);
    const after = (await fieldsOf(table)).find((f) => f.id === doubled.id);
    expect(after.formula).toBe("field('Cost') * 2");
    const deleted = await req('DELETE', `/api/database/fields/${price.id}/`);
    expect(deleted.status).toBe(200);
    const broken = deleted.body.related_fields.find((f: any) => f.id === doubled.id);
    expect(broken).toMatchObject({ formula_type: 'invalid', error: 'references the deleted or unknown field Cost' });
    expect((await rowsOf(table))[0].Doubled).toBeNull();
    expect((await req('PATCH', '/api/trash/restore/', { trash_item_type: 'field', trash_item_id: price.id })).status).toBe(204);
    const restored = (await fieldsOf(table)).find((f) => f.id === doubled.id);
    expect(restored.formula_type).toBe('number');
    expect((await rowsOf(table)).map((r) => r.Doubled)).toEqual(['8.50', '20.00', '1.00']);
  });

  test('a formula converted to text keeps its values; text converted to a formula computes', async () => {
    const copy = (await createField(table, { name: 'Copy', type: 'formula', formula: "field('Name')" })).body;
    const converted = await updateField(copy.id, { type: 'text' });
    expect(converted.status).toBe(200);
    expect((await rowsOf(table)).map((r) => r.Copy)).toEqual(['a', 'b', 'c']);
    const back = await updateField(copy.id, { type: 'formula', formula: "concat(field('Name'), '!')" });
    expect(back.status).toBe(200);
    expect((await rowsOf(table)).map((r) => r.Copy)).toEqual(['a!', 'b!', 'c!']);
  });

  test('multiple select options count and join', async () => {
    const tags = (await createField(table, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'red', color: 'red' }, { value: 'blue', color: 'blue' }] })).body;
    const [a] = await rowsOf(table);
    await updateRow(table, a.id, { Tags: tags.select_options.map((o: any) => o.id) });
    const count = await createField(table, { name: 'Tag count', type: 'formula', formula: "multiple_select_count(field('Tags'))" });
    expect(count.body.formula_type).toBe('number');
    const joined = await createField(table, { name: 'Tag names', type: 'formula', formula: "join(totext(field('Tags')), '+')" });
    expect(joined.body.formula_type).toBe('text');
    const rows = await rowsOf(table);
    expect(rows.map((r) => [r['Tag count'], r['Tag names']])).toEqual([
      ['2', 'red+blue'],
      ['0', null],
      ['0', null],
    ]);
  });

  test('db_index on scalar formulas; refused on arrays', async () => {
    const indexed = await createField(table, { name: 'Upper', type: 'formula', formula: "upper(field('Name'))", db_index: true });
    expect(indexed.status).toBe(200);
    expect(indexed.body.db_index).toBe(true);
    expect((await rowsOf(table, `&filter__field_${indexed.body.id}__equal=B`)).map((r) => r.Name)).toEqual(['b']);
    const other = await createTable('Indexed links');
    await createField(table, { name: 'Others', type: 'link_row', link_row_table_id: other });
    const array = await createField(table, { name: 'Names', type: 'lookup', through_field_name: 'Others', target_field_name: 'Name', db_index: true });
    expect(array.body.error).toBe('ERROR_DB_INDEX_NOT_SUPPORTED');
  });

  test('the type endpoint answers the type of a formula without changing anything', async () => {
    const res = await req('POST', `/api/database/formula/${table}/type/`, { formula: "field('Name')", name: 'Anything' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ formula: "field('Name')", formula_type: 'text', error: null });
    const bad = await req('POST', `/api/database/formula/${table}/type/`, { formula: 'upper(1)', name: 'X' });
    expect(bad.body.error).toBe('ERROR_WITH_FORMULA');
  });
});

describe("Baserow's formula results", () => {
  let table: number;
  beforeAll(async () => {
    table = await createTable('Results');
    await createField(table, { name: 'Text', type: 'text' });
    await createRow(table, { Name: 'a', Text: 'x' });
  });
  const cell = async (formula: string) => {
    const res = await createField(table, { name: `F${formula.length}-${Math.random()}`, type: 'formula', formula });
    expect([formula, res.status]).toEqual([formula, 200]);
    const [row] = await rowsOf(table);
    return { field: res.body, value: row[res.body.name] };
  };

  test('NaN is answered "NaN", kept, read by other formulas, filtered and sorted as PostgreSQL sorts it', async () => {
    const dates = "todate('20200101', 'YYYYMMDD'), todate('20100101', 'YYYYMMDD')";
    for (const formula of ['1/0', "tonumber('a')", 'round(1/0, 2)', 'mod(1234, 0)', 'sqrt(-1)', `date_diff('incorrect thingy', ${dates})`, `${'9'.repeat(100)}+1`, `tonumber('${'9'.repeat(100)}')+1`]) {
      expect([formula, (await cell(formula)).value]).toEqual([formula, 'NaN']);
    }
    const other = await createTable('NaN rows');
    await createField(other, { name: 'Num', type: 'number', number_decimal_places: 1 });
    for (const [name, num] of [['zero', '0'], ['two', '2'], ['ten', '10']]) await createRow(other, { Name: name, Num: num });
    const ratio = (await createField(other, { name: 'Ratio', type: 'formula', formula: "10 / field('Num')" })).body;
    const next = (await createField(other, { name: 'Next', type: 'formula', formula: "field('Ratio') + 1" })).body;
    const nan = (await createField(other, { name: 'Nan', type: 'formula', formula: "is_nan(field('Ratio'))" })).body;
    const rows = await rowsOf(other);
    expect(rows.map((r) => [r.Name, r.Ratio, r.Next, r.Nan])).toEqual([
      ['zero', 'NaN', 'NaN', true],
      ['two', '5.0000000000', '6.0000000000', false],
      ['ten', '1.0000000000', '2.0000000000', false],
    ]);
    const names = async (query: string) => (await rowsOf(other, query)).map((r) => r.Name);
    // PostgreSQL's numeric NaN is above every number and equal to itself; it is not empty.
    expect(await names(`&order_by=field_${ratio.id}`)).toEqual(['ten', 'two', 'zero']);
    expect(await names(`&filter__field_${ratio.id}__higher_than=3`)).toEqual(['zero', 'two']);
    expect(await names(`&filter__field_${ratio.id}__empty=`)).toEqual([]);
    expect(await names(`&filter__field_${next.id}__not_empty=`)).toEqual(['zero', 'two', 'ten']);
    expect(nan.formula_type).toBe('boolean');
    // Through a link: the lookup lists NaN, the sum and average are NaN, min and max order it above every number.
    const linking = await createTable('Links to NaN');
    await createField(linking, { name: 'Rows', type: 'link_row', link_row_table_id: other });
    await createRow(linking, { Name: 'all', Rows: rows.map((r) => r.id) });
    const aggregates: Record<string, string> = {};
    for (const fn of ['sum', 'avg', 'min', 'max']) aggregates[fn] = (await createField(linking, { name: fn, type: 'formula', formula: `${fn}(lookup('Rows', 'Ratio'))` })).body.name;
    const ratios = (await createField(linking, { name: 'Ratios', type: 'lookup', through_field_name: 'Rows', target_field_name: 'Ratio' })).body;
    const [all] = await rowsOf(linking);
    expect(['sum', 'avg', 'min', 'max'].map((fn) => all[aggregates[fn]])).toEqual(['NaN', 'NaN', '1.0000000000', 'NaN']);
    expect(all[ratios.name].map((item: any) => item.value)).toEqual(['NaN', '5.0000000000', '1.0000000000']);
  });

  test('not(isblank(tonumber(…))) is true; link(url) has a null label', async () => {
    expect((await cell("not(isblank(tonumber('x')))")).value).toBe(true);
    expect((await cell("link('https://baserow.io')")).value).toEqual({ url: 'https://baserow.io', label: null });
  });

  test('date_interval keeps calendar years: a date moves by a year, totext writes `1 year`', async () => {
    expect((await cell("todate('20200101', 'YYYYMMDD') + date_interval('1 year')")).value).toBe('2021-01-01');
    expect((await cell("totext(date_interval('1 year'))")).value).toBe('1 year');
    expect((await cell("date_interval('1 year')")).value).toBe(365 * 24 * 3600);
  });

  test('number formulas answer an empty prefix, suffix and separator, as the type endpoint does', async () => {
    const { field } = await cell('1 + 1');
    expect(field).toMatchObject({ formula_type: 'number', number_decimal_places: 0, number_prefix: '', number_suffix: '', number_separator: '' });
    expect((await fieldsOf(table)).find((f) => f.id === field.id)).toMatchObject({ number_prefix: '', number_suffix: '', number_separator: '' });
    const typed = await req('POST', `/api/database/formula/${table}/type/`, { formula: '1 + 1', name: 'Typed' });
    expect(typed.body).toMatchObject({ formula_type: 'number', number_prefix: '', number_suffix: '', number_separator: '' });
    const text = await req('POST', `/api/database/formula/${table}/type/`, { formula: "'a'", name: 'Typed' });
    expect(text.body).toMatchObject({ formula_type: 'text', number_prefix: null, number_suffix: null, number_separator: null });
  });

  test('a referenced text field converted to a number: an empty cell reads 0 through every formula', async () => {
    // Baserow's test_altering_type_of_underlying_causes_type_update(_nested): the conversion's
    // greatest(round(p_in::numeric, 2), 0) turns the empty cell into 0; the formulas follow it.
    const own = await createTable('Converted');
    const text = (await createField(own, { name: 'text', type: 'text' })).body;
    await createRow(own, { Name: 'one', text: '1' });
    await createRow(own, { Name: 'none' });
    await createField(own, { name: 'Formula', type: 'formula', formula: "field('text')" });
    await createField(own, { name: 'Formula2', type: 'formula', formula: "field('Formula')" });
    expect((await rowsOf(own)).map((r) => [r.Formula, r.Formula2])).toEqual([['1', '1'], [null, null]]);
    expect((await updateField(text.id, { name: 'text', type: 'number', number_decimal_places: 2 })).status).toBe(200);
    expect((await rowsOf(own)).map((r) => [r.text, r.Formula, r.Formula2])).toEqual([['1.00', '1.00', '1.00'], ['0.00', '0.00', '0.00']]);
  });

  test('renaming a referenced field keeps the formula as written', async () => {
    const written = "FIELD('Text')  +  \"!\"  // shout\n+ field(\"Text\")";
    const shout = (await createField(table, { name: 'Shout', type: 'formula', formula: written })).body;
    const count = (await createField(table, { name: 'Count', type: 'number' })).body;
    const plus = (await createField(table, { name: 'Plus', type: 'formula', formula: "field('Count')+1" })).body;
    expect((await updateField((await fieldsOf(table)).find((f) => f.name === 'Text').id, { name: "new_name's" })).status).toBe(200);
    expect((await updateField(count.id, { name: 'new_name' })).status).toBe(200);
    const fields = await fieldsOf(table);
    expect(fields.find((f) => f.id === shout.id).formula).toBe("FIELD('new_name\\'s')  +  \"!\"  // shout\n+ field(\"new_name's\")");
    expect(fields.find((f) => f.id === plus.id).formula).toBe("field('new_name')+1");
    const [row] = await rowsOf(table);
    expect(row.Shout).toBe('x!x');
  });
});

describe('a formula of every result type', () => {
  test('lists, filters, sorts and searches', async () => {
    const table = await createTable('Every type');
    await createField(table, { name: 'N', type: 'number', number_decimal_places: 1 });
    await createField(table, { name: 'When', type: 'date' });
    await createField(table, { name: 'Took', type: 'duration', duration_format: 'h:mm' });
    const select = (await createField(table, { name: 'Pick', type: 'single_select', select_options: [{ value: 'one', color: 'blue' }, { value: 'two', color: 'red' }] })).body;
    const [one, two] = select.select_options;
    await createRow(table, { Name: 'alpha', N: 1.5, When: '2024-01-02', Took: 3600, Pick: one.id });
    await createRow(table, { Name: 'beta', N: 20, When: '2024-03-04', Took: 7200, Pick: two.id });
    const formulas: Record<string, [string, string]> = {
      text: ["concat('x-', field('Name'))", 'x-beta'],
      number: ["field('N') * 2", '40.0'],
      boolean: ["field('N') > 10", 'true'],
      date: ["field('When')", '2024-03-04'],
      duration: ["field('Took') * 2", '14400'],
      single_select: ["field('Pick')", 'two'],
      button: ["button('https://example.com/' + field('Name'), field('Name'))", 'beta'],
    };
    const ids: Record<string, number> = {};
    for (const [type, [formula]] of Object.entries(formulas)) {
      const res = await createField(table, { name: `F ${type}`, type: 'formula', formula });
      expect([type, res.status, res.body.formula_type]).toEqual([type, 200, type]);
      ids[type] = res.body.id;
    }
    const rows = await rowsOf(table);
    const beta = rows.find((r) => r.Name === 'beta');
    expect(beta['F text']).toBe('x-beta');
    expect(beta['F number']).toBe('40.0');
    expect(beta['F boolean']).toBe(true);
    expect(beta['F date']).toBe('2024-03-04');
    expect(beta['F duration']).toBe(14400);
    expect(beta['F single_select']).toEqual({ id: two.id, value: 'two', color: 'red' });
    expect(beta['F button']).toEqual({ url: 'https://example.com/beta', label: 'beta' });
    const names = async (query: string) => (await rowsOf(table, query)).map((r) => r.Name);
    expect(await names(`&filter__field_${ids.text}__contains=beta`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.number}__higher_than=10`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.boolean}__boolean=1`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.date}__date_is=UTC?2024-03-04?exact_date`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.duration}__higher_than=10000`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.single_select}__single_select_equal=${two.id}`)).toEqual(['beta']);
    expect(await names(`&filter__field_${ids.button}__not_empty=`)).toEqual(['alpha', 'beta']);
    for (const type of ['text', 'number', 'boolean', 'date', 'duration', 'single_select']) {
      expect([type, await names(`&order_by=-field_${ids[type]}`)]).toEqual([type, ['beta', 'alpha']]);
    }
    expect(await names('&search=x-alp')).toEqual(['alpha']);
    expect(await names('&search=40.0')).toEqual(['beta']);
  });
});

describe('lookup, rollup and count through a link', () => {
  let orders: number;
  let items: number;
  let ws: WsClient;

  beforeAll(async () => {
    orders = await createTable('Orders');
    items = await createTable('Items');
    await createField(items, { name: 'Amount', type: 'number', number_decimal_places: 1 });
    await createField(orders, { name: 'Items', type: 'link_row', link_row_table_id: items });
  });
  afterAll(() => ws?.close());

  test('lookup, rollup and count follow writes to both tables, and the other table hears rows_updated', async () => {
    const i1 = await createRow(items, { Name: 'i1', Amount: 2 });
    const i2 = await createRow(items, { Name: 'i2', Amount: 3.5 });
    const order = await createRow(orders, { Name: 'o1', Items: [i1.id, i2.id] });
    const lookup = await createField(orders, { name: 'Amounts', type: 'lookup', through_field_name: 'Items', target_field_name: 'Amount' });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ formula_type: 'array', array_formula_type: 'number' });
    const rollup = await createField(orders, { name: 'Total', type: 'rollup', through_field_id: lookup.body.through_field_id, target_field_id: lookup.body.target_field_id, rollup_function: 'sum' });
    expect(rollup.status).toBe(200);
    const count = await createField(orders, { name: 'Count', type: 'count', through_field_id: lookup.body.through_field_id });
    expect(count.status).toBe(200);
    let [row] = await rowsOf(orders);
    expect(row.Amounts).toEqual([
      { id: i1.id, value: '2.0' },
      { id: i2.id, value: '3.5' },
    ]);
    expect(row.Total).toBe('5.5');
    expect(row.Count).toBe('2');

    ws = await connect(t, ada.token);
    await ws.send({ page: 'table', table_id: orders });
    await ws.waitFor((m) => m.type === 'page_add');
    expect((await updateRow(items, i1.id, { Amount: 10 })).status).toBe(200);
    const message = await ws.waitFor((m) => m.type === 'rows_updated' && m.table_id === orders);
    expect(message.rows[0].id).toBe(order.id);
    expect(message.rows_before_update[0][`field_${rollup.body.id}`]).toBe('5.5');
    expect(message.rows[0][`field_${rollup.body.id}`]).toBe('13.5');

    await req('DELETE', `/api/database/rows/table/${items}/${i2.id}/`);
    [row] = await rowsOf(orders);
    expect([row.Total, row.Count]).toEqual(['10.0', '1']);
    await updateRow(orders, order.id, { Items: [] });
    [row] = await rowsOf(orders);
    expect([row.Amounts, row.Total, row.Count]).toEqual([[], '0.0', '0']);
  });

  test('a chain of lookup and rollup stays consistent under concurrent writes to both tables', async () => {
    const items2 = await Promise.all([1, 2, 3, 4].map((n) => createRow(items, { Name: `c${n}`, Amount: n })));
    const orders2 = await Promise.all([1, 2, 3].map((n) => createRow(orders, { Name: `co${n}`, Items: [items2[0].id] })));
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round++) {
      writes.push(updateRow(items, items2[round % 4].id, { Amount: 10 * round + 1 }));
      writes.push(updateRow(orders, orders2[round % 3].id, { Items: items2.slice(0, 1 + (round % 4)).map((i) => i.id) }));
    }
    for (const res of (await Promise.all(writes)) as any[]) expect(res.status).toBe(200);
    const itemRows = await rowsOf(items);
    const amounts = new Map(itemRows.map((r) => [r.id, Number(r.Amount)]));
    // A lookup lists the linked rows in their table's order (Baserow's), the link cell in the order they were linked.
    const position = new Map(itemRows.map((r, i) => [r.id, i]));
    for (const order of (await rowsOf(orders)).filter((r) => r.Name.startsWith('co'))) {
      const expected = order.Items.reduce((sum: number, link: any) => sum + amounts.get(link.id)!, 0);
      expect(Number(order.Total)).toBeCloseTo(expected, 5);
      const linked = [...order.Items].sort((a: any, b: any) => position.get(a.id)! - position.get(b.id)!);
      expect(order.Amounts.map((a: any) => Number(a.value))).toEqual(linked.map((link: any) => amounts.get(link.id)));
      expect(order.Count).toBe(String(order.Items.length));
    }
  });

  test('moving a looked-up row reorders the lookup and its join (linked rows in their table order)', async () => {
    const first = await createRow(items, { Name: 'first', Amount: 1 });
    const second = await createRow(items, { Name: 'second', Amount: 2 });
    const order = await createRow(orders, { Name: 'moved', Items: [first.id, second.id] });
    const names = (await createField(orders, { name: 'Names', type: 'lookup', through_field_name: 'Items', target_field_name: 'Name' })).body;
    const joined = (await createField(orders, { name: 'Joined', type: 'formula', formula: "join(lookup('Items', 'Name'), ',')" })).body;
    const read = async () => (await rowsOf(orders)).find((r) => r.id === order.id);
    let row = await read();
    expect(row.Names.map((n: any) => n.value)).toEqual(['first', 'second']);
    expect(row.Joined).toBe('first,second');
    const moved = await req('PATCH', `/api/database/rows/table/${items}/${second.id}/move/?before_id=${first.id}`);
    expect(moved.status).toBe(200);
    row = await read();
    expect(row.Names).toEqual([
      { id: second.id, value: 'second' },
      { id: first.id, value: 'first' },
    ]);
    expect(row.Joined).toBe('second,first');
    for (const field of [names, joined]) expect((await req('DELETE', `/api/database/fields/${field.id}/`)).status).toBe(200);
  });

  test('lookup errors', async () => {
    const through = await createField(orders, { name: 'Bad', type: 'lookup', through_field_name: 'Name', target_field_name: 'Amount' });
    expect(through.body.error).toBe('ERROR_INVALID_LOOKUP_THROUGH_FIELD');
    const target = await createField(orders, { name: 'Bad', type: 'lookup', through_field_name: 'Items', target_field_name: 'Nope' });
    expect(target.body.error).toBe('ERROR_INVALID_LOOKUP_TARGET_FIELD');
  });
});
