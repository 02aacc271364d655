import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { endedJob } from './support/fixtures';

let t: TestApp;
let ada: SignedUp;
let databaseId: number;

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
const rowsOf = async (table: number) => (await api('GET', `/api/database/rows/table/${table}/?user_field_names=true`)).body.results as any[];
const fieldsOf = async (table: number) => (await api('GET', `/api/database/fields/table/${table}/`)).body as any[];
const byName = (fields: any[], name: string) => fields.find((f) => f.name === name);

const finished = (jobId: number): Promise<any> => endedJob(t, ada.token, jobId);

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  databaseId = (await api('GET', '/api/applications/')).body[0].id;
});
afterAll(async () => t?.close());

describe('table duplication of relation fields', () => {
  let tasks: number;
  let other: number;
  let copy: number;
  let original: any[];
  let otherBefore: any[];

  test('setup: selects, collaborators, a link to another table and a self link, with values', async () => {
    tasks = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Tasks' })).body.id;
    other = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Other' })).body.id;
    for (const row of await rowsOf(tasks)) await api('DELETE', `/api/database/rows/table/${tasks}/${row.id}/`);
    for (const row of await rowsOf(other)) await api('DELETE', `/api/database/rows/table/${other}/${row.id}/`);
    const x = (await api('POST', `/api/database/rows/table/${other}/?user_field_names=true`, { Name: 'X' })).body.id;
    const y = (await api('POST', `/api/database/rows/table/${other}/?user_field_names=true`, { Name: 'Y' })).body.id;
    const status = await api('POST', `/api/database/fields/table/${tasks}/`, { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] });
    expect(status.status).toBe(200);
    const todo = status.body.select_options[0].id;
    expect((await api('PATCH', `/api/database/fields/${status.body.id}/`, { single_select_default: todo })).status).toBe(200);
    const tags = await api('POST', `/api/database/fields/table/${tasks}/`, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'a', color: 'red' }, { value: 'b', color: 'gray' }, { value: 'c', color: 'dark-blue' }] });
    expect(tags.status).toBe(200);
    expect((await api('PATCH', `/api/database/fields/${tags.body.id}/`, { multiple_select_default: [tags.body.select_options[1].id] })).status).toBe(200);
    expect((await api('POST', `/api/database/fields/table/${tasks}/`, { name: 'People', type: 'multiple_collaborators' })).status).toBe(200);
    const link = await api('POST', `/api/database/fields/table/${tasks}/`, { name: 'Other', type: 'link_row', link_row_table_id: other });
    expect(link.status).toBe(200);
    expect(link.body.related_fields.map((f: any) => f.name)).toEqual(['Tasks']);
    expect((await api('POST', `/api/database/fields/table/${tasks}/`, { name: 'Parent', type: 'link_row', link_row_table_id: tasks })).status).toBe(200);

    const create = async (body: Record<string, unknown>) => {
      const res = await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, body);
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const r1 = await create({ Name: 'one', Status: 'Done', Tags: ['c', 'a'], People: [{ id: ada.id }], Other: [y, x] });
    const r2 = await create({ Name: 'two', Tags: [], Other: [x], Parent: [r1] });
    await create({ Name: 'three', Status: null, Parent: [r1, r2] });
    await api('PATCH', `/api/database/rows/table/${tasks}/${r1}/?user_field_names=true`, { Parent: [r1] });
    original = await rowsOf(tasks);
    expect(original.map((r) => [r.Name, r.Status?.value ?? null, r.Tags.map((o: any) => o.value), r.People, r.Other.map((o: any) => o.value), r.Parent.map((o: any) => o.value)])).toEqual([
      ['one', 'Done', ['c', 'a'], [{ id: ada.id, name: 'Ada' }], ['Y', 'X'], ['one']],
      ['two', 'Todo', [], [], ['X'], ['one']],
      ['three', null, ['b'], [], [], ['one', 'two']],
    ]);
    otherBefore = await rowsOf(other);
    expect(otherBefore.map((r) => r.Tasks.map((o: any) => o.value))).toEqual([['one', 'two'], ['one']]);
  });

  test('the copy has its own options, junction rows and relations, with the same cells', async () => {
    const res = await api('POST', `/api/database/tables/${tasks}/duplicate/async/`);
    expect(res.status).toBe(202);
    const job = await finished(res.body.id);
    expect(job.state).toBe('finished');
    copy = job.duplicated_table.id;
    expect(job.duplicated_table.name).toBe('Tasks 2');

    const [fields, copied] = [await fieldsOf(tasks), await fieldsOf(copy)];
    expect(copied.map((f) => [f.name, f.type])).toEqual(fields.map((f) => [f.name, f.type]));
    const optionIds = new Map<number, number>();
    for (const name of ['Status', 'Tags']) {
      const [from, to] = [byName(fields, name), byName(copied, name)];
      expect(to.select_options.map((o: any) => [o.value, o.color])).toEqual(from.select_options.map((o: any) => [o.value, o.color]));
      from.select_options.forEach((o: any, i: number) => {
        expect(to.select_options[i].id).not.toBe(o.id);
        optionIds.set(o.id, to.select_options[i].id);
      });
    }
    expect(byName(copied, 'Status').single_select_default).toBe(optionIds.get(byName(fields, 'Status').single_select_default));
    expect(byName(copied, 'Tags').multiple_select_default).toEqual(byName(fields, 'Tags').multiple_select_default.map((id: number) => optionIds.get(id)));

    const [link, copyLink] = [byName(fields, 'Other'), byName(copied, 'Other')];
    expect(copyLink.link_row_table_id).toBe(other);
    expect(copyLink.link_row_related_field_id).not.toBeNull();
    expect(copyLink.link_row_related_field_id).not.toBe(link.link_row_related_field_id);
    const otherFields = await fieldsOf(other);
    expect(otherFields.map((f) => f.name)).toEqual(['Name', 'Notes', 'Active', 'Tasks', 'Tasks 2']);
    expect(byName(otherFields, 'Tasks 2')).toMatchObject({ id: copyLink.link_row_related_field_id, type: 'link_row', link_row_table_id: copy, link_row_related_field_id: copyLink.id });
    const parent = byName(copied, 'Parent');
    expect(parent).toMatchObject({ link_row_table_id: copy, link_row_related_field_id: null });

    const mapOption = (o: any) => ({ ...o, id: optionIds.get(o.id) });
    const expected = original.map((r) => ({ ...r, Status: r.Status && mapOption(r.Status), Tags: r.Tags.map(mapOption) }));
    expect(await rowsOf(copy)).toEqual(expected);
    expect(await rowsOf(tasks)).toEqual(original);

    const otherAfter = await rowsOf(other);
    expect(otherAfter).toEqual(otherBefore.map((r) => ({ ...r, 'Tasks 2': r.Tasks })));
  });

  test('editing the copy leaves the original alone', async () => {
    const copied = await fieldsOf(copy);
    const [r1, r2] = original;
    const patched = await api('PATCH', `/api/database/rows/table/${copy}/${r1.id}/?user_field_names=true`, { Status: 'Todo', Tags: ['b'], People: [], Other: [], Parent: [r2.id] });
    expect(patched.status).toBe(200);
    expect(patched.body.Parent.map((o: any) => o.value)).toEqual(['two']);
    const status = byName(copied, 'Status');
    const renamed = await api('PATCH', `/api/database/fields/${status.id}/`, { select_options: [{ id: status.select_options[0].id, value: 'Open', color: 'red' }] });
    expect(renamed.status).toBe(200);
    expect((await api('DELETE', `/api/database/rows/table/${copy}/${r2.id}/`)).status).toBe(204);
    const tags = byName(copied, 'Tags');
    expect((await api('PATCH', `/api/database/fields/${tags.id}/`, { select_options: [] })).status).toBe(200);

    expect(await rowsOf(tasks)).toEqual(original);
    const fields = await fieldsOf(tasks);
    expect(byName(fields, 'Status').select_options.map((o: any) => o.value)).toEqual(['Todo', 'Done']);
    expect(byName(fields, 'Tags').select_options.map((o: any) => o.value)).toEqual(['a', 'b', 'c']);
    const otherRows = await rowsOf(other);
    expect(otherRows.map((r) => r.Tasks)).toEqual(otherBefore.map((r) => r.Tasks));
    expect(otherRows.map((r) => r['Tasks 2'].map((o: any) => o.value))).toEqual([[], []]);

    const copyRows = await rowsOf(copy);
    expect(copyRows.map((r) => [r.Name, r.Status?.value ?? null, r.Tags, r.Parent.map((o: any) => o.value)])).toEqual([
      ['one', 'Open', [], []],
      ['three', null, [], ['one']],
    ]);
  });

  test('a related link field (the other side of a relation) is copied as a link of its own', async () => {
    const before = await rowsOf(other);
    const job = await finished((await api('POST', `/api/database/tables/${other}/duplicate/async/`)).body.id);
    expect([job.state, job.human_readable_error]).toEqual(['finished', '']);
    const otherCopy = job.duplicated_table.id;
    expect(await rowsOf(otherCopy)).toEqual(before);
    const link = byName(await fieldsOf(otherCopy), 'Tasks');
    const related = byName(await fieldsOf(tasks), 'Other 2');
    expect(related).toMatchObject({ type: 'link_row', link_row_table_id: otherCopy, link_row_related_field_id: link.id });
    const taskRows = await rowsOf(tasks);
    // The copy writes its own rows' cells in their order; the new related side lists the same rows.
    const byId = (links: any[]) => [...links].sort((a, b) => a.id - b.id);
    expect(taskRows.map((r) => byId(r['Other 2']))).toEqual(taskRows.map((r) => byId(r.Other)));
    await api('PATCH', `/api/database/rows/table/${otherCopy}/${before[0].id}/?user_field_names=true`, { Tasks: [] });
    expect(await rowsOf(other)).toEqual(before);
  });

  test('deleting the copy keeps the original relation working', async () => {
    expect((await api('DELETE', `/api/database/tables/${copy}/`)).status).toBe(204);
    expect((await rowsOf(tasks)).map(({ 'Other 2': _, ...r }) => r)).toEqual(original);
    const otherRows = await rowsOf(other);
    expect(otherRows.map((r) => r.Tasks)).toEqual(otherBefore.map((r) => r.Tasks));
    const edited = await api('PATCH', `/api/database/rows/table/${tasks}/${original[1].id}/?user_field_names=true`, { Other: [otherRows[1].id] });
    expect(edited.body.Other.map((o: any) => o.value)).toEqual(['Y']);
  });
});
