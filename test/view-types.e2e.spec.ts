import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf, settleJob } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t.close();
});

/** A new table (Name, Notes, Active) with a single select Status (Todo, Done) and a fourth field. */
async function newTable(user: SignedUp, name = 'Things') {
  const res = await t.request('POST', `/api/database/tables/database/${await databaseOf(t, user)}/`, { token: user.token, body: { name } });
  expect(res.status).toBe(200);
  const status = await t.request('POST', `/api/database/fields/table/${res.body.id}/`, {
    token: user.token,
    body: { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] },
  });
  expect(status.status).toBe(200);
  const fields = (await t.request('GET', `/api/database/fields/table/${res.body.id}/`, { token: user.token })).body;
  const [todo, done] = status.body.select_options;
  return { id: res.body.id as number, fields: fields as any[], status: status.body, todo: todo.id as number, done: done.id as number };
}

async function createView(user: SignedUp, tableId: number, body: Record<string, unknown>) {
  return t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body });
}

async function addRow(user: SignedUp, tableId: number, body: Record<string, unknown>): Promise<number> {
  const res = await t.request('POST', `/api/database/rows/table/${tableId}/`, { token: user.token, body });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('gallery views', () => {
  it('creates a gallery with card_cover_image_field null and the first three fields visible (primary first, then by id)', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const res = await createView(user, table.id, { name: 'Cards', type: 'gallery' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'gallery', card_cover_image_field: null, public: false });
    expect(Object.keys(res.body).slice(-3)).toEqual(['card_cover_image_field', 'public', 'slug']);
    const options = (await t.request('GET', `/api/database/views/${res.body.id}/field-options/`, { token: user.token })).body.field_options;
    const ids = table.fields.map((f) => f.id).sort((a, b) => a - b);
    expect(Object.keys(options).map(Number)).toEqual(ids);
    const visible = ids.filter((id) => options[id].hidden === false);
    expect(visible).toEqual(ids.slice(0, 3));
    expect(options[ids[3]]).toEqual({ hidden: true, order: 32767 });
  });

  it('refuses a card cover field that is no file field, as Baserow does', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const nonFile = await createView(user, table.id, { name: 'Cards', type: 'gallery', card_cover_image_field: table.fields[0].id });
    expect(nonFile.status).toBe(400);
    expect(nonFile.body).toEqual({ error: 'ERROR_INCOMPATIBLE_FIELD', detail: 'The provided field is not compatible.' });
    const missing = await createView(user, table.id, { name: 'Cards', type: 'gallery', card_cover_image_field: 99999999 });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toEqual({ card_cover_image_field: [{ error: 'Invalid pk "99999999" - object does not exist.', code: 'does_not_exist' }] });
    const wrongType = await createView(user, table.id, { name: 'Cards', type: 'gallery', card_cover_image_field: 'abc' });
    expect(wrongType.body.detail).toEqual({ card_cover_image_field: [{ error: 'Incorrect type. Expected pk value, received str.', code: 'incorrect_type' }] });
    const views = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body;
    expect(views.map((v: any) => v.type)).toEqual(['grid']);
  });

  it('lists rows with limit/offset only, count, search, order_by, field options and row metadata', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const name = table.fields.find((f) => f.primary);
    for (const value of ['apple', 'banana', 'cherry']) await addRow(user, table.id, { [`field_${name.id}`]: value });
    const view = (await createView(user, table.id, { name: 'Cards', type: 'gallery' })).body;
    const url = `/api/database/views/gallery/${view.id}/`;
    const all = await t.request('GET', url, { token: user.token });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(all.body.count).toBe(5);
    const page = await t.request('GET', `${url}?limit=2&offset=1&page=3&size=1&order_by=-field_${name.id}&include=field_options,row_metadata`, { token: user.token });
    expect(page.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['banana', 'apple']);
    expect(page.body.next).toContain('limit=2&offset=3');
    expect(page.body.previous).toContain('limit=2');
    expect(Object.keys(page.body.field_options)).toHaveLength(table.fields.length);
    expect(page.body.row_metadata).toEqual({});
    const count = await t.request('GET', `${url}?count&search=an`, { token: user.token });
    expect(count.body).toEqual({ count: 1 });
    const filtered = await t.request('GET', `${url}?filter__field_${name.id}__equal=cherry`, { token: user.token });
    expect(filtered.body.results.map((r: any) => r[`field_${name.id}`])).toEqual(['cherry']);
  });

  it('answers 404 ERROR_GALLERY_DOES_NOT_EXIST for a missing view or a view of another type, 400 for a stranger', async () => {
    const user = await signUp(t);
    const stranger = await signUp(t);
    const table = await newTable(user);
    const grid = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body[0];
    const gallery = (await createView(user, table.id, { name: 'Cards', type: 'gallery' })).body;
    for (const id of [grid.id, 99999999]) {
      const res = await t.request('GET', `/api/database/views/gallery/${id}/`, { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'ERROR_GALLERY_DOES_NOT_EXIST', detail: 'The requested gallery view does not exist.' });
    }
    const gridOfGallery = await t.request('GET', `/api/database/views/grid/${gallery.id}/`, { token: user.token });
    expect(gridOfGallery.body.error).toBe('ERROR_GRID_DOES_NOT_EXIST');
    const res = await t.request('GET', `/api/database/views/gallery/${gallery.id}/`, { token: stranger.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_USER_NOT_IN_GROUP');
  });

  it('keeps hidden and order as field options and refuses grid options', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const view = (await createView(user, table.id, { name: 'Cards', type: 'gallery' })).body;
    const field = table.fields[3].id;
    const res = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { [field]: { hidden: false, order: 2 } } } });
    expect(res.status).toBe(200);
    expect(res.body.field_options[field]).toEqual({ hidden: false, order: 2 });
    const bad = await t.request('PATCH', `/api/database/views/${view.id}/field-options/`, { token: user.token, body: { field_options: { [field]: { hidden: 'maybe' } } } });
    expect(bad.status).toBe(400);
  });
});

describe('kanban views', () => {
  it('creates a kanban on a single select field of its table with the first three fields visible', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const res = await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'kanban', single_select_field: table.status.id, card_cover_image_field: null, public: false });
    const options = (await t.request('GET', `/api/database/views/${res.body.id}/field-options/`, { token: user.token })).body.field_options;
    const ids = table.fields.map((f) => f.id).sort((a, b) => a - b);
    expect(ids.filter((id) => !options[id].hidden)).toEqual(ids.slice(0, 3));
    const none = await createView(user, table.id, { name: 'Empty board', type: 'kanban' });
    expect(none.body.single_select_field).toBeNull();
  });

  it('shows the primary field first among the three, as Baserow’s view_created orders them (-primary, id)', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const primary = await t.request('POST', `/api/database/fields/table/${table.id}/change-primary-field/`, { token: user.token, body: { new_primary_field_id: table.status.id } });
    expect(primary.status).toBe(200);
    const res = await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id });
    const options = (await t.request('GET', `/api/database/views/${res.body.id}/field-options/`, { token: user.token })).body.field_options;
    const others = table.fields.map((f) => f.id).filter((id) => id !== table.status.id).sort((a, b) => a - b);
    const visible = Object.keys(options).map(Number).filter((id) => options[id].hidden === false).sort((a, b) => a - b);
    expect(visible).toEqual([...others.slice(0, 2), table.status.id].sort((a, b) => a - b));
  });

  it("refuses a field that is no single select, and another table's single select", async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const other = await newTable(user, 'Other');
    const text = await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.fields[0].id });
    expect(text.status).toBe(400);
    expect(text.body.detail).toEqual({ single_select_field: [{ error: `Invalid pk "${table.fields[0].id}" - object does not exist.`, code: 'does_not_exist' }] });
    const foreign = await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: other.status.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      error: 'ERROR_KANBAN_VIEW_FIELD_DOES_NOT_BELONG_TO_SAME_TABLE',
      detail: 'The provided single select field does not belong to the same table.',
    });
    const cover = await createView(user, table.id, { name: 'Board', type: 'kanban', card_cover_image_field: table.fields[0].id });
    expect(cover.body.detail).toEqual({ card_cover_image_field: [{ error: `Invalid pk "${table.fields[0].id}" - object does not exist.`, code: 'does_not_exist' }] });
    // Another user's single select is as missing as no field at all.
    const stranger = await signUp(t);
    const theirs = await newTable(stranger, 'Theirs');
    const hidden = await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: theirs.status.id });
    expect(hidden.body.detail.single_select_field[0].code).toBe('does_not_exist');
    const views = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body;
    expect(views.map((v: any) => v.type)).toEqual(['grid']);
  });

  it('lists rows per option with the null column, default and per-option limits and offsets', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const key = `field_${table.status.id}`;
    const todo: number[] = [];
    for (let i = 0; i < 3; i++) todo.push(await addRow(user, table.id, { [key]: table.todo }));
    const done = await addRow(user, table.id, { [key]: table.done });
    const view = (await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id })).body;
    const url = `/api/database/views/kanban/${view.id}/`;
    const all = await t.request('GET', url, { token: user.token });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['rows']);
    expect(all.body.rows.null.count).toBe(2);
    expect(all.body.rows[table.todo].count).toBe(3);
    expect(all.body.rows[table.todo].results.map((r: any) => r.id)).toEqual(todo);
    expect(all.body.rows[table.done]).toEqual({ count: 1, results: [expect.objectContaining({ id: done, [key]: { id: table.done, value: 'Done', color: 'green' } })] });
    const limited = await t.request('GET', `${url}?limit=1&offset=1`, { token: user.token });
    expect(limited.body.rows[table.todo]).toEqual({ count: 3, results: [expect.objectContaining({ id: todo[1] })] });
    expect(limited.body.rows[table.done].results).toEqual([]);
    const some = await t.request('GET', `${url}?select_option=${table.todo},2,1&select_option=null&include=field_options,row_metadata`, { token: user.token });
    expect(Object.keys(some.body.rows).sort()).toEqual([String(table.todo), 'null'].sort());
    expect(some.body.rows[table.todo].results.map((r: any) => r.id)).toEqual(todo.slice(1, 3));
    expect(some.body.rows.null.results).toHaveLength(2);
    expect(Object.keys(some.body.field_options)).toHaveLength(table.fields.length);
    expect(some.body.row_metadata).toEqual({});
    const ignored = await t.request('GET', `${url}?limit=abc&offset=x`, { token: user.token });
    expect(ignored.body.rows[table.todo].results).toHaveLength(3);
  });

  it("answers Baserow's errors: bad select_option, no single select field, not a kanban", async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const view = (await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id })).body;
    const bad = await t.request('GET', `/api/database/views/kanban/${view.id}/?select_option=${table.todo},x`, { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'ERROR_INVALID_SELECT_OPTION_PARAMETER',
      detail: `The provided select option parameter ${table.todo} is invalid. The following structure is expected ?select_option=id,limit,offset (e.g. ?select_option=1,2,3).`,
    });
    const empty = (await createView(user, table.id, { name: 'Empty', type: 'kanban' })).body;
    const none = await t.request('GET', `/api/database/views/kanban/${empty.id}/`, { token: user.token });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'ERROR_KANBAN_VIEW_HAS_NO_SINGLE_SELECT_FIELD', detail: 'The requested kanban view does not have a single select option field.' });
    const grid = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body[0];
    const notKanban = await t.request('GET', `/api/database/views/kanban/${grid.id}/`, { token: user.token });
    expect(notKanban.status).toBe(404);
    expect(notKanban.body).toEqual({ error: 'ERROR_KANBAN_DOES_NOT_EXIST', detail: 'The requested kanban view does not exist.' });
  });

  it('loses its single select field when the field is converted or deleted', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const view = (await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id })).body;
    const converted = await t.request('PATCH', `/api/database/fields/${table.status.id}/`, { token: user.token, body: { type: 'text' } });
    expect(converted.status).toBe(200);
    expect((await t.request('GET', `/api/database/views/${view.id}/`, { token: user.token })).body.single_select_field).toBeNull();

    const second = await t.request('POST', `/api/database/fields/table/${table.id}/`, { token: user.token, body: { name: 'Stage', type: 'single_select' } });
    const updated = await t.request('PATCH', `/api/database/views/${view.id}/`, { token: user.token, body: { single_select_field: second.body.id } });
    expect(updated.body.single_select_field).toBe(second.body.id);
    expect((await t.request('DELETE', `/api/database/fields/${second.body.id}/`, { token: user.token })).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/${view.id}/`, { token: user.token })).body.single_select_field).toBeNull();
    const rows = await t.request('GET', `/api/database/views/kanban/${view.id}/`, { token: user.token });
    expect(rows.body.error).toBe('ERROR_KANBAN_VIEW_HAS_NO_SINGLE_SELECT_FIELD');
  });

  it("keeps naming its table's single select field in a duplicated table, and a gallery its visible fields", async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    await createView(user, table.id, { name: 'Board', type: 'kanban', single_select_field: table.status.id });
    await createView(user, table.id, { name: 'Cards', type: 'gallery' });
    const job = await t.request('POST', `/api/database/tables/${table.id}/duplicate/async/`, { token: user.token });
    await settleJob(t, user.token, job.body.id);
    const copyId = (await t.request('GET', `/api/jobs/${job.body.id}/`, { token: user.token })).body.duplicated_table.id;
    const copyFields = (await t.request('GET', `/api/database/fields/table/${copyId}/`, { token: user.token })).body;
    const copyStatus = copyFields.find((f: any) => f.name === 'Status');
    const views = (await t.request('GET', `/api/database/views/table/${copyId}/`, { token: user.token })).body;
    const board = views.find((v: any) => v.type === 'kanban');
    expect(board.single_select_field).toBe(copyStatus.id);
    const rows = await t.request('GET', `/api/database/views/kanban/${board.id}/`, { token: user.token });
    expect(rows.status).toBe(200);
    const cards = views.find((v: any) => v.type === 'gallery');
    const options = (await t.request('GET', `/api/database/views/${cards.id}/field-options/`, { token: user.token })).body.field_options;
    const ids = copyFields.map((f: any) => f.id).sort((a: number, b: number) => a - b);
    expect(ids.filter((id: number) => !options[id].hidden)).toEqual(ids.slice(0, 3));
  });
});
