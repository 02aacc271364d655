import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PageTypeRegistry } from '../src/realtime/pages/page-type';
import { NO_TIMED_WORK, startApp, TEST_DB, TestApp } from './support/app';
import { fingerprint } from './support/fingerprint';
import { createTenant, fillPath, Tenant } from './support/fixtures';
import { Operation, operationsOf } from './support/fuzz';
import { bodyFor } from './support/valid-bodies';
import { connect, expectNone, SETTLE_MS } from './support/ws';

/** A test making one pass over every route of the API (its time grows with the API, not with a fault). */
const ROUTE_PASS_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The tenant matrix: for every route with an id, a second user calls it with the first user's
 * ids and gets the spec's error, sees nothing of theirs and changes nothing; with their own ids
 * but the first user's objects named in the body or query, nothing of the first user's changes
 * or shows. A second user's socket can subscribe to none of the first user's pages and
 * receives none of their messages. New routes are in the matrix as soon as they are in the
 * OpenAPI document (a write route needs a valid body in VALID_BODIES).
 */

/** DRF's IsAdminUser refusal: the body has no error code. */
const NOT_STAFF: [number, string | undefined] = [403, undefined];

/** What a non-member is answered, when it is not `ERROR_USER_NOT_IN_GROUP` (400). */
const EXPECTED: Record<string, [number, string | undefined]> = {
  // Staff routes: Bob is not staff (Alice, the instance's first account, is).
  admin_edit_user: NOT_STAFF,
  admin_delete_user: NOT_STAFF,
  admin_delete_workspace: NOT_STAFF,
  get_auth_provider: NOT_STAFF,
  update_auth_provider: NOT_STAFF,
  delete_auth_provider: NOT_STAFF,
  // Sign-in redirects of the instance's providers (the password provider is none of them): to the web client's error page.
  oauth_provider_login_redirect: [302, undefined],
  oauth_provider_login_callback: [302, undefined],
  get_job: [404, 'ERROR_JOB_DOES_NOT_EXIST'],
  // Templates belong to nobody: a view's slug names no template.
  get_template: [404, 'ERROR_TEMPLATE_DOES_NOT_EXIST'],
  cancel_job: [404, 'ERROR_JOB_DOES_NOT_EXIST'],
  get_export_job: [404, 'ERROR_EXPORT_JOB_DOES_NOT_EXIST'],
  accept_workspace_invitation: [400, 'ERROR_GROUP_INVITATION_EMAIL_MISMATCH'],
  reject_workspace_invitation: [400, 'ERROR_GROUP_INVITATION_EMAIL_MISMATCH'],
  get_database_token: [404, 'ERROR_TOKEN_DOES_NOT_EXIST'],
  update_database_token: [404, 'ERROR_TOKEN_DOES_NOT_EXIST'],
  delete_database_token: [404, 'ERROR_TOKEN_DOES_NOT_EXIST'],
  get_mcp_endpoint: [404, 'ERROR_MCP_ENDPOINT_DOES_NOT_EXIST'],
  update_mcp_endpoint: [404, 'ERROR_MCP_ENDPOINT_DOES_NOT_EXIST'],
  delete_mcp_endpoint: [404, 'ERROR_MCP_ENDPOINT_DOES_NOT_EXIST'],
  // A slug is an id: a stranger is told a non-public form does not exist, as Baserow answers.
  get_meta_database_table_form_view: [404, 'ERROR_FORM_DOES_NOT_EXIST'],
  submit_database_table_form_view: [404, 'ERROR_FORM_DOES_NOT_EXIST'],
  upload_file_form_view: [404, 'ERROR_FORM_DOES_NOT_EXIST'],
  // A view's slug opens for a non-member only when the view is public.
  public_view_token_auth: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  get_public_view_info: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  public_list_database_table_grid_view_rows: [404, 'ERROR_GRID_DOES_NOT_EXIST'],
  public_list_database_table_gallery_view_rows: [404, 'ERROR_GALLERY_DOES_NOT_EXIST'],
  public_list_database_table_kanban_view_rows: [404, 'ERROR_KANBAN_DOES_NOT_EXIST'],
  get_database_table_public_grid_view_field_aggregations: [404, 'ERROR_GRID_DOES_NOT_EXIST'],
  public_list_database_table_timeline_view_rows: [404, 'ERROR_TIMELINE_DOES_NOT_EXIST'],
  // Baserow checks a calendar listing's range (required) before the view; with one, a stranger is refused (test/calendar-view.e2e.spec.ts).
  list_database_table_calendar_view_rows: [400, 'ERROR_QUERY_PARAMETER_VALIDATION'],
  public_list_database_table_calendar_view_rows: [400, 'ERROR_QUERY_PARAMETER_VALIDATION'],
  // An iCal slug opens only a public feed (the tenant's is off): as unknown.
  calendar_ical_feed: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  get_public_view_row: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  database_table_public_view_link_row_field_lookup: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
  export_publicly_shared_view: [404, 'ERROR_VIEW_DOES_NOT_EXIST'],
};
const DEFAULT_EXPECTED: [number, string | undefined] = [400, 'ERROR_USER_NOT_IN_GROUP'];
// Baserow validates the role list's query (scope_type and scope_id, both required) first; with it, a stranger gets ERROR_USER_NOT_IN_GROUP (tested below).
EXPECTED.list_role_assignments = [400, 'ERROR_QUERY_PARAMETER_VALIDATION'];

/** Query parameters that name objects, tried with the first user's ids on the second user's routes. */
const REFERENCE_QUERY = (ids: Record<string, string>) =>
  `view_id=${ids.viewId}&before=${ids.rowId}&before_id=${ids.rowId}&table__${ids.tableId}=${ids.rowId}&filter__field_${ids.fieldId}__equal=x&include=field_${ids.fieldId}`;

/** Routes that name objects only by a public secret (an invitation token, a public export's signed job id) are not tenant-scoped. */
const scoped = (op: Operation) => op.pathParams.some((p) => p !== 'token' && p !== 'job_id');

describe(`tenant matrix (${TEST_DB})`, () => {
  let t: TestApp;
  let dataSource: DataSource;
  let alice: Tenant;
  let bob: Tenant;
  let operations: Operation[];
  const secret = `ALICE-SECRET-${randomBytes(4).toString('hex')}`;

  /** Everything Alice can see, as she sees it: any change of it is a change made to her. */
  async function aliceView(): Promise<string> {
    const { ids, user } = alice;
    const paths = [
      '/api/workspaces/',
      '/api/applications/',
      `/api/workspaces/users/workspace/${ids.workspaceId}/`,
      `/api/workspaces/invitations/workspace/${ids.workspaceId}/`,
      `/api/database/fields/table/${ids.tableId}/`,
      `/api/database/rows/table/${ids.tableId}/?size=200`,
      `/api/database/views/table/${ids.tableId}/`,
      `/api/database/views/${ids.viewId}/field-options/`,
      `/api/database/views/${ids.viewId}/decorations/`,
      `/api/database/views/${ids.viewId}/?include=filters,sortings,group_bys`,
      `/api/jobs/${ids.jobId}/`,
      `/api/row_comments/${ids.tableId}/${ids.rowId}/?size=200`,
      `/api/snapshots/application/${ids.applicationId}/`,
      `/api/teams/workspace/${ids.workspaceId}/`,
      `/api/teams/${ids.teamId}/subjects/`,
    ];
    const answers = await Promise.all(paths.map((path) => t.request('GET', path, { token: user.token })));
    return JSON.stringify(answers.map((res) => [res.status, res.body]));
  }

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0', ...NO_TIMED_WORK });
    dataSource = t.app.get(DataSource);
    alice = await createTenant(t, 'Alice');
    bob = await createTenant(t, 'Bob');
    // Alice's names and cells carry a marker that must never reach Bob.
    const { ids, user } = alice;
    const renames: [string, string, unknown][] = [
      ['PATCH', `/api/workspaces/${ids.workspaceId}/`, { name: `${secret} workspace` }],
      ['PATCH', `/api/applications/${ids.applicationId}/`, { name: `${secret} database` }],
      ['PATCH', `/api/database/tables/${ids.tableId}/`, { name: `${secret} table` }],
      ['PATCH', `/api/database/fields/${ids.fieldId}/`, { name: `${secret} field` }],
      ['PATCH', `/api/database/views/${ids.viewId}/`, { name: `${secret} view` }],
      ['PATCH', `/api/database/views/decoration/${ids.decorationId}/`, { value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'c', color: `${secret} colour`, filters: [] }] } }],
      ['POST', `/api/database/rows/table/${ids.tableId}/`, { [`field_${ids.fieldId}`]: `${secret} cell` }],
      ['PUT', `/api/teams/${ids.teamId}/`, { name: `${secret} team`, default_role: 'VIEWER', subjects: [{ subject_id: Number(ids.userId), subject_type: 'auth.User' }] }],
      ['PATCH', `/api/row_comments/${ids.tableId}/comment/${ids.commentId}/`, { message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `${secret} comment` }] }] } }],
    ];
    for (const [method, path, body] of renames) expect((await t.request(method, path, { token: user.token, body })).status).toBe(200);
    operations = operationsOf((await t.request('GET', '/api/schema.json')).body).filter(scoped);
  });
  afterAll(() => t.close());

  it('covers every route with an id', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it("answers a stranger using Alice's ids with the spec's error, shows nothing and changes nothing", async () => {
    const problems: string[] = [];
    for (const op of operations) {
      const before = await fingerprint(dataSource);
      const res = await t.request(op.method, fillPath(op.path, alice.ids), { token: bob.user.token, body: bodyFor(op, alice.ids) });
      const [status, code] = EXPECTED[op.operationId] ?? DEFAULT_EXPECTED;
      const where = `${op.operationId} ${op.method} ${op.path}`;
      if (res.status !== status || res.body?.error !== code) problems.push(`${where}: expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 200)}`);
      if (res.text.includes(secret) || res.text.includes(alice.user.email)) problems.push(`${where}: leaked Alice's data: ${res.text.slice(0, 200)}`);
      if ((await fingerprint(dataSource)) !== before) problems.push(`${where}: changed the database`);
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

  it('refuses a member who is not staff on every staff route (admin pages, instance settings), showing and changing nothing', async () => {
    const all = operationsOf((await t.request('GET', '/api/schema.json')).body);
    const staffRoutes = all.filter((op) => op.path.startsWith('/api/admin/') || ['update_settings', 'get_instance_id'].includes(op.operationId));
    expect(staffRoutes.map((op) => op.operationId).sort()).toEqual([
      'admin_async_audit_log_export',
      'admin_audit_log_action_types',
      'admin_audit_log_list',
      'admin_audit_log_users',
      'admin_audit_log_workspaces',
      'admin_create_user',
      'admin_dashboard',
      'admin_delete_user',
      'admin_delete_workspace',
      'admin_edit_user',
      'admin_impersonate_user',
      'admin_list_users',
      'admin_list_workspaces',
      'create_auth_provider',
      'delete_auth_provider',
      'get_auth_provider',
      'get_instance_id',
      'get_next_auth_provider_id',
      'list_auth_providers',
      'update_auth_provider',
      'update_settings',
    ]);
    const problems: string[] = [];
    for (const op of staffRoutes) {
      for (const ids of [alice.ids, bob.ids]) {
        const before = await fingerprint(dataSource);
        const res = await t.request(op.method, fillPath(op.path, ids), { token: bob.user.token, body: bodyFor(op, alice.ids) });
        const where = `${op.operationId} ${op.method} ${op.path}`;
        if (res.status !== 403 || JSON.stringify(res.body) !== JSON.stringify({ detail: 'You do not have permission to perform this action.' })) {
          problems.push(`${where}: expected 403 not staff, got ${res.status} ${res.text.slice(0, 200)}`);
        }
        if ((await fingerprint(dataSource)) !== before) problems.push(`${where}: changed the database`);
      }
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

  it("refuses a stranger the audit log of Alice's workspace (query and export filter), showing nothing of hers", async () => {
    const problems: string[] = [];
    const workspace = alice.ids.workspaceId;
    const reads = ['/api/audit-log/', '/api/audit-log/users/', '/api/audit-log/action-types/', '/api/admin/audit-log/', '/api/admin/audit-log/users/', '/api/admin/audit-log/action-types/'];
    const calls: [string, string, unknown][] = [
      ...reads.map((path): [string, string, unknown] => ['GET', `${path}?workspace_id=${workspace}`, undefined]),
      ['POST', '/api/audit-log/export/', { filter_workspace_id: Number(workspace) }],
      ['POST', '/api/admin/audit-log/export/', { filter_workspace_id: Number(workspace) }],
    ];
    for (const [method, path, body] of calls) {
      const before = await fingerprint(dataSource);
      const res = await t.request(method, path, { token: bob.user.token, body });
      if (res.status !== 400 || res.body?.error !== 'ERROR_USER_NOT_IN_GROUP') problems.push(`${method} ${path}: expected 400 ERROR_USER_NOT_IN_GROUP, got ${res.status} ${res.text.slice(0, 200)}`);
      if (res.text.includes(secret) || res.text.includes(alice.user.email)) problems.push(`${method} ${path}: leaked Alice's data: ${res.text.slice(0, 200)}`);
      if ((await fingerprint(dataSource)) !== before) problems.push(`${method} ${path}: changed the database`);
    }
    // Bob's own workspace (he is its admin) shows his entries only.
    const own = await t.request('GET', `/api/audit-log/?workspace_id=${bob.ids.workspaceId}&size=100`, { token: bob.user.token });
    expect(own.status).toBe(200);
    expect(own.text.includes(secret) || own.text.includes(alice.user.email)).toBe(false);
    expect(problems).toEqual([]);
  });

  it("answers a token of Bob's workspace on Alice's routes that accept tokens with 401, showing and changing nothing", async () => {
    const problems: string[] = [];
    const tokenRoutes = operations.filter((op) => op.schemes.includes('Database token'));
    expect(tokenRoutes.map((op) => op.operationId)).toEqual(expect.arrayContaining(['list_database_table_rows', 'batch_update_database_table_rows', 'list_database_table_fields']));
    for (const op of tokenRoutes) {
      const before = await fingerprint(dataSource);
      const headers = { Authorization: `Token ${bob.tokenKey}` };
      const res = await t.request(op.method, fillPath(op.path, alice.ids), { headers, body: bodyFor(op, alice.ids) });
      const where = `${op.operationId} ${op.method} ${op.path}`;
      if (res.status !== 401 || res.body?.error !== 'ERROR_NO_PERMISSION_TO_TABLE') problems.push(`${where}: expected 401 ERROR_NO_PERMISSION_TO_TABLE, got ${res.status} ${res.text.slice(0, 200)}`);
      if (res.text.includes(secret) || res.text.includes(alice.user.email)) problems.push(`${where}: leaked Alice's data: ${res.text.slice(0, 200)}`);
      if ((await fingerprint(dataSource)) !== before) problems.push(`${where}: changed the database`);
    }
    const names = await t.request('GET', `/api/database/rows/names/?table__${alice.ids.tableId}=${alice.ids.rowId}`, { headers: { Authorization: `Token ${bob.tokenKey}` } });
    if (names.status !== 401 || names.text.includes(secret)) problems.push(`row names: ${names.status} ${names.text.slice(0, 200)}`);
    const tables = await t.request('GET', '/api/database/tables/all-tables/', { headers: { Authorization: `Token ${bob.tokenKey}` } });
    expect(tables.status).toBe(200);
    expect(tables.body.map((table: { id: number }) => String(table.id))).not.toContain(alice.ids.tableId);
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

  it("lets a stranger's socket subscribe to none of Alice's pages and receive none of her messages", async () => {
    const { ids, user } = alice;
    // Alice's view is not public: its slug opens its page to members only (no password token).
    const pageParameters: Record<string, string | null> = { table_id: ids.tableId, row_id: ids.rowId, view_id: ids.viewId, slug: ids.slug, token: null };
    const bobSocket = await connect(t, bob.user.token);
    const aliceSocket = await connect(t, user.token);
    try {
      // Bob's own page works, so silence below means refusal, not a dead socket.
      bobSocket.send({ page: 'table', table_id: Number(bob.ids.tableId) });
      expect((await bobSocket.waitFor('page_add')).parameters).toEqual({ table_id: Number(bob.ids.tableId) });
      for (const type of t.app.get(PageTypeRegistry).all()) {
        const frame: Record<string, unknown> = { page: type.type };
        for (const name of type.parameters) {
          if (pageParameters[name] === undefined) throw new Error(`No fixture for the ${type.type} page parameter ${name}: add it here`);
          const value = pageParameters[name];
          frame[name] = value !== null && /^\d+$/.test(value) ? Number(value) : value;
        }
        bobSocket.send(frame);
        aliceSocket.send(frame);
        await aliceSocket.waitFor('page_add');
      }
      await expectNone(bobSocket);

      // Alice works in her workspace; her socket hears it, Bob's hears nothing.
      const rows = `/api/database/rows/table/${ids.tableId}`;
      const writes: [string, string, unknown][] = [
        ['PATCH', `/api/workspaces/${ids.workspaceId}/`, { name: `${secret} again` }],
        ['PATCH', `/api/applications/${ids.applicationId}/`, { name: `${secret} db again` }],
        ['PATCH', `/api/database/tables/${ids.tableId}/`, { name: `${secret} table again` }],
        ['POST', `/api/database/fields/table/${ids.tableId}/`, { name: `${secret} new field`, type: 'text' }],
        ['POST', `${rows}/`, { [`field_${ids.fieldId}`]: `${secret} new cell` }],
      ['POST', `/api/row_comments/${ids.tableId}/${ids.rowId}/`, { message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `${secret} comment` }] }] } }],
        ['PATCH', `${rows}/${ids.rowId}/`, { [`field_${ids.fieldId}`]: `${secret} changed cell` }],
        ['POST', `/api/database/views/table/${ids.tableId}/`, { name: `${secret} new view`, type: 'grid' }],
        ['POST', `/api/database/views/${ids.viewId}/decorations/`, { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'c', color: `${secret} new colour`, filters: [] }] } }],
        ['POST', `/api/workspaces/`, { name: `${secret} second workspace` }],
      ];
      for (const [method, path, body] of writes) expect((await t.request(method, path, { token: user.token, body })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      expect(aliceSocket.received.filter((m) => !['authentication', 'page_add'].includes(m.type)).length).toBeGreaterThanOrEqual(writes.length - 1);
      await expectNone(bobSocket);
      expect(JSON.stringify(bobSocket.received)).not.toContain(secret);
    } finally {
      bobSocket.close();
      aliceSocket.close();
    }
  });
  it("keeps Alice's trash from a stranger: not listed, not restorable, not emptied, its restores not heard", async () => {
    const { ids, user } = alice;
    const rows = `/api/database/rows/table/${ids.tableId}`;
    const row = (await t.request('POST', `${rows}/`, { token: user.token, body: { [`field_${ids.fieldId}`]: `${secret} trashed cell` } })).body.id;
    expect((await t.request('DELETE', `${rows}/${row}/`, { token: user.token })).status).toBe(204);
    const restore = { trash_item_type: 'row', trash_item_id: row, parent_trash_item_id: Number(ids.tableId) };
    const bobSocket = await connect(t, bob.user.token);
    try {
      const before = await fingerprint(dataSource);
      const structure = await t.request('GET', '/api/trash/', { token: bob.user.token });
      expect(structure.status).toBe(200);
      expect(structure.body.workspaces.map((w: { id: number }) => String(w.id))).not.toContain(ids.workspaceId);
      for (const [method, path, body] of [
        ['GET', `/api/trash/workspace/${ids.workspaceId}/`, undefined],
        ['GET', `/api/trash/workspace/${bob.ids.workspaceId}/?application_id=${ids.applicationId}`, undefined],
        ['DELETE', `/api/trash/workspace/${ids.workspaceId}/`, undefined],
        ['PATCH', '/api/trash/restore/', restore],
      ] as const) {
        const res = await t.request(method, path, { token: bob.user.token, body });
        expect([res.status, res.body?.error]).toEqual(path.includes('application_id') ? [400, 'ERROR_APPLICATION_NOT_IN_GROUP'] : [400, 'ERROR_USER_NOT_IN_GROUP']);
        expect(res.text).not.toContain(secret);
      }
      expect(await fingerprint(dataSource)).toBe(before);
      expect((await t.request('PATCH', '/api/trash/restore/', { token: user.token, body: restore })).status).toBe(204);
      await expectNone(bobSocket);
    } finally {
      bobSocket.close();
    }
  });

  it("refuses role assignments naming Alice's objects or members, and Alice's roles to a stranger", async () => {
    const before = await fingerprint(dataSource);
    const item = (scope_type: string, scope_id: string, subject_id: string) => ({ subject_type: 'auth.User', subject_id: Number(subject_id), scope_type, scope_id: Number(scope_id), role: 'ADMIN' });
    const cases: [Record<string, unknown>, string][] = [
      [item('database_table', alice.ids.tableId, bob.ids.userId), 'ERROR_SCOPE_DOES_NOT_EXIST'],
      [item('application', alice.ids.applicationId, bob.ids.userId), 'ERROR_SCOPE_DOES_NOT_EXIST'],
      [item('workspace', alice.ids.workspaceId, bob.ids.userId), 'ERROR_SCOPE_DOES_NOT_EXIST'],
      [item('database_table', bob.ids.tableId, alice.ids.userId), 'ERROR_SUBJECT_DOES_NOT_EXIST'],
    ];
    for (const [body, error] of cases) {
      const res = await t.request('POST', `/api/role/${bob.ids.workspaceId}/`, { token: bob.user.token, body });
      expect([res.status, res.body.error]).toEqual([404, error]);
      const batch = await t.request('POST', `/api/role/${bob.ids.workspaceId}/batch/`, { token: bob.user.token, body: { items: [body] } });
      expect([batch.status, batch.body.error]).toEqual([404, error]);
    }
    const list = await t.request('GET', `/api/role/${alice.ids.workspaceId}/?scope_type=database_table&scope_id=${alice.ids.tableId}`, { token: bob.user.token });
    expect([list.status, list.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    const own = await t.request('GET', `/api/role/${bob.ids.workspaceId}/?scope_type=database_table&scope_id=${alice.ids.tableId}`, { token: bob.user.token });
    expect([own.status, own.body.error]).toEqual([404, 'ERROR_SCOPE_DOES_NOT_EXIST']);
    expect(await fingerprint(dataSource)).toBe(before);
  });

  it("names Alice's objects in bodies and queries on Bob's own routes without touching or showing them", async () => {
    const problems: string[] = [];
    let aliceBefore = await aliceView();
    // Bob's deletions last, so the other routes still find his objects.
    const ordered = [...operations.filter((op) => op.method !== 'DELETE'), ...operations.filter((op) => op.method === 'DELETE')];
    for (const op of ordered) {
      const path = `${fillPath(op.path, bob.ids)}?${REFERENCE_QUERY(alice.ids)}`;
      const res = await t.request(op.method, path, { token: bob.user.token, body: bodyFor(op, alice.ids) });
      const where = `${op.operationId} ${op.method} ${op.path}`;
      if (res.status >= 500) problems.push(`${where}: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.text.includes(secret) || res.text.includes(alice.user.email)) problems.push(`${where}: leaked Alice's data: ${res.text.slice(0, 200)}`);
      const aliceAfter = await aliceView();
      if (aliceAfter !== aliceBefore) problems.push(`${where}: changed what Alice sees`);
      aliceBefore = aliceAfter;
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

});
