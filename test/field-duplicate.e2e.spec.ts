import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { addMember, endedJob } from './support/fixtures';
import { richDatabase, RichDatabase } from './support/rich-database';
import { connect, expectNone, WsClient } from './support/ws';

let t: TestApp;
let ada: SignedUp;
let bob: SignedUp;
let eve: SignedUp;
let db: RichDatabase;

const api = (method: string, path: string, body?: unknown, token = ada.token, headers?: Record<string, string>) => t.request(method, path, { token, body, headers });

const finished = (jobId: number, token = ada.token): Promise<any> => endedJob(t, token, jobId);

async function duplicate(fieldId: number, duplicateData: boolean, headers?: Record<string, string>): Promise<any> {
  const res = await api('POST', `/api/database/fields/${fieldId}/duplicate/async/`, { duplicate_data: duplicateData }, ada.token, headers);
  expect(res.status).toBe(202);
  const job = await finished(res.body.id);
  expect([job.state, job.human_readable_error]).toEqual(['finished', '']);
  return job;
}

const rows = async (tableId: number) => (await api('GET', `/api/database/rows/table/${tableId}/?user_field_names=true`)).body.results;
const fieldsOf = async (tableId: number) => (await api('GET', `/api/database/fields/table/${tableId}/`)).body;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  eve = await signUp(t, 'Eve');
  db = await richDatabase(t, ada);
  await addMember(t, ada, bob, db.workspaceId);
});
afterAll(async () => t?.close());

describe('field duplication', () => {
  test('the job answers original_field, then duplicated_field with related_fields; "<name> 2", without data', async () => {
    const original = (await api('GET', `/api/database/fields/${db.fields.Status.id}/`)).body;
    const res = await api('POST', `/api/database/fields/${db.fields.Status.id}/duplicate/async/`, { duplicate_data: false });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'duplicate_field',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      original_field: original,
      duplicated_field: null,
    });
    const job = await finished(res.body.id);
    const copy = job.duplicated_field;
    expect(copy).toMatchObject({ name: 'Status 2', type: 'single_select', primary: false, table_id: db.tasks, related_fields: [] });
    expect(copy.select_options.map((o: any) => [o.value, o.color])).toEqual(original.select_options.map((o: any) => [o.value, o.color]));
    expect(copy.select_options.map((o: any) => o.id)).not.toEqual(original.select_options.map((o: any) => o.id));
    expect(copy.single_select_default).toBe(copy.select_options[0].id);
    const cells = (await rows(db.tasks)).map((r: any) => r['Status 2']);
    // Without data the cells are empty.
    expect(cells.every((c: any) => c === null)).toBe(true);
  });

  test('with data: select cells use the copy\'s options; the copy is independent', async () => {
    const job = await duplicate(db.fields.Tags.id, true);
    const copy = job.duplicated_field;
    expect(copy.name).toBe('Tags 2');
    const after = await rows(db.tasks);
    expect(after.map((r: any) => r['Tags 2'].map((o: any) => o.value))).toEqual(after.map((r: any) => r.Tags.map((o: any) => o.value)));
    const copyIds = new Set(copy.select_options.map((o: any) => o.id));
    expect(after.every((r: any) => r['Tags 2'].every((o: any) => copyIds.has(o.id)))).toBe(true);
    await api('PATCH', `/api/database/fields/${copy.id}/`, { select_options: [] });
    expect((await rows(db.tasks)).map((r: any) => r.Tags.map((o: any) => o.value))).toEqual(after.map((r: any) => r.Tags.map((o: any) => o.value)));
  });

  test('a link with data gets its own related field in the linked table, with the same pairs; field_created carries it', async () => {
    const bobTab = await connect(t, bob.token);
    const adaTab = await connect(t, ada.token);
    const eveTab = await connect(t, eve.token);
    for (const tab of [bobTab, adaTab]) {
      tab.send({ page: 'table', table_id: db.projects });
      await tab.waitFor('page_add');
      tab.send({ page: 'table', table_id: db.tasks });
      await tab.waitFor('page_add');
    }
    const job = await duplicate(db.fields.Project.id, true, adaTab.origin);
    const copy = job.duplicated_field;
    expect(copy).toMatchObject({ name: 'Project 2', type: 'link_row', link_row_table_id: db.projects });
    expect(copy.related_fields).toHaveLength(1);
    const related = copy.related_fields[0];
    expect(related).toMatchObject({ type: 'link_row', table_id: db.projects, link_row_table_id: db.tasks, link_row_related_field_id: copy.id });
    expect(related.id).not.toBe(db.fields.Tasks.id);
    // The table's page gets field_created; the related field's table page gets it as field_updated.
    const { related_fields: _related, ...field } = copy;
    expect(await bobTab.waitFor('field_created')).toEqual({ type: 'field_created', field, related_fields: [] });
    expect(await bobTab.waitFor('field_updated')).toEqual({ type: 'field_updated', field_id: related.id, field: related, related_fields: [] });
    // The requesting tab gets no field_created (related fields of other tables go to everyone, as for any field creation).
    expect((await adaTab.waitFor('field_updated')).field_id).toBe(related.id);
    expect(await adaTab.waitFor('job_started')).toMatchObject({ job: { type: 'duplicate_field', state: 'started' } });
    await expectNone(adaTab, eveTab);
    [bobTab, adaTab, eveTab].forEach((c: WsClient) => c.close());

    const tasks = await rows(db.tasks);
    expect(tasks.map((r: any) => r['Project 2'])).toEqual(tasks.map((r: any) => r.Project));
    const projects = await rows(db.projects);
    const ids = (list: any[]) => list.map((x) => x.id).sort();
    expect(projects.map((r: any) => ids(r[related.name]))).toEqual(projects.map((r: any) => ids(r.Tasks)));
    // Changing the copy's cells leaves the original relation as it was.
    await api('PATCH', `/api/database/rows/table/${db.tasks}/${tasks[0].id}/?user_field_names=true`, { 'Project 2': [] });
    expect((await rows(db.tasks)).map((r: any) => r.Project)).toEqual(tasks.map((r: any) => r.Project));
  });

  test('the related side of a link, and a self link, duplicate with their pairs', async () => {
    const side = (await duplicate(db.fields.Tasks.id, true)).duplicated_field;
    // "Tasks 2" is the related field the Project copy made above.
    expect(side).toMatchObject({ name: 'Tasks 3', table_id: db.projects, link_row_table_id: db.tasks });
    expect(side.related_fields).toHaveLength(1);
    const projects = await rows(db.projects);
    const ids = (list: any[]) => list.map((x) => x.id).sort();
    expect(projects.map((r: any) => ids(r['Tasks 3']))).toEqual(projects.map((r: any) => ids(r.Tasks)));
    const tasks = await rows(db.tasks);
    expect(tasks.map((r: any) => ids(r[side.related_fields[0].name]))).toEqual(tasks.map((r: any) => ids(r.Project)));

    const self = (await duplicate(db.fields['Blocked by'].id, true)).duplicated_field;
    expect(self).toMatchObject({ name: 'Blocked by 2', link_row_table_id: db.tasks, link_row_related_field_id: null, related_fields: [] });
    const after = await rows(db.tasks);
    expect(after.map((r: any) => r['Blocked by 2'])).toEqual(after.map((r: any) => r['Blocked by']));
  });

  test('computed fields come out computed; data of other types is copied', async () => {
    const cost = (await duplicate(db.fields.Cost.id, false)).duplicated_field;
    expect(cost).toMatchObject({ name: 'Cost 2', type: 'formula', formula: "field('Hours') * 100", formula_type: 'number', error: null });
    const due = (await duplicate(db.fields.Due.id, true)).duplicated_field;
    const hours = (await duplicate(db.fields.Hours.id, true)).duplicated_field;
    expect(hours).toMatchObject({ name: 'Hours 2', number_decimal_places: 1 });
    await duplicate(db.fields.Attachments.id, true);
    const after = await rows(db.tasks);
    expect(after.map((r: any) => [r['Cost 2'], r['Due 2'], r['Hours 2'], r['Attachments 2']])).toEqual(after.map((r: any) => [r.Cost, r.Due, r.Hours, r.Attachments]));
    expect(after.some((r: any) => r['Attachments 2'].length === 1 && r['Attachments 2'][0].visible_name === 'Sketch')).toBe(true);
    expect(due.name).toBe('Due 2');
    // Read-only cells are made anew, data or not (as Baserow).
    const uuid = (await api('POST', `/api/database/fields/table/${db.tasks}/`, { name: 'Key', type: 'uuid' })).body;
    const uuidCopy = (await duplicate(uuid.id, true)).duplicated_field;
    const keys = await rows(db.tasks);
    expect(keys.every((r: any) => /^[0-9a-f-]{36}$/.test(r['Key 2']) && r['Key 2'] !== r.Key)).toBe(true);
    expect(uuidCopy.type).toBe('uuid');
    const noData = (await duplicate(db.fields.Hours.id, false)).duplicated_field;
    expect(noData.name).toBe('Hours 3');
    expect((await rows(db.tasks)).every((r: any) => r['Hours 3'] === null)).toBe(true);
  });

  test('grid views show the copy right after the original, with its options', async () => {
    const job = await duplicate(db.fields.Hours.id, false);
    const copy = job.duplicated_field;
    const options = (await api('GET', `/api/database/views/${db.gridId}/field-options/`)).body.field_options;
    expect(options[copy.id]).toMatchObject({ width: 321, hidden: true });
    const fields = await fieldsOf(db.tasks);
    const order = fields.filter((f: any) => !f.primary).sort((a: any, b: any) => options[a.id].order - options[b.id].order || a.id - b.id);
    const at = order.findIndex((f: any) => f.id === db.fields.Hours.id);
    expect(order[at + 1].id).toBe(copy.id);
  });

  test("a link keeps the view that limits its selection (a view of the linked table)", async () => {
    const view = (await api('GET', `/api/database/views/table/${db.projects}/`)).body[0];
    const patched = await api('PATCH', `/api/database/fields/${db.fields.Project.id}/`, { link_row_limit_selection_view_id: view.id });
    expect(patched.body.link_row_limit_selection_view_id).toBe(view.id);
    const copy = (await duplicate(db.fields.Project.id, false)).duplicated_field;
    expect(copy).toMatchObject({ name: 'Project 3', link_row_table_id: db.projects, link_row_limit_selection_view_id: view.id });
  });

  test('errors: unknown field, not a member, bad body; nothing is created', async () => {
    const before = (await fieldsOf(db.tasks)).length;
    expect((await api('POST', '/api/database/fields/999999/duplicate/async/', {})).body.error).toBe('ERROR_FIELD_DOES_NOT_EXIST');
    const outsider = await api('POST', `/api/database/fields/${db.fields.Status.id}/duplicate/async/`, {}, eve.token);
    expect([outsider.status, outsider.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    const bad = await api('POST', `/api/database/fields/${db.fields.Status.id}/duplicate/async/`, { duplicate_data: 'maybe' });
    expect([bad.status, bad.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    expect((await fieldsOf(db.tasks)).length).toBe(before);
  });
});
