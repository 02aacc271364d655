import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';

/**
 * Sorts beyond a column's natural order: lookups and array formulas item by item (the same
 * order on SQLite and PostgreSQL), and a single select by its options' order (sort `type:
 * "order"`, `order_by=field_<id>[order]`); what a field cannot sort by is refused with
 * Baserow's errors.
 */
let t: TestApp;
let ada: SignedUp;
let items: number;
let orders: number;
const f: Record<string, number> = {};
const itemIds: Record<string, number> = {};
const orderIds: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });

async function add(tableId: number, body: Record<string, unknown>): Promise<number> {
  const res = await api('POST', `/api/database/fields/table/${tableId}/`, body);
  expect([body.name, res.status, res.status === 200 ? null : res.text]).toEqual([body.name, 200, null]);
  return res.body.id;
}

/** The names of the rows of a listing, in its order. */
async function namesOf(path: string): Promise<string[]> {
  const res = await api('GET', path);
  expect(res.status).toBe(200);
  return res.body.results.map((row: Record<string, unknown>) => row[`field_${f.ItemName}`] ?? row[`field_${f.OrderName}`]);
}

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  const databaseId = await databaseOf(t, ada);
  items = await emptyTable(t, ada, databaseId, 'Items');
  orders = await emptyTable(t, ada, databaseId, 'Orders');
  for (const [tableId, key] of [[items, 'ItemName'], [orders, 'OrderName']] as const) {
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    for (const field of fields.filter((x: any) => !x.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    f[key] = fields.find((x: any) => x.primary).id;
  }
  f.Amount = await add(items, { name: 'Amount', type: 'number', number_decimal_places: 0, number_negative: true });
  f.Kind = await add(items, { name: 'Kind', type: 'single_select', select_options: [{ value: 'Zebra', color: 'blue' }, { value: 'Apple', color: 'red' }, { value: 'Mango', color: 'green' }] });
  f.Done = await add(items, { name: 'Done', type: 'boolean' });
  f.Note = await add(items, { name: 'Note', type: 'text' });
  f.Web = await add(items, { name: 'Web', type: 'formula', formula: "link('https://example.com')" });
  f.Items = await add(orders, { name: 'Items', type: 'link_row', link_row_table_id: items, has_related_field: false });
  f.Names = await add(orders, { name: 'Names', type: 'lookup', through_field_id: f.Items, target_field_id: f.ItemName });
  f.Amounts = await add(orders, { name: 'Amounts', type: 'lookup', through_field_id: f.Items, target_field_id: f.Amount });
  f.Kinds = await add(orders, { name: 'Kinds', type: 'lookup', through_field_id: f.Items, target_field_id: f.Kind });
  f.Dones = await add(orders, { name: 'Dones', type: 'lookup', through_field_id: f.Items, target_field_id: f.Done });
  f.Webs = await add(orders, { name: 'Webs', type: 'lookup', through_field_id: f.Items, target_field_id: f.Web });
  f.Upper = await add(orders, { name: 'Upper', type: 'formula', formula: "upper(join(lookup('Items', 'Name'), ','))" });
  f.Totals = await add(orders, { name: 'Totals', type: 'formula', formula: "lookup('Items', 'Amount')" });

  const options = (await api('GET', `/api/database/fields/${f.Kind}/`)).body.select_options;
  const option = (value: string) => options.find((o: { value: string }) => o.value === value).id;
  const rows = (await api('POST', `/api/database/rows/table/${items}/batch/`, {
    items: [
      { [`field_${f.ItemName}`]: 'a', [`field_${f.Amount}`]: '10', [`field_${f.Kind}`]: option('Mango'), [`field_${f.Done}`]: true },
      { [`field_${f.ItemName}`]: 'z', [`field_${f.Amount}`]: '2', [`field_${f.Kind}`]: option('Zebra'), [`field_${f.Done}`]: false },
      { [`field_${f.ItemName}`]: 'b', [`field_${f.Amount}`]: '-1', [`field_${f.Kind}`]: option('Apple'), [`field_${f.Done}`]: false },
      { [`field_${f.ItemName}`]: 'ab', [`field_${f.Amount}`]: '100', [`field_${f.Kind}`]: null, [`field_${f.Done}`]: true },
    ],
  })).body.items;
  for (const row of rows) itemIds[row[`field_${f.ItemName}`]] = row.id;
  const made = (await api('POST', `/api/database/rows/table/${orders}/batch/`, {
    items: [
      { [`field_${f.OrderName}`]: 'O1', [`field_${f.Items}`]: [itemIds.b] },
      { [`field_${f.OrderName}`]: 'O2', [`field_${f.Items}`]: [itemIds.a, itemIds.z] },
      { [`field_${f.OrderName}`]: 'O3', [`field_${f.Items}`]: [itemIds.a] },
      { [`field_${f.OrderName}`]: 'O4', [`field_${f.Items}`]: [] },
      { [`field_${f.OrderName}`]: 'O5', [`field_${f.Items}`]: [itemIds.ab] },
    ],
  })).body.items;
  for (const row of made) orderIds[row[`field_${f.OrderName}`]] = row.id;
});
afterAll(async () => t?.close());

describe('sorting lookups and array formulas item by item', () => {
  it('orders texts item by item: an empty array first, a shorter array before a longer one it starts', async () => {
    const names = (await api('GET', `/api/database/rows/table/${orders}/?order_by=field_${f.Names}`)).body.results.map((r: any) => [r[`field_${f.OrderName}`], r[`field_${f.Names}`].map((i: any) => i.value)]);
    expect(names).toEqual([
      ['O4', []],
      ['O3', ['a']],
      ['O2', ['a', 'z']],
      ['O5', ['ab']],
      ['O1', ['b']],
    ]);
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=-field_${f.Names}`)).toEqual(['O1', 'O5', 'O2', 'O3', 'O4']);
  });

  it('orders numbers as numbers, booleans, and single select options by their value', async () => {
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=field_${f.Amounts}`)).toEqual(['O4', 'O1', 'O3', 'O2', 'O5']);
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=field_${f.Totals}`)).toEqual(['O4', 'O1', 'O3', 'O2', 'O5']);
    // Kinds: O1 [Apple], O2 [Mango, Zebra], O3 [Mango], O4 [], O5 [no option].
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=field_${f.Kinds}`)).toEqual(['O4', 'O1', 'O3', 'O2', 'O5']);
    // Dones: O1 [false], O2 [true, false], O3 [true], O4 [], O5 [true].
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=field_${f.Dones},field_${f.OrderName}`)).toEqual(['O4', 'O1', 'O3', 'O5', 'O2']);
  });

  it('keeps a saved sort on a lookup, and a text formula over one sorts as text', async () => {
    const view = (await api('POST', `/api/database/views/table/${orders}/`, { name: 'By amounts', type: 'grid' })).body;
    const sort = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Amounts, order: 'DESC' });
    expect(sort.status).toBe(200);
    expect(sort.body).toMatchObject({ field: f.Amounts, order: 'DESC', type: 'default' });
    expect(await namesOf(`/api/database/views/grid/${view.id}/`)).toEqual(['O5', 'O2', 'O3', 'O1', 'O4']);
    expect(await namesOf(`/api/database/rows/table/${orders}/?view_id=${view.id}`)).toEqual(['O5', 'O2', 'O3', 'O1', 'O4']);
    expect(await namesOf(`/api/database/rows/table/${orders}/?order_by=field_${f.Upper},field_${f.OrderName}`)).toEqual(['O4', 'O3', 'O2', 'O5', 'O1']);
  });

  it('refuses arrays whose items do not sort, and group-bys on arrays, with Baserow errors', async () => {
    const view = (await api('POST', `/api/database/views/table/${orders}/`, { name: 'Refused', type: 'grid' })).body;
    const tags = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Webs });
    expect([tags.status, tags.body.error]).toEqual([400, 'ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED']);
    const orderBy = await api('GET', `/api/database/rows/table/${orders}/?order_by=field_${f.Webs}`);
    expect([orderBy.status, orderBy.body.error]).toEqual([400, 'ERROR_ORDER_BY_FIELD_NOT_POSSIBLE']);
    const group = await api('POST', `/api/database/views/${view.id}/group_bys/`, { field: f.Names });
    expect([group.status, group.body.error]).toEqual([400, 'ERROR_VIEW_GROUP_BY_FIELD_NOT_SUPPORTED']);
    const typed = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Names, type: 'order' });
    expect([typed.status, typed.body.error]).toEqual([400, 'ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED']);
  });
});

describe('sorting a single select by its options\' order', () => {
  it('sorts by the options\' order with type "order", by value by default', async () => {
    const byOrder = await namesOf(`/api/database/rows/table/${items}/?order_by=field_${f.Kind}[order]`);
    expect(byOrder).toEqual(['ab', 'z', 'b', 'a']);
    expect(await namesOf(`/api/database/rows/table/${items}/?order_by=field_${f.Kind}`)).toEqual(['ab', 'b', 'a', 'z']);
    expect(await namesOf(`/api/database/rows/table/${items}/?order_by=-field_${f.Kind}[order]`)).toEqual(['a', 'b', 'z', 'ab']);

    const view = (await api('POST', `/api/database/views/table/${items}/`, { name: 'By kind', type: 'grid' })).body;
    const sort = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Kind, type: 'order' });
    expect(sort.status).toBe(200);
    expect(sort.body).toMatchObject({ field: f.Kind, order: 'ASC', type: 'order' });
    expect(await namesOf(`/api/database/views/grid/${view.id}/`)).toEqual(['ab', 'z', 'b', 'a']);
    // Reordering the options reorders the rows.
    const options = (await api('GET', `/api/database/fields/${f.Kind}/`)).body.select_options;
    const reordered = ['Mango', 'Apple', 'Zebra'].map((value) => options.find((o: { value: string }) => o.value === value));
    expect((await api('PATCH', `/api/database/fields/${f.Kind}/`, { select_options: reordered })).status).toBe(200);
    expect(await namesOf(`/api/database/views/grid/${view.id}/`)).toEqual(['ab', 'a', 'b', 'z']);
    // Back to the value order.
    expect((await api('PATCH', `/api/database/views/sort/${sort.body.id}/`, { type: 'default' })).body.type).toBe('default');
    expect(await namesOf(`/api/database/views/grid/${view.id}/`)).toEqual(['ab', 'b', 'a', 'z']);
    expect((await api('PATCH', `/api/database/views/sort/${sort.body.id}/`, { type: 'order' })).body.type).toBe('order');

    // A group-by takes the type too.
    const group = await api('POST', `/api/database/views/${view.id}/group_bys/`, { field: f.Kind, type: 'order' });
    expect(group.status).toBe(200);
    expect(group.body.type).toBe('order');
    const grouped = await api('GET', `/api/database/views/grid/${view.id}/`);
    expect(grouped.status).toBe(200);
    expect(grouped.body.results.map((r: any) => r[`field_${f.ItemName}`])).toEqual(['ab', 'a', 'b', 'z']);
    expect(grouped.body.group_by_metadata[`field_${f.Kind}`].map((g: any) => g.count)).toEqual([1, 1, 1, 1]);

    // The type is the single select's: a text field has no option order.
    const text = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Note, type: 'order' });
    expect([text.status, text.body.error]).toEqual([400, 'ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED']);
    const param = await api('GET', `/api/database/rows/table/${items}/?order_by=field_${f.Note}[order]`);
    expect([param.status, param.body.error]).toEqual([400, 'ERROR_ORDER_BY_FIELD_NOT_POSSIBLE']);
    const unknown = await api('POST', `/api/database/views/${view.id}/sortings/`, { field: f.Amount, type: 'reverse' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);

    // The field made a text field: the option-order sort and group-by go, the view still lists.
    expect((await api('PATCH', `/api/database/fields/${f.Kind}/`, { type: 'text' })).status).toBe(200);
    const after = (await api('GET', `/api/database/views/${view.id}/?include=sortings,group_bys`)).body;
    expect(after.sortings).toEqual([]);
    expect(after.group_bys).toEqual([]);
    expect((await api('GET', `/api/database/views/grid/${view.id}/`)).status).toBe(200);
  });
});

describe('multiple selects: sorted by their options\' values, grouped by their options', () => {
  it('sorts item by item and groups by the options of each cell, with their ids in the metadata', async () => {
    const tableId = await emptyTable(t, ada, await databaseOf(t, ada), 'Tagged');
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    const name = fields.find((x: any) => x.primary).id;
    const tags = await add(tableId, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'x', color: 'blue' }, { value: 'y', color: 'red' }] });
    const options = (await api('GET', `/api/database/fields/${tags}/`)).body.select_options;
    const x = options.find((o: { value: string }) => o.value === 'x').id;
    const y = options.find((o: { value: string }) => o.value === 'y').id;
    await api('POST', `/api/database/rows/table/${tableId}/batch/`, {
      items: [
        { [`field_${name}`]: 'a', [`field_${tags}`]: [y, x] },
        { [`field_${name}`]: 'z', [`field_${tags}`]: [x] },
        { [`field_${name}`]: 'b', [`field_${tags}`]: [] },
        { [`field_${name}`]: 'ab', [`field_${tags}`]: [x, y] },
        { [`field_${name}`]: 'c', [`field_${tags}`]: [x] },
      ],
    });
    const ordered = async (query: string) => (await api('GET', `/api/database/rows/table/${tableId}/?${query}`)).body.results.map((r: any) => r[`field_${name}`]);
    expect(await ordered(`order_by=field_${tags},field_${name}`)).toEqual(['b', 'c', 'z', 'ab', 'a']);
    expect(await ordered(`order_by=-field_${tags},field_${name}`)).toEqual(['a', 'ab', 'c', 'z', 'b']);

    const view = (await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Grouped', type: 'grid' })).body;
    const group = await api('POST', `/api/database/views/${view.id}/group_bys/`, { field: tags });
    expect(group.status).toBe(200);
    await api('POST', `/api/database/views/${view.id}/sortings/`, { field: name });
    const page = (await api('GET', `/api/database/views/grid/${view.id}/?size=3`)).body;
    expect(page.results.map((r: any) => r[`field_${name}`])).toEqual(['b', 'c', 'z']);
    // The page's groups, each counted over the whole view.
    expect(page.group_by_metadata).toEqual({ [`field_${tags}`]: [{ [`field_${tags}`]: [], count: 1 }, { [`field_${tags}`]: [x], count: 2 }] });
    const next = (await api('GET', `/api/database/views/grid/${view.id}/?size=3&page=2`)).body;
    expect(next.group_by_metadata).toEqual({ [`field_${tags}`]: [{ [`field_${tags}`]: [x, y], count: 1 }, { [`field_${tags}`]: [y, x], count: 1 }] });
  });
});
