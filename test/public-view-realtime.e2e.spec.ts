import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient } from './support/ws';
import { databaseOf } from './support/fixtures';

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

async function socket(token: string): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}

/** A table (Name, Notes, Active) whose grid view is shared with Notes hidden. */
async function sharedGrid() {
  const table = (await t.request('POST', `/api/database/tables/database/${await databaseOf(t, owner)}/`, { token: owner.token, body: { name: 'Live' } })).body;
  const fields = (await t.request('GET', `/api/database/fields/table/${table.id}/`, { token: owner.token })).body as any[];
  const name = fields.find((f) => f.primary);
  const notes = fields.find((f) => f.name === 'Notes');
  const view = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: owner.token })).body[0];
  const shared = (await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public: true } })).body;
  await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: owner.token, body: { field_options: { [notes.id]: { hidden: true } } } });
  return { table, view: shared, name, notes };
}

async function subscribe(client: WsClient, slug: string, token: string | null = null): Promise<void> {
  client.send(token ? { page: 'view', slug, token } : { page: 'view', slug });
  expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'view', parameters: { slug, token } });
}

describe('the view page', () => {
  it('anonymous sockets may follow a public view, not a table, not a non-public view', async () => {
    const { view, table } = await sharedGrid();
    const anonymous = await socket('anonymous');
    expect(anonymous.authentication?.success).toBe(true);
    anonymous.send({ page: 'table', table_id: table.id });
    await expectNone(anonymous);
    await subscribe(anonymous, view.slug);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public: false } });
    // The link stopped opening: the page is discarded.
    expect(await anonymous.waitFor('page_discard')).toEqual({ type: 'page_discard', page: 'view', parameters: { slug: view.slug, token: null } });
    anonymous.send({ page: 'view', slug: view.slug });
    const stranger_ = await socket(stranger.token);
    stranger_.send({ page: 'view', slug: view.slug });
    await expectNone(stranger_);
    expect(anonymous.received.filter((m) => m.type === 'page_add')).toHaveLength(1);
    // Members may follow a non-public view.
    const member = await socket(owner.token);
    await subscribe(member, view.slug);
  });

  it('a password-protected view needs its token; a new password discards the page', async () => {
    const { view } = await sharedGrid();
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'the password' } });
    const anonymous = await socket('anonymous');
    anonymous.send({ page: 'view', slug: view.slug });
    anonymous.send({ page: 'view', slug: view.slug, token: 'not-a-token' });
    await expectNone(anonymous);
    const token = (await t.request('POST', `/api/database/views/${view.slug}/public/auth/`, { body: { password: 'the password' } })).body.access_token;
    await subscribe(anonymous, view.slug, token);
    const member = await socket(owner.token);
    await subscribe(member, view.slug);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { public_view_password: 'another password' } });
    expect(await anonymous.waitFor('page_discard')).toEqual({ type: 'page_discard', page: 'view', parameters: { slug: view.slug, token } });
    const left = await member.drain();
    expect(left.map((m) => m.type)).not.toContain('page_discard');
  });

  it('a rotated slug discards the old page', async () => {
    const { view } = await sharedGrid();
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    await t.request('POST', `/api/database/views/${view.id}/rotate-slug/`, { token: owner.token });
    expect(await anonymous.waitFor('page_discard')).toMatchObject({ page: 'view', parameters: { slug: view.slug } });
  });
});

describe('public twins of messages', () => {
  it('rows arrive stripped of hidden fields; the hidden value never arrives', async () => {
    const { view, table, name, notes } = await sharedGrid();
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    const created = await t.request('POST', `/api/database/rows/table/${table.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'Visible', [`field_${notes.id}`]: 'TOP-SECRET' } });
    const message = await anonymous.waitFor('rows_created');
    expect(message.table_id).toBe(0);
    expect(message.metadata).toEqual({});
    expect(message.before_row_id).toBeNull();
    expect(message.rows).toHaveLength(1);
    expect(message.rows[0].id).toBe(created.body.id);
    expect(message.rows[0][`field_${name.id}`]).toBe('Visible');
    expect(message.rows[0][`field_${notes.id}`]).toBeUndefined();

    await t.request('PATCH', `/api/database/rows/table/${table.id}/${created.body.id}/`, { token: owner.token, body: { [`field_${notes.id}`]: 'TOP-SECRET-2', [`field_${name.id}`]: 'Renamed' } });
    const updated = await anonymous.waitFor('rows_updated');
    expect(updated.table_id).toBe(0);
    expect(updated.rows[0][`field_${name.id}`]).toBe('Renamed');
    expect(updated.rows_before_update[0][`field_${name.id}`]).toBe('Visible');
    expect(updated.rows[0][`field_${notes.id}`]).toBeUndefined();

    await t.request('DELETE', `/api/database/rows/table/${table.id}/${created.body.id}/`, { token: owner.token });
    const deleted = await anonymous.waitFor('rows_deleted');
    expect(deleted).toMatchObject({ table_id: 0, row_ids: [created.body.id] });
    expect(deleted.rows[0][`field_${notes.id}`]).toBeUndefined();

    const everything = JSON.stringify(anonymous.received);
    expect(everything).not.toContain('TOP-SECRET');
    // Table-page messages (before_rows_update …) never reach the view page.
    expect(anonymous.received.map((m) => m.type)).not.toContain('before_rows_update');
  });

  it('field messages only for visible fields, with ids as 0', async () => {
    const { view, table, notes } = await sharedGrid();
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    await t.request('PATCH', `/api/database/fields/${notes.id}/`, { token: owner.token, body: { name: 'Hidden renamed' } });
    await expectNone(anonymous);
    const field = await t.request('POST', `/api/database/fields/table/${table.id}/`, { token: owner.token, body: { name: 'Fresh', type: 'text' } });
    const created = await anonymous.waitFor('field_created');
    expect(created.field).toMatchObject({ id: field.body.id, name: 'Fresh', table_id: 0, database_id: 0, workspace_id: 0 });
    await t.request('DELETE', `/api/database/fields/${field.body.id}/`, { token: owner.token });
    expect(await anonymous.waitFor('field_deleted')).toEqual({ type: 'field_deleted', table_id: 0, field_id: field.body.id, related_fields: [] });
    expect(JSON.stringify(anonymous.received)).not.toContain('Hidden renamed');
  });

  it('saved filter changes force a rows refresh; sorts, filter groups and decorations send nothing', async () => {
    const { view, name } = await sharedGrid();
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: owner.token, body });
    const filter = (await api('POST', `/api/database/views/${view.id}/filters/`, { field: name.id, type: 'contains', value: 'a' })).body;
    expect(await anonymous.waitFor('force_view_rows_refresh')).toEqual({ type: 'force_view_rows_refresh', view_id: view.slug });
    await api('PATCH', `/api/database/views/filter/${filter.id}/`, { value: 'b' });
    await anonymous.waitFor('force_view_rows_refresh');
    await api('DELETE', `/api/database/views/filter/${filter.id}/`);
    await anonymous.waitFor('force_view_rows_refresh');
    await api('POST', `/api/database/views/${view.id}/sortings/`, { field: name.id });
    await api('POST', `/api/database/views/${view.id}/filter-groups/`, {});
    await api('POST', `/api/database/views/${view.id}/decorations/`, { type: 'left_border_color' });
    await expectNone(anonymous);
    expect(anonymous.received.filter((m: any) => m.type.startsWith('view_'))).toEqual([]);
  });

  it('view and field option changes force a refresh with the public view', async () => {
    const { view, notes } = await sharedGrid();
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: owner.token, body: { name: 'New name' } });
    const refresh = await anonymous.waitFor('force_view_refresh');
    expect(refresh.view_id).toBe(view.slug);
    expect(refresh.view).toMatchObject({ id: view.slug, name: 'New name', table: { id: 0, database_id: 0 } });
    expect(refresh.fields.map((f: any) => f.id)).not.toContain(notes.id);
    await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: owner.token, body: { field_options: { [notes.id]: { hidden: false } } } });
    const shown = await anonymous.waitFor('force_view_refresh');
    expect(shown.fields.map((f: any) => f.id)).toContain(notes.id);
    // The private messages of the table page are not sent to the view page.
    const types = anonymous.received.map((m) => m.type);
    expect(types).not.toContain('view_updated');
    expect(types).not.toContain('view_field_options_updated');
  });
});

describe('rows entering and leaving a filtered shared view', () => {
  it('an update moving a row out of the filter is rows_deleted, into it rows_created; rows never shown send nothing', async () => {
    const { view, table, name, notes } = await sharedGrid();
    const filter = await t.request('POST', `/api/database/views/${view.id}/filters/`, { token: owner.token, body: { field: name.id, type: 'contains', value: 'in' } });
    expect(filter.status).toBe(200);
    const anonymous = await socket('anonymous');
    await subscribe(anonymous, view.slug);
    const inside = (await t.request('POST', `/api/database/rows/table/${table.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'inside', [`field_${notes.id}`]: 'SECRET-A' } })).body;
    expect((await anonymous.waitFor('rows_created')).rows.map((r: any) => r.id)).toEqual([inside.id]);
    const outside = (await t.request('POST', `/api/database/rows/table/${table.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'out', [`field_${notes.id}`]: 'SECRET-B' } })).body;
    await expectNone(anonymous);
    // Never shown before nor after: nothing.
    await t.request('PATCH', `/api/database/rows/table/${table.id}/${outside.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'still out' } });
    await expectNone(anonymous);
    // Leaves the filter: deleted, with what the view showed of it.
    await t.request('PATCH', `/api/database/rows/table/${table.id}/${inside.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'gone' } });
    const left = await anonymous.waitFor('rows_deleted');
    expect(left).toMatchObject({ table_id: 0, row_ids: [inside.id] });
    expect(left.rows[0][`field_${name.id}`]).toBe('inside');
    expect(left.rows[0][`field_${notes.id}`]).toBeUndefined();
    // Enters the filter: created.
    await t.request('PATCH', `/api/database/rows/table/${table.id}/${outside.id}/`, { token: owner.token, body: { [`field_${name.id}`]: 'now inside' } });
    const entered = await anonymous.waitFor('rows_created');
    expect(entered).toMatchObject({ table_id: 0, before_row_id: null });
    expect(entered.rows[0]).toMatchObject({ id: outside.id, [`field_${name.id}`]: 'now inside' });
    // Deleting a row the view does not show sends nothing; one it shows is deleted.
    await t.request('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { token: owner.token, body: { items: [inside.id, outside.id] } });
    const deleted = await anonymous.waitFor('rows_deleted');
    expect(deleted.row_ids).toEqual([outside.id]);
    await expectNone(anonymous);
    expect(JSON.stringify(anonymous.received)).not.toMatch(/SECRET|still out/);
    // The public rows endpoint applies the same saved filter.
    await t.request('POST', `/api/database/rows/table/${table.id}/batch/`, { token: owner.token, body: { items: [{ [`field_${name.id}`]: 'win' }, { [`field_${name.id}`]: 'lose' }] } });
    const rows = await t.request('GET', `/api/database/views/grid/${view.slug}/public/rows/`);
    expect(rows.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['win']);
  });
});
