import { ROLE_BATCH_MAX_ITEMS } from '../src/permissions/roles.dto';
import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { addMember, databaseOf, emptyTable, endedJob } from './support/fixtures';
import { done, undoClient } from './support/undo';
import { connect, expectNone } from './support/ws';

let t: TestApp;
let ada: SignedUp; // the workspace's admin
let bob: SignedUp; // a member
let eve: SignedUp; // a member of nothing of Ada's
let workspaceId: number;
let databaseId: number;
let tableId: number;
let otherTableId: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const assign = (items: Record<string, unknown>, token = ada.token) => api('POST', `/api/role/${workspaceId}/`, items, token);
const userItem = (user: SignedUp, scope_type: string, scope_id: number, role: string | null) => ({ subject_type: 'auth.User', subject_id: user.id, scope_type, scope_id, role });

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  eve = await signUp(t, 'Eve');
  workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
  databaseId = await databaseOf(t, ada);
  tableId = await emptyTable(t, ada, databaseId, 'Secrets');
  otherTableId = await emptyTable(t, ada, databaseId, 'Public');
  await addMember(t, ada, bob, workspaceId);
});
afterAll(async () => t?.close());

describe(`role assignments API (${TEST_DB})`, () => {
  test('assign, read back, change and remove a table role', async () => {
    const res = await assign(userItem(bob, 'database_table', tableId, 'VIEWER'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      role: 'VIEWER',
      scope_id: tableId,
      scope_type: 'database_table',
      subject_id: bob.id,
      subject_type: 'auth.User',
      subject: { id: bob.id, username: bob.email, first_name: 'Bob', email: bob.email },
    });
    const again = await assign(userItem(bob, 'database_table', tableId, 'EDITOR'));
    expect([again.status, again.body.id, again.body.role]).toEqual([200, res.body.id, 'EDITOR']);
    const list = await api('GET', `/api/role/${workspaceId}/?scope_type=database_table&scope_id=${tableId}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([again.body]);
    const removed = await assign(userItem(bob, 'database_table', tableId, null));
    expect(removed.status).toBe(204);
    expect((await api('GET', `/api/role/${workspaceId}/?scope_type=database_table&scope_id=${tableId}`)).body).toEqual([]);
  });

  test('the workspace scope is workspace_user.permissions (BUILDER stored as MEMBER)', async () => {
    const list = await api('GET', `/api/role/${workspaceId}/?scope_type=workspace&scope_id=${workspaceId}`);
    expect(list.status).toBe(200);
    expect(list.body.map((a: any) => [a.id, a.subject_id, a.role])).toEqual([
      [null, ada.id, 'ADMIN'],
      [null, bob.id, 'BUILDER'],
    ]);
    const viewer = await assign(userItem(bob, 'workspace', workspaceId, 'VIEWER'));
    expect([viewer.status, viewer.body.id, viewer.body.role]).toEqual([200, null, 'VIEWER']);
    const members = (await api('GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body;
    expect(members.find((m: any) => m.user_id === bob.id).permissions).toBe('VIEWER');
    const builder = await assign(userItem(bob, 'workspace', workspaceId, 'BUILDER'));
    expect([builder.status, builder.body.role]).toEqual([200, 'BUILDER']);
    const after = (await api('GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body;
    expect(after.find((m: any) => m.user_id === bob.id).permissions).toBe('MEMBER');
  });

  test('a database is the `application` scope (`database` read as it)', async () => {
    const res = await assign(userItem(bob, 'database', databaseId, 'EDITOR'));
    expect([res.status, res.body.scope_type, res.body.scope_id]).toEqual([200, 'application', databaseId]);
    const list = await api('GET', `/api/role/${workspaceId}/?scope_type=application&scope_id=${databaseId}`);
    expect(list.body.map((a: any) => a.role)).toEqual(['EDITOR']);
    expect((await assign(userItem(bob, 'application', databaseId, null))).status).toBe(204);
  });

  test('batch: each item answered, null when removed; duplicates refused as Baserow does', async () => {
    const res = await api('POST', `/api/role/${workspaceId}/batch/`, {
      items: [userItem(bob, 'database_table', tableId, 'COMMENTER'), userItem(bob, 'database_table', otherTableId, null)],
    });
    expect(res.status).toBe(200);
    expect(res.body.map((a: any) => a && a.role)).toEqual(['COMMENTER', null]);
    const item = userItem(bob, 'database_table', tableId, 'VIEWER');
    const dup = await api('POST', `/api/role/${workspaceId}/batch/`, { items: [item, item] });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ error: 'ERROR_DUPLICATE_ROLE_ASSIGNMENTS', detail: 'The list of role assignments includes duplicates at indexes: [0]' });
    const bad = await api('POST', `/api/role/${workspaceId}/batch/`, { items: [{ ...item, subject_id: 'x' }] });
    expect([bad.status, bad.body.error, Object.keys(bad.body.detail.items)]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION', ['0']]);
    // A batch is one transaction: at most ROLE_BATCH_MAX_ITEMS items.
    const tooMany = await api('POST', `/api/role/${workspaceId}/batch/`, { items: Array.from({ length: ROLE_BATCH_MAX_ITEMS + 1 }, () => item) });
    expect([tooMany.status, tooMany.body.error, tooMany.body.detail.items]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION', [{ error: `Ensure this field has no more than ${ROLE_BATCH_MAX_ITEMS} elements.`, code: 'max_length' }]]);
    // All or nothing: the first item is not kept when the second fails.
    const failing = await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'database_table', tableId, 'EDITOR'), userItem(bob, 'database_table', 999999, 'EDITOR')] });
    expect([failing.status, failing.body.error]).toEqual([404, 'ERROR_SCOPE_DOES_NOT_EXIST']);
    const list = await api('GET', `/api/role/${workspaceId}/?scope_type=database_table&scope_id=${tableId}`);
    expect(list.body.map((a: any) => a.role)).toEqual(['COMMENTER']);
    await assign(userItem(bob, 'database_table', tableId, null));
  });

  test("Baserow's errors", async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [userItem(bob, 'database_table', tableId, 'OWNER'), 404, 'ERROR_ROLE_DOES_NOT_EXIST'],
      [userItem(bob, 'nonsense', tableId, 'VIEWER'), 404, 'ERROR_OBJECT_SCOPE_TYPE_DOES_NOT_EXIST'],
      [{ ...userItem(bob, 'database_table', tableId, 'VIEWER'), subject_type: 'nonsense' }, 404, 'ERROR_SUBJECT_TYPE_DOES_NOT_EXIST'],
      [userItem(eve, 'database_table', tableId, 'VIEWER'), 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      [{ ...userItem(bob, 'database_table', tableId, 'VIEWER'), subject_type: 'baserow_enterprise.Team', subject_id: 1 }, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      [userItem(bob, 'database_table', 999999, 'VIEWER'), 404, 'ERROR_SCOPE_DOES_NOT_EXIST'],
      [userItem(bob, 'workspace', workspaceId + 1000, 'VIEWER'), 404, 'ERROR_SCOPE_DOES_NOT_EXIST'],
      [userItem(ada, 'workspace', workspaceId, 'BUILDER'), 400, 'ERROR_LAST_ADMIN_OF_GROUP'],
    ];
    for (const [body, status, error] of cases) {
      const res = await assign(body);
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
    const missing = await assign({ subject_type: 'auth.User' });
    expect([missing.status, missing.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    expect((await api('POST', '/api/role/999999/', userItem(bob, 'workspace', 999999, 'VIEWER'))).body.error).toBe('ERROR_GROUP_DOES_NOT_EXIST');
    // Not a member: nothing of the workspace is told.
    const outsider = await assign(userItem(bob, 'database_table', tableId, 'VIEWER'), eve.token);
    expect([outsider.status, outsider.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    // A member who is not an admin may neither read nor assign roles.
    const member = await assign(userItem(bob, 'database_table', tableId, 'ADMIN'), bob.token);
    expect([member.status, member.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const read = await api('GET', `/api/role/${workspaceId}/?scope_type=workspace&scope_id=${workspaceId}`, undefined, bob.token);
    expect([read.status, read.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const query = await api('GET', `/api/role/${workspaceId}/`);
    expect([query.status, query.body.error]).toEqual([400, 'ERROR_QUERY_PARAMETER_VALIDATION']);
  });

  test('a role naming another workspace\'s table is refused as an unknown scope', async () => {
    const eveDatabase = await databaseOf(t, eve);
    const eveTable = await emptyTable(t, eve, eveDatabase, 'Eve table');
    const res = await assign(userItem(bob, 'database_table', eveTable, 'ADMIN'));
    expect([res.status, res.body.error]).toEqual([404, 'ERROR_SCOPE_DOES_NOT_EXIST']);
    const app = await assign(userItem(bob, 'application', eveDatabase, 'ADMIN'));
    expect([app.status, app.body.error]).toEqual([404, 'ERROR_SCOPE_DOES_NOT_EXIST']);
  });

  test('permissions_updated goes to the affected user only, after commit', async () => {
    const bobSocket = await connect(t, bob.token);
    const adaSocket = await connect(t, ada.token);
    await assign(userItem(bob, 'database_table', tableId, 'VIEWER'));
    expect(await bobSocket.waitFor('permissions_updated')).toEqual({ type: 'permissions_updated', workspace_id: workspaceId });
    expect((await adaSocket.drain()).filter((m) => m.type === 'permissions_updated')).toEqual([]);
    await assign(userItem(bob, 'database_table', 999999, 'VIEWER'));
    await expectNone(bobSocket);
    await assign(userItem(bob, 'database_table', tableId, null));
    await bobSocket.waitFor('permissions_updated');
    bobSocket.close();
    adaSocket.close();
  });

  test('undo and redo of a batch in the workspace scope: each role back to what it was, none where there was none', async () => {
    const session = undoClient(t, () => ada);
    const scope = `workspace${workspaceId}`;
    const roleOn = async (scope_type: string, scope_id: number) =>
      (await api('GET', `/api/role/${workspaceId}/?scope_type=${scope_type}&scope_id=${scope_id}`)).body.find((a: any) => a.subject_id === bob.id)?.role ?? null;
    expect((await assign(userItem(bob, 'database_table', tableId, 'VIEWER'))).status).toBe(200);
    const items = [userItem(bob, 'database_table', tableId, 'EDITOR'), userItem(bob, 'database_table', otherTableId, 'COMMENTER'), userItem(bob, 'workspace', workspaceId, 'VIEWER')];
    expect((await session.api('POST', `/api/role/${workspaceId}/batch/`, { items })).status).toBe(200);
    expect([await roleOn('database_table', tableId), await roleOn('database_table', otherTableId), await roleOn('workspace', workspaceId)]).toEqual(['EDITOR', 'COMMENTER', 'VIEWER']);
    expect((await session.undo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['batch_assign_role', scope]));
    expect([await roleOn('database_table', tableId), await roleOn('database_table', otherTableId), await roleOn('workspace', workspaceId)]).toEqual(['VIEWER', null, 'BUILDER']);
    expect((await session.redo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['batch_assign_role', scope]));
    expect([await roleOn('database_table', tableId), await roleOn('database_table', otherTableId), await roleOn('workspace', workspaceId)]).toEqual(['EDITOR', 'COMMENTER', 'VIEWER']);
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: items.map((item) => ({ ...item, role: item.scope_type === 'workspace' ? 'BUILDER' : null })) });
  });

  test('a member who leaves loses their assignments', async () => {
    const carl = await signUp(t, 'Carl');
    await addMember(t, ada, carl, workspaceId);
    await assign(userItem(carl, 'database_table', tableId, 'EDITOR'));
    expect((await api('POST', `/api/workspaces/${workspaceId}/leave/`, undefined, carl.token)).status).toBe(204);
    const list = await api('GET', `/api/role/${workspaceId}/?scope_type=database_table&scope_id=${tableId}`);
    expect(list.body.filter((a: any) => a.subject_id === carl.id)).toEqual([]);
  });
});

describe(`each role on each scope, and Baserow's precedence (${TEST_DB})`, () => {
  const rows = (table: number, token = bob.token) => api('GET', `/api/database/rows/table/${table}/`, undefined, token);
  const createRow = (table: number, token = bob.token) => api('POST', `/api/database/rows/table/${table}/`, {}, token);
  const createField = (table: number, token = bob.token) => api('POST', `/api/database/fields/table/${table}/`, { name: `F${Math.random()}`, type: 'text' }, token);
  const createComment = async (table: number, token = bob.token) => {
    const rowId = (await createRow(table, ada.token)).body.id;
    return api('POST', `/api/row_comments/${table}/${rowId}/`, { message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] } }, token);
  };
  const setRoles = async (workspaceRole: string, items: [string, number, string | null][]) => {
    const body = { items: [userItem(bob, 'workspace', workspaceId, workspaceRole), ...items.map(([type, id, role]) => userItem(bob, type, id, role))] };
    const res = await api('POST', `/api/role/${workspaceId}/batch/`, body);
    expect(res.status).toBe(200);
  };
  const statusOf = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    return r.status >= 400 ? `${r.status} ${r.body.error}` : r.status;
  };

  afterEach(async () => setRoles('BUILDER', [['database_table', tableId, null], ['database_table', otherTableId, null], ['application', databaseId, null]]));

  test('a MEMBER (BUILDER) keeps what members always could, and the admin-only refusal', async () => {
    await setRoles('BUILDER', []);
    expect(await statusOf(createField(tableId))).toBe(200);
    expect(await statusOf(api('GET', `/api/workspaces/invitations/workspace/${workspaceId}/`, undefined, bob.token))).toBe('400 ERROR_USER_INVALID_GROUP_PERMISSIONS');
  });

  test('the workspace roles: VIEWER reads, COMMENTER comments, EDITOR writes rows, none of them builds', async () => {
    const expected: Record<string, [unknown, unknown, unknown, unknown]> = {
      VIEWER: [200, '401 PERMISSION_DENIED', '401 PERMISSION_DENIED', '401 PERMISSION_DENIED'],
      COMMENTER: [200, '401 PERMISSION_DENIED', 200, '401 PERMISSION_DENIED'],
      EDITOR: [200, 200, 200, '401 PERMISSION_DENIED'],
      NO_ACCESS: ['401 PERMISSION_DENIED', '401 PERMISSION_DENIED', '401 PERMISSION_DENIED', '401 PERMISSION_DENIED'],
      NO_ROLE_LOW_PRIORITY: ['401 PERMISSION_DENIED', '401 PERMISSION_DENIED', '401 PERMISSION_DENIED', '401 PERMISSION_DENIED'],
      ADMIN: [200, 200, 200, 200],
    };
    for (const [role, statuses] of Object.entries(expected)) {
      await setRoles(role, []);
      const got = [await statusOf(rows(tableId)), await statusOf(createRow(tableId)), await statusOf(createComment(tableId)), await statusOf(createField(tableId))];
      expect([role, ...got]).toEqual([role, ...statuses]);
    }
  });

  test('the most specific scope wins: a table over its database over the workspace', async () => {
    await setRoles('VIEWER', [['application', databaseId, 'EDITOR'], ['database_table', tableId, 'NO_ACCESS']]);
    expect(await statusOf(rows(tableId))).toBe('401 PERMISSION_DENIED');
    expect(await statusOf(createRow(otherTableId))).toBe(200);
    expect(await statusOf(createField(otherTableId))).toBe('401 PERMISSION_DENIED');
    await setRoles('BUILDER', [['database_table', tableId, 'VIEWER'], ['application', databaseId, null]]);
    expect(await statusOf(rows(tableId))).toBe(200);
    expect(await statusOf(createRow(tableId))).toBe('401 PERMISSION_DENIED');
    expect(await statusOf(createField(otherTableId))).toBe(200);
  });

  test('a role on a table alone lets its database and workspace be read, nothing else', async () => {
    await setRoles('NO_ACCESS', [['database_table', tableId, 'EDITOR']]);
    expect(await statusOf(createRow(tableId))).toBe(200);
    expect(await statusOf(rows(otherTableId))).toBe('401 PERMISSION_DENIED');
    expect(await statusOf(api('GET', `/api/applications/${databaseId}/`, undefined, bob.token))).toBe(200);
    expect(await statusOf(api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Nope' }, bob.token))).toBe('401 PERMISSION_DENIED');
  });

  test('a database token never exceeds its owner\'s role', async () => {
    const key = (await api('POST', '/api/database/tokens/', { name: 'Bob token', workspace: workspaceId }, bob.token)).body.key;
    const headers = { Authorization: `Token ${key}` };
    const viaToken = (method: string, table: number, body?: unknown) => t.request(method, `/api/database/rows/table/${table}/`, { headers, body });
    await setRoles('BUILDER', [['database_table', tableId, 'VIEWER']]);
    expect((await viaToken('GET', tableId)).status).toBe(200);
    expect(await statusOf(viaToken('POST', tableId, {}))).toBe('401 PERMISSION_DENIED');
    expect((await viaToken('POST', otherTableId, {})).status).toBe(200);
    await setRoles('BUILDER', [['database_table', tableId, 'NO_ACCESS']]);
    expect(await statusOf(viaToken('GET', tableId))).toBe('401 PERMISSION_DENIED');
  });
});

describe(`members' roles and the permissions endpoint (${TEST_DB})`, () => {
  const members = async () => (await api('GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body;
  const bobMember = async () => (await members()).find((m: any) => m.user_id === bob.id);
  const permissionsOf = async (token = bob.token) => {
    const res = await api('GET', `/api/workspaces/${workspaceId}/permissions/`, undefined, token);
    expect(res.status).toBe(200);
    return res.body as { name: string; permissions: any }[];
  };

  afterAll(async () => {
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'BUILDER'), userItem(bob, 'database_table', tableId, null)] });
  });

  test('role_uid is the workspace role (MEMBER read as BUILDER), highest_role_uid the highest anywhere', async () => {
    const ada_ = (await members()).find((m: any) => m.user_id === ada.id);
    expect([ada_.role_uid, ada_.highest_role_uid]).toEqual(['ADMIN', 'ADMIN']);
    expect([(await bobMember()).permissions, (await bobMember()).role_uid, (await bobMember()).highest_role_uid]).toEqual(['MEMBER', 'BUILDER', 'BUILDER']);
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'VIEWER'), userItem(bob, 'database_table', tableId, 'EDITOR')] });
    expect([(await bobMember()).permissions, (await bobMember()).role_uid, (await bobMember()).highest_role_uid]).toEqual(['VIEWER', 'VIEWER', 'EDITOR']);
  });

  test('PATCH of a member and invitations take enterprise role uids (BUILDER stored as MEMBER)', async () => {
    const id = (await bobMember()).id;
    const patched = await api('PATCH', `/api/workspaces/users/${id}/`, { permissions: 'COMMENTER' });
    expect([patched.status, patched.body.permissions]).toEqual([200, 'COMMENTER']);
    const builder = await api('PATCH', `/api/workspaces/users/${id}/`, { permissions: 'BUILDER' });
    expect([builder.status, builder.body.permissions]).toEqual([200, 'MEMBER']);
    const bad = await api('PATCH', `/api/workspaces/users/${id}/`, { permissions: 'OWNER' });
    expect([bad.status, bad.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    const dan = await signUp(t, 'Dan');
    const invitation = await api('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email: dan.email, permissions: 'VIEWER', message: '', base_url: 'http://localhost:8000/invite' });
    expect([invitation.status, invitation.body.permissions]).toEqual([200, 'VIEWER']);
    expect((await api('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, undefined, dan.token)).status).toBe(200);
    expect((await api('POST', `/api/database/rows/table/${tableId}/`, {}, dan.token)).body.error).toBe('PERMISSION_DENIED');
  });

  test('permissions: only `basic` for a plain MEMBER; Baserow\'s `role` object, with exceptions by object, once roles are in play', async () => {
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'BUILDER'), userItem(bob, 'database_table', tableId, null)] });
    expect((await permissionsOf()).map((m) => m.name)).toEqual(['core', 'setting_operation', 'staff', 'allow_if_template', 'basic']);
    await assign(userItem(bob, 'database_table', tableId, 'VIEWER'));
    const managers = await permissionsOf();
    expect(managers.map((m) => m.name)).toEqual(['core', 'setting_operation', 'staff', 'allow_if_template', 'role', 'basic']);
    const role = managers.find((m) => m.name === 'role')!.permissions;
    expect(role['database.table.create_row']).toEqual({ default: true, exceptions: [tableId] });
    expect(role['database.table.list_rows']).toEqual({ default: true, exceptions: [] });
    expect(role['workspace.update']).toEqual({ default: false, exceptions: [] });
    const fieldIds = (await api('GET', `/api/database/fields/table/${tableId}/`)).body.map((f: any) => f.id).sort();
    expect([...role['database.table.field.update'].exceptions].sort()).toEqual(fieldIds);
    // A role on a table alone: the workspace and the database are readable through it.
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'NO_ACCESS'), userItem(bob, 'database_table', tableId, 'EDITOR')] });
    const narrow = (await permissionsOf()).find((m) => m.name === 'role')!.permissions;
    expect(narrow['workspace.read']).toEqual({ default: false, exceptions: [workspaceId] });
    expect(narrow['application.read']).toEqual({ default: false, exceptions: [databaseId] });
    expect(narrow['database.table.create_row']).toEqual({ default: false, exceptions: [tableId] });
    // A snapshot's operations follow its database's role: an admin who only views this database may not restore its snapshots.
    const started = await api('POST', `/api/snapshots/application/${databaseId}/`, { name: 'Before' });
    const snapshotId = (await endedJob(t, ada.token, started.body.id)).snapshot.id;
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'ADMIN'), userItem(bob, 'database_table', tableId, null), userItem(bob, 'application', databaseId, 'VIEWER')] });
    const admin = (await permissionsOf()).find((m) => m.name === 'role')!.permissions;
    expect(admin['application.snapshot.restore']).toEqual({ default: true, exceptions: [snapshotId] });
    expect(admin['application.snapshot.delete']).toEqual({ default: true, exceptions: [snapshotId] });
    expect(admin['application.list_snapshots']).toEqual({ default: true, exceptions: [databaseId] });
    await api('POST', `/api/role/${workspaceId}/batch/`, { items: [userItem(bob, 'workspace', workspaceId, 'BUILDER'), userItem(bob, 'application', databaseId, null)] });
  });
});

describe(`reads and broadcasts limited to what the actor may read (${TEST_DB})`, () => {
  const roles = (items: Record<string, unknown>[]) => api('POST', `/api/role/${workspaceId}/batch/`, { items });
  const reset = () =>
    roles([userItem(bob, 'workspace', workspaceId, 'BUILDER'), userItem(bob, 'database_table', tableId, null), userItem(bob, 'application', databaseId, null)]);
  const tablesIn = (apps: any[]) => apps.find((a: any) => a.id === databaseId)?.tables.map((x: any) => x.id).sort();

  afterEach(reset);

  test('applications and tables lists leave out what a role hides', async () => {
    await roles([userItem(bob, 'database_table', tableId, 'NO_ACCESS')]);
    const apps = (await api('GET', `/api/applications/workspace/${workspaceId}/`, undefined, bob.token)).body;
    expect(tablesIn(apps)).not.toContain(tableId);
    expect(tablesIn(apps)).toContain(otherTableId);
    expect(tablesIn((await api('GET', '/api/applications/', undefined, bob.token)).body)).not.toContain(tableId);
    const tables = (await api('GET', `/api/database/tables/database/${databaseId}/`, undefined, bob.token)).body.map((x: any) => x.id);
    expect(tables).toContain(otherTableId);
    expect(tables).not.toContain(tableId);
    // Ada (admin) still sees everything.
    expect(tablesIn((await api('GET', `/api/applications/workspace/${workspaceId}/`)).body)).toContain(tableId);

    await roles([userItem(bob, 'workspace', workspaceId, 'NO_ACCESS'), userItem(bob, 'database_table', tableId, 'EDITOR')]);
    const narrow = (await api('GET', `/api/applications/workspace/${workspaceId}/`, undefined, bob.token)).body;
    expect(narrow.map((a: any) => a.id)).toEqual([databaseId]);
    expect(tablesIn(narrow)).toEqual([tableId]);

    await roles([userItem(bob, 'workspace', workspaceId, 'BUILDER'), userItem(bob, 'database_table', tableId, null), userItem(bob, 'application', databaseId, 'NO_ACCESS')]);
    expect((await api('GET', `/api/applications/workspace/${workspaceId}/`, undefined, bob.token)).body.map((a: any) => a.id)).not.toContain(databaseId);
  });

  test('a link into a NO_ACCESS table, its search and its export are refused', async () => {
    await roles([userItem(bob, 'database_table', tableId, 'NO_ACCESS')]);
    const link = await api('POST', `/api/database/fields/table/${otherTableId}/`, { name: 'To secrets', type: 'link_row', link_row_table_id: tableId }, bob.token);
    expect([link.status, link.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const search = await api('GET', `/api/database/rows/table/${tableId}/?search=x`, undefined, bob.token);
    expect([search.status, search.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const exported = await api('POST', `/api/database/export/table/${tableId}/`, { exporter_type: 'csv' }, bob.token);
    expect([exported.status, exported.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const names = await api('GET', `/api/database/rows/names/?table__${tableId}=1`, undefined, bob.token);
    expect(names.status).toBe(401);
  });

  test("the trash lists nothing of a NO_ACCESS table: not the table's fields, views, rows or comments, nor the table itself", async () => {
    const field = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Hidden field', type: 'text' })).body;
    const view = (await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Hidden view', type: 'grid' })).body;
    const row = (await api('POST', `/api/database/rows/table/${tableId}/`, {})).body;
    const visible = (await api('POST', `/api/database/fields/table/${otherTableId}/`, { name: 'Visible field', type: 'text' })).body;
    for (const path of [`/api/database/fields/${field.id}/`, `/api/database/views/${view.id}/`, `/api/database/rows/table/${tableId}/${row.id}/`, `/api/database/fields/${visible.id}/`]) {
      expect([200, 204]).toContain((await api('DELETE', path)).status);
    }
    const listed = async (token: string) => {
      const res = await api('GET', `/api/trash/workspace/${workspaceId}/?application_id=${databaseId}`, undefined, token);
      expect(res.status).toBe(200);
      return res.body.results.map((e: any) => `${e.trash_item_type}:${e.trash_item_id}`);
    };
    const all = [`field:${field.id}`, `view:${view.id}`, `row:${row.id}`, `field:${visible.id}`];
    expect(await listed(ada.token)).toEqual(expect.arrayContaining(all));
    await roles([userItem(bob, 'database_table', tableId, 'NO_ACCESS')]);
    const bobSees = await listed(bob.token);
    expect(bobSees).toContain(`field:${visible.id}`);
    expect(bobSees.filter((item: string) => all.slice(0, 3).includes(item))).toEqual([]);
    const page = await api('GET', `/api/trash/workspace/${workspaceId}/?application_id=${databaseId}`, undefined, bob.token);
    expect(page.body.count).toBe(bobSees.length);
    expect(page.text).not.toContain('Hidden');
    await roles([userItem(bob, 'database_table', tableId, null)]);
    expect(await listed(bob.token)).toEqual(expect.arrayContaining(all));
    for (const [type, id] of [['field', field.id], ['view', view.id], ['field', visible.id]] as const) {
      await api('PATCH', '/api/trash/restore/', { trash_item_type: type, trash_item_id: id });
    }
  });

  test('a copy of a database holding a NO_ACCESS table (workspace export, duplicate, snapshot) is refused', async () => {
    await roles([userItem(bob, 'database_table', tableId, 'NO_ACCESS')]);
    const applicationsBefore = (await api('GET', `/api/applications/workspace/${workspaceId}/`)).body.length;
    for (const body of [{}, { application_ids: [databaseId] }]) {
      const exported = await api('POST', `/api/workspaces/${workspaceId}/export/async/`, body, bob.token);
      expect([exported.status, exported.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    }
    const snapshot = await api('POST', `/api/snapshots/application/${databaseId}/`, { name: 'Copy' }, bob.token);
    expect([snapshot.status, snapshot.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    // The duplicate's request only reads the database (as Baserow's); its job refuses the copy.
    const duplicated = await api('POST', `/api/applications/${databaseId}/duplicate/async/`, {}, bob.token);
    expect(duplicated.status).toBe(202);
    const job = await endedJob(t, bob.token, duplicated.body.id);
    expect([job.state, job.human_readable_error]).toEqual(['failed', expect.any(String)]);
    expect((await api('GET', `/api/applications/workspace/${workspaceId}/`)).body.length).toBe(applicationsBefore);
    // Readable whole again, the same requests are accepted.
    await roles([userItem(bob, 'database_table', tableId, null)]);
    const allowed = await api('POST', `/api/workspaces/${workspaceId}/export/async/`, { application_ids: [databaseId], only_structure: true }, bob.token);
    expect(allowed.status).toBe(202);
    expect((await endedJob(t, bob.token, allowed.body.id)).state).toBe('finished');
  });

  test('table and application broadcasts reach only members who may see them; pages of a table made unreadable are dropped', async () => {
    const bobSocket = await connect(t, bob.token);
    bobSocket.send({ page: 'table', table_id: tableId });
    await bobSocket.waitFor('page_add');
    await roles([userItem(bob, 'database_table', tableId, 'NO_ACCESS')]);
    await bobSocket.waitFor('permissions_updated');
    await api('PATCH', `/api/database/tables/${tableId}/`, { name: 'Secrets 2' });
    await api('PATCH', `/api/database/tables/${otherTableId}/`, { name: 'Public 2' });
    await api('POST', `/api/database/rows/table/${tableId}/`, {});
    const updated = await bobSocket.waitFor('table_updated');
    expect(updated.table_id).toBe(otherTableId);
    const rest = await bobSocket.drain(300);
    expect(rest.filter((m) => m.table_id === tableId || m.table_id === String(tableId) || m.type === 'rows_created')).toEqual([]);

    await roles([userItem(bob, 'workspace', workspaceId, 'NO_ACCESS'), userItem(bob, 'database_table', tableId, null)]);
    await bobSocket.waitFor('permissions_updated');
    const created = await api('POST', `/api/applications/workspace/${workspaceId}/`, { name: 'Hidden', type: 'database' });
    expect(created.status).toBe(200);
    await api('PATCH', `/api/applications/${databaseId}/`, { name: 'Renamed' });
    expect((await bobSocket.drain(300)).filter((m) => m.type.startsWith('application_'))).toEqual([]);
    await api('DELETE', `/api/applications/${created.body.id}/`);
    bobSocket.close();
  });
});
