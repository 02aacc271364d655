import { signUp, SignedUp, startApp, TestApp } from './support/app';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let customers: number;
let projects: number;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  const apps = await t.request('GET', '/api/applications/', { token: ada.token });
  [customers, projects] = apps.body[0].tables.map((x: any) => x.id);
});
afterAll(async () => t?.close());

const req = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const createField = (table: number, body: Record<string, unknown>) => req('POST', `/api/database/fields/table/${table}/`, body);
const createRow = (table: number, body: Record<string, unknown>) => req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, body);
const fieldsOf = async (table: number) => (await req('GET', `/api/database/fields/table/${table}/`)).body as any[];

describe('single_select', () => {
  let field: any;
  test('field JSON and option semantics', async () => {
    const res = await createField(projects, { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] });
    expect(res.status).toBe(200);
    field = res.body;
    expect(Object.keys(field).sort()).toEqual(
      ['id', 'table_id', 'name', 'order', 'type', 'primary', 'read_only', 'description', 'db_index', 'field_constraints', 'single_select_default', 'select_options', 'immutable_properties', 'immutable_type', 'database_id', 'workspace_id', 'related_fields'].sort(),
    );
    expect(field.select_options.map((o: any) => [o.value, o.color])).toEqual([['Todo', 'blue'], ['Done', 'green']]);
    const bad = await createField(projects, { name: 'Bad', type: 'single_select', select_options: [{ value: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.detail.select_options['0'].color[0].code).toBe('required');
  });

  test('rows by id and by value; unknown option; sort and search; deleted option clears cells', async () => {
    const [todo, done] = field.select_options;
    const a = await createRow(projects, { Status: todo.id });
    expect(a.status).toBe(200);
    expect(a.body.Status).toEqual({ id: todo.id, value: 'Todo', color: 'blue' });
    const b = await createRow(projects, { Status: 'Done' });
    expect(b.body.Status).toEqual({ id: done.id, value: 'Done', color: 'green' });
    const bad = await createRow(projects, { Status: 999999 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The provided select option value '999999' is not a valid select option." });
    const sorted = await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true&order_by=-Status&filter__field_id__in=${a.body.id},${b.body.id}`);
    expect(sorted.status).toBe(200);
    expect(sorted.body.results.map((r: any) => r.id)).toEqual([a.body.id, b.body.id]);
    const asc = await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true&order_by=Status&filter__field_id__in=${a.body.id},${b.body.id}`);
    expect(asc.body.results.map((r: any) => r.id)).toEqual([b.body.id, a.body.id]);
    const search = await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true&search=Don`);
    expect(search.body.results.map((r: any) => r.id)).toContain(b.body.id);
    expect(search.body.results.map((r: any) => r.id)).not.toContain(a.body.id);
    const upd = await req('PATCH', `/api/database/fields/${field.id}/`, { select_options: [{ id: todo.id, value: 'To do', color: 'red' }, { value: 'New', color: 'gray' }] });
    expect(upd.status).toBe(200);
    expect(upd.body.select_options[0]).toEqual({ id: todo.id, value: 'To do', color: 'red' });
    expect(upd.body.select_options[1].value).toBe('New');
    expect(upd.body.select_options).toHaveLength(2);
    const rowB = await req('GET', `/api/database/rows/table/${projects}/${b.body.id}/?user_field_names=true`);
    expect(rowB.body.Status).toBeNull();
    const rowA = await req('GET', `/api/database/rows/table/${projects}/${a.body.id}/?user_field_names=true`);
    expect(rowA.body.Status).toEqual({ id: todo.id, value: 'To do', color: 'red' });
  });

  test('text converts to single_select by option value', async () => {
    const text = await createField(customers, { name: 'Tier', type: 'text' });
    await req('PATCH', `/api/database/rows/table/${customers}/1/?user_field_names=true`, { Tier: 'Gold' });
    await req('PATCH', `/api/database/rows/table/${customers}/2/?user_field_names=true`, { Tier: 'Tin' });
    const conv = await req('PATCH', `/api/database/fields/${text.body.id}/`, { type: 'single_select', select_options: [{ value: 'Gold', color: 'yellow' }] });
    expect(conv.status).toBe(200);
    const rows = (await req('GET', `/api/database/rows/table/${customers}/?user_field_names=true`)).body.results;
    expect(rows[0].Tier).toEqual({ id: conv.body.select_options[0].id, value: 'Gold', color: 'yellow' });
    expect(rows[1].Tier).toBeNull();
    const back = await req('PATCH', `/api/database/fields/${text.body.id}/`, { type: 'multiple_select' });
    expect(back.status).toBe(200);
    const again = (await req('GET', `/api/database/rows/table/${customers}/1/?user_field_names=true`)).body;
    expect(again.Tier).toEqual([{ id: conv.body.select_options[0].id, value: 'Gold', color: 'yellow' }]);
    await req('DELETE', `/api/database/fields/${text.body.id}/`);
  });
});

describe('multiple_select', () => {
  test('values by id, value and comma string, in the given order; errors', async () => {
    const f = await createField(projects, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'A', color: 'red' }, { value: 'B', color: 'blue' }] });
    expect(f.status).toBe(200);
    expect(f.body.multiple_select_default).toBeNull();
    const [a, b] = f.body.select_options;
    const r1 = await createRow(projects, { Tags: [b.id, 'A'] });
    expect(r1.body.Tags).toEqual([{ id: b.id, value: 'B', color: 'blue' }, { id: a.id, value: 'A', color: 'red' }]);
    const r2 = await createRow(projects, { Tags: 'A,B' });
    expect(r2.body.Tags.map((o: any) => o.value)).toEqual(['A', 'B']);
    const r3 = await createRow(projects, {});
    expect(r3.body.Tags).toEqual([]);
    const bad = await createRow(projects, { Tags: 'Missing' });
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The provided select option value 'Missing' is not a valid select option." });
    const notList = await createRow(projects, { Tags: {} });
    expect(notList.status).toBe(400);
    expect(notList.body.detail.Tags[0].code).toBe('not_a_list');
    const cleared = await req('PATCH', `/api/database/rows/table/${projects}/${r1.body.id}/?user_field_names=true`, { Tags: [] });
    expect(cleared.body.Tags).toEqual([]);
    await req('POST', `/api/database/rows/table/${projects}/${r2.body.id}/`, {});
    const del = await req('DELETE', `/api/database/rows/table/${projects}/${r2.body.id}/`);
    expect(del.status).toBe(204);
  });
});

describe('multiple_collaborators', () => {
  test('members only, answered with names', async () => {
    const f = await createField(projects, { name: 'People', type: 'multiple_collaborators' });
    expect(f.status).toBe(200);
    expect(f.body.notify_user_when_added).toBe(true);
    expect(f.body.available_collaborators).toEqual([{ id: ada.id, name: 'Ada' }]);
    const row = await createRow(projects, { People: [{ id: ada.id }] });
    expect(row.body.People).toEqual([{ id: ada.id, name: 'Ada' }]);
    const bad = await createRow(projects, { People: [{ id: eve.id }] });
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: `The provided user id [${eve.id}] is not a valid collaborator.` });
  });
});

describe('link_row', () => {
  let link: any;
  test('errors of the field', async () => {
    expect((await createField(projects, { name: 'L', type: 'link_row' })).body.error).toBe('ERROR_LINK_ROW_TABLE_NOT_PROVIDED');
    const eveApps = await t.request('GET', '/api/applications/', { token: eve.token });
    const eveTable = eveApps.body[0].tables[0].id;
    expect((await createField(projects, { name: 'L', type: 'link_row', link_row_table_id: eveTable })).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    const selfRelated = await createField(projects, { name: 'L', type: 'link_row', link_row_table_id: projects, has_related_field: true });
    expect(selfRelated.body.error).toBe('ERROR_SELF_REFERENCING_LINK_ROW_CANNOT_HAVE_RELATED_FIELD');
    expect((await fieldsOf(projects)).some((f) => f.name === 'L')).toBe(false);
  });

  test('creates the related field in the linked table', async () => {
    const res = await createField(projects, { name: 'Customer', type: 'link_row', link_row_table_id: customers });
    expect(res.status).toBe(200);
    link = res.body;
    const related = link.related_fields[0];
    expect(Object.keys(link).sort()).toEqual(
      ['id', 'table_id', 'name', 'order', 'type', 'primary', 'read_only', 'description', 'db_index', 'field_constraints', 'link_row_table_id', 'link_row_related_field_id', 'link_row_table', 'link_row_related_field', 'link_row_limit_selection_view_id', 'link_row_table_primary_field', 'link_row_multiple_relationships', 'immutable_properties', 'immutable_type', 'database_id', 'workspace_id', 'related_fields'].sort(),
    );
    expect(link.link_row_table_id).toBe(customers);
    expect(link.link_row_table).toBe(customers);
    expect(link.link_row_related_field_id).toBe(related.id);
    expect(link.link_row_related_field).toBe(related.id);
    expect(link.link_row_multiple_relationships).toBe(true);
    expect(link.link_row_table_primary_field).toMatchObject({ name: 'Name', type: 'text', primary: true, table_id: customers });
    expect(related).toMatchObject({ table_id: customers, name: 'Projects', type: 'link_row', link_row_table_id: projects, link_row_related_field_id: link.id });
    expect((await fieldsOf(customers)).map((f) => f.name)).toContain('Projects');
    const second = await createField(projects, { name: 'Customer 2', type: 'link_row', link_row_table_id: customers });
    expect(second.body.related_fields[0].name).toBe('Projects 2');
    await req('DELETE', `/api/database/fields/${second.body.id}/`);
    const primary = await req('PATCH', `/api/database/fields/${link.id}/`, { name: 'x' });
    expect(primary.status).toBe(200);
    await req('PATCH', `/api/database/fields/${link.id}/`, { name: 'Customer' });
  });

  test('row values by id, text, int and comma string; both sides', async () => {
    const r1 = await createRow(projects, { Customer: [1, 2, 9999] });
    expect(r1.status).toBe(200);
    expect(r1.body.Customer).toEqual([
      { id: 1, value: 'Ada', order: '1.00000000000000000000' },
      { id: 2, value: 'Alan', order: '2.00000000000000000000' },
    ]);
    const r2 = await createRow(projects, { Customer: ['Grace'] });
    expect(r2.body.Customer).toEqual([{ id: 3, value: 'Grace', order: '3.00000000000000000000' }]);
    const r3 = await createRow(projects, { Customer: 3 });
    expect(r3.body.Customer.map((v: any) => v.id)).toEqual([3]);
    const r4 = await createRow(projects, { Customer: '2,1' });
    expect(r4.body.Customer.map((v: any) => v.id)).toEqual([2, 1]);
    const bad = await createRow(projects, { Customer: ['Nobody'] });
    expect(bad.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The provided text value 'Nobody' doesn't match any row in the linked table." });
    const back = await req('GET', `/api/database/rows/table/${customers}/3/?user_field_names=true`);
    expect(back.body.Projects.map((v: any) => v.id)).toEqual([r2.body.id, r3.body.id]);
    const rev = await req('PATCH', `/api/database/rows/table/${customers}/3/?user_field_names=true`, { Projects: [r1.body.id] });
    expect(rev.body.Projects.map((v: any) => v.id)).toEqual([r1.body.id]);
    const r1b = await req('GET', `/api/database/rows/table/${projects}/${r1.body.id}/?user_field_names=true`);
    expect(r1b.body.Customer.map((v: any) => v.id)).toEqual([1, 2, 3]);
    // Deleting a linked row clears the links.
    expect((await req('DELETE', `/api/database/rows/table/${customers}/1/`)).status).toBe(204);
    const after = await req('GET', `/api/database/rows/table/${projects}/${r1.body.id}/?user_field_names=true`);
    expect(after.body.Customer.map((v: any) => v.id)).toEqual([2, 3]);
    const list = await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true`);
    expect(list.status).toBe(200);
  });

  test('cannot be primary; conversions to text and back', async () => {
    const primary = await req('POST', `/api/database/fields/table/${projects}/change-primary-field/`, { new_primary_field_id: link.id });
    expect(primary.body.error).toBe('ERROR_INCOMPATIBLE_PRIMARY_FIELD_TYPE');
    const toText = await req('PATCH', `/api/database/fields/${link.id}/`, { type: 'text' });
    expect(toText.status).toBe(200);
    expect((await fieldsOf(customers)).map((f) => f.name)).not.toContain('Projects');
    const rows = (await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true`)).body.results;
    expect(rows.some((r: any) => r.Customer === 'Alan, Grace')).toBe(true);
    const toLink = await req('PATCH', `/api/database/fields/${link.id}/`, { type: 'link_row', link_row_table_id: customers });
    expect(toLink.status).toBe(200);
    expect(toLink.body.related_fields).toHaveLength(1);
    const rows2 = (await req('GET', `/api/database/rows/table/${projects}/?user_field_names=true`)).body.results;
    expect(rows2.some((r: any) => JSON.stringify(r.Customer.map((v: any) => v.id)) === '[2,3]')).toBe(true);
    link = toLink.body;
  });

  test('deleting the field trashes the related one', async () => {
    const del = await req('DELETE', `/api/database/fields/${link.id}/`);
    expect(del.status).toBe(200);
    expect(del.body.related_fields.map((f: any) => f.id)).toEqual([link.link_row_related_field_id]);
    expect((await fieldsOf(customers)).some((f) => f.type === 'link_row')).toBe(false);
  });

  test('self link has no related field', async () => {
    const res = await createField(projects, { name: 'Parent', type: 'link_row', link_row_table_id: projects });
    expect(res.status).toBe(200);
    expect(res.body.related_fields).toEqual([]);
    expect(res.body.link_row_related_field_id).toBeNull();
    const a = await createRow(projects, {});
    const b = await createRow(projects, { Parent: [a.body.id] });
    expect(b.body.Parent.map((v: any) => v.id)).toEqual([a.body.id]);
    await req('DELETE', `/api/database/rows/table/${projects}/${a.body.id}/`);
    const after = await req('GET', `/api/database/rows/table/${projects}/${b.body.id}/?user_field_names=true`);
    expect(after.body.Parent).toEqual([]);
  });
});

describe('deleting a linked table', () => {
  test('trashes the link fields pointing at it, and the other table keeps working', async () => {
    const databaseId = (await req('GET', '/api/applications/')).body[0].id;
    const target = (await req('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Target' })).body.id;
    const link = await createField(customers, { name: 'To target', type: 'link_row', link_row_table_id: target });
    expect(link.status).toBe(200);
    await createRow(customers, { 'To target': [1] });
    expect((await req('DELETE', `/api/database/tables/${target}/`)).status).toBe(204);
    expect((await fieldsOf(customers)).map((f) => f.name)).not.toContain('To target');
    expect((await req('GET', `/api/database/fields/${link.body.id}/`)).status).toBe(404);
    const rows = await req('GET', `/api/database/rows/table/${customers}/?user_field_names=true`);
    expect(rows.status).toBe(200);
    expect(rows.body.results[0]).not.toHaveProperty('To target');
    const copy = await req('POST', `/api/database/tables/${customers}/duplicate/async/`);
    expect(copy.status).toBe(202);
    let job = copy.body;
    for (let i = 0; i < 100 && ['pending', 'started'].includes(job.state); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = (await req('GET', `/api/jobs/${copy.body.id}/`)).body;
    }
    expect(job.state).toBe('finished');
  });
});
