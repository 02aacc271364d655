import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, WsClient } from './support/ws';

/**
 * Shared gallery and kanban rows, shared grid aggregations and group_by_metadata: only the
 * visible fields, the saved filters AND the request's, the password token, and the view page's
 * row messages for gallery and kanban.
 */
let t: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
const open: WsClient[] = [];
beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
  stranger = await signUp(t, 'Stranger');
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => {
  await t.close();
});

const VIEW_TOKEN = (token: string) => ({ 'Baserow-View-Authorization': `JWT ${token}` });
const SECRETS = ['secret-one', 'secret-two', 'secret-three'];
/** Anonymous callers and another user's JWT: neither is a member of the owner's workspace. */
const OUTSIDERS = () => [undefined, stranger.token];

async function ok(method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token: owner.token, body });
  expect([200, 201, 204]).toContain(res.status);
  return res.body;
}

/**
 * A table with Name, Notes (secret values), Active, Amount (number) and Status (single select
 * Open/Done), and three rows: Alpha (Open, 10), Beta (Done, 20), Gamma (no status, 30).
 */
async function table() {
  const apps = (await t.request('GET', '/api/applications/', { token: owner.token })).body;
  const database = apps.find((a: { type: string }) => a.type === 'database').id;
  const created = await ok('POST', `/api/database/tables/database/${database}/`, { name: 'Shared more' });
  const fields = (await ok('GET', `/api/database/fields/table/${created.id}/`)) as any[];
  const name = fields.find((f) => f.primary);
  const notes = fields.find((f) => f.name === 'Notes');
  const active = fields.find((f) => f.name === 'Active');
  const amount = await ok('POST', `/api/database/fields/table/${created.id}/`, { name: 'Amount', type: 'number', number_decimal_places: 0 });
  const status = await ok('POST', `/api/database/fields/table/${created.id}/`, {
    name: 'Status',
    type: 'single_select',
    select_options: [
      { value: 'Open', color: 'blue' },
      { value: 'Done', color: 'green' },
    ],
  });
  const [open_, done] = status.select_options;
  const existing = (await ok('GET', `/api/database/rows/table/${created.id}/`)).results;
  await ok('POST', `/api/database/rows/table/${created.id}/batch-delete/`, { items: existing.map((r: any) => r.id) });
  const rows = [];
  for (const [n, secret, amt, option] of [
    ['Alpha', SECRETS[0], 10, open_.id],
    ['Beta', SECRETS[1], 20, done.id],
    ['Gamma', SECRETS[2], 30, null],
  ] as const) {
    rows.push(await ok('POST', `/api/database/rows/table/${created.id}/`, { [`field_${name.id}`]: n, [`field_${notes.id}`]: secret, [`field_${amount.id}`]: amt, [`field_${status.id}`]: option }));
  }
  return { table: created, name, notes, active, amount, status, open: open_, done, rows };
}
type Table = Awaited<ReturnType<typeof table>>;

/** A shared view of the table showing Name, Amount and Status (Notes and Active hidden). */
async function shared(tb: Table, type: 'grid' | 'gallery' | 'kanban') {
  const body: Record<string, unknown> = { name: `Shared ${type}`, type };
  if (type === 'kanban') body.single_select_field = tb.status.id;
  const view = await ok('POST', `/api/database/views/table/${tb.table.id}/`, body);
  const options = {
    [tb.name.id]: { hidden: false },
    [tb.amount.id]: { hidden: false },
    [tb.status.id]: { hidden: false },
    [tb.notes.id]: { hidden: true },
    [tb.active.id]: { hidden: true },
  };
  await ok('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: options });
  return ok('PATCH', `/api/database/views/${view.id}/`, { public: true });
}

const visibleKeys = (tb: Table) => ['id', 'order', `field_${tb.name.id}`, `field_${tb.amount.id}`, `field_${tb.status.id}`].sort();

function expectNoHidden(body: unknown, tb: Table) {
  const text = JSON.stringify(body);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).not.toContain(`field_${tb.notes.id}"`);
  expect(text).not.toContain(`field_${tb.active.id}"`);
}

async function password(view: { id: number; slug: string }): Promise<string> {
  await ok('PATCH', `/api/database/views/${view.id}/`, { public_view_password: 'the password' });
  const auth = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'the password' } });
  expect(auth.status).toBe(200);
  return auth.body.access_token;
}

describe('shared gallery rows', () => {
  it('answers limit/offset pages with only the visible fields, to anonymous callers and other users', async () => {
    const tb = await table();
    const view = await shared(tb, 'gallery');
    const base = `/api/database/views/gallery/${view.slug}/public/rows/`;
    for (const token of OUTSIDERS()) {
      const res = await t.request('GET', `${base}?limit=2&offset=0&include=field_options,row_metadata`, { token });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.previous).toBeNull();
      expect(res.body.next).toContain('offset=2');
      expect(res.body.results.map((r: any) => r[`field_${tb.name.id}`])).toEqual(['Alpha', 'Beta']);
      for (const row of res.body.results) expect(Object.keys(row).sort()).toEqual(visibleKeys(tb));
      expect(Object.keys(res.body.field_options).sort()).toEqual([tb.name.id, tb.amount.id, tb.status.id].map(String).sort());
      expect(res.body.row_metadata).toBeUndefined();
      expectNoHidden(res.body, tb);
    }
    const page = await t.request('GET', `${base}?limit=2&offset=2`);
    expect(page.body.results.map((r: any) => r.id)).toEqual([tb.rows[2].id]);
    expect(page.body.next).toBeNull();
    expect((await t.request('GET', `${base}?count`)).body).toEqual({ count: 3 });
    const only = await t.request('GET', `${base}?include_fields=field_${tb.name.id},field_${tb.notes.id}`);
    for (const row of only.body.results) expect(Object.keys(row).sort()).toEqual(['id', 'order', `field_${tb.name.id}`].sort());
    expectNoHidden(only.body, tb);
  });

  it('ANDs the request filters with the saved ones, searches and orders on visible fields only', async () => {
    const tb = await table();
    const view = await shared(tb, 'gallery');
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: tb.name.id, type: 'not_equal', value: 'Gamma' });
    const base = `/api/database/views/gallery/${view.slug}/public/rows/`;
    const names = async (query: string) => {
      const res = await t.request('GET', `${base}?${query}`, { token: stranger.token });
      expect(res.status).toBe(200);
      return res.body.results.map((r: any) => r[`field_${tb.name.id}`]);
    };
    expect(await names('')).toEqual(['Alpha', 'Beta']);
    expect(await names(`filter__field_${tb.amount.id}__higher_than=15`)).toEqual(['Beta']);
    // The ad-hoc filter cannot widen the saved ones (Gamma stays out).
    expect(await names(`filter__field_${tb.name.id}__equal=Gamma`)).toEqual([]);
    const tree = JSON.stringify({ filter_type: 'OR', filters: [{ field: tb.name.id, type: 'equal', value: 'Gamma' }, { field: tb.name.id, type: 'equal', value: 'Beta' }] });
    expect(await names(`filters=${encodeURIComponent(tree)}`)).toEqual(['Beta']);
    expect(await names(`order_by=-field_${tb.amount.id}`)).toEqual(['Beta', 'Alpha']);
    expect(await names('search=Alpha')).toEqual(['Alpha']);
    // A hidden cell's value is not searchable.
    expect(await names('search=secret-one')).toEqual([]);
    for (const query of [`filter__field_${tb.notes.id}__contains=secret`, `filters=${encodeURIComponent(JSON.stringify({ filter_type: 'AND', filters: [{ field: tb.notes.id, type: 'contains', value: 's' }] }))}`]) {
      const res = await t.request('GET', `${base}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
    }
    const order = await t.request('GET', `${base}?order_by=field_${tb.notes.id}`);
    expect(order.status).toBe(400);
    expect(order.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
  });

  it('needs the password token when the view has a password; other types, private views and gone views are not found', async () => {
    const tb = await table();
    const view = await shared(tb, 'gallery');
    const grid = await shared(tb, 'grid');
    const base = `/api/database/views/gallery/${view.slug}/public/rows/`;
    const wrongType = await t.request('GET', `/api/database/views/gallery/${grid.slug}/public/rows/`);
    expect(wrongType.status).toBe(404);
    expect(wrongType.body.error).toBe('ERROR_GALLERY_DOES_NOT_EXIST');
    const onGrid = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`);
    expect(onGrid.status).toBe(404);
    expect(onGrid.body.error).toBe('ERROR_GRID_DOES_NOT_EXIST');
    const token = await password(view);
    for (const caller of OUTSIDERS()) {
      const res = await t.request('GET', base, { token: caller });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW');
      expectNoHidden(res.body, tb);
    }
    expect((await t.request('GET', base, { headers: VIEW_TOKEN(token) })).body.count).toBe(3);
    expect((await t.request('GET', base, { token: stranger.token, headers: VIEW_TOKEN(token) })).status).toBe(200);
    expect((await t.request('GET', base, { token: owner.token })).status).toBe(200);
    await ok('PATCH', `/api/database/views/${view.id}/`, { public: false });
    for (const caller of OUTSIDERS()) {
      const res = await t.request('GET', base, { token: caller, headers: VIEW_TOKEN(token) });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERROR_GALLERY_DOES_NOT_EXIST');
    }
    expect((await t.request('GET', base, { token: owner.token })).status).toBe(200);
  });
});

describe('shared kanban rows', () => {
  it('answers a column per option with only the visible fields', async () => {
    const tb = await table();
    const view = await shared(tb, 'kanban');
    const base = `/api/database/views/kanban/${view.slug}/public/rows/`;
    for (const token of OUTSIDERS()) {
      const res = await t.request('GET', `${base}?include=field_options,row_metadata`, { token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.rows).sort()).toEqual(['null', String(tb.open.id), String(tb.done.id)].sort());
      expect(res.body.rows.null.count).toBe(1);
      expect(res.body.rows.null.results[0][`field_${tb.name.id}`]).toBe('Gamma');
      expect(res.body.rows[tb.open.id].results.map((r: any) => r.id)).toEqual([tb.rows[0].id]);
      for (const column of Object.values(res.body.rows) as any[]) for (const row of column.results) expect(Object.keys(row).sort()).toEqual(visibleKeys(tb));
      expect(Object.keys(res.body.field_options).sort()).toEqual([tb.name.id, tb.amount.id, tb.status.id].map(String).sort());
      expect(res.body.row_metadata).toBeUndefined();
      expectNoHidden(res.body, tb);
    }
    const one = await t.request('GET', `${base}?select_option=${tb.done.id},1,0&select_option=null,0`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.rows).sort()).toEqual(['null', String(tb.done.id)].sort());
    expect(one.body.rows[tb.done.id]).toMatchObject({ count: 1 });
    expect(one.body.rows.null).toEqual({ count: 1, results: [] });
    const bad = await t.request('GET', `${base}?select_option=${tb.done.id},x`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERROR_INVALID_SELECT_OPTION_PARAMETER');
  });

  it('shows its single select field even when hidden: its cells, its options and its place in public/info', async () => {
    const tb = await table();
    const view = await shared(tb, 'kanban');
    await ok('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: { [tb.status.id]: { hidden: true } } });
    const res = await t.request('GET', `/api/database/views/kanban/${view.slug}/public/rows/?include=field_options`, { token: stranger.token });
    expect(res.status).toBe(200);
    for (const column of Object.values(res.body.rows) as any[]) for (const row of column.results) expect(Object.keys(row).sort()).toEqual(visibleKeys(tb));
    expect(res.body.rows[tb.open.id].results[0][`field_${tb.status.id}`]).toMatchObject({ id: tb.open.id, value: 'Open' });
    expect(res.body.field_options[tb.status.id]).toMatchObject({ hidden: true });
    expectNoHidden(res.body, tb);
    const info = await t.request('GET', `/api/database/views/${view.slug}/public/info/`);
    expect(info.body.fields.map((f: any) => f.id).sort()).toEqual([tb.name.id, tb.amount.id, tb.status.id].sort());
    // A grid needs no such field: hidden there, the status is not shown.
    const grid = await shared(tb, 'grid');
    await ok('PATCH', `/api/database/views/${grid.id}/field-options/`, { field_options: { [tb.status.id]: { hidden: true } } });
    const rows = await t.request('GET', `/api/database/views/grid/${grid.slug}/public/rows/`);
    expect(rows.body.results[0]).not.toHaveProperty(`field_${tb.status.id}`);
  });

  it('ANDs the request filters with the saved ones; hidden fields cannot be filtered on', async () => {
    const tb = await table();
    const view = await shared(tb, 'kanban');
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: tb.amount.id, type: 'lower_than', value: '25' });
    const base = `/api/database/views/kanban/${view.slug}/public/rows/`;
    const counts = async (query: string) => {
      const res = await t.request('GET', `${base}?${query}`, { token: stranger.token });
      expect(res.status).toBe(200);
      return Object.fromEntries(Object.entries(res.body.rows).map(([key, column]: [string, any]) => [key, column.count]));
    };
    expect(await counts('')).toEqual({ null: 0, [tb.open.id]: 1, [tb.done.id]: 1 });
    expect(await counts(`filter__field_${tb.name.id}__equal=Beta`)).toEqual({ null: 0, [tb.open.id]: 0, [tb.done.id]: 1 });
    expect(await counts(`filter__field_${tb.name.id}__equal=Gamma`)).toEqual({ null: 0, [tb.open.id]: 0, [tb.done.id]: 0 });
    const hidden = await t.request('GET', `${base}?filter__field_${tb.notes.id}__contains=secret-one`);
    expect(hidden.status).toBe(400);
    expect(hidden.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
  });

  it('needs the password token; without a single select field it is 400; other types are not found', async () => {
    const tb = await table();
    const view = await shared(tb, 'kanban');
    const base = `/api/database/views/kanban/${view.slug}/public/rows/`;
    const gallery = await shared(tb, 'gallery');
    const wrongType = await t.request('GET', `/api/database/views/kanban/${gallery.slug}/public/rows/`);
    expect(wrongType.status).toBe(404);
    expect(wrongType.body.error).toBe('ERROR_KANBAN_DOES_NOT_EXIST');
    const token = await password(view);
    for (const caller of OUTSIDERS()) {
      const res = await t.request('GET', base, { token: caller });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW');
    }
    expect((await t.request('GET', base, { headers: VIEW_TOKEN(token) })).status).toBe(200);
    await ok('PATCH', `/api/database/views/${view.id}/`, { single_select_field: null });
    const none = await t.request('GET', base, { headers: VIEW_TOKEN(token) });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('ERROR_KANBAN_VIEW_HAS_NO_SINGLE_SELECT_FIELD');
  });
});

describe('shared grid aggregations', () => {
  async function aggregated() {
    const tb = await table();
    const view = await shared(tb, 'grid');
    await ok('PATCH', `/api/database/views/${view.id}/field-options/`, {
      field_options: {
        [tb.amount.id]: { aggregation_raw_type: 'sum', aggregation_type: 'sum' },
        [tb.name.id]: { aggregation_raw_type: 'empty_count', aggregation_type: 'empty_count' },
        // Hidden: never answered.
        [tb.notes.id]: { aggregation_raw_type: 'unique_count', aggregation_type: 'unique_count' },
      },
    });
    return { tb, view, base: `/api/database/views/grid/${view.slug}/public/aggregations/` };
  }

  it('answers the visible fields’ aggregations over the saved filters AND the request’s and the search', async () => {
    const { tb, view, base } = await aggregated();
    for (const token of OUTSIDERS()) {
      const res = await t.request('GET', `${base}?include=total`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ [`field_${tb.amount.id}`]: 60, [`field_${tb.name.id}`]: 0, total: 3 });
    }
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: tb.amount.id, type: 'higher_than', value: '15' });
    expect((await t.request('GET', base)).body).toEqual({ [`field_${tb.amount.id}`]: 50, [`field_${tb.name.id}`]: 0 });
    const adhoc = await t.request('GET', `${base}?include=total&filter__field_${tb.name.id}__equal=Beta`);
    expect(adhoc.body).toEqual({ [`field_${tb.amount.id}`]: 20, [`field_${tb.name.id}`]: 0, total: 1 });
    // Alpha is filtered out by the saved filter: the request cannot bring it back.
    const widened = await t.request('GET', `${base}?include=total&filter__field_${tb.name.id}__equal=Alpha`);
    expect(widened.body).toEqual({ [`field_${tb.amount.id}`]: null, [`field_${tb.name.id}`]: 0, total: 0 });
    expect((await t.request('GET', `${base}?include=total&search=Gamma`)).body.total).toBe(1);
    expect((await t.request('GET', `${base}?include=total&search=secret-three`)).body.total).toBe(0);
    const hidden = await t.request('GET', `${base}?filter__field_${tb.notes.id}__equal=secret-two`);
    expect(hidden.status).toBe(400);
    expect(hidden.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
  });

  it('needs the password token; private views and other types are not found', async () => {
    const { tb, view, base } = await aggregated();
    const gallery = await shared(tb, 'gallery');
    const wrongType = await t.request('GET', `/api/database/views/grid/${gallery.slug}/public/aggregations/`);
    expect(wrongType.status).toBe(404);
    expect(wrongType.body.error).toBe('ERROR_GRID_DOES_NOT_EXIST');
    const token = await password(view);
    for (const caller of OUTSIDERS()) {
      const res = await t.request('GET', base, { token: caller });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW');
    }
    expect((await t.request('GET', base, { headers: VIEW_TOKEN(token) })).body[`field_${tb.amount.id}`]).toBe(60);
    await ok('PATCH', `/api/database/views/${view.id}/`, { public: false });
    for (const caller of OUTSIDERS()) expect((await t.request('GET', base, { token: caller, headers: VIEW_TOKEN(token) })).status).toBe(404);
    expect((await t.request('GET', base, { token: owner.token })).status).toBe(200);
  });
});

describe('shared grid group_by_metadata', () => {
  it('answers the metadata of the view’s visible group-bys, or of `group_by`; hidden fields cannot be grouped on', async () => {
    const tb = await table();
    const view = await shared(tb, 'grid');
    const base = `/api/database/views/grid/${view.slug}/public/rows/`;
    expect((await t.request('GET', base)).body.group_by_metadata).toBeUndefined();
    await ok('POST', `/api/database/views/${view.id}/group_bys/`, { field: tb.status.id, order: 'DESC' });
    for (const token of OUTSIDERS()) {
      const res = await t.request('GET', base, { token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.group_by_metadata)).toEqual([`field_${tb.status.id}`]);
      const counts = res.body.group_by_metadata[`field_${tb.status.id}`].map((g: any) => [g[`field_${tb.status.id}`], g.count]);
      expect(counts).toHaveLength(3);
      expect(counts).toEqual(expect.arrayContaining([[tb.open.id, 1], [tb.done.id, 1], [null, 1]]));
    }
    const adhoc = await t.request('GET', `${base}?group_by=field_${tb.amount.id}&filter__field_${tb.amount.id}__higher_than=15`);
    expect(adhoc.body.group_by_metadata).toEqual({ [`field_${tb.amount.id}`]: [{ [`field_${tb.amount.id}`]: '20', count: 1 }, { [`field_${tb.amount.id}`]: '30', count: 1 }] });
    const hidden = await t.request('GET', `${base}?group_by=field_${tb.notes.id}`);
    expect(hidden.status).toBe(400);
    expect(hidden.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
    // A saved group-by on a field the view hides is left out: no metadata of it, no order by it.
    await ok('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: { [tb.status.id]: { hidden: true } } });
    const res = await t.request('GET', base);
    expect(res.body.group_by_metadata).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(`field_${tb.status.id}"`);
  });
});

describe('the view page of shared galleries and kanbans', () => {
  it('anonymous sockets follow them and receive row messages with only the visible fields', async () => {
    const tb = await table();
    for (const type of ['gallery', 'kanban'] as const) {
      const view = await shared(tb, type);
      const client = await connect(t, 'anonymous');
      open.push(client);
      client.send({ page: 'view', slug: view.slug });
      expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'view', parameters: { slug: view.slug, token: null } });
      const row = await ok('POST', `/api/database/rows/table/${tb.table.id}/`, { [`field_${tb.name.id}`]: `Delta ${type}`, [`field_${tb.notes.id}`]: 'secret-one' });
      const created = await client.waitFor('rows_created');
      expect(created.rows.map((r: any) => r.id)).toEqual([row.id]);
      expect(Object.keys(created.rows[0]).sort()).toEqual(visibleKeys(tb));
      await ok('PATCH', `/api/database/rows/table/${tb.table.id}/${row.id}/`, { [`field_${tb.notes.id}`]: 'secret-two', [`field_${tb.name.id}`]: `Epsilon ${type}` });
      const updated = await client.waitFor('rows_updated');
      expect(updated.rows[0][`field_${tb.name.id}`]).toBe(`Epsilon ${type}`);
      await ok('DELETE', `/api/database/rows/table/${tb.table.id}/${row.id}/`);
      expect((await client.waitFor('rows_deleted')).row_ids).toEqual([row.id]);
      for (const message of client.received) expectNoHidden(message, tb);
    }
  });
});
