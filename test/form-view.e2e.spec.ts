import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf, settleJob } from './support/fixtures';
import { connect, expectNone, WsClient } from './support/ws';

let t: TestApp;
const open: WsClient[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t.close();
});

const FORM_KEYS = [
  'id', 'table_id', 'name', 'order', 'type', 'table', 'filter_type', 'filters_disabled', 'public_view_has_password', 'show_logo',
  'allow_public_export', 'ownership_type', 'owned_by_id', 'title', 'description', 'mode', 'cover_image', 'logo_image', 'submit_text',
  'submit_action', 'submit_action_message', 'submit_action_redirect_url', 'receive_notification_on_submit', 'public', 'slug',
];

/** A table (Name, Notes, Active) with a number Age, a single select Color (Red, Blue) and a created_on field. */
async function newTable(user: SignedUp) {
  const res = await t.request('POST', `/api/database/tables/database/${await databaseOf(t, user)}/`, { token: user.token, body: { name: 'Survey' } });
  const tableId = res.body.id as number;
  const add = async (body: Record<string, unknown>) => (await t.request('POST', `/api/database/fields/table/${tableId}/`, { token: user.token, body })).body;
  const age = await add({ name: 'Age', type: 'number' });
  const color = await add({ name: 'Color', type: 'single_select', select_options: [{ value: 'Red', color: 'red' }, { value: 'Blue', color: 'blue' }] });
  const created = await add({ name: 'Created', type: 'created_on' });
  const fields = (await t.request('GET', `/api/database/fields/table/${tableId}/`, { token: user.token })).body as any[];
  const byName = (name: string) => fields.find((f) => f.name === name);
  return { id: tableId, name: fields.find((f) => f.primary), notes: byName('Notes'), active: byName('Active'), age, color, created };
}

async function newForm(user: SignedUp, tableId: number, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/api/database/views/table/${tableId}/`, { token: user.token, body: { name: 'Form', type: 'form', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function setOptions(user: SignedUp, viewId: number, options: Record<string, unknown>) {
  return t.request('PATCH', `/api/database/views/${viewId}/field-options/`, { token: user.token, body: { field_options: options } });
}

const submitUrl = (slug: string) => `/api/database/views/form/${slug}/submit/`;

describe('form settings', () => {
  it('creates a form with every setting and its defaults, receive_notification_on_submit per user', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await newForm(user, table.id);
    expect(Object.keys(form)).toEqual(FORM_KEYS);
    expect(form).toMatchObject({
      title: '', description: '', mode: 'form', cover_image: null, logo_image: null, submit_text: 'Submit', submit_action: 'MESSAGE',
      submit_action_message: '', submit_action_redirect_url: '', receive_notification_on_submit: false, public: false,
    });
    const updated = await t.request('PATCH', `/api/database/views/${form.id}/`, {
      token: user.token,
      body: { title: 'Tell us', mode: 'survey', submit_action: 'REDIRECT', submit_action_redirect_url: 'https://example.com/thanks?row={row_id}', receive_notification_on_submit: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Tell us', mode: 'survey', submit_action: 'REDIRECT', submit_action_redirect_url: 'https://example.com/thanks?row={row_id}', receive_notification_on_submit: true });
    const again = await t.request('GET', `/api/database/views/${form.id}/`, { token: user.token });
    expect(again.body.receive_notification_on_submit).toBe(true);
  });

  it("refuses Baserow's bad settings and writes nothing", async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await newForm(user, table.id);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ submit_action_redirect_url: 'not a url' }, { submit_action_redirect_url: [{ error: 'Enter a valid URL.', code: 'invalid' }] }],
      [{ cover_image: { name: 'nothing.png' } }, { cover_image: [{ error: 'The provided user file does not exist.', code: 'invalid_user_file' }] }],
      [{ logo_image: 'x' }, { logo_image: [{ error: 'The value must be an object containing the file name.', code: 'invalid_value' }] }],
      [{ mode: 'quiz' }, { mode: [{ error: '"quiz" is not a valid choice.', code: 'invalid_choice' }] }],
      [{ receive_notification_on_submit: 'yes' }, { non_field_errors: [{ error: 'The value must be a boolean indicating if the current user should be notified on submit or not.', code: 'invalid' }] }],
      [{ users_to_notify_on_submit: [99999999] }, { users_to_notify_on_submit: [{ error: 'Invalid pk "99999999" - object does not exist.', code: 'does_not_exist' }] }],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('PATCH', `/api/database/views/${form.id}/`, { token: user.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail });
    }
    const stranger = await signUp(t);
    const res = await t.request('PATCH', `/api/database/views/${form.id}/`, { token: user.token, body: { users_to_notify_on_submit: [stranger.id] } });
    expect(res.body.detail.users_to_notify_on_submit[0].code).toBe('does_not_exist');
    expect((await t.request('GET', `/api/database/views/${form.id}/`, { token: user.token })).body).toEqual(form);
  });

  it('has no filters, sorts or decorations, and is shareable', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await newForm(user, table.id, { public: true });
    expect(form.public).toBe(true);
    const options = (await t.request('GET', `/api/database/views/${form.id}/field-options/`, { token: user.token })).body.field_options;
    expect(options[table.age.id]).toEqual({
      name: '', description: '', enabled: false, required: true, show_when_matching_conditions: false, condition_type: 'AND', order: 32767,
      conditions: [], condition_groups: [], field_component: 'default', include_all_select_options: true, allowed_select_options: [],
    });
  });
});

describe('form field options', () => {
  it('keeps conditions and nested groups with ids, and drops groups left empty', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await newForm(user, table.id);
    const res = await setOptions(user, form.id, {
      [table.notes.id]: {
        enabled: true,
        show_when_matching_conditions: true,
        condition_type: 'OR',
        condition_groups: [{ id: -1, filter_type: 'AND' }, { id: -2, filter_type: 'OR', parent_group: -1 }, { id: -3, filter_type: 'AND' }],
        conditions: [
          { id: -10, field: table.name.id, type: 'equal', value: 'x' },
          { id: -11, field: table.age.id, type: 'higher_than', value: '3', group: -2 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const options = res.body.field_options[table.notes.id];
    const [outer, inner] = options.condition_groups;
    expect(options.condition_groups).toEqual([
      { id: expect.any(Number), filter_type: 'AND', parent_group: null },
      { id: expect.any(Number), filter_type: 'OR', parent_group: outer.id },
    ]);
    expect(options.conditions).toEqual([
      { id: expect.any(Number), field: table.name.id, type: 'equal', value: 'x', group: null },
      { id: expect.any(Number), field: table.age.id, type: 'higher_than', value: '3', group: inner.id },
    ]);
    // Sent again with their ids, they keep them.
    const again = await setOptions(user, form.id, { [table.notes.id]: { conditions: options.conditions, condition_groups: options.condition_groups } });
    expect(again.body.field_options[table.notes.id].conditions).toEqual(options.conditions);
    expect(again.body.field_options[table.notes.id].condition_groups).toEqual(options.condition_groups);
  });

  it("refuses conditions and groups as Baserow does, and read-only fields in the form", async () => {
    const user = await signUp(t);
    const other = await newTable(user);
    const table = await newTable(user);
    const form = await newForm(user, table.id);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ conditions: [{ id: 1, field: other.name.id, type: 'equal', value: '' }] }, 400, 'ERROR_FIELD_NOT_IN_TABLE'],
      [{ conditions: [{ id: 1, field: table.name.id, type: 'no_such_filter', value: '' }] }, 400, 'ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST'],
      [{ conditions: [{ id: 1, field: table.active.id, type: 'higher_than', value: '1' }] }, 400, 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD'],
      [{ conditions: [{ id: 1, field: table.name.id, type: 'equal', value: '', group: 77 }] }, 400, 'ERROR_FORM_VIEW_FIELD_OPTIONS_CONDITION_GROUP_DOES_NOT_EXIST'],
      [{ condition_groups: [{ id: 2, filter_type: 'AND', parent_group: 3 }, { id: 3, filter_type: 'AND' }] }, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      [{ conditions: [{ id: 1, field: table.name.id }] }, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
    ];
    const before = (await t.request('GET', `/api/database/views/${form.id}/field-options/`, { token: user.token })).body;
    for (const [options, status, code] of cases) {
      const res = await setOptions(user, form.id, { [table.notes.id]: options });
      expect([res.status, res.body.error]).toEqual([status, code]);
    }
    const readOnly = await setOptions(user, form.id, { [table.created.id]: { enabled: true } });
    expect(readOnly.status).toBe(400);
    expect(readOnly.body).toEqual({ error: 'ERROR_FORM_VIEW_READ_ONLY_FIELD_IS_NOT_SUPPORTED', detail: 'The Created field is read only and not compatible with the form view.' });
    expect((await t.request('GET', `/api/database/views/${form.id}/field-options/`, { token: user.token })).body).toEqual(before);
  });
});

describe('form duplication', () => {
  it("maps the conditions of a duplicated table's form to the copy's fields", async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await newForm(user, table.id);
    await setOptions(user, form.id, { [table.notes.id]: { enabled: true, show_when_matching_conditions: true, conditions: [{ id: 1, field: table.age.id, type: 'higher_than', value: '1' }] } });
    const job = await t.request('POST', `/api/database/tables/${table.id}/duplicate/async/`, { token: user.token });
    await settleJob(t, user.token, job.body.id);
    const copyId = (await t.request('GET', `/api/jobs/${job.body.id}/`, { token: user.token })).body.duplicated_table.id;
    const fields = (await t.request('GET', `/api/database/fields/table/${copyId}/`, { token: user.token })).body;
    const copyForm = (await t.request('GET', `/api/database/views/table/${copyId}/`, { token: user.token })).body.find((v: any) => v.type === 'form');
    const options = (await t.request('GET', `/api/database/views/${copyForm.id}/field-options/`, { token: user.token })).body.field_options;
    const notes = fields.find((f: any) => f.name === 'Notes');
    const age = fields.find((f: any) => f.name === 'Age');
    expect(options[notes.id].conditions).toEqual([{ id: expect.any(Number), field: age.id, type: 'higher_than', value: '1', group: null }]);
  });
});

describe('form submission', () => {
  async function preparedForm(user: SignedUp, table: Awaited<ReturnType<typeof newTable>>, body: Record<string, unknown> = {}) {
    const form = await newForm(user, table.id, { title: 'Hello', submit_action_message: 'Thanks!', ...body });
    const res = await setOptions(user, form.id, {
      [table.name.id]: { enabled: true, required: true, name: 'Your name', order: 1 },
      [table.age.id]: { enabled: true, required: false, order: 2 },
      [table.color.id]: { enabled: true, required: false, order: 3, include_all_select_options: false, allowed_select_options: [table.color.select_options[1].id] },
      [table.notes.id]: {
        enabled: true, required: true, order: 4, show_when_matching_conditions: true,
        conditions: [{ id: 1, field: table.age.id, type: 'higher_than', value: '17' }],
      },
      [table.created.id]: { enabled: false },
    });
    expect(res.status).toBe(200);
    return form;
  }

  it('shows members the form: enabled fields in order, public field properties, allowed select options only', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await preparedForm(user, table);
    const res = await t.request('GET', submitUrl(form.slug), { token: user.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['title', 'description', 'mode', 'cover_image', 'logo_image', 'submit_text', 'fields', 'show_logo', 'allow_public_export']);
    expect(res.body.title).toBe('Hello');
    expect(res.body.fields.map((f: any) => f.field.id)).toEqual([table.name.id, table.age.id, table.color.id, table.notes.id]);
    const [name, age, color, notes] = res.body.fields;
    expect(Object.keys(name)).toEqual([
      'name', 'description', 'required', 'order', 'field', 'show_when_matching_conditions', 'condition_type', 'conditions', 'condition_groups', 'groups', 'field_component',
    ]);
    expect(name).toMatchObject({ name: 'Your name', required: true, order: 1 });
    expect(name.field).toEqual({ id: table.name.id, name: table.name.name, type: 'text', text_default: '' });
    expect(age.name).toBe('Age');
    expect(color.field.select_options).toEqual([table.color.select_options[1]]);
    expect(notes.conditions).toEqual([{ id: expect.any(Number), field: table.age.id, type: 'higher_than', value: '17', group: null }]);
  });

  it('creates the row with its rows_created message and row history, answering the submit action', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await preparedForm(user, table, { submit_action: 'REDIRECT', submit_action_redirect_url: 'https://example.com/?id={row_id}' });
    const client = await connect(t, user.token);
    open.push(client);
    client.send({ page: 'table', table_id: table.id });
    await client.waitFor('page_add');
    const res = await t.request('POST', submitUrl(form.slug), {
      token: user.token,
      body: { [`field_${table.name.id}`]: 'Ann', [`field_${table.age.id}`]: 30, [`field_${table.notes.id}`]: 'adult', [`field_${table.created.id}`]: 'ignored', unknown: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ submit_action: 'REDIRECT', submit_action_message: 'Thanks!', submit_action_redirect_url: 'https://example.com/?id={row_id}', row_id: expect.any(Number) });
    const message = await client.waitFor('rows_created');
    expect(message.table_id).toBe(table.id);
    expect(message.rows[0]).toMatchObject({ id: res.body.row_id, [`field_${table.name.id}`]: 'Ann', [`field_${table.age.id}`]: '30', [`field_${table.notes.id}`]: 'adult' });
    const history = await t.request('GET', `/api/database/rows/table/${table.id}/${res.body.row_id}/history/`, { token: user.token });
    expect(history.body.results).toHaveLength(1);
    expect(history.body.results[0].action_type).toBe('create_row');
  });

  it('enforces required fields, ignores a conditional field whose conditions do not match, and requires it when they do', async () => {
    const user = await signUp(t);
    const table = await newTable(user);
    const form = await preparedForm(user, table);
    const name = `field_${table.name.id}`;
    const notes = `field_${table.notes.id}`;
    const age = `field_${table.age.id}`;
    const count = async () => (await t.request('GET', `/api/database/rows/table/${table.id}/`, { token: user.token })).body.count;
    const initial = await count();
    for (const body of [{}, { [name]: '' }, { [name]: null }]) {
      const res = await t.request('POST', submitUrl(form.slug), { token: user.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { [name]: [{ error: 'This field is required.', code: 'required' }] } });
    }
    const adultWithoutNotes = await t.request('POST', submitUrl(form.slug), { token: user.token, body: { [name]: 'Bo', [age]: 40 } });
    expect(adultWithoutNotes.status).toBe(400);
    expect(adultWithoutNotes.body.detail).toEqual({ [notes]: [{ error: 'This field is required.', code: 'required' }] });
    const badAge = await t.request('POST', submitUrl(form.slug), { token: user.token, body: { [name]: 'Bo', [age]: 'old' } });
    expect(badAge.status).toBe(400);
    expect(Object.keys(badAge.body.detail)).toEqual([age]);
    const notAllowed = await t.request('POST', submitUrl(form.slug), { token: user.token, body: { [name]: 'Bo', [`field_${table.color.id}`]: table.color.select_options[0].id } });
    expect(notAllowed.body.detail).toEqual({ [`field_${table.color.id}`]: [{ error: `The provided select option ${table.color.select_options[0].id} is not allowed.`, code: 'invalid' }] });
    expect(await count()).toBe(initial);
    const child = await t.request('POST', submitUrl(form.slug), { token: user.token, body: { [name]: 'Cy', [age]: 10, [notes]: 'hidden' } });
    expect(child.status).toBe(200);
    const row = await t.request('GET', `/api/database/rows/table/${table.id}/${child.body.row_id}/`, { token: user.token });
    expect(row.body[notes]).toBeNull();
    expect(row.body[name]).toBe('Cy');
    expect(await count()).toBe(initial + 1);
  });

  it('lets anyone use a public form, refuses a private one as missing and a password-protected one with 401', async () => {
    const user = await signUp(t);
    const stranger = await signUp(t);
    const table = await newTable(user);
    const form = await preparedForm(user, table);
    const member = await connect(t, user.token);
    open.push(member);
    member.send({ page: 'table', table_id: table.id });
    await member.waitFor('page_add');
    const body = { [`field_${table.name.id}`]: 'Anon' };
    for (const token of [undefined, stranger.token]) {
      for (const method of ['GET', 'POST']) {
        const res = await t.request(method, submitUrl(form.slug), { token, body: method === 'POST' ? body : undefined });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'ERROR_FORM_DOES_NOT_EXIST', detail: 'The requested form does not exist.' });
      }
    }
    await expectNone(member);
    await t.request('PATCH', `/api/database/views/${form.id}/`, { token: user.token, body: { public: true } });
    expect((await t.request('GET', submitUrl(form.slug))).status).toBe(200);
    const anonymous = await t.request('POST', submitUrl(form.slug), { body });
    expect(anonymous.status).toBe(200);
    const message = await member.waitFor('rows_created');
    expect(message.rows[0]).toMatchObject({ id: anonymous.body.row_id, [`field_${table.name.id}`]: 'Anon' });
    await t.request('PATCH', `/api/database/views/${form.id}/`, { token: user.token, body: { public_view_password: 'secret-password' } });
    const locked = await t.request('POST', submitUrl(form.slug), { body });
    expect(locked.status).toBe(401);
    expect(locked.body.error).toBe('ERROR_NO_PERMISSION_TO_PUBLICLY_SHARED_FORM');
    expect((await t.request('GET', submitUrl(form.slug), { token: user.token })).status).toBe(200);
    const badJwt = await t.request('GET', submitUrl(form.slug), { headers: { Authorization: 'JWT nonsense' } });
    expect(badJwt.status).toBe(401);
    const grid = (await t.request('GET', `/api/database/views/table/${table.id}/`, { token: user.token })).body[0];
    const notForm = await t.request('GET', submitUrl(grid.slug), { token: user.token });
    expect(notForm.body.error).toBe('ERROR_FORM_DOES_NOT_EXIST');
  });
});
