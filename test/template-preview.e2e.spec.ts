import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { TemplatePreviews } from '../src/templates/template-previews';
import { freshDatabase, NO_TIMED_WORK, signUp, SignedUp, startApp, TEST_DB, TestApp, TestDatabase } from './support/app';
import { fingerprint } from './support/fingerprint';
import { createTenant, fillPath, Tenant } from './support/fixtures';
import { Operation, operationsOf } from './support/fuzz';
import { bodyFor } from './support/valid-bodies';
import { connect, expectNone } from './support/ws';

/** A test making one pass over every route of the API (its time grows with the API, not with a fault). */
const ROUTE_PASS_TIMEOUT_MS = 5 * 60 * 1000;
const SHIPPED = resolve(__dirname, '..', 'templates');

/** The path parameters that name a preview's objects (the others are filled with the stranger's own). */
const PREVIEW_PARAMETERS = ['workspaceId', 'applicationId', 'databaseId', 'tableId', 'fieldId', 'rowId', 'viewId', 'slug', 'viewFilterId', 'viewSortId'];

/** The read routes a template preview answers to anyone signed in (Baserow's `allow_if_template` operations). */
const PREVIEW_READS = new Set([
  'list_applications',
  'list_database_tables',
  'list_database_table_fields',
  'list_database_table_rows',
  'get_database_table_row',
  'list_database_table_views',
  'get_database_table_view',
  'get_database_table_view_field_options',
  'list_database_table_grid_view_rows',
  'list_database_table_gallery_view_rows',
  'list_database_table_kanban_view_rows',
  'get_database_table_grid_view_field_aggregations',
  'get_database_table_grid_view_field_aggregation',
  'list_database_table_view_decorations',
  'list_workspace_exports',
  // A view by its slug: a template's opens to anyone signed in, as Baserow's ReadViewOperationType check does.
  'get_meta_database_table_form_view',
  'get_public_view_info',
  'public_list_database_table_grid_view_rows',
  'public_list_database_table_gallery_view_rows',
  'public_list_database_table_kanban_view_rows',
  'get_database_table_public_grid_view_field_aggregations',
  'get_public_view_row',
  'database_table_public_view_link_row_field_lookup',
]);

/** The shipped templates, the project tracker with a form and a gallery view more (for the routes of those view types). */
function templatesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rowspace-preview-templates-'));
  for (const name of readdirSync(SHIPPED)) copyFileSync(join(SHIPPED, name), join(dir, name));
  const tracker = JSON.parse(readFileSync(join(SHIPPED, 'project-tracker.json'), 'utf8'));
  tracker.applications[0].tables[0].views.push({ id: 9001, name: 'Project form', type: 'form', order: 4 }, { id: 9002, name: 'Project cards', type: 'gallery', order: 5 });
  writeFileSync(join(dir, 'project-tracker.json'), JSON.stringify(tracker));
  return dir;
}

/** A path with the preview's ids; a view route of a type gets the preview's view of that type. */
function previewPath(path: string, ids: Record<string, string>): string {
  const typed = /\/views\/(form|gallery|kanban|grid)\//.exec(path)?.[1];
  return fillPath(path, ids, typed ? { viewId: ids[`${typed}Id`] } : {});
}

/** What a non-member is answered on a preview's write routes, when it is not ERROR_USER_NOT_IN_GROUP. */
const EXPECTED: Record<string, [number, string | undefined]> = {
  // Staff routes (the stranger is not staff).
  admin_delete_workspace: [403, undefined],
  // A slug opens a non-public view's writes to members only: the preview's form is "not found".
  submit_database_table_form_view: [404, 'ERROR_FORM_DOES_NOT_EXIST'],
  upload_file_form_view: [404, 'ERROR_FORM_DOES_NOT_EXIST'],
  public_view_token_auth: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  // A public export by slug: the preview's views are not public.
  export_publicly_shared_view: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
};

describe(`template previews (${TEST_DB})`, () => {
  let t: TestApp;
  let dataSource: DataSource;
  let staff: SignedUp;
  let bob: Tenant;
  let templates: any[];
  let tracker: any;
  let ids: Record<string, string>;
  const get = (path: string, token = bob.user.token) => t.request('GET', path, { token });

  beforeAll(async () => {
    t = await startApp({ TEMPLATES_DIR: templatesDir(), BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION: 'true', RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0', ...NO_TIMED_WORK });
    dataSource = t.app.get(DataSource);
    // The instance's first account is staff.
    staff = await signUp(t, 'Staff');
    // The previews are built in the background at start-up.
    await t.app.get(TemplatePreviews).synced;
    bob = await createTenant(t, 'Bob');
    templates = (await t.request('GET', '/api/templates/')).body.flatMap((c: any) => c.templates);
    tracker = templates.find((x) => x.slug === 'project-tracker');
    const [database] = (await get(`/api/applications/workspace/${tracker.workspace_id}/`)).body;
    const projects = database.tables[0];
    const fields = (await get(`/api/database/fields/table/${projects.id}/`)).body;
    const views = (await get(`/api/database/views/table/${projects.id}/?include=filters,sortings`)).body;
    const rows = (await get(`/api/database/rows/table/${projects.id}/`)).body.results;
    const filtered = views.find((v: any) => v.filters.length);
    const ofType = (type: string) => views.find((v: any) => v.type === type);
    ids = {
      ...bob.ids,
      workspaceId: String(tracker.workspace_id),
      applicationId: String(database.id),
      databaseId: String(database.id),
      tableId: String(projects.id),
      // A link (the link row lookup of a view by slug needs one).
      fieldId: String(fields.find((f: any) => f.type === 'link_row').id),
      rowId: String(rows[0].id),
      viewId: String(views[0].id),
      slug: String(views[0].slug),
      gridId: String(views[0].id),
      formId: String(ofType('form').id),
      galleryId: String(ofType('gallery').id),
      kanbanId: String(ofType('kanban').id),
      formSlug: ofType('form').slug,
      gallerySlug: ofType('gallery').slug,
      kanbanSlug: ofType('kanban').slug,
      viewFilterId: String(filtered.filters[0].id),
      viewSortId: String(views[0].sortings[0].id),
    };
  }, ROUTE_PASS_TIMEOUT_MS);
  afterAll(async () => t?.close());

  test('every template has a preview workspace and the application it opens', async () => {
    for (const template of templates) {
      expect(template).toEqual({ ...template, workspace_id: expect.any(Number), open_application: expect.any(Number) });
      expect((await t.request('GET', `/api/templates/${template.slug}/`)).body).toEqual(template);
      const file = JSON.parse(readFileSync(resolve(SHIPPED, `${template.slug}.json`), 'utf8'));
      const applications = (await get(`/api/applications/workspace/${template.workspace_id}/`)).body;
      expect(applications.map((a: any) => a.name)).toEqual(file.applications.map((a: any) => a.name));
      expect(applications[file.open_application ?? 0].id).toBe(template.open_application);
      expect(applications[0].workspace).toEqual({ id: template.workspace_id, name: template.name, generative_ai_models_enabled: {} });
    }
    // The previews' workspaces are distinct.
    expect(new Set(templates.map((x) => x.workspace_id)).size).toBe(templates.length);
  });

  test("a signed-in non-member reads a preview through the web client's routes", async () => {
    const [database] = (await get(`/api/applications/workspace/${tracker.workspace_id}/`)).body;
    expect(database).toMatchObject({ id: tracker.open_application, name: 'Project tracker', type: 'database' });
    expect(database.tables.map((x: any) => x.name)).toEqual(['Projects', 'Tasks', 'Team']);
    expect((await get(`/api/database/tables/database/${database.id}/`)).body.map((x: any) => x.name)).toEqual(['Projects', 'Tasks', 'Team']);
    const [projects, tasks] = database.tables.map((x: any) => x.id);
    const fields = (await get(`/api/database/fields/table/${projects}/`)).body;
    expect(fields.find((f: any) => f.primary).name).toBe('Name');
    expect(fields.filter((f: any) => f.error)).toEqual([]);
    const rows = (await get(`/api/database/rows/table/${projects}/?user_field_names=true`)).body;
    expect(rows.results.map((r: any) => [r.Name, r.Status.value, r['Task count']])).toEqual([
      ['Website redesign', 'Active', '4'],
      ['Mobile app', 'Planned', '2'],
      ['Customer survey', 'Completed', '2'],
    ]);
    expect((await get(`/api/database/rows/table/${projects}/?search=mobile&user_field_names=true`)).body.results.map((r: any) => r.Name)).toEqual(['Mobile app']);
    expect((await get(`/api/database/rows/table/${projects}/${rows.results[0].id}/?user_field_names=true`)).body.Name).toBe('Website redesign');
    const views = (await get(`/api/database/views/table/${projects}/?include=filters,sortings,decorations,group_bys`)).body;
    expect(views.map((v: any) => [v.name, v.type])).toEqual([
      ['All projects', 'grid'],
      ['Active projects', 'grid'],
      ['Projects by status', 'kanban'],
      ['Project form', 'form'],
      ['Project cards', 'gallery'],
    ]);
    const status = fields.find((f: any) => f.name === 'Status');
    expect(views[1].filters.map((f: any) => [f.field, f.type])).toEqual([[status.id, 'single_select_equal']]);
    expect((await get(`/api/database/views/${views[1].id}/`)).body.name).toBe('Active projects');
    const grid = await get(`/api/database/views/grid/${views[1].id}/?include=field_options`);
    expect(grid.status).toBe(200);
    expect(grid.body.results.map((r: any) => r.id)).toEqual([1]);
    expect(Object.keys(grid.body.field_options).map(Number).sort()).toEqual(fields.map((f: any) => f.id).sort());
    expect((await get(`/api/database/views/${views[0].id}/field-options/`)).status).toBe(200);
    expect((await get(`/api/database/views/${views[0].id}/decorations/`)).body).toEqual([]);
    expect((await get(`/api/database/views/grid/${views[0].id}/aggregations/`)).status).toBe(200);
    const kanban = await get(`/api/database/views/kanban/${views[2].id}/`);
    expect(kanban.status).toBe(200);
    expect((await get(`/api/database/fields/table/${tasks}/`)).status).toBe(200);
  });

  test("the permissions object names the previews' workspaces; the preview is nobody's workspace", async () => {
    const { permissions } = (await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: bob.user.refresh } })).body;
    const manager = permissions.find((p: any) => p.name === 'allow_if_template').permissions;
    expect(manager.workspace_template_ids.sort()).toEqual(templates.map((x) => x.workspace_id).sort());
    expect(manager.allowed_operations_on_templates).toEqual(expect.arrayContaining(['workspace.read', 'database.list_tables', 'database.table.list_rows', 'database.table.view.read']));
    const previewIds = new Set(templates.map((x) => x.workspace_id));
    for (const user of [bob.user, staff]) {
      expect((await get('/api/workspaces/', user.token)).body.filter((w: any) => previewIds.has(w.id))).toEqual([]);
      expect((await get('/api/applications/', user.token)).body.filter((a: any) => previewIds.has(a.workspace.id))).toEqual([]);
      expect((await get('/api/trash/', user.token)).body.workspaces.filter((w: any) => previewIds.has(w.id))).toEqual([]);
    }
    // Staff: the admin workspace list, the dashboard counts and the audit log's workspace filter leave them out (Baserow's).
    const admin = (await get('/api/admin/workspaces/?size=100', staff.token)).body;
    expect(admin.results.filter((w: any) => previewIds.has(w.id))).toEqual([]);
    const dashboard = (await get('/api/admin/dashboard/', staff.token)).body;
    expect(dashboard.total_workspaces).toBe(admin.count);
    expect(dashboard.total_applications).toBe(admin.results.reduce((sum: number, w: any) => sum + w.application_count, 0));
    const audit = (await get('/api/admin/audit-log/workspaces/?size=100', staff.token)).body;
    expect(audit.results.filter((w: any) => previewIds.has(w.id))).toEqual([]);
    expect(audit.results.length).toBeGreaterThan(0);
    // Staff may not delete a preview (Baserow's error), and it stays.
    const before = await fingerprint(dataSource);
    const deleted = await t.request('DELETE', `/api/admin/workspaces/${tracker.workspace_id}/`, { token: staff.token });
    expect([deleted.status, deleted.body]).toEqual([400, { error: 'ERROR_CANNOT_DELETE_A_TEMPLATE_GROUP', detail: 'You cannot delete a template group as it is used by the template system.' }]);
    expect(await fingerprint(dataSource)).toBe(before);
  });

  test('the other read routes of a preview (trash, members, roles, invitations, exports, history…) are refused', async () => {
    const operations = operationsOf((await t.request('GET', '/api/schema.json')).body).filter(
      (op) => op.method === 'GET' && op.pathParams.some((p) => PREVIEW_PARAMETERS.includes(p)),
    );
    const problems: string[] = [];
    for (const op of operations) {
      const res = await t.request('GET', previewPath(op.path, ids) + (op.operationId === 'get_database_table_grid_view_field_aggregation' ? '?type=empty_count' : ''), { token: bob.user.token });
      const where = `${op.operationId} GET ${op.path}`;
      if (PREVIEW_READS.has(op.operationId)) {
        if (res.status !== 200) problems.push(`${where}: expected 200, got ${res.status} ${res.text.slice(0, 200)}`);
      } else if (res.status < 400 || res.status >= 500) problems.push(`${where}: expected a refusal, got ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    const trash = await get(`/api/trash/workspace/${ids.workspaceId}/?application_id=${ids.applicationId}`);
    expect([trash.status, trash.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    // Restoring names the item in the body: nothing of a preview is in anyone's trash.
    const before = await fingerprint(dataSource);
    for (const [type, id, parent] of [['table', ids.tableId, ids.applicationId], ['application', ids.applicationId, ids.workspaceId], ['row', ids.rowId, ids.tableId]]) {
      const res = await t.request('PATCH', '/api/trash/restore/', { token: bob.user.token, body: { trash_item_type: type, trash_item_id: Number(id), parent_trash_item_id: Number(parent) } });
      expect([type, res.status < 500 && res.status >= 400]).toEqual([type, true]);
    }
    expect(await fingerprint(dataSource)).toBe(before);
  }, ROUTE_PASS_TIMEOUT_MS);

  test("every write route on a preview's ids is refused with the spec's error, changing nothing", async () => {
    const operations = operationsOf((await t.request('GET', '/api/schema.json')).body).filter(
      (op: Operation) => op.method !== 'GET' && op.pathParams.some((p) => PREVIEW_PARAMETERS.includes(p)),
    );
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['submit_database_table_form_view', 'create_database_table_row', 'update_database_table_field', 'delete_database_table_view', 'update_workspace', 'install_template', 'export_workspace_applications_async']),
    );
    const problems: string[] = [];
    for (const op of operations) {
      const before = await fingerprint(dataSource);
      const res = await t.request(op.method, previewPath(op.path, ids), { token: bob.user.token, body: bodyFor(op, ids) });
      const [status, code] = EXPECTED[op.operationId] ?? [400, 'ERROR_USER_NOT_IN_GROUP'];
      const where = `${op.operationId} ${op.method} ${op.path}`;
      if (res.status !== status || res.body?.error !== code) problems.push(`${where}: expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 200)}`);
      if ((await fingerprint(dataSource)) !== before) problems.push(`${where}: changed the database`);
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

  test("a preview's ids in the bodies of the stranger's own routes (tokens, role assignments, invitations) change nothing of the preview", async () => {
    const own = bob.ids.workspaceId;
    const before = await get(`/api/applications/workspace/${ids.workspaceId}/`);
    // A token of his own workspace naming the preview's table: refused, as any other workspace's table.
    const token = await t.request('POST', '/api/database/tokens/', { token: bob.user.token, body: { name: 'preview', workspace: Number(ids.workspaceId) } });
    expect([token.status, token.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    const rows = await t.request('GET', `/api/database/rows/table/${ids.tableId}/`, { headers: { Authorization: `Token ${bob.tokenKey}` } });
    expect([rows.status, rows.body.error]).toEqual([401, 'ERROR_NO_PERMISSION_TO_TABLE']);
    const assign = await t.request('POST', `/api/role/${ids.workspaceId}/batch/`, {
      token: bob.user.token,
      body: { items: [{ scope_id: Number(ids.workspaceId), scope_type: 'workspace', subject_id: bob.user.id, subject_type: 'auth.User', role: 'ADMIN' }] },
    });
    expect([assign.status, assign.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    const invite = await t.request('POST', `/api/workspaces/invitations/workspace/${ids.workspaceId}/`, {
      token: bob.user.token,
      body: { email: 'someone@example.com', permissions: 'ADMIN', message: '', base_url: 'http://localhost:8000/invite' },
    });
    expect([invite.status, invite.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect((await get(`/api/applications/workspace/${ids.workspaceId}/`)).body).toEqual(before.body);
    expect((await get(`/api/workspaces/`)).body.map((w: any) => String(w.id))).toEqual([own]);
  });

  test("a preview's socket pages are refused (Baserow lets no one listen to a template's tables)", async () => {
    const socket = await connect(t, bob.user.token);
    try {
      socket.send({ page: 'table', table_id: Number(ids.tableId) });
      socket.send({ page: 'row', table_id: Number(ids.tableId), row_id: Number(ids.rowId) });
      // A view's page by its slug: the preview's views are not public, and a socket is no GET request.
      socket.send({ page: 'view', slug: ids.slug, token: null });
      // His own page works, so silence about the preview's means refusal.
      socket.send({ page: 'table', table_id: Number(bob.ids.tableId) });
      expect((await socket.waitFor('page_add')).parameters).toEqual({ table_id: Number(bob.ids.tableId) });
      await expectNone(socket);
    } finally {
      socket.close();
    }
  });

  test('a database token never reads a preview', async () => {
    const res = await t.request('GET', `/api/database/fields/table/${ids.tableId}/`, { headers: { Authorization: `Token ${bob.tokenKey}` } });
    expect([res.status, res.body.error]).toEqual([401, 'ERROR_NO_PERMISSION_TO_TABLE']);
  });

  test('anonymous requests read nothing of a preview', async () => {
    const res = await t.request('GET', `/api/applications/workspace/${ids.workspaceId}/`);
    expect(res.status).toBe(401);
  });
});

describe(`template previews kept in step with TEMPLATES_DIR across restarts (${TEST_DB})`, () => {
  let database: TestDatabase;
  let dir: string;
  const env = () => ({ TEMPLATES_DIR: dir, BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION: 'true', ...NO_TIMED_WORK });
  const boot = async (): Promise<TestApp> => {
    const app = await startApp(env(), database);
    await app.app.get(TemplatePreviews).synced;
    return app;
  };
  const previews = async (app: TestApp): Promise<Record<string, number>> =>
    Object.fromEntries((await app.request('GET', '/api/templates/')).body.flatMap((c: any) => c.templates).map((x: any) => [x.slug, x.workspace_id]));

  beforeAll(async () => {
    database = await freshDatabase();
    dir = mkdtempSync(join(tmpdir(), 'rowspace-preview-sync-'));
    for (const name of ['small-crm.json', 'project-tracker.json']) copyFileSync(join(SHIPPED, name), join(dir, name));
  });
  afterAll(async () => database?.drop());

  test('an unchanged template keeps its preview, a changed one is built again, a removed one is deleted', async () => {
    let app = await boot();
    const first = await previews(app);
    expect(Object.keys(first).sort()).toEqual(['project-tracker', 'small-crm']);
    const user = await signUp(app, 'Ada');
    const oldTables = (await app.request('GET', `/api/applications/workspace/${first['small-crm']}/`, { token: user.token })).body[0].tables.map((x: any) => x.id);
    await app.close();

    // Unchanged: the same workspaces.
    app = await boot();
    expect(await previews(app)).toEqual(first);
    await app.close();

    // The CRM renamed a table; the tracker is gone.
    const crm = JSON.parse(readFileSync(join(dir, 'small-crm.json'), 'utf8'));
    crm.applications[0].tables[0].name = 'Accounts';
    writeFileSync(join(dir, 'small-crm.json'), JSON.stringify(crm));
    rmSync(join(dir, 'project-tracker.json'));
    app = await boot();
    const second = await previews(app);
    expect(Object.keys(second)).toEqual(['small-crm']);
    expect(second['small-crm']).not.toBe(first['small-crm']);
    const token = (await app.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } })).body.access_token;
    const [application] = (await app.request('GET', `/api/applications/workspace/${second['small-crm']}/`, { token })).body;
    expect(application.tables[0].name).toBe('Accounts');
    // The old previews are gone for good, with their tables.
    for (const id of [first['small-crm'], first['project-tracker']]) {
      expect((await app.request('GET', `/api/applications/workspace/${id}/`, { token })).body.error).toBe('ERROR_GROUP_DOES_NOT_EXIST');
    }
    const dataSource = app.app.get(DataSource);
    const leftovers = await dataSource.query(`SELECT COUNT(*) AS n FROM "database_table" WHERE id IN (${oldTables.join(', ')})`);
    expect(Number(leftovers[0].n)).toBe(0);
    expect(Number((await dataSource.query('SELECT COUNT(*) AS n FROM "core_template"'))[0].n)).toBe(1);
    await app.close();
  }, ROUTE_PASS_TIMEOUT_MS);
});
