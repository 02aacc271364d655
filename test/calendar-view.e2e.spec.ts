import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';
import { connect, WsClient } from './support/ws';

const ICAL = require('ical.js');

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

/**
 * An empty table with its primary Name, a datetime `When` (no forced time zone), a date `Day`,
 * a datetime `Fixed` forced to Asia/Tokyo and a text `Note`.
 */
async function calendarTable(user: SignedUp) {
  const tableId = await emptyTable(t, user, await databaseOf(t, user), 'Events');
  const add = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', `/api/database/fields/table/${tableId}/`, { token: user.token, body });
    expect(res.status).toBe(200);
    return res.body as { id: number };
  };
  const when = await add({ name: 'When', type: 'date', date_include_time: true, date_format: 'ISO' });
  const day = await add({ name: 'Day', type: 'date', date_format: 'ISO' });
  const fixed = await add({ name: 'Fixed', type: 'date', date_include_time: true, date_force_timezone: 'Asia/Tokyo' });
  const note = await add({ name: 'Note', type: 'text' });
  const fields = (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token: user.token })).body as any[];
  const name = fields.find((f) => f.primary);
  return { tableId, name, when, day, fixed, note, fields };
}

async function addRows(user: SignedUp, tableId: number, items: Record<string, unknown>[]): Promise<number[]> {
  const res = await t.request('POST', `/api/database/rows/table/${tableId}/batch/`, { token: user.token, body: { items } });
  expect(res.status).toBe(200);
  return res.body.items.map((row: { id: number }) => row.id);
}

async function createCalendar(user: SignedUp, tableId: number, body: Record<string, unknown>) {
  return t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Calendar', type: 'calendar', ...body } });
}

function days(body: any): Record<string, number[]> {
  return Object.fromEntries(Object.entries(body.rows as Record<string, { results: { id: number }[] }>).map(([key, value]) => [key, value.results.map((r) => r.id)]));
}

describe('calendar views', () => {
  it('creates a calendar on a date field: its keys in order, the first field visible, view_created and view_updated with the new keys', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const client = await connect(t, user.token);
    open.push(client);
    client.send({ page: 'table', table_id: table.tableId });
    await client.waitFor('page_add');
    const res = await createCalendar(user, table.tableId, { date_field: table.when.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'calendar', date_field: table.when.id, ical_feed_url: null, ical_public: false, public: false });
    expect(Object.keys(res.body).slice(-5)).toEqual(['date_field', 'ical_feed_url', 'ical_public', 'public', 'slug']);
    const created = await client.waitFor('view_created');
    expect(created.view).toMatchObject({ id: res.body.id, date_field: table.when.id, ical_feed_url: null, ical_public: false });
    const options = (await t.request('GET', `/api/database/views/${res.body.id}/field-options/`, { token: user.token })).body.field_options;
    expect(options[table.name.id]).toEqual({ hidden: false, order: 32767 });
    expect(options[table.when.id]).toEqual({ hidden: true, order: 32767 });

    const patched = await t.request('PATCH', `/api/database/views/${res.body.id}/`, { token: user.token, body: { ical_public: true, ical_feed_url: 'http://evil/' } });
    expect(patched.status).toBe(200);
    expect(patched.body.ical_public).toBe(true);
    expect(patched.body.ical_feed_url).toMatch(/^http:\/\/localhost:8000\/api\/database\/views\/calendar\/[-\w]{43}\.ics$/);
    const updated = await client.waitFor('view_updated');
    expect(updated.view).toMatchObject({ id: res.body.id, ical_public: true, ical_feed_url: patched.body.ical_feed_url });
    // Turning the feed off keeps its slug (Baserow answers the URL, inactive, until rotated).
    const off = await t.request('PATCH', `/api/database/views/${res.body.id}/`, { token: user.token, body: { ical_public: false } });
    expect(off.body).toMatchObject({ ical_public: false, ical_feed_url: patched.body.ical_feed_url });
  });

  it('refuses a date_field that cannot hold dates, of another table, or unknown, as Baserow does', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const other = await calendarTable(user);
    const text = await createCalendar(user, table.tableId, { date_field: table.note.id });
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ error: 'ERROR_INCOMPATIBLE_FIELD', detail: 'The provided field is not compatible.' });
    const foreign = await createCalendar(user, table.tableId, { date_field: other.when.id });
    expect(foreign.body).toEqual({ error: 'ERROR_FIELD_NOT_IN_TABLE', detail: 'The provided field does not belong in the related table.' });
    const missing = await createCalendar(user, table.tableId, { date_field: 99999999 });
    expect(missing.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { date_field: [{ error: 'Invalid pk "99999999" - object does not exist.', code: 'does_not_exist' }] },
    });
    // A field of someone else's workspace is answered as unknown: nothing about it leaks.
    const stranger = await signUp(t, 'Stranger');
    const theirs = await calendarTable(stranger);
    const hidden = await createCalendar(user, table.tableId, { date_field: theirs.when.id });
    expect(hidden.body.detail).toEqual({ date_field: [{ error: `Invalid pk "${theirs.when.id}" - object does not exist.`, code: 'does_not_exist' }] });
    const views = (await t.request('GET', `/api/database/views/table/${table.tableId}/`, { token: user.token })).body;
    expect(views.map((v: any) => v.type)).toEqual(['grid']);
  });

  it('lists rows per local day of a datetime field in the user time zone, with limit and offset per day', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const w = `field_${table.when.id}`;
    const n = `field_${table.name.id}`;
    const ids = await addRows(user, table.tableId, [
      { [n]: 'late 1st UTC', [w]: '2024-03-01T23:30:00Z' }, // 2nd in Amsterdam (UTC+1)
      { [n]: 'early 2nd', [w]: '2024-03-02T08:00:00Z' },
      { [n]: 'mid 2nd', [w]: '2024-03-02T12:00:00Z' },
      { [n]: 'before', [w]: '2024-02-20T12:00:00Z' },
      { [n]: 'no date' },
      { [n]: 'on the 3rd', [w]: '2024-03-03T10:00:00Z' },
    ]);
    const view = (await createCalendar(user, table.tableId, { date_field: table.when.id })).body;
    const url = `/api/database/views/calendar/${view.id}/`;
    const utc = await t.request('GET', `${url}?from_timestamp=2024-03-01T00:00:00Z&to_timestamp=2024-03-04T00:00:00Z`, { token: user.token });
    expect(utc.status).toBe(200);
    expect(Object.keys(utc.body)).toEqual(['rows']);
    expect(days(utc.body)).toEqual({ '2024-03-01': [ids[0]], '2024-03-02': [ids[1], ids[2]], '2024-03-03': [ids[5]] });
    expect(utc.body.rows['2024-03-02'].count).toBe(2);
    expect(utc.body.rows['2024-03-02'].results[0]).toMatchObject({ id: ids[1], [n]: 'early 2nd', [w]: '2024-03-02T08:00:00Z' });

    const ams = await t.request('GET', `${url}?from_timestamp=2024-03-01T00:00:00%2B01:00&to_timestamp=2024-03-04T00:00:00%2B01:00&user_timezone=Europe/Amsterdam&limit=1&offset=1`, { token: user.token });
    expect(ams.status).toBe(200);
    // Every day of the range answers, the empty ones after the ones with rows.
    expect(Object.keys(ams.body.rows)).toEqual(['2024-03-02', '2024-03-01', '2024-03-03']);
    expect(ams.body.rows['2024-03-02']).toMatchObject({ count: 3 });
    expect(days(ams.body)).toEqual({ '2024-03-01': [], '2024-03-02': [ids[1]], '2024-03-03': [] });
    expect(ams.body.rows['2024-03-03'].count).toBe(1);

    // The search and ad-hoc filters narrow every day; include answers field options and row metadata.
    const searched = await t.request('GET', `${url}?from_timestamp=2024-03-01&to_timestamp=2024-03-04&search=mid&include=field_options,row_metadata`, { token: user.token });
    expect(days(searched.body)).toEqual({ '2024-03-01': [], '2024-03-02': [ids[2]], '2024-03-03': [] });
    expect(searched.body.field_options[table.name.id]).toEqual({ hidden: false, order: 32767 });
    expect(searched.body.row_metadata).toEqual({});
    const filtered = await t.request('GET', `${url}?from_timestamp=2024-03-01&to_timestamp=2024-03-04&filter__${n}__contains=2nd`, { token: user.token });
    expect(days(filtered.body)).toEqual({ '2024-03-01': [], '2024-03-02': [ids[1], ids[2]], '2024-03-03': [] });
  });

  it('groups a date field by its own date and a forced time zone field by its zone', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const ids = await addRows(user, table.tableId, [
      { [`field_${table.day.id}`]: '2024-05-10', [`field_${table.fixed.id}`]: '2024-05-10T16:00:00Z' }, // Tokyo: the 11th
      { [`field_${table.day.id}`]: '2024-05-12', [`field_${table.fixed.id}`]: '2024-05-11T02:00:00Z' },
    ]);
    const byDay = (await createCalendar(user, table.tableId, { date_field: table.day.id })).body;
    // A date field: `to`'s own date is in, the user's zone is ignored.
    const dated = await t.request('GET', `/api/database/views/calendar/${byDay.id}/?from_timestamp=2024-05-10T00:00:00Z&to_timestamp=2024-05-12T00:00:00Z&user_timezone=Pacific/Honolulu`, { token: user.token });
    expect(days(dated.body)).toEqual({ '2024-05-10': [ids[0]], '2024-05-11': [], '2024-05-12': [ids[1]] });
    const byFixed = (await createCalendar(user, table.tableId, { date_field: table.fixed.id })).body;
    const fixed = await t.request('GET', `/api/database/views/calendar/${byFixed.id}/?from_timestamp=2024-05-10T00:00:00Z&to_timestamp=2024-05-12T00:00:00Z&user_timezone=America/New_York`, { token: user.token });
    // Tokyo days: the range starts at 09:00 on the 10th and ends at 09:00 on the 12th.
    expect(days(fixed.body)).toEqual({ '2024-05-11': [ids[0], ids[1]], '2024-05-10': [], '2024-05-12': [] });
  });

  it("answers Baserow's errors for bad ranges, time zones, paging, a view without a date field and views of other types", async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const view = (await createCalendar(user, table.tableId, { date_field: table.when.id })).body;
    const url = `/api/database/views/calendar/${view.id}/`;
    const get = (query: string) => t.request('GET', `${url}?${query}`, { token: user.token });
    const missing = await get('');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: { from_timestamp: [{ error: 'This field is required.', code: 'required' }], to_timestamp: [{ error: 'This field is required.', code: 'required' }] },
    });
    const reversed = await get('from_timestamp=2024-03-05T00:00:00Z&to_timestamp=2024-03-01T00:00:00Z');
    expect(reversed.body).toEqual({ error: 'ERROR_QUERY_PARAMETER_VALIDATION', detail: { non_field_errors: [{ error: 'from_timestamp must occur before to_timestamp', code: 'invalid' }] } });
    const wide = await get('from_timestamp=2000-01-01T00:00:00Z&to_timestamp=2024-01-01T00:00:00Z');
    expect(wide.body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: { non_field_errors: [{ error: 'the number of days between from_timestamp and to_timestamp must be less than 45 days', code: 'invalid' }] },
    });
    // 45 whole days (and a bit) pass; 46 do not.
    expect((await get('from_timestamp=2024-01-01T00:00:00Z&to_timestamp=2024-02-15T23:00:00Z')).status).toBe(200);
    expect((await get('from_timestamp=2024-01-01T00:00:00Z&to_timestamp=2024-02-16T00:00:00Z')).status).toBe(400);
    const bad = await get('from_timestamp=yesterday&to_timestamp=2024-02-30T00:00:00Z&user_timezone=Mars/Olympus&limit=101&offset=-1');
    expect(bad.body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: {
        from_timestamp: [{ error: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].', code: 'invalid' }],
        to_timestamp: [{ error: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].', code: 'invalid' }],
        offset: [{ error: 'Ensure this value is greater than or equal to 0.', code: 'min_value' }],
        limit: [{ error: 'Ensure this value is less than or equal to 100.', code: 'max_value' }],
        user_timezone: [{ error: '"Mars/Olympus" is not a valid choice.', code: 'invalid_choice' }],
      },
    });
    for (const zone of ['+01:00', 'europe/amsterdam', '../../etc/passwd', '']) {
      const res = await get(`from_timestamp=2024-01-01&to_timestamp=2024-01-02&user_timezone=${encodeURIComponent(zone)}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toEqual({ user_timezone: [{ error: `"${zone}" is not a valid choice.`, code: 'invalid_choice' }] });
    }
    const noField = (await createCalendar(user, table.tableId, {})).body;
    const none = await t.request('GET', `/api/database/views/calendar/${noField.id}/?from_timestamp=2024-01-01&to_timestamp=2024-01-02`, { token: user.token });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'ERROR_CALENDAR_VIEW_HAS_NO_DATE_FIELD', detail: 'The requested calendar view does not have a date field.' });
    // A date field converted to text no longer holds dates: the listing refuses it.
    await t.request('PATCH', `/api/database/fields/${table.when.id}/`, { token: user.token, body: { type: 'text' } });
    const converted = await get('from_timestamp=2024-01-01&to_timestamp=2024-01-02');
    expect(converted.body.error).toBe('ERROR_CALENDAR_VIEW_HAS_NO_DATE_FIELD');
    const grid = (await t.request('GET', `/api/database/views/table/${table.tableId}/`, { token: user.token })).body[0];
    const notCalendar = await t.request('GET', `/api/database/views/calendar/${grid.id}/?from_timestamp=2024-01-01&to_timestamp=2024-01-02`, { token: user.token });
    expect(notCalendar.status).toBe(404);
    expect(notCalendar.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    const stranger = await signUp(t, 'Stranger');
    const foreign = await t.request('GET', `${url}?from_timestamp=2024-01-01&to_timestamp=2024-01-02`, { token: stranger.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('ERROR_USER_NOT_IN_GROUP');
  });

  it('shares a calendar publicly: visible fields only, saved filters AND the request’s, field options of visible fields', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const w = `field_${table.when.id}`;
    const n = `field_${table.name.id}`;
    const ids = await addRows(user, table.tableId, [
      { [n]: 'one', [w]: '2024-03-02T08:00:00Z', [`field_${table.note.id}`]: 'secret' },
      { [n]: 'two', [w]: '2024-03-02T09:00:00Z' },
      { [n]: 'hidden by filter', [w]: '2024-03-02T10:00:00Z' },
    ]);
    const view = (await createCalendar(user, table.tableId, { date_field: table.when.id, public: true })).body;
    await t.request('POST', `/api/database/views/${view.id}/filters/`, { token: user.token, body: { field: table.name.id, type: 'not_equal', value: 'hidden by filter' } });
    const url = `/api/database/views/calendar/${view.slug}/public/rows/?from_timestamp=2024-03-02T00:00:00Z&to_timestamp=2024-03-02T23:00:00Z`;
    const shared = await t.request('GET', `${url}&include=field_options,row_metadata`);
    expect(shared.status).toBe(200);
    expect(days(shared.body)).toEqual({ '2024-03-02': [ids[0], ids[1]] });
    // Only the visible name and the date field the days need; hidden Note never leaves.
    expect(Object.keys(shared.body.rows['2024-03-02'].results[0]).sort()).toEqual(['id', n, 'order', w].sort());
    expect(Object.keys(shared.body)).toEqual(['rows', 'field_options']);
    expect(Object.keys(shared.body.field_options).map(Number).sort()).toEqual([table.name.id, table.when.id].sort());
    const narrowed = await t.request('GET', `${url}&filter__${n}__equal=two`);
    expect(days(narrowed.body)).toEqual({ '2024-03-02': [ids[1]] });
    const hiddenFilter = await t.request('GET', `${url}&filter__field_${table.note.id}__equal=secret`);
    expect(hiddenFilter.status).toBe(400);
    const invalid = await t.request('GET', `/api/database/views/calendar/${view.slug}/public/rows/?from_timestamp=2024-03-05&to_timestamp=2024-03-01`);
    expect(invalid.body.error).toBe('ERROR_QUERY_PARAMETER_VALIDATION');
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { public: false } });
    const gone = await t.request('GET', url);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
  });

  it('serves the iCal feed of a public feed only, event by event, and rotates its slug', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const w = `field_${table.when.id}`;
    const n = `field_${table.name.id}`;
    const note = `field_${table.note.id}`;
    const ids = await addRows(user, table.tableId, [
      { [n]: 'Standup', [w]: '2024-03-02T08:00:00Z', [note]: 'daily' },
      { [n]: 'Review', [w]: '2024-03-01T15:30:00Z', [note]: 'weekly' },
      { [n]: 'No date' },
    ]);
    const view = (await createCalendar(user, table.tableId, { date_field: table.when.id })).body;
    await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { [table.note.id]: { hidden: false, order: 2 }, [table.name.id]: { order: 1 } } } });
    // Not public yet: there is no slug; once public, its URL serves the feed.
    const feedUrl = (await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { ical_public: true } })).body.ical_feed_url as string;
    const path = new URL(feedUrl).pathname;
    const feed = await t.request('GET', path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(feed.headers.get('cache-control')).toBe('max-age=1800');
    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Calendar');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    const events = calendar.getAllSubcomponents('vevent').map((component: any) => new ICAL.Event(component));
    const rowUrl = (id: number) => `http://localhost:8000/database/${view.table.database_id}/table/${table.tableId}/${view.id}/row/${id}`;
    // The view's order (no sorts: row order), rows without a date left out.
    expect(
      events.map((event: any) => ({ uid: event.uid, start: event.startDate.toJSDate().toISOString(), summary: event.summary, description: event.description, location: event.location })),
    ).toEqual([
      { uid: rowUrl(ids[0]), start: '2024-03-02T08:00:00.000Z', summary: 'Standup - daily', description: 'Standup - daily', location: rowUrl(ids[0]) },
      { uid: rowUrl(ids[1]), start: '2024-03-01T15:30:00.000Z', summary: 'Review - weekly', description: 'Review - weekly', location: rowUrl(ids[1]) },
    ]);
    // Anything but a public feed's slug is 404, as an unknown one.
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { ical_public: false } });
    const hidden = await t.request('GET', path);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'ERROR_VIEW_DOES_NOT_EXIST', detail: 'The requested view does not exist.' });
    expect((await t.request('GET', `/api/database/views/calendar/${view.slug}.ics`)).status).toBe(404);
    expect((await t.request('GET', '/api/database/views/calendar/unknown-slug.ics')).status).toBe(404);
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { ical_public: true } });
    const session = { ClientSessionId: 'calendar-session' };
    const rotated = await t.request('POST', `/api/database/views/calendar/${view.id}/ical_slug_rotate/`, { token: user.token, headers: session });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: view.id, type: 'calendar', ical_public: true });
    expect(rotated.body.ical_feed_url).not.toBe(feedUrl);
    expect((await t.request('GET', path)).status).toBe(404);
    expect((await t.request('GET', new URL(rotated.body.ical_feed_url).pathname)).status).toBe(200);
    // Undo puts the old slug back.
    const undo = await t.request('PATCH', '/api/user/undo/', { token: user.token, body: { scopes: { view: view.id } }, headers: session });
    expect(undo.status).toBe(200);
    expect(undo.body.actions).toEqual([{ action_type: 'rotate_calendar_ical_view_slug', action_scope: `view${view.id}` }]);
    expect((await t.request('GET', path)).status).toBe(200);
    const grid = (await t.request('GET', `/api/database/views/table/${table.tableId}/`, { token: user.token })).body[0];
    const notCalendar = await t.request('POST', `/api/database/views/calendar/${grid.id}/ical_slug_rotate/`, { token: user.token });
    expect(notCalendar.status).toBe(404);
    // A feed whose view lost its date field answers Baserow's 400.
    await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { date_field: null } });
    const noDate = await t.request('GET', path);
    expect(noDate.body).toEqual({ error: 'ERROR_CALENDAR_VIEW_HAS_NO_DATE_FIELD', detail: 'The requested calendar view does not have a date field.' });
  });

  it('writes all-day events for a date field, in the view sort order', async () => {
    const user = await signUp(t);
    const table = await calendarTable(user);
    const d = `field_${table.day.id}`;
    const n = `field_${table.name.id}`;
    await addRows(user, table.tableId, [
      { [n]: 'b', [d]: '2024-06-02' },
      { [n]: 'a', [d]: '2024-06-01' },
    ]);
    const view = (await createCalendar(user, table.tableId, { date_field: table.day.id, ical_public: true })).body;
    expect(view.ical_feed_url).toMatch(/\.ics$/);
    await t.request('POST', `/api/database/views/${view.id}/sortings/`, { token: user.token, body: { field: table.name.id, order: 'ASC' } });
    const feed = await t.request('GET', new URL(view.ical_feed_url).pathname);
    const events = new ICAL.Component(ICAL.parse(feed.text)).getAllSubcomponents('vevent').map((c: any) => new ICAL.Event(c));
    expect(events.map((e: any) => [e.summary, e.startDate.isDate, e.startDate.toString()])).toEqual([
      ['a', true, '2024-06-01'],
      ['b', true, '2024-06-02'],
    ]);
  });
});

describe('BASEROW_ICAL_VIEW_MAX_EVENTS', () => {
  let capped: TestApp;
  beforeAll(async () => {
    capped = await startApp({ BASEROW_ICAL_VIEW_MAX_EVENTS: '2' });
  });
  afterAll(async () => {
    await capped.close();
  });

  it('caps the events of a feed', async () => {
    const user = await signUp(capped);
    const tableId = await emptyTable(capped, user, await databaseOf(capped, user), 'Capped');
    const field = (await capped.request('POST', `/api/database/fields/table/${tableId}/`, { token: user.token, body: { name: 'When', type: 'date' } })).body;
    const items = ['2024-01-01', '2024-01-02', '2024-01-03'].map((day) => ({ [`field_${field.id}`]: day }));
    await capped.request('POST', `/api/database/rows/table/${tableId}/batch/`, { token: user.token, body: { items } });
    const view = (await capped.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Cal', type: 'calendar', date_field: field.id, ical_public: true } })).body;
    const feed = await capped.request('GET', new URL(view.ical_feed_url).pathname);
    const events = new ICAL.Component(ICAL.parse(feed.text)).getAllSubcomponents('vevent');
    expect(events.map((c: any) => new ICAL.Event(c).startDate.toString())).toEqual(['2024-01-01', '2024-01-02']);
  });
});
