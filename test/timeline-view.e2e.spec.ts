import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';
import { connect, WsClient } from './support/ws';

let t: TestApp;
const open: WsClient[] = [];
beforeAll(async () => {
  t = await startApp();
});
afterEach(() => {
  for (const client of open.splice(0)) client.ws.close();
});
afterAll(async () => {
  await t.close();
});

/** An empty table: Name, Start and End (dates), StartAt and EndAt (datetimes), a Tokyo datetime and a text Note. */
async function timelineTable(user: SignedUp) {
  const tableId = await emptyTable(t, user, await databaseOf(t, user), 'Plan');
  const add = async (body: Record<string, unknown>) => (await t.request('POST', `/api/database/fields/table/${tableId}/`, { token: user.token, body })).body as { id: number };
  const start = await add({ name: 'Start', type: 'date' });
  const end = await add({ name: 'End', type: 'date' });
  const startAt = await add({ name: 'StartAt', type: 'date', date_include_time: true });
  const tokyo = await add({ name: 'Tokyo', type: 'date', date_include_time: true, date_force_timezone: 'Asia/Tokyo' });
  const note = await add({ name: 'Note', type: 'text' });
  const fields = (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token: user.token })).body as any[];
  return { tableId, name: fields.find((f) => f.primary), start, end, startAt, tokyo, note };
}

async function createTimeline(user: SignedUp, tableId: number, body: Record<string, unknown>) {
  return t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Timeline', type: 'timeline', ...body } });
}

describe('timeline views', () => {
  it('creates a timeline with start and end date fields and a timescale; view_created and view_updated carry them', async () => {
    const user = await signUp(t);
    const table = await timelineTable(user);
    const client = await connect(t, user.token);
    open.push(client);
    client.send({ page: 'table', table_id: table.tableId });
    await client.waitFor('page_add');
    const res = await createTimeline(user, table.tableId, { start_date_field: table.start.id, end_date_field: table.end.id });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).slice(-5)).toEqual(['start_date_field', 'end_date_field', 'timescale', 'public', 'slug']);
    expect(res.body).toMatchObject({ type: 'timeline', start_date_field: table.start.id, end_date_field: table.end.id, timescale: 'month' });
    expect((await client.waitFor('view_created')).view).toMatchObject({ id: res.body.id, start_date_field: table.start.id, timescale: 'month' });
    const options = (await t.request('GET', `/api/database/views/${res.body.id}/field-options/`, { token: user.token })).body.field_options;
    expect(options[table.name.id]).toEqual({ hidden: false, order: 32767 });
    expect(options[table.note.id]).toEqual({ hidden: true, order: 32767 });
    const patched = await t.request('PATCH', `/api/database/views/${res.body.id}/`, { token: user.token, body: { timescale: 'week' } });
    expect(patched.body.timescale).toBe('week');
    expect((await client.waitFor('view_updated')).view).toMatchObject({ id: res.body.id, timescale: 'week' });
    const bad = await t.request('PATCH', `/api/database/views/${res.body.id}/`, { token: user.token, body: { timescale: 'decade' } });
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { timescale: [{ error: '"decade" is not a valid choice.', code: 'invalid_choice' }] } });
  });

  it('refuses non-date fields, fields of other tables and incompatible pairs, as Baserow does', async () => {
    const user = await signUp(t);
    const table = await timelineTable(user);
    const other = await timelineTable(user);
    const text = await createTimeline(user, table.tableId, { start_date_field: table.note.id });
    expect(text.body).toEqual({ error: 'ERROR_INCOMPATIBLE_FIELD', detail: 'The provided field is not compatible.' });
    const foreign = await createTimeline(user, table.tableId, { end_date_field: other.end.id });
    expect(foreign.body).toEqual({ error: 'ERROR_FIELD_NOT_IN_TABLE', detail: 'The provided field does not belong in the related table.' });
    const mixed = await createTimeline(user, table.tableId, { start_date_field: table.start.id, end_date_field: table.startAt.id });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({
      error: 'ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS',
      detail: 'The requested timeline view does not have valid date settings. Please choose two valid date fields in the table that use the same ',
    });
    const zones = await createTimeline(user, table.tableId, { start_date_field: table.startAt.id, end_date_field: table.tokyo.id });
    expect(zones.body.error).toBe('ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS');
    const views = (await t.request('GET', `/api/database/views/table/${table.tableId}/`, { token: user.token })).body;
    expect(views.map((v: any) => v.type)).toEqual(['grid']);
  });

  it('lists rows as the grid pages them once both dates are valid', async () => {
    const user = await signUp(t);
    const table = await timelineTable(user);
    const n = `field_${table.name.id}`;
    const items = ['c', 'a', 'b'].map((name, i) => ({ [n]: name, [`field_${table.start.id}`]: `2024-01-0${i + 1}`, [`field_${table.end.id}`]: `2024-01-1${i}` }));
    const ids = (await t.request('POST', `/api/database/rows/table/${table.tableId}/batch/`, { token: user.token, body: { items } })).body.items.map((r: any) => r.id);
    const unset = (await createTimeline(user, table.tableId, {})).body;
    const invalid = await t.request('GET', `/api/database/views/timeline/${unset.id}/`, { token: user.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS');
    const view = (await createTimeline(user, table.tableId, { start_date_field: table.start.id, end_date_field: table.end.id })).body;
    const url = `/api/database/views/timeline/${view.id}/`;
    const all = await t.request('GET', url, { token: user.token });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(all.body.results.map((r: any) => r.id)).toEqual(ids);
    const page = await t.request('GET', `${url}?size=1&page=2&order_by=${n}&include=field_options,row_metadata`, { token: user.token });
    expect(page.body.count).toBe(3);
    expect(page.body.results.map((r: any) => r[n])).toEqual(['b']);
    expect(page.body.next).toContain('page=3');
    expect(page.body.field_options[table.start.id]).toEqual({ hidden: true, order: 32767 });
    expect(page.body.row_metadata).toEqual({});
    const limited = await t.request('GET', `${url}?limit=2&offset=1&search=c&count`, { token: user.token });
    expect(limited.body).toEqual({ count: 1 });
    const filtered = await t.request('GET', `${url}?filter__${n}__equal=a&include_fields=${n}`, { token: user.token });
    expect(filtered.body.results).toEqual([{ id: ids[1], order: '2.00000000000000000000', [n]: 'a' }]);
    const grid = (await t.request('GET', `/api/database/views/table/${table.tableId}/`, { token: user.token })).body[0];
    const notTimeline = await t.request('GET', `/api/database/views/timeline/${grid.id}/`, { token: user.token });
    expect(notTimeline.status).toBe(404);
    expect(notTimeline.body).toEqual({ error: 'ERROR_TIMELINE_DOES_NOT_EXIST', detail: 'The requested timeline view does not exist.' });
    // Trashing a date field unsets it: the listing is refused again.
    await t.request('DELETE', `/api/database/fields/${table.end.id}/`, { token: user.token });
    const after = (await t.request('GET', `/api/database/views/${view.id}/`, { token: user.token })).body;
    expect(after.end_date_field).toBeNull();
    expect((await t.request('GET', url, { token: user.token })).body.error).toBe('ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS');
  });

  it('shares a timeline: its visible fields and the date fields, saved filters AND the request’s', async () => {
    const user = await signUp(t);
    const table = await timelineTable(user);
    const n = `field_${table.name.id}`;
    const items = ['keep', 'drop'].map((name) => ({ [n]: name, [`field_${table.start.id}`]: '2024-01-01', [`field_${table.end.id}`]: '2024-01-05', [`field_${table.note.id}`]: 'secret' }));
    const ids = (await t.request('POST', `/api/database/rows/table/${table.tableId}/batch/`, { token: user.token, body: { items } })).body.items.map((r: any) => r.id);
    const view = (await createTimeline(user, table.tableId, { start_date_field: table.start.id, end_date_field: table.end.id, public: true })).body;
    await t.request('POST', `/api/database/views/${view.id}/filters/`, { token: user.token, body: { field: table.name.id, type: 'not_equal', value: 'drop' } });
    const url = `/api/database/views/timeline/${view.slug}/public/rows/`;
    const shared = await t.request('GET', `${url}?include=field_options`);
    expect(shared.status).toBe(200);
    expect(shared.body.results.map((r: any) => r.id)).toEqual([ids[0]]);
    expect(Object.keys(shared.body.results[0]).sort()).toEqual(['id', 'order', n, `field_${table.start.id}`, `field_${table.end.id}`].sort());
    expect(Object.keys(shared.body.field_options).map(Number).sort()).toEqual([table.name.id, table.start.id, table.end.id].sort());
    expect((await t.request('GET', `${url}?filter__${n}__equal=nothing`)).body.count).toBe(0);
    expect((await t.request('GET', `${url}?filter__field_${table.note.id}__equal=secret`)).status).toBe(400);
    const calendarSlug = await t.request('GET', `/api/database/views/calendar/${view.slug}/public/rows/?from_timestamp=2024-01-01&to_timestamp=2024-01-02`);
    expect(calendarSlug.status).toBe(404);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { public: false } });
    const gone = await t.request('GET', url);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('ERROR_TIMELINE_DOES_NOT_EXIST');
  });
});
