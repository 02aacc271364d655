import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { addMember, endedJob } from './support/fixtures';
import { connect, expectNone } from './support/ws';

const SHIPPED = resolve(__dirname, '..', 'templates');

const finished = (t: TestApp, token: string, jobId: number): Promise<any> => endedJob(t, token, jobId);

describe('templates shipped in templates/', () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  let eve: SignedUp;
  let workspaceId: number;
  const api = (method: string, path: string, token: string | null = ada.token, headers?: Record<string, string>) => t.request(method, path, { token: token ?? undefined, headers });

  beforeAll(async () => {
    t = await startApp();
    ada = await signUp(t, 'Ada');
    bob = await signUp(t, 'Bob');
    eve = await signUp(t, 'Eve');
    workspaceId = (await t.request('POST', '/api/workspaces/', { token: ada.token, body: { name: 'Templates' } })).body.id;
    await addMember(t, ada, bob, workspaceId);
  });
  afterAll(async () => t?.close());

  const templateBySlug = async (slug: string) => {
    const categories = (await api('GET', '/api/templates/', null)).body;
    return categories.flatMap((c: any) => c.templates).find((x: any) => x.slug === slug);
  };

  test('the catalogue lists categories with their templates, without authentication', async () => {
    const res = await api('GET', '/api/templates/', null);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => [c.name, c.templates.map((x: any) => x.slug)])).toEqual([
      ['Marketing', ['content-calendar']],
      ['Project management', ['project-tracker']],
      ['Sales', ['small-crm']],
    ]);
    expect(res.body.map((c: any) => c.id)).toEqual([1, 2, 3]);
    const tracker = res.body[1].templates[0];
    expect(tracker).toEqual({
      id: tracker.id,
      name: 'Project tracker',
      slug: 'project-tracker',
      icon: 'iconoir-list',
      keywords: 'projects, tasks, planning, kanban, team',
      workspace_id: null,
      is_default: true,
      open_application: null,
    });
    expect(res.body[2].templates.map((x: any) => [x.slug, x.is_default])).toEqual([['small-crm', false]]);
    expect((await api('GET', '/api/templates/small-crm/', null)).body).toEqual(res.body[2].templates[0]);
    expect((await api('GET', '/api/templates/nope/', null)).body).toEqual({ error: 'ERROR_TEMPLATE_DOES_NOT_EXIST', detail: 'The requested template does not exist.' });
  });

  test('installing the project tracker creates a working database: links, computed fields, rows, views', async () => {
    const tracker = await templateBySlug('project-tracker');
    const res = await api('POST', `/api/templates/install/${workspaceId}/${tracker.id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const database = res.body[0];
    expect(database).toMatchObject({ name: 'Project tracker', type: 'database', workspace: { id: workspaceId } });
    expect(database.tables.map((x: any) => x.name)).toEqual(['Projects', 'Tasks', 'Team']);
    const [projects, tasks, team] = database.tables.map((x: any) => x.id);
    for (const table of [projects, tasks, team]) {
      const fields = (await api('GET', `/api/database/fields/table/${table}/`)).body;
      // Every computed field typed without error.
      expect(fields.filter((f: any) => f.error)).toEqual([]);
    }
    const rows = async (table: number) => (await api('GET', `/api/database/rows/table/${table}/?user_field_names=true`)).body.results;
    const projectRows = await rows(projects);
    expect(projectRows.map((r: any) => [r.Name, r.Status.value, r['Task count'], r['Estimated hours'], r['Duration (days)'], r.Tasks.length])).toEqual([
      ['Website redesign', 'Active', '4', '112.0', '85', 4],
      ['Mobile app', 'Planned', '2', '18.0', '152', 2],
      ['Customer survey', 'Completed', '2', '15.0', '44', 2],
    ]);
    const taskRows = await rows(tasks);
    expect(taskRows).toHaveLength(8);
    expect(taskRows[4]).toMatchObject({ Title: 'App architecture', Status: { value: 'To do' }, Priority: { value: 'High' }, Project: [{ value: 'Mobile app' }], Assignee: [{ value: 'Sam Lee' }], Done: false });
    expect(taskRows[4].Tags.map((x: any) => x.value)).toEqual(['Backend', 'Research']);
    expect(taskRows[4]['Project deadline'].map((x: any) => x.value)).toEqual(['2026-08-31']);
    expect((await rows(team)).map((r: any) => [r.Name, r['Assigned tasks']])).toEqual([
      ['Alex Morgan', '2'],
      ['Sam Lee', '2'],
      ['Robin Diaz', '1'],
      ['Kim Novak', '3'],
    ]);
    // Views: the filter's option id and the kanban's field are the installed ones.
    const fields = (await api('GET', `/api/database/fields/table/${projects}/`)).body;
    const status = fields.find((f: any) => f.name === 'Status');
    const views = (await api('GET', `/api/database/views/table/${projects}/?include=filters,sortings`)).body;
    expect(views.map((v: any) => [v.name, v.type])).toEqual([
      ['All projects', 'grid'],
      ['Active projects', 'grid'],
      ['Projects by status', 'kanban'],
    ]);
    expect(views[1].filters.map((f: any) => [f.field, f.type, f.value])).toEqual([[status.id, 'single_select_equal', String(status.select_options.find((o: any) => o.value === 'Active').id)]]);
    expect(views[2].single_select_field).toBe(status.id);
    const active = (await api('GET', `/api/database/views/grid/${views[1].id}/`)).body.results;
    expect(active.map((r: any) => r.id)).toEqual([1]);
    // New rows get the select default and ids after the template's.
    const created = (await t.request('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { token: ada.token, body: { Title: 'New' } })).body;
    expect([created.id, created.Status?.value]).toEqual([9, 'To do']);
  });

  test('installing twice gives two independent databases; async install is an install_template job with application_created', async () => {
    const crm = await templateBySlug('small-crm');
    const bobTab = await connect(t, bob.token);
    const adaTab = await connect(t, ada.token);
    const eveTab = await connect(t, eve.token);
    const res = await api('POST', `/api/templates/install/${workspaceId}/${crm.id}/async/`, ada.token, adaTab.origin);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'install_template',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      workspace: { id: workspaceId, name: 'Templates', generative_ai_models_enabled: {} },
      template: crm,
      installed_applications: [],
    });
    const job = await finished(t, ada.token, res.body.id);
    expect([job.state, job.human_readable_error]).toEqual(['finished', '']);
    const [database] = job.installed_applications;
    expect(database).toMatchObject({ name: 'CRM', type: 'database' });
    expect(await bobTab.waitFor('application_created')).toEqual({ type: 'application_created', application: (await api('GET', `/api/applications/${database.id}/`, bob.token)).body });
    // The requesting tab hears only that its job started (every tab of its creator does, as in Baserow).
    expect(await adaTab.waitFor('job_started')).toMatchObject({ job: { id: res.body.id, type: 'install_template', state: 'started' } });
    await expectNone(adaTab, eveTab);
    [bobTab, adaTab, eveTab].forEach((c) => c.close());

    const [companies, contacts, deals] = database.tables.map((x: any) => x.id);
    const rows = async (table: number) => (await api('GET', `/api/database/rows/table/${table}/?user_field_names=true`)).body.results;
    expect((await rows(contacts)).map((r: any) => [r['Full name'], r.Company.map((c: any) => c.value)])).toEqual([
      ['Jane Cooper', ['Acme Corp']],
      ['Tom Baker', ['Acme Corp']],
      ['Lena Fischer', ['Bright Shop']],
      ['Omar Haddad', ['Cloudnine']],
    ]);
    expect((await rows(companies)).map((r: any) => [r.Name, r['Contact count'], r['Pipeline value']])).toEqual([
      ['Acme Corp', '2', '60000.00'],
      ['Bright Shop', '1', '23500.00'],
      ['Cloudnine', '1', '30000.00'],
    ]);
    expect((await rows(deals)).map((r: any) => r['Weighted value'])).toEqual(['28800.00', '12000.00', '3400.00', '3000.00', '0.00']);
    const open = (await api('GET', `/api/database/views/table/${deals}/`)).body.find((v: any) => v.name === 'Open deals');
    expect((await api('GET', `/api/database/views/grid/${open.id}/`)).body.results.map((r: any) => r.id)).toEqual([1, 3, 4]);

    const second = await api('POST', `/api/templates/install/${workspaceId}/${crm.id}/`);
    expect(second.body[0].name).toBe('CRM');
    expect(second.body[0].tables.map((x: any) => x.id)).not.toEqual(database.tables.map((x: any) => x.id));
    const apps = (await api('GET', `/api/applications/workspace/${workspaceId}/`)).body;
    expect(apps.map((a: any) => a.name)).toEqual(['Project tracker', 'CRM', 'CRM']);
  });

  test('every shipped template installs with its computed fields typed and its views kept', async () => {
    const workspace = (await t.request('POST', '/api/workspaces/', { token: ada.token, body: { name: 'All templates' } })).body.id;
    const templates = (await api('GET', '/api/templates/', null)).body.flatMap((c: any) => c.templates);
    for (const template of templates) {
      const file = JSON.parse(readFileSync(join(SHIPPED, `${template.slug}.json`), 'utf8'));
      const installed = (await api('POST', `/api/templates/install/${workspace}/${template.id}/`)).body;
      expect(installed.map((a: any) => a.name)).toEqual(file.applications.map((a: any) => a.name));
      for (const [i, database] of installed.entries()) {
        const docs = file.applications[i].tables;
        expect(database.tables.map((x: any) => x.name)).toEqual(docs.map((d: any) => d.name));
        for (const [j, table] of database.tables.entries()) {
          const fields = (await api('GET', `/api/database/fields/table/${table.id}/`)).body;
          expect([template.slug, table.name, fields.filter((f: any) => f.error || f.formula_type === 'invalid').map((f: any) => f.name)]).toEqual([template.slug, table.name, []]);
          expect(fields.map((f: any) => f.name).sort()).toEqual(docs[j].fields.map((f: any) => f.name).sort());
          const views = (await api('GET', `/api/database/views/table/${table.id}/`)).body;
          expect(views.map((v: any) => v.name)).toEqual(docs[j].views.map((v: any) => v.name));
          const count = (await api('GET', `/api/database/rows/table/${table.id}/?size=1`)).body.count;
          expect(count).toBe(docs[j].rows.length);
        }
      }
    }
  });

  test('errors: unknown workspace (404), unknown template (404), not a member (400), anonymous (401)', async () => {
    const tracker = await templateBySlug('project-tracker');
    expect((await api('POST', `/api/templates/install/999999/${tracker.id}/`)).body.error).toBe('ERROR_GROUP_DOES_NOT_EXIST');
    const missing = await api('POST', `/api/templates/install/${workspaceId}/999/`);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERROR_TEMPLATE_DOES_NOT_EXIST']);
    const outsider = await api('POST', `/api/templates/install/${workspaceId}/${tracker.id}/`, eve.token);
    expect([outsider.status, outsider.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect((await api('POST', `/api/templates/install/${workspaceId}/${tracker.id}/async/`, eve.token)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('POST', `/api/templates/install/${workspaceId}/${tracker.id}/`, null)).status).toBe(401);
    expect((await api('GET', `/api/applications/workspace/${workspaceId}/`)).body).toHaveLength(3);
  });
});

describe('templates of TEMPLATES_DIR', () => {
  let t: TestApp;
  let ada: SignedUp;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rowspace-templates-'));
    const tracker = JSON.parse(readFileSync(join(SHIPPED, 'project-tracker.json'), 'utf8'));
    // A template whose last table cannot be created (a formula naming a field that does not exist).
    const broken = structuredClone(tracker);
    broken.slug = 'broken';
    broken.name = 'Broken';
    broken.categories = ['Other'];
    broken.applications[0].tables[2].fields.push({ id: 999, name: 'Bad', type: 'formula', primary: false, order: 9, properties: { formula: "field('Missing')" } });
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken));
    // A template whose database is not a database document.
    writeFileSync(join(dir, 'bad-doc.json'), JSON.stringify({ ...broken, slug: 'bad-doc', name: 'Bad document', applications: [{ type: 'database', name: 'X', format: 'rowspace.database', version: 1, tables: 'x' }] }));
    writeFileSync(join(dir, 'not-a-template.json'), JSON.stringify({ name: 'No slug' }));
    writeFileSync(join(dir, 'garbage.json'), '{ not json');
    t = await startApp({ TEMPLATES_DIR: dir, DEFAULT_TEMPLATE: 'broken' });
    ada = await signUp(t, 'Ada');
  });
  afterAll(async () => t?.close());

  test('files that are not templates are left out', async () => {
    const categories = (await t.request('GET', '/api/templates/')).body;
    expect(categories).toEqual([
      { id: 1, name: 'Other', templates: [expect.objectContaining({ id: 1, slug: 'bad-doc', is_default: false }), expect.objectContaining({ id: 2, slug: 'broken', is_default: true })] },
    ]);
  });

  test('an install that fails writes nothing, sync or async', async () => {
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: ada.token })).body[0].id;
    const before = (await t.request('GET', `/api/applications/workspace/${workspaceId}/`, { token: ada.token })).body;
    const tablesBefore = (await t.request('GET', '/api/applications/', { token: ada.token })).body.flatMap((a: any) => a.tables);
    const sync = await t.request('POST', `/api/templates/install/${workspaceId}/2/`, { token: ada.token });
    expect([sync.status, sync.body.error]).toEqual([400, 'ERROR_WITH_FORMULA']);
    const job = await finished(t, ada.token, (await t.request('POST', `/api/templates/install/${workspaceId}/2/async/`, { token: ada.token })).body.id);
    expect(job.state).toBe('failed');
    expect(job.human_readable_error).toMatch(/Missing/);
    expect(job.installed_applications).toEqual([]);
    const invalid = await t.request('POST', `/api/templates/install/${workspaceId}/1/`, { token: ada.token });
    expect([invalid.status, invalid.body.error]).toEqual([400, 'ERROR_INVALID_SERIALIZED_APPLICATION']);
    expect((await t.request('GET', `/api/applications/workspace/${workspaceId}/`, { token: ada.token })).body).toEqual(before);
    expect((await t.request('GET', '/api/applications/', { token: ada.token })).body.flatMap((a: any) => a.tables)).toEqual(tablesBefore);
  });
});
