import { createHash } from 'node:crypto';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { addMember, endedJob } from './support/fixtures';
import { comparableRows, richDatabase, RichDatabase } from './support/rich-database';
import { connect, expectNone, WsClient } from './support/ws';

let t: TestApp;
let ada: SignedUp;
let bob: SignedUp;
let eve: SignedUp;
let db: RichDatabase;

const api = (method: string, path: string, body?: unknown, token = ada.token, headers?: Record<string, string>) => t.request(method, path, { token, body, headers });

const finished = (jobId: number, token = ada.token): Promise<any> => endedJob(t, token, jobId);

const byName = (list: any[], name: string) => list.find((x) => x.name === name);

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  eve = await signUp(t, 'Eve');
  db = await richDatabase(t, ada);
  await addMember(t, ada, bob, db.workspaceId);
});
afterAll(async () => t?.close());

describe('application duplication', () => {
  let copy: any;
  let adaTab: WsClient;
  let bobTab: WsClient;
  let eveTab: WsClient;
  let job: any;

  beforeAll(async () => {
    adaTab = await connect(t, ada.token);
    bobTab = await connect(t, bob.token);
    eveTab = await connect(t, eve.token);
    // A later application, to see the copy placed between.
    await api('POST', `/api/applications/workspace/${db.workspaceId}/`, { name: 'Later', type: 'database' });
    await adaTab.drain();
    await bobTab.drain();
    const original = (await api('GET', `/api/applications/${db.databaseId}/`)).body;
    const res = await api('POST', `/api/applications/${db.databaseId}/duplicate/async/`, undefined, ada.token, adaTab.origin);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'duplicate_application',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      original_application: original,
      duplicated_application: null,
    });
    job = await finished(res.body.id);
    copy = job.duplicated_application;
  });
  afterAll(() => [adaTab, bobTab, eveTab].forEach((c) => c.close()));

  test('the job finishes with the copy, named "<name> 2" and placed right after the original', async () => {
    expect([job.state, job.progress_percentage, job.human_readable_error]).toEqual(['finished', 100, '']);
    expect(copy).toMatchObject({ name: 'Planning 2', type: 'database', workspace: { id: db.workspaceId } });
    const apps = (await api('GET', `/api/applications/workspace/${db.workspaceId}/`)).body;
    expect(apps.map((a: any) => a.name)).toEqual(['Planning', 'Planning 2', 'Later']);
    expect(copy.tables.map((x: any) => [x.name, x.order])).toEqual([
      ['Projects', 1],
      ['Tasks', 2],
    ]);
    expect(copy.tables.every((x: any) => x.database_id === copy.id && ![db.projects, db.tasks].includes(x.id))).toBe(true);
  });

  test('application_created reaches the other members (not the requesting tab, not outsiders)', async () => {
    const message = await bobTab.waitFor('application_created');
    expect(message).toEqual({ type: 'application_created', application: (await api('GET', `/api/applications/${copy.id}/`, undefined, bob.token)).body });
    // "Later" moved one place on: the new order follows.
    const apps = (await api('GET', `/api/applications/workspace/${db.workspaceId}/`)).body;
    const hash = (id: number) => createHash('sha256').update(String(id)).digest('hex');
    expect(await bobTab.waitFor('applications_reordered')).toEqual({ type: 'applications_reordered', workspace_id: db.workspaceId, order: apps.map((a: any) => hash(a.id)) });
    // The requesting tab hears only that its job started (every tab of its creator does, as in Baserow).
    expect(await adaTab.waitFor('job_started')).toMatchObject({ job: { id: job.id, type: 'duplicate_application', state: 'started' } });
    await expectNone(adaTab, eveTab, bobTab);
  });

  test('fields keep their types and properties, select options and links mapped to the copy', async () => {
    for (const [name, original] of [
      ['Projects', db.projects],
      ['Tasks', db.tasks],
    ] as const) {
      const copyId = byName(copy.tables, name).id;
      const before = (await api('GET', `/api/database/fields/table/${original}/`)).body;
      const after = (await api('GET', `/api/database/fields/table/${copyId}/`)).body;
      const shape = (f: any) => [f.name, f.type, f.primary, f.order, f.number_decimal_places ?? null, f.formula ?? null, f.formula_type ?? null, f.error ?? null];
      expect(after.map(shape)).toEqual(before.map(shape));
    }
    const tasks = byName(copy.tables, 'Tasks').id;
    const projects = byName(copy.tables, 'Projects').id;
    const fields = (await api('GET', `/api/database/fields/table/${tasks}/`)).body;
    const status = byName(fields, 'Status');
    expect(status.select_options.map((o: any) => [o.value, o.color])).toEqual([
      ['Todo', 'red'],
      ['Doing', 'yellow'],
      ['Done', 'green'],
    ]);
    expect(status.select_options.some((o: any) => Object.values(db.options).includes(o.id))).toBe(false);
    expect(status.single_select_default).toBe(byName(status.select_options.map((o: any) => ({ ...o, name: o.value })), 'Todo').id);
    const project = byName(fields, 'Project');
    expect(project.link_row_table_id).toBe(projects);
    const related = byName((await api('GET', `/api/database/fields/table/${projects}/`)).body, 'Tasks');
    expect(related).toMatchObject({ type: 'link_row', link_row_table_id: tasks, link_row_related_field_id: project.id });
    expect(project.link_row_related_field_id).toBe(related.id);
    expect(byName(fields, 'Blocked by')).toMatchObject({ link_row_table_id: tasks, link_row_related_field_id: null });
    const lookup = byName(fields, 'Budget of project');
    expect(lookup.through_field_id).toBe(project.id);
    expect(lookup.target_field_id).toBe(byName((await api('GET', `/api/database/fields/table/${projects}/`)).body, 'Budget').id);
    // The original's fields are untouched: its link still has its own related field.
    expect(byName((await api('GET', `/api/database/fields/table/${db.projects}/`)).body, 'Tasks').link_row_table_id).toBe(db.tasks);
  });

  test('rows keep their ids, orders and cells; computed cells are computed', async () => {
    for (const [name, original] of [
      ['Projects', db.projects],
      ['Tasks', db.tasks],
    ] as const) {
      const copied = await comparableRows(t, ada.token, byName(copy.tables, name).id);
      expect(copied).toEqual(await comparableRows(t, ada.token, original));
    }
    const tasks = await comparableRows(t, ada.token, byName(copy.tables, 'Tasks').id);
    expect(tasks.map((r) => [r.id, r.Name, r.Status?.value ?? null, r.Tags.map((x: any) => x.value), r.Cost, r['Double cost'], r['Blocked by'].map((x: any) => x.value)])).toEqual([
      [3, 'Design', 'Done', ['ui'], '450.0', '900.0', []],
      [4, 'Build', 'Doing', ['api', 'ui'], '1200.0', '2400.0', ['Design']],
      [5, 'Billing', 'Todo', [], '300.0', '600.0', ['Build', 'Design']],
    ]);
    const projects = await comparableRows(t, ada.token, byName(copy.tables, 'Projects').id);
    expect(projects.map((r) => [r.Name, r.Kind.value, r['Task count'], r['Hours total'], r.Tasks.map((x: any) => x.value)])).toEqual([
      ['Website', 'Client', '2', '16.5', ['Design', 'Build']],
      ['Backoffice', 'Internal', '1', '3.0', ['Billing']],
    ]);
  });

  test('views keep their settings, filters (option ids mapped), groups, sorts, group-bys, field options and decorations', async () => {
    const tasks = byName(copy.tables, 'Tasks').id;
    const fields = (await api('GET', `/api/database/fields/table/${tasks}/`)).body;
    const views = (await api('GET', `/api/database/views/table/${tasks}/?include=filters,sortings,decorations,group_bys`)).body;
    expect(views.map((v: any) => [v.name, v.type, v.order])).toEqual([
      ['Open work', 'grid', 1],
      ['Board', 'kanban', 2],
    ]);
    const [grid, board] = views;
    const status = byName(fields, 'Status');
    const doing = status.select_options.find((o: any) => o.value === 'Doing').id;
    const api_ = byName(fields, 'Tags').select_options.find((o: any) => o.value === 'api').id;
    expect(grid.filter_type).toBe('OR');
    expect(grid.filter_groups).toHaveLength(1);
    const groupId = grid.filter_groups[0].id;
    expect(grid.filters.map((f: any) => [f.field, f.type, f.value, f.group])).toEqual([
      [status.id, 'single_select_equal', String(doing), null],
      [byName(fields, 'Hours').id, 'higher_than', '2', groupId],
      [byName(fields, 'Tags').id, 'multiple_select_has', String(api_), groupId],
    ]);
    expect(grid.sortings.map((s: any) => [s.field, s.order])).toEqual([[byName(fields, 'Due').id, 'DESC']]);
    expect(grid.group_bys.map((s: any) => [s.field, s.order])).toEqual([[status.id, 'ASC']]);
    expect(grid.decorations.map((d: any) => [d.type, d.value_provider_type, d.value_provider_conf])).toEqual([['left_border_color', 'single_select_color', { field_id: status.id }]]);
    const options = (await api('GET', `/api/database/views/${grid.id}/field-options/`)).body.field_options;
    expect(options[byName(fields, 'Hours').id]).toMatchObject({ width: 321, hidden: true });
    expect(board.single_select_field).toBe(status.id);
    // The copied view selects the same rows as the original.
    const selected = async (viewId: number) => (await api('GET', `/api/database/views/grid/${viewId}/`)).body.results.map((r: any) => r.id);
    expect(await selected(grid.id)).toEqual(await selected(db.gridId));
    expect((await selected(grid.id)).length).toBeGreaterThan(0);
  });

  test('the copy is independent of the original', async () => {
    const tasks = byName(copy.tables, 'Tasks').id;
    const before = await comparableRows(t, ada.token, db.tasks);
    const projectsBefore = await comparableRows(t, ada.token, db.projects);
    expect((await api('PATCH', `/api/database/rows/table/${tasks}/3/?user_field_names=true`, { Name: 'Changed', Project: [], Tags: [] })).status).toBe(200);
    expect((await api('DELETE', `/api/database/rows/table/${tasks}/4/`)).status).toBe(204);
    expect(await comparableRows(t, ada.token, db.tasks)).toEqual(before);
    expect(await comparableRows(t, ada.token, db.projects)).toEqual(projectsBefore);
    // New rows of the copy get ids after the copied ones.
    const created = await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { Name: 'New' });
    expect(created.body.id).toBe(6);
  });

  test('errors: unknown application, not a member, no body needed', async () => {
    expect((await api('POST', '/api/applications/999999/duplicate/async/')).body).toEqual({ error: 'ERROR_APPLICATION_DOES_NOT_EXIST', detail: expect.any(String) });
    const outsider = await api('POST', `/api/applications/${db.databaseId}/duplicate/async/`, undefined, eve.token);
    expect([outsider.status, outsider.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect((await api('POST', `/api/applications/${db.databaseId}/duplicate/async/`, undefined, '')).status).toBe(401);
    const apps = (await api('GET', `/api/applications/workspace/${db.workspaceId}/`)).body;
    expect(apps.map((a: any) => a.name)).toEqual(['Planning', 'Planning 2', 'Later']);
  });

  test('a second copy is "<name> 3"', async () => {
    const job2 = await finished((await api('POST', `/api/applications/${db.databaseId}/duplicate/async/`)).body.id);
    expect(job2.duplicated_application.name).toBe('Planning 3');
    const apps = (await api('GET', `/api/applications/workspace/${db.workspaceId}/`)).body;
    expect(apps.map((a: any) => a.name)).toEqual(['Planning', 'Planning 3', 'Planning 2', 'Later']);
  });
});
