import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { addMember, settleJob } from './support/fixtures';
import { connect, expectNone, WsClient } from './support/ws';

/** View decorations (§8.7, realtime §4.9): CRUD, conf validation, messages, field changes, duplication. */
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

interface Setup {
  owner: SignedUp;
  tableId: number;
  viewId: number;
  name: number;
  notes: number;
  single: number;
  options: number[];
}

async function ok(user: SignedUp, method: string, path: string, body?: unknown): Promise<any> {
  const res = await t.request(method, path, { token: user.token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function workspaceOf(user: SignedUp): Promise<number> {
  return (await ok(user, 'GET', '/api/workspaces/'))[0].id;
}

/** A new table with a single select (Red, Blue) besides the example fields, and its grid view. */
async function setup(owner?: SignedUp): Promise<Setup> {
  owner = owner ?? (await signUp(t, 'Owner'));
  const apps = await ok(owner, 'GET', '/api/applications/');
  const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
  const table = await ok(owner, 'POST', `/api/database/tables/database/${databaseId}/`, { name: 'Decorated' });
  const fields = await ok(owner, 'GET', `/api/database/fields/table/${table.id}/`);
  const single = await ok(owner, 'POST', `/api/database/fields/table/${table.id}/`, {
    name: 'Status',
    type: 'single_select',
    select_options: [{ value: 'Red', color: 'red' }, { value: 'Blue', color: 'blue' }],
  });
  const [view] = await ok(owner, 'GET', `/api/database/views/table/${table.id}/`);
  return {
    owner,
    tableId: table.id,
    viewId: view.id,
    name: fields[0].id,
    notes: fields[1].id,
    single: single.id,
    options: single.select_options.map((o: { id: number }) => o.id),
  };
}

async function socket(token: string, tableId?: number): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  if (tableId !== undefined) {
    client.send({ page: 'table', table_id: tableId });
    await client.waitFor('page_add');
  }
  return client;
}

function create(s: Setup, body: unknown, headers: Record<string, string> = {}) {
  return t.request('POST', `/api/database/views/${s.viewId}/decorations/`, { token: s.owner.token, body, headers });
}

async function decorations(s: Setup): Promise<any[]> {
  return ok(s.owner, 'GET', `/api/database/views/${s.viewId}/decorations/`);
}

/** Polls until `check` holds (confs follow field changes after the field's transaction commits). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !check(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

describe('decoration CRUD', () => {
  it('creates, lists, reads, updates and deletes decorations, last by default', async () => {
    const s = await setup();
    const first = await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(Number),
      view: s.viewId,
      type: 'left_border_color',
      value_provider_type: 'single_select_color',
      value_provider_conf: { field_id: s.single },
      order: 1,
    });
    const second = await create(s, { type: 'background_color' });
    expect(second.body).toMatchObject({ type: 'background_color', value_provider_type: '', value_provider_conf: {}, order: 2 });
    const placed = await create(s, { type: 'background_color', order: 0 });
    expect(placed.body.order).toBe(0);
    expect((await decorations(s)).map((d) => d.id)).toEqual([placed.body.id, first.body.id, second.body.id]);

    const one = await ok(s.owner, 'GET', `/api/database/views/decoration/${first.body.id}/`);
    expect(one).toEqual(first.body);

    const patched = await t.request('PATCH', `/api/database/views/decoration/${second.body.id}/`, {
      token: s.owner.token,
      body: { value_provider_type: 'single_select_color', value_provider_conf: { field_id: null }, order: 7 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...second.body, value_provider_type: 'single_select_color', value_provider_conf: { field_id: null }, order: 7 });
    // A type change alone keeps the provider and its conf.
    const retyped = await ok(s.owner, 'PATCH', `/api/database/views/decoration/${second.body.id}/`, { type: 'left_border_color' });
    expect(retyped).toEqual({ ...patched.body, type: 'left_border_color' });

    const view = await ok(s.owner, 'GET', `/api/database/views/${s.viewId}/?include=decorations`);
    expect(view.decorations).toEqual([placed.body, first.body, retyped]);
    const listed = await ok(s.owner, 'GET', `/api/database/views/table/${s.tableId}/?include=decorations`);
    expect(listed[0].decorations).toEqual(view.decorations);
    expect((await ok(s.owner, 'GET', `/api/database/views/${s.viewId}/`)).decorations).toBeUndefined();

    const deleted = await t.request('DELETE', `/api/database/views/decoration/${placed.body.id}/`, { token: s.owner.token });
    expect(deleted.status).toBe(204);
    const gone = await t.request('GET', `/api/database/views/decoration/${placed.body.id}/`, { token: s.owner.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'ERROR_VIEW_DECORATION_DOES_NOT_EXIST', detail: 'The view decoration does not exist.' });
    expect((await decorations(s)).map((d) => d.id)).toEqual([first.body.id, second.body.id]);
  });

  it('keeps conditional colours as Baserow stores them (defaults set, unknown keys dropped)', async () => {
    const s = await setup();
    const res = await create(s, {
      type: 'background_color',
      value_provider_type: 'conditional_color',
      value_provider_conf: {
        colors: [
          {
            id: 1,
            color: 'red',
            extra: true,
            filters: [
              { id: 'f1', field: s.notes, type: 'contains', value: 'urgent', group: 'g1' },
              { id: 'f2', field: s.single, type: 'single_select_equal', value: String(s.options[0]) },
              { id: 'f3', field: null, type: null },
            ],
            filter_groups: [{ id: 'g1' }, { id: 'g2', filter_type: 'OR', parent_group: 'g1' }],
          },
          { id: 'c2', color: 'blue', operator: 'OR', filters: [] },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.value_provider_conf).toEqual({
      colors: [
        {
          id: '1',
          color: 'red',
          filters: [
            { id: 'f1', field: s.notes, type: 'contains', value: 'urgent', group: 'g1' },
            { id: 'f2', field: s.single, type: 'single_select_equal', value: String(s.options[0]) },
            { id: 'f3', field: null, type: null, value: '' },
          ],
          filter_groups: [
            { id: 'g1', filter_type: 'AND' },
            { id: 'g2', filter_type: 'OR', parent_group: 'g1' },
          ],
          operator: 'AND',
        },
        { id: 'c2', color: 'blue', filters: [], operator: 'OR' },
      ],
    });
  });
});

describe('bad input', () => {
  it('answers each error and writes nothing', async () => {
    const s = await setup();
    const other = await setup(s.owner);
    const outsider = await signUp(t, 'Outsider');
    const cases: [unknown, number, unknown][] = [
      [{}, 400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { type: [{ error: 'This field is required.', code: 'required' }] } }],
      [{ type: 'sparkles' }, 400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { type: [{ error: '"sparkles" is not a valid choice.', code: 'invalid_choice' }] } }],
      [
        { type: 'background_color', value_provider_type: 'rainbow' },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_type: [{ error: '"rainbow" is not a valid choice.', code: 'invalid_choice' }] } },
      ],
      [
        { type: 'background_color', value_provider_conf: { field_id: 1 } },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: [{ error: 'This field should be an empty object.', code: 'invalid' }] } },
      ],
      [
        { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: [] },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: [{ error: 'Expected a dictionary of items but got type "list".', code: 'not_a_dict' }] } },
      ],
      [
        { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: {} },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: { field_id: [{ error: 'This field is required.', code: 'required' }] } } },
      ],
      [
        { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: 99999 } },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: { field_id: [{ error: 'The field 99999 does not exist.', code: 'does_not_exist' }] } } },
      ],
      [
        { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: other.single } },
        400,
        { error: 'ERROR_FIELD_NOT_IN_TABLE', detail: 'The provided field does not belong in the related table.' },
      ],
      [
        { type: 'background_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.notes } },
        400,
        { error: 'ERROR_INCOMPATIBLE_FIELD', detail: 'The provided field is not compatible with the value provider.' },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'a', color: 'red', filters: [{ id: 'f', field: s.notes, type: 'higher_than', value: '1' }] }] } },
        400,
        { error: 'ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD', detail: 'The filter higher_than is not compatible with field type long_text.' },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'a', color: 'red', filters: [{ id: 'f', field: other.notes, type: 'contains' }] }] } },
        400,
        { error: 'ERROR_FIELD_NOT_IN_TABLE', detail: 'The provided field does not belong in the related table.' },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'a', color: 'red', filters: [{ id: 'f', field: s.notes, type: 'glitter' }] }, 'x'] } },
        400,
        {
          error: 'ERROR_REQUEST_BODY_VALIDATION',
          detail: {
            value_provider_conf: {
              colors: {
                '0': { filters: { '0': { type: [{ error: '"glitter" is not a valid choice.', code: 'invalid_choice' }] } } },
                '1': { non_field_errors: [{ error: 'Invalid data. Expected a dictionary, but got str.', code: 'invalid' }] },
              },
            },
          },
        },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'a', color: 'red', filters: [{ id: 'f', field: null, type: null, group: 'nope' }] }] } },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: { colors: { '0': { non_field_errors: [{ error: 'Filter references a non-existent group.', code: 'invalid' }] } } } } },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'a', color: 'red', filters: [], filter_groups: [{ id: 'g', parent_group: 'h' }] }] } },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: { colors: { '0': { non_field_errors: [{ error: 'Filter group references a non-existent parent group.', code: 'invalid' }] } } } } },
      ],
      [
        { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: {} },
        400,
        { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { value_provider_conf: { colors: [{ error: 'This field is required.', code: 'required' }] } } },
      ],
      [{ type: 'background_color', order: 40000 }, 400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { order: [{ error: 'Ensure this value is less than or equal to 32767.', code: 'max_value' }] } }],
    ];
    for (const [body, status, answer] of cases) {
      const res = await create(s, body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status, answer });
    }
    expect(await decorations(s)).toEqual([]);

    const existing = (await create(s, { type: 'background_color' })).body;
    const badPatch = await t.request('PATCH', `/api/database/views/decoration/${existing.id}/`, {
      token: s.owner.token,
      body: { value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.name } },
    });
    expect(badPatch.body.error).toBe('ERROR_INCOMPATIBLE_FIELD');
    expect(await decorations(s)).toEqual([existing]);

    const notFound = await t.request('POST', '/api/database/views/99999/decorations/', { token: s.owner.token, body: { type: 'background_color' } });
    expect([notFound.status, notFound.body.error]).toEqual([404, 'ERROR_VIEW_DOES_NOT_EXIST']);
    for (const [method, path] of [
      ['GET', `/api/database/views/${s.viewId}/decorations/`],
      ['POST', `/api/database/views/${s.viewId}/decorations/`],
      ['GET', `/api/database/views/decoration/${existing.id}/`],
      ['PATCH', `/api/database/views/decoration/${existing.id}/`],
      ['DELETE', `/api/database/views/decoration/${existing.id}/`],
    ]) {
      const res = await t.request(method, path, { token: outsider.token, body: ['POST', 'PATCH'].includes(method) ? { type: 'left_border_color' } : undefined });
      expect({ path, method, status: res.status, body: res.body }).toEqual({ path, method, status: 400, body: { error: 'ERROR_USER_NOT_IN_GROUP', detail: '' } });
    }
    expect(await decorations(s)).toEqual([existing]);
  });
});

describe('real time', () => {
  it('sends view_decoration_created/updated/deleted to the table page without the origin', async () => {
    const s = await setup();
    const member = await signUp(t, 'Member');
    const outsider = await signUp(t, 'Outsider');
    await addMember(t, s.owner, member, await workspaceOf(s.owner));
    const origin = await socket(s.owner.token, s.tableId);
    const other = await socket(member.token, s.tableId);
    const stranger = await socket(outsider.token);
    const elsewhere = await socket(member.token);

    const created = (await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } }, origin.origin)).body;
    expect(await other.waitFor('view_decoration_created')).toEqual({ type: 'view_decoration_created', view_decoration: created });

    const updated = await t.request('PATCH', `/api/database/views/decoration/${created.id}/`, { token: s.owner.token, body: { type: 'background_color' }, headers: origin.origin });
    expect(await other.waitFor('view_decoration_updated')).toEqual({ type: 'view_decoration_updated', view_decoration_id: created.id, view_decoration: updated.body });

    await t.request('DELETE', `/api/database/views/decoration/${created.id}/`, { token: s.owner.token, headers: origin.origin });
    expect(await other.waitFor('view_decoration_deleted')).toEqual({ type: 'view_decoration_deleted', view_id: s.viewId, view_decoration_id: created.id });
    await expectNone(origin, stranger, elsewhere, other);
  });
});

describe('confs follow their fields', () => {
  it('unsets single_select_color and drops conditions when a field is deleted or changes type', async () => {
    const s = await setup();
    const member = await signUp(t, 'Member');
    await addMember(t, s.owner, member, await workspaceOf(s.owner));
    const listener = await socket(member.token, s.tableId);
    const select = (await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } })).body;
    const conditional = (
      await create(s, {
        type: 'background_color',
        value_provider_type: 'conditional_color',
        value_provider_conf: {
          colors: [
            {
              id: 'c',
              color: 'red',
              filters: [
                { id: 'a', field: s.single, type: 'single_select_equal', value: String(s.options[0]), group: 'g' },
                { id: 'b', field: s.single, type: 'empty', value: '' },
                { id: 'n', field: s.notes, type: 'contains', value: 'x', group: 'h' },
              ],
              filter_groups: [{ id: 'g' }, { id: 'h' }],
            },
          ],
        },
      })
    ).body;
    await listener.drain();

    // single_select → text: the colour field is unset; single_select_equal no longer applies, `empty` still does.
    await ok(s.owner, 'PATCH', `/api/database/fields/${s.single}/`, { type: 'text' });
    const afterChange = await eventually(() => decorations(s), (list) => list[0].value_provider_conf.field_id === null && list[1].value_provider_conf.colors[0].filters.length === 2);
    expect(afterChange[0].value_provider_conf).toEqual({ field_id: null });
    expect(afterChange[1].value_provider_conf.colors[0]).toEqual({
      id: 'c',
      color: 'red',
      filters: [
        { id: 'b', field: s.single, type: 'empty', value: '' },
        { id: 'n', field: s.notes, type: 'contains', value: 'x', group: 'h' },
      ],
      filter_groups: [{ id: 'h', filter_type: 'AND' }],
      operator: 'AND',
    });
    const messages = [await listener.waitFor('view_decoration_updated'), await listener.waitFor('view_decoration_updated')];
    expect(messages.map((m) => m.view_decoration_id).sort()).toEqual([select.id, conditional.id].sort());

    await ok(s.owner, 'DELETE', `/api/database/fields/${s.notes}/`);
    const afterDelete = await eventually(() => decorations(s), (list) => list[1].value_provider_conf.colors[0].filters.length === 1);
    expect(afterDelete[1].value_provider_conf.colors[0]).toEqual({
      id: 'c',
      color: 'red',
      filters: [{ id: 'b', field: s.single, type: 'empty', value: '' }],
      filter_groups: [],
      operator: 'AND',
    });
    expect(afterDelete[0]).toEqual(afterChange[0]);
  });

  it('sets single_select_color to null when its field is deleted', async () => {
    const s = await setup();
    await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } });
    await ok(s.owner, 'DELETE', `/api/database/fields/${s.single}/`);
    const list = await eventually(() => decorations(s), (l) => l[0].value_provider_conf.field_id === null);
    expect(list[0].value_provider_conf).toEqual({ field_id: null });
  });
});

describe('duplication', () => {
  it('copies decorations with a duplicated view (in view_created too)', async () => {
    const s = await setup();
    const member = await signUp(t, 'Member');
    await addMember(t, s.owner, member, await workspaceOf(s.owner));
    const listener = await socket(member.token, s.tableId);
    const original = (await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } })).body;
    await listener.drain();
    const copy = await ok(s.owner, 'POST', `/api/database/views/${s.viewId}/duplicate/`);
    const expected = [{ ...original, id: expect.any(Number), view: copy.id }];
    expect(copy.decorations).toEqual(expected);
    expect(copy.decorations[0].id).not.toBe(original.id);
    const message = await listener.waitFor('view_created');
    expect(message.view.decorations).toEqual(copy.decorations);
    expect(await decorations(s)).toEqual([original]);
  });

  it('copies decorations with a duplicated table, mapping fields and select options', async () => {
    const s = await setup();
    await create(s, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: s.single } });
    await create(s, {
      type: 'background_color',
      value_provider_type: 'conditional_color',
      value_provider_conf: { colors: [{ id: 'c', color: 'blue', filters: [{ id: 'a', field: s.single, type: 'single_select_is_any_of', value: `${s.options[0]},${s.options[1]}` }, { id: 'b', field: s.notes, type: 'contains', value: 'x' }] }] },
    });
    const job = await ok(s.owner, 'POST', `/api/database/tables/${s.tableId}/duplicate/async/`);
    await settleJob(t, s.owner.token, job.id);
    const copyId = (await ok(s.owner, 'GET', `/api/jobs/${job.id}/`)).duplicated_table.id;
    const fields = await ok(s.owner, 'GET', `/api/database/fields/table/${copyId}/`);
    const single = fields.find((f: { name: string }) => f.name === 'Status');
    const notes = fields.find((f: { id: number; name: string }) => f.name === 'Notes');
    const [view] = await ok(s.owner, 'GET', `/api/database/views/table/${copyId}/?include=decorations`);
    expect(view.decorations).toEqual([
      { id: expect.any(Number), view: view.id, type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: single.id }, order: 1 },
      {
        id: expect.any(Number),
        view: view.id,
        type: 'background_color',
        value_provider_type: 'conditional_color',
        value_provider_conf: {
          colors: [
            {
              id: 'c',
              color: 'blue',
              filters: [
                { id: 'a', field: single.id, type: 'single_select_is_any_of', value: single.select_options.map((o: { id: number }) => o.id).join(',') },
                { id: 'b', field: notes.id, type: 'contains', value: 'x' },
              ],
              operator: 'AND',
            },
          ],
        },
        order: 2,
      },
    ]);
    expect(single.id).not.toBe(s.single);
  });
});
