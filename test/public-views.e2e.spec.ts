import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf } from './support/fixtures';

let t: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
  stranger = await signUp(t, 'Stranger');
});
afterAll(async () => {
  await t.close();
});

const VIEW_TOKEN = (token: string) => ({ 'Baserow-View-Authorization': `JWT ${token}` });

/** A table (Name, Notes, Active) with rows, its grid view shared publicly with Notes hidden. */
async function sharedGrid(user: SignedUp = owner) {
  const table = (await t.request('POST', `/api/database/tables/database/${await databaseOf(t, user)}/`, { token: user.token, body: { name: 'Shared' } })).body;
  const fields = (await t.request('GET', `/api/database/fields/table/${table.id}/`, { token: user.token })).body as any[];
  const name = fields.find((f) => f.primary);
  const notes = fields.find((f) => f.name === 'Notes');
  const active = fields.find((f) => f.name === 'Active');
  const existing = (await t.request('GET', `/api/database/rows/table/${table.id}/`, { token: user.token })).body.results;
  await t.request('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { token: user.token, body: { items: existing.map((r: any) => r.id) } });
  const rows = [];
  for (const [n, secret] of [['Alpha', 'secret-one'], ['Beta', 'secret-two'], ['Gamma', 'secret-three']]) {
    rows.push((await t.request('POST', `/api/database/rows/table/${table.id}/`, { token: user.token, body: { [`field_${name.id}`]: n, [`field_${notes.id}`]: secret } })).body);
  }
  const view = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body[0];
  const shared = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { public: true } });
  expect(shared.status).toBe(200);
  const hidden = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { [notes.id]: { hidden: true } } } });
  expect(hidden.status).toBe(200);
  return { table, view: shared.body, name, notes, active, rows };
}

describe('rotate-slug', () => {
  it('gives the view a new slug; the old one no longer opens', async () => {
    const { view } = await sharedGrid();
    const res = await t.request('POST', `/api/database/views/${view.id}/rotate-slug/`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(view.id);
    expect(res.body.slug).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.slug).not.toBe(view.slug);
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`)).status).toBe(404);
    expect((await t.request('GET', `/api/database/views/${res.body.slug}/public/info/`)).status).toBe(200);
  });

  it('is refused to a non-member and for unknown views', async () => {
    const { view } = await sharedGrid();
    const other = await t.request('POST', `/api/database/views/${view.id}/rotate-slug/`, { token: stranger.token });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    const missing = await t.request('POST', `/api/database/views/999999/rotate-slug/`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    const after = await t.request('GET', `/api/database/views/${view.id}/`, { token: owner.token });
    expect(after.body.slug).toBe(view.slug);
  });
});

describe('public info', () => {
  it('answers Baserow’s shape with only the visible fields and no ids', async () => {
    const { view, name, notes, active } = await sharedGrid();
    const res = await t.request('GET', `/api/database/views/${view.slug}/public/info/`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['fields', 'view']);
    expect(res.body.fields.map((f: any) => f.id).sort()).toEqual([name.id, active.id].sort());
    expect(res.body.fields.map((f: any) => f.id)).not.toContain(notes.id);
    for (const field of res.body.fields) {
      expect(field.table_id).toBe(0);
      expect(field.database_id).toBe(0);
      expect(field.workspace_id).toBe(0);
    }
    expect(res.body.view).toEqual({
      id: view.slug,
      table: { id: 0, database_id: 0 },
      name: view.name,
      order: view.order,
      type: 'grid',
      sortings: [],
      group_bys: [],
      public: true,
      slug: view.slug,
      show_logo: true,
      allow_public_export: false,
      row_identifier_type: 'id',
      row_height_size: 'small',
    });
    expect(JSON.stringify(res.body)).not.toContain(String(view.table_id === 0 ? 'x' : `"table_id":${view.table_id}`));
  });

  it('lists the sortings and group-bys on visible fields as Baserow’s PublicViewSerializer (the view by its slug)', async () => {
    const { view, name, notes, active } = await sharedGrid();
    const post = async (path: string, body: unknown) => {
      const res = await t.request('POST', `/api/database/views/${view.id}/${path}/`, { token: owner.token, body });
      expect(res.status).toBe(200);
      return res.body;
    };
    const sort = await post('sortings', { field: name.id, order: 'DESC' });
    await post('sortings', { field: notes.id, order: 'ASC' });
    const groupBy = await post('group_bys', { field: active.id, order: 'ASC' });
    await post('group_bys', { field: notes.id, order: 'DESC' });
    const res = await t.request('GET', `/api/database/views/${view.slug}/public/info/`);
    expect(res.status).toBe(200);
    expect(res.body.view.sortings).toEqual([{ id: sort.id, view: view.slug, field: name.id, order: 'DESC', type: 'default' }]);
    expect(res.body.view.group_bys).toEqual([{ id: groupBy.id, view: view.slug, field: active.id, order: 'ASC', width: 200, type: 'default' }]);
  });

  it('a non-public view is 404 for anonymous callers and other users, open to members', async () => {
    const { view } = await sharedGrid();
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public: false } });
    for (const token of [undefined, stranger.token]) {
      const res = await t.request('GET', `/api/database/views/${view.slug}/public/info/`, { token });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
      const rows = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`, { token });
      expect(rows.status).toBe(404);
    }
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`, { token: owner.token })).status).toBe(200);
  });

  it('unknown slugs are 404, an invalid JWT is 401', async () => {
    expect((await t.request('GET', '/api/database/views/not-a-slug/public/info/')).body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    const { view } = await sharedGrid();
    const bad = await t.request('GET', `/api/database/views/${view.slug}/public/info/`, { token: 'garbage' });
    expect(bad.status).toBe(401);
    // Another keyword is no credential here: the caller is anonymous.
    const other = await t.request('GET', `/api/database/views/${view.slug}/public/info/`, { headers: { Authorization: 'Token abc' } });
    expect(other.status).toBe(200);
  });
});

describe('password', () => {
  it('checks the length on PATCH; a blank value removes it', async () => {
    const { view } = await sharedGrid();
    const short = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    const long = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'x'.repeat(257) } });
    expect(long.status).toBe(400);
    const set = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'long enough' } });
    expect(set.body.public_view_has_password).toBe(true);
    const removed = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: '' } });
    expect(removed.body.public_view_has_password).toBe(false);
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`)).status).toBe(200);
  });

  it('needs the view token unless the caller is a member; a new password or slug invalidates tokens', async () => {
    const { view, rows } = await sharedGrid();
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'first password' } });
    const info = `/api/database/views/${view.slug}/public/info/`;
    const locked = await t.request('GET', info);
    expect(locked.status).toBe(401);
    expect(locked.body).toEqual({ error: 'ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW', detail: 'The view is password protected.' });
    for (const path of [`/api/database/views/grid/${view.slug}/public/rows/`, `/api/database/views/${view.slug}/row/${rows[0].id}/`]) {
      expect((await t.request('GET', path)).status).toBe(401);
    }
    expect((await t.request('GET', info, { token: stranger.token })).status).toBe(401);
    expect((await t.request('GET', info, { token: owner.token })).status).toBe(200);

    const wrong = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect authentication credentials.' });
    const missing = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    const auth = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'first password' } });
    expect(auth.status).toBe(200);
    expect(Object.keys(auth.body)).toEqual(['access_token']);
    const token = auth.body.access_token;
    expect((await t.request('GET', info, { headers: VIEW_TOKEN(token) })).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`, { headers: VIEW_TOKEN(token) })).status).toBe(200);
    // Not a user's JWT, and not a token of another view.
    expect((await t.request('GET', '/api/user/dashboard/', { token })).status).toBe(401);
    const other = await sharedGrid();
    await t.request('PATCH', `/api/database/views/${other.view.id}/`, { token: owner.token, body: { public_view_password: 'first password' } });
    expect((await t.request('GET', `/api/database/views/${other.view.slug}/public/info/`, { headers: VIEW_TOKEN(token) })).status).toBe(401);

    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'second password' } });
    expect((await t.request('GET', info, { headers: VIEW_TOKEN(token) })).status).toBe(401);
    const again = (await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'second password' } })).body.access_token;
    expect((await t.request('GET', info, { headers: VIEW_TOKEN(again) })).status).toBe(200);
    const rotated = (await t.request('POST', `/api/database/views/${view.id}/rotate-slug/`, { token: owner.token })).body.slug;
    expect((await t.request('GET', `/api/database/views/${rotated}/public/info/`, { headers: VIEW_TOKEN(again) })).status).toBe(401);
  });

  it('a view without password or not public cannot be authenticated against', async () => {
    const { view } = await sharedGrid();
    const res = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'anything at all' } });
    expect(res.status).toBe(401);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public: false, public_view_password: 'long enough' } });
    const hidden = await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'long enough' } });
    expect(hidden.status).toBe(404);
  });
});

describe('public grid rows', () => {
  it('answers only the visible fields; hidden values never appear', async () => {
    const { view, name, notes, active } = await sharedGrid();
    const res = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/?include=field_options`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Alpha', 'Beta', 'Gamma']);
    for (const row of res.body.results) expect(Object.keys(row).sort()).toEqual(['field_' + active.id, 'field_' + name.id, 'id', 'order'].sort());
    expect(res.text).not.toContain('secret');
    expect(Object.keys(res.body.field_options).sort()).toEqual([String(active.id), String(name.id)].sort());
    expect(res.body.field_options[String(notes.id)]).toBeUndefined();
  });

  it('another user’s JWT on a public view’s slug gets only the public shape', async () => {
    const { view, notes, table } = await sharedGrid();
    const rows = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`, { token: stranger.token });
    expect(rows.status).toBe(200);
    expect(rows.text).not.toContain('secret');
    expect(rows.body.results[0][`field_${notes.id}`]).toBeUndefined();
    const info = await t.request('GET', `/api/database/views/${view.slug}/public/info/`, { token: stranger.token });
    expect(info.body.fields.map((f: any) => f.id)).not.toContain(notes.id);
    expect(info.body.view.table).toEqual({ id: 0, database_id: 0 });
    // The slug opens nothing else: the view itself and its table stay closed.
    expect((await t.request('GET', `/api/database/views/${view.id}/`, { token: stranger.token })).status).toBe(400);
    expect((await t.request('GET', `/api/database/rows/table/${table.id}/`, { token: stranger.token })).status).toBe(400);
  });

  it('refuses to filter, order or search on a hidden field', async () => {
    const { view, notes, name } = await sharedGrid();
    const base = `/api/database/views/grid/${view.slug}/public/rows/`;
    const order = await t.request('GET', `${base}?order_by=field_${notes.id}`);
    expect(order.status).toBe(400);
    expect(order.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
    const group = await t.request('GET', `${base}?group_by=field_${notes.id}`);
    expect(group.body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
    const filter = await t.request('GET', `${base}?filter__field_${notes.id}__contains=secret`);
    expect(filter.status).toBe(400);
    expect(filter.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
    const tree = JSON.stringify({ filter_type: 'AND', filters: [{ field: notes.id, type: 'contains', value: 'secret-two' }], groups: [] });
    const json = await t.request('GET', `${base}?filters=${encodeURIComponent(tree)}`);
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('ERROR_FILTER_FIELD_NOT_FOUND');
    const search = await t.request('GET', `${base}?search=secret-two`);
    expect(search.status).toBe(200);
    expect(search.body.count).toBe(0);
    const visible = await t.request('GET', `${base}?search=Beta&order_by=-field_${name.id}`);
    expect(visible.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Beta']);
  });

  it('filters, orders and paginates on visible fields', async () => {
    const { view, name, notes } = await sharedGrid();
    const base = `/api/database/views/grid/${view.slug}/public/rows/`;
    const desc = await t.request('GET', `${base}?order_by=-field_${name.id}&size=2`);
    expect(desc.body.count).toBe(3);
    expect(desc.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Gamma', 'Beta']);
    expect(desc.body.next).toContain('page=2');
    const limited = await t.request('GET', `${base}?limit=1&offset=1`);
    expect(limited.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Beta']);
    const filtered = await t.request('GET', `${base}?filter__field_${name.id}__contains=a&filter_type=AND`);
    expect(filtered.body.count).toBe(3);
    const one = await t.request('GET', `${base}?filter__field_${name.id}__equal=Gamma`);
    expect(one.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['Gamma']);
    const only = await t.request('GET', `${base}?include_fields=field_${name.id},field_${notes.id}`);
    for (const row of only.body.results) expect(Object.keys(row).sort()).toEqual(['field_' + name.id, 'id', 'order'].sort());
  });

  it('a slug of another view type or a trashed view is not found', async () => {
    const { view, table } = await sharedGrid();
    await t.request('DELETE', `/api/database/tables/${table.id}/`, { token: owner.token });
    const res = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERROR_GRID_DOES_NOT_EXIST');
  });
});

describe('one public row and link lookups', () => {
  it('answers a row the view shows with visible fields only; other rows are not found', async () => {
    const { view, rows, notes } = await sharedGrid();
    const res = await t.request('GET', `/api/database/views/${view.slug}/row/${rows[1].id}/`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(rows[1].id);
    expect(res.body[`field_${notes.id}`]).toBeUndefined();
    expect(res.text).not.toContain('secret');
    await t.request('DELETE', `/api/database/rows/table/${view.table_id}/${rows[2].id}/`, { token: owner.token });
    for (const id of [rows[2].id, 999999]) {
      const gone = await t.request('GET', `/api/database/views/${view.slug}/row/${id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe('ERROR_ROW_DOES_NOT_EXIST');
    }
  });

  it('looks up only a visible link field’s linked rows, searched on their primary field', async () => {
    const { view, table, rows } = await sharedGrid();
    const target = await sharedGrid();
    const link = await t.request('POST', `/api/database/fields/table/${table.id}/`, { token: owner.token, body: { name: 'Link', type: 'link_row', link_row_table_id: target.table.id } });
    expect(link.status).toBe(200);
    await t.request('PATCH', `/api/database/rows/table/${table.id}/${rows[0].id}/`, { token: owner.token, body: { [`field_${link.body.id}`]: [target.rows[0].id, target.rows[2].id] } });
    const base = `/api/database/views/${view.slug}/link-row-field-lookup/${link.body.id}/`;
    const res = await t.request('GET', base);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.results).toEqual([
      { id: target.rows[0].id, value: 'Alpha', order: target.rows[0].order },
      { id: target.rows[2].id, value: 'Gamma', order: target.rows[2].order },
    ]);
    const searched = await t.request('GET', `${base}?search=Gam`);
    expect(searched.body.results.map((r: any) => r.id)).toEqual([target.rows[2].id]);
    // Not a link field, or a hidden one: the field does not exist here.
    const notLink = await t.request('GET', `/api/database/views/${view.slug}/link-row-field-lookup/${target.name.id}/`);
    expect(notLink.status).toBe(404);
    expect(notLink.body.error).toBe('ERROR_FIELD_DOES_NOT_EXIST');
    await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: owner.token, body: { field_options: { [link.body.id]: { hidden: true } } } });
    const hidden = await t.request('GET', base);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERROR_FIELD_DOES_NOT_EXIST');
  });
});
