import { SignedUp, signUp, startApp, TestApp } from './support/app';

/**
 * What each view type can do (§8.1's capabilities): forms refuse filters, sorts, group-bys and
 * decorations, galleries and kanbans refuse group-bys, and the gallery and kanban rows apply
 * the saved filters and sorts as the grid does.
 */
let t: TestApp;
let user: SignedUp;
beforeAll(async () => {
  t = await startApp();
  user = await signUp(t);
});
afterAll(async () => {
  await t.close();
});

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: user.token, body });

async function newTable() {
  const apps = (await api('GET', '/api/applications/')).body;
  const database = apps.find((a: { type: string }) => a.type === 'database').id;
  const table = (await api('POST', `/api/database/tables/database/${database}/`, { name: 'Tasks' })).body;
  const status = (await api('POST', `/api/database/fields/table/${table.id}/`, { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] })).body;
  const fields = (await api('GET', `/api/database/fields/table/${table.id}/`)).body as any[];
  const name = fields.find((f) => f.primary);
  // The example rows are emptied: only the rows below count.
  const existing = (await api('GET', `/api/database/rows/table/${table.id}/`)).body.results.map((r: any) => r.id);
  await api('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing });
  const [todo, done] = status.select_options.map((o: any) => o.id);
  const rows = [
    ['apple', todo],
    ['banana', done],
    ['avocado', todo],
    ['cherry', todo],
  ];
  await api('POST', `/api/database/rows/table/${table.id}/batch/`, { items: rows.map(([n, s]) => ({ [`field_${name.id}`]: n, [`field_${status.id}`]: s })) });
  return { id: table.id as number, name, status, todo, done };
}

describe('view type capabilities', () => {
  it('a form refuses filters, sorts, group-bys and decorations with their errors, and writes nothing', async () => {
    const table = await newTable();
    const form = (await api('POST', `/api/database/views/table/${table.id}/`, { name: 'Form', type: 'form' })).body;
    const tries: [string, unknown, string][] = [
      [`/api/database/views/${form.id}/filters/`, { field: table.name.id, type: 'contains', value: 'a' }, 'ERROR_VIEW_FILTER_NOT_SUPPORTED'],
      [`/api/database/views/${form.id}/sortings/`, { field: table.name.id }, 'ERROR_VIEW_SORT_NOT_SUPPORTED'],
      [`/api/database/views/${form.id}/group_bys/`, { field: table.name.id }, 'ERROR_VIEW_GROUP_BY_NOT_SUPPORTED'],
      [`/api/database/views/${form.id}/decorations/`, { type: 'left_border_color' }, 'ERROR_VIEW_DECORATION_NOT_SUPPORTED'],
    ];
    for (const [path, body, error] of tries) {
      const res = await api('POST', path, body);
      expect([res.status, res.body.error]).toEqual([400, error]);
    }
    const view = (await api('GET', `/api/database/views/${form.id}/?include=filters,sortings,decorations,group_bys`)).body;
    expect(view).toMatchObject({ filters: [], filter_groups: [], sortings: [], group_bys: [], decorations: [] });
  });

  it('a gallery and a kanban sort and filter but do not group', async () => {
    const table = await newTable();
    for (const type of ['gallery', 'kanban']) {
      const view = (await api('POST', `/api/database/views/table/${table.id}/`, { name: type, type, ...(type === 'kanban' ? { single_select_field: table.status.id } : {}) })).body;
      const groupBy = await api('POST', `/api/database/views/${view.id}/group_bys/`, { field: table.name.id });
      expect([groupBy.status, groupBy.body.error]).toEqual([400, 'ERROR_VIEW_GROUP_BY_NOT_SUPPORTED']);
      expect((await api('POST', `/api/database/views/${view.id}/filters/`, { field: table.name.id, type: 'contains', value: 'a' })).status).toBe(200);
      expect((await api('POST', `/api/database/views/${view.id}/sortings/`, { field: table.name.id, order: 'DESC' })).status).toBe(200);
      expect((await api('POST', `/api/database/views/${view.id}/decorations/`, { type: 'background_color' })).status).toBe(200);
    }
  });

  it('gallery and kanban rows apply the saved filters and sorts; ad-hoc filters replace them', async () => {
    const table = await newTable();
    const names = (rows: any[]) => rows.map((r) => r[`field_${table.name.id}`]);
    const gallery = (await api('POST', `/api/database/views/table/${table.id}/`, { name: 'Cards', type: 'gallery' })).body;
    const kanban = (await api('POST', `/api/database/views/table/${table.id}/`, { name: 'Board', type: 'kanban', single_select_field: table.status.id })).body;
    for (const view of [gallery, kanban]) {
      await api('POST', `/api/database/views/${view.id}/filters/`, { field: table.name.id, type: 'contains', value: 'a' });
      await api('POST', `/api/database/views/${view.id}/sortings/`, { field: table.name.id, order: 'DESC' });
    }
    const cards = (await api('GET', `/api/database/views/gallery/${gallery.id}/`)).body;
    expect(cards.count).toBe(3);
    expect(names(cards.results)).toEqual(['banana', 'avocado', 'apple']);
    const adhoc = (await api('GET', `/api/database/views/gallery/${gallery.id}/?filter__field_${table.name.id}__equal=cherry&order_by=field_${table.name.id}`)).body;
    expect(names(adhoc.results)).toEqual(['cherry']);
    const board = (await api('GET', `/api/database/views/kanban/${kanban.id}/`)).body.rows;
    expect(board[String(table.todo)].count).toBe(2);
    expect(names(board[String(table.todo)].results)).toEqual(['avocado', 'apple']);
    expect(names(board[String(table.done)].results)).toEqual(['banana']);
    expect(board.null).toEqual({ count: 0, results: [] });
    // On the kanban too, ad-hoc filters replace the saved ones (search and order_by are not taken).
    const adhocBoard = (await api('GET', `/api/database/views/kanban/${kanban.id}/?filter__field_${table.name.id}__equal=cherry&search=apple`)).body.rows;
    expect(names(adhocBoard[String(table.todo)].results)).toEqual(['cherry']);
    expect(adhocBoard[String(table.done)].count).toBe(0);
    // Filters disabled: every row again.
    await api('PATCH', `/api/database/views/${gallery.id}/`, { filters_disabled: true });
    expect((await api('GET', `/api/database/views/gallery/${gallery.id}/`)).body.count).toBe(4);
  });
});
