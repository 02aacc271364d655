import { NO_TIMED_WORK, signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { addMember, databaseOf, emptyTable } from './support/fixtures';
import { recordStatements } from './support/statements';
import { done, undoClient } from './support/undo';
import { connect, expectNone } from './support/ws';

let t: TestApp;
let ada: SignedUp; // the workspace's admin
let bob: SignedUp; // a member
let cat: SignedUp; // a member
let eve: SignedUp; // a member of nothing of Ada's
let workspaceId: number;
let databaseId: number;
let tableId: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const createTeam = (body: Record<string, unknown>, token = ada.token) => api('POST', `/api/teams/workspace/${workspaceId}/`, body, token);
const userSubject = (user: SignedUp) => ({ subject_id: user.id, subject_type: 'auth.User' });
const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error];
const setWorkspaceRole = async (user: SignedUp, role: string) => {
  const res = await api('POST', `/api/role/${workspaceId}/`, { subject_type: 'auth.User', subject_id: user.id, scope_type: 'workspace', scope_id: workspaceId, role });
  expect(res.status).toBe(200);
};
const assignTeam = async (teamId: number, scope_type: string, scope_id: number, role: string | null) => {
  const res = await api('POST', `/api/role/${workspaceId}/`, { subject_type: 'baserow_enterprise.Team', subject_id: teamId, scope_type, scope_id, role });
  expect(res.status).toBe(role === null ? 204 : 200);
  return res;
};
const rows = (token: string) => api('GET', `/api/database/rows/table/${tableId}/`, undefined, token);
const createRow = (token: string) => api('POST', `/api/database/rows/table/${tableId}/`, {}, token);

beforeAll(async () => {
  // No timed background work: the statement-counting test reads every statement the app sends.
  t = await startApp({ ...NO_TIMED_WORK });
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  cat = await signUp(t, 'Cat');
  eve = await signUp(t, 'Eve');
  workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
  databaseId = await databaseOf(t, ada);
  tableId = await emptyTable(t, ada, databaseId, 'Accounts');
  await addMember(t, ada, bob, workspaceId);
  await addMember(t, ada, cat, workspaceId);
});
afterAll(async () => t?.close());

describe(`teams API (${TEST_DB})`, () => {
  test('create, read, list (search, sorts), update and their keys as Baserow', async () => {
    const sales = await createTeam({ name: 'Sales', subjects: [userSubject(bob)] });
    expect(sales.status).toBe(200);
    expect(sales.body).toEqual({
      id: expect.any(Number),
      name: 'Sales',
      workspace: workspaceId,
      created_on: expect.stringMatching(/Z$/),
      updated_on: expect.stringMatching(/Z$/),
      default_role: 'NO_ACCESS',
      subject_count: 1,
      subject_sample: [{ subject_id: bob.id, subject_type: 'auth.User', subject_label: 'Bob', team_subject_id: expect.any(Number) }],
    });
    const eng = await createTeam({ name: 'Engineering', default_role: 'EDITOR', subjects: [userSubject(bob), userSubject(cat)] });
    expect([eng.status, eng.body.default_role, eng.body.subject_count]).toEqual([200, 'EDITOR', 2]);
    // The most recent subjects first.
    expect(eng.body.subject_sample.map((s: any) => s.subject_id)).toEqual([cat.id, bob.id]);
    const none = await createTeam({ name: 'Nobody', default_role: null });
    expect([none.status, none.body.default_role, none.body.subject_count, none.body.subject_sample]).toEqual([200, null, 0, []]);

    expect((await api('GET', `/api/teams/${sales.body.id}/`)).body).toEqual(sales.body);
    const list = await api('GET', `/api/teams/workspace/${workspaceId}/`);
    expect(list.body.map((team: any) => team.name)).toEqual(['Sales', 'Engineering', 'Nobody']);
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/?search=eng`)).body.map((team: any) => team.name)).toEqual(['Engineering']);
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/?sorts=%2Bname`)).body.map((team: any) => team.name)).toEqual(['Engineering', 'Nobody', 'Sales']);
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/?sorts=-subject_sample`)).body.map((team: any) => team.name)).toEqual(['Engineering', 'Sales', 'Nobody']);
    expect(errorOf(await api('GET', `/api/teams/workspace/${workspaceId}/?sorts=-id`))).toEqual([400, 'ERROR_INVALID_SORT_ATTRIBUTE']);
    expect(errorOf(await api('GET', `/api/teams/workspace/${workspaceId}/?sorts=name`))).toEqual([400, 'ERROR_INVALID_SORT_DIRECTION']);

    // PUT replaces the name, the subjects and the role (omitted: NO_ACCESS).
    const put = await api('PUT', `/api/teams/${eng.body.id}/`, { name: 'Platform', subjects: [userSubject(cat)] });
    expect([put.status, put.body.name, put.body.default_role, put.body.subject_sample.map((s: any) => s.subject_id)]).toEqual([200, 'Platform', 'NO_ACCESS', [cat.id]]);
    const same = await api('PUT', `/api/teams/${eng.body.id}/`, { name: 'Platform', default_role: 'VIEWER', subjects: [userSubject(cat)] });
    expect([same.status, same.body.default_role, same.body.subject_count]).toEqual([200, 'VIEWER', 1]);
    for (const id of [sales.body.id, eng.body.id, none.body.id]) expect((await api('DELETE', `/api/teams/${id}/`)).status).toBe(204);
  });

  test('subjects: by id or e-mail, listed, read and removed', async () => {
    const team = (await createTeam({ name: 'Support' })).body;
    const byId = await api('POST', `/api/teams/${team.id}/subjects/`, userSubject(bob));
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ id: expect.any(Number), subject_id: bob.id, subject_type: 'auth.User', team: team.id });
    const byEmail = await api('POST', `/api/teams/${team.id}/subjects/`, { subject_user_email: cat.email.toUpperCase(), subject_type: 'auth.User' });
    expect([byEmail.status, byEmail.body.subject_id]).toEqual([200, cat.id]);
    // Adding someone already in the team answers their subject; nobody is in it twice.
    const again = await api('POST', `/api/teams/${team.id}/subjects/`, userSubject(bob));
    expect([again.status, again.body.id]).toEqual([200, byId.body.id]);
    const list = await api('GET', `/api/teams/${team.id}/subjects/`);
    expect(list.body).toEqual([byId.body, byEmail.body]);
    expect((await api('GET', `/api/teams/${team.id}/subjects/${byId.body.id}/`)).body).toEqual(byId.body);
    expect((await api('DELETE', `/api/teams/${team.id}/subjects/${byId.body.id}/`)).status).toBe(204);
    expect(errorOf(await api('GET', `/api/teams/${team.id}/subjects/${byId.body.id}/`))).toEqual([404, 'ERROR_SUBJECT_DOES_NOT_EXIST']);
    expect((await api('GET', `/api/teams/${team.id}/`)).body.subject_count).toBe(1);
    await api('DELETE', `/api/teams/${team.id}/`);
  });

  test("Baserow's errors, and nothing half-written", async () => {
    const team = (await createTeam({ name: 'Ops' })).body;
    const cases: [string, string, unknown, number, string][] = [
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Ops' }, 400, 'ERROR_TEAM_NAME_NOT_UNIQUE'],
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'X', default_role: 'OWNER' }, 404, 'ERROR_ROLE_DOES_NOT_EXIST'],
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'X', subjects: [userSubject(eve)] }, 400, 'ERROR_SUBJECT_NOT_IN_GROUP'],
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'X', subjects: [{ subject_id: 999999, subject_type: 'auth.User' }] }, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'X', subjects: [{ subject_id: bob.id, subject_type: 'database.Token' }] }, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      ['POST', `/api/teams/workspace/${workspaceId}/`, {}, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      ['POST', '/api/teams/workspace/999999/', { name: 'X' }, 404, 'ERROR_GROUP_DOES_NOT_EXIST'],
      ['GET', '/api/teams/workspace/999999/', undefined, 404, 'ERROR_GROUP_DOES_NOT_EXIST'],
      ['GET', '/api/teams/999999/', undefined, 404, 'ERROR_TEAM_DOES_NOT_EXIST'],
      ['PUT', '/api/teams/999999/', { name: 'X' }, 404, 'ERROR_TEAM_DOES_NOT_EXIST'],
      ['DELETE', '/api/teams/999999/', undefined, 404, 'ERROR_TEAM_DOES_NOT_EXIST'],
      ['POST', `/api/teams/${team.id}/subjects/`, userSubject(eve), 400, 'ERROR_SUBJECT_NOT_IN_GROUP'],
      ['POST', `/api/teams/${team.id}/subjects/`, { subject_user_email: 'nobody@example.com', subject_type: 'auth.User' }, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      ['POST', `/api/teams/${team.id}/subjects/`, { subject_type: 'auth.User' }, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      ['POST', `/api/teams/${team.id}/subjects/`, { subject_id: bob.id, subject_type: 'nonsense' }, 400, 'ERROR_REQUEST_BODY_VALIDATION'],
      ['GET', `/api/teams/${team.id}/subjects/999999/`, undefined, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
      ['DELETE', `/api/teams/${team.id}/subjects/999999/`, undefined, 404, 'ERROR_SUBJECT_DOES_NOT_EXIST'],
    ];
    for (const [method, path, body, status, error] of cases) expect([method, path, ...errorOf(await api(method, path, body))]).toEqual([method, path, status, error]);
    // A failing subject rolls the whole create back.
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/?search=X`)).body).toEqual([]);
    const rename = await api('PUT', `/api/teams/${team.id}/`, { name: 'Renamed', subjects: [userSubject(eve)] });
    expect(errorOf(rename)).toEqual([400, 'ERROR_SUBJECT_NOT_IN_GROUP']);
    expect((await api('GET', `/api/teams/${team.id}/`)).body.name).toBe('Ops');
    // Not a member: told so, nothing shown.
    expect(errorOf(await api('GET', `/api/teams/${team.id}/`, undefined, eve.token))).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect(errorOf(await api('GET', `/api/teams/workspace/${workspaceId}/`, undefined, eve.token))).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    await api('DELETE', `/api/teams/${team.id}/`);
  });

  test('a create or update writes its subjects in the same statements whatever their number', async () => {
    const sent = recordStatements(t.app);
    // The statements of the request's transaction (what holds the writer); after it, each member's socket is told.
    const count = async (method: string, path: string, body: unknown) => {
      // The caller's permissions read first (a read after the last write), so both requests find them cached.
      expect((await api('GET', `/api/teams/workspace/${workspaceId}/`)).status).toBe(200);
      const from = sent.length;
      const res = await api(method, path, body);
      expect(res.status).toBe(200);
      const mine = sent.slice(from);
      return { id: res.body.id as number, statements: mine.indexOf('COMMIT') - mine.findIndex((sql) => sql.startsWith('BEGIN')) };
    };
    const one = await count('POST', `/api/teams/workspace/${workspaceId}/`, { name: 'One', subjects: [userSubject(bob)] });
    const three = await count('POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Three', subjects: [userSubject(ada), userSubject(bob), userSubject(cat)] });
    expect(three.statements).toBe(one.statements);
    const another = await count('POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Another', subjects: [userSubject(bob)] });
    const byOne = await count('PUT', `/api/teams/${one.id}/`, { name: 'One', subjects: [userSubject(bob), userSubject(ada)] });
    const byTwo = await count('PUT', `/api/teams/${another.id}/`, { name: 'Another', subjects: [userSubject(bob), userSubject(ada), userSubject(cat)] });
    expect(byTwo.statements).toBe(byOne.statements);
    expect((await api('GET', `/api/teams/${another.id}/subjects/`)).body.map((s: { subject_id: number }) => s.subject_id).sort()).toEqual([ada.id, bob.id, cat.id].sort());
    for (const id of [one.id, three.id, another.id]) await api('DELETE', `/api/teams/${id}/`);
  });

  test("only admins manage teams; a builder lists and reads them; a viewer lists but not the subjects, as Baserow's default roles", async () => {
    const team = (await createTeam({ name: 'Readers', subjects: [userSubject(cat)] })).body;
    const subjectId = (await api('GET', `/api/teams/${team.id}/subjects/`)).body[0].id;
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/`, undefined, bob.token)).status).toBe(200);
    expect((await api('GET', `/api/teams/${team.id}/subjects/`, undefined, bob.token)).status).toBe(200);
    const denied: [string, string, unknown][] = [
      ['POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Mine' }],
      ['PUT', `/api/teams/${team.id}/`, { name: 'Mine' }],
      ['DELETE', `/api/teams/${team.id}/`, undefined],
      ['POST', `/api/teams/${team.id}/subjects/`, userSubject(bob)],
      ['DELETE', `/api/teams/${team.id}/subjects/${subjectId}/`, undefined],
    ];
    for (const [method, path, body] of denied) expect([method, path, ...errorOf(await api(method, path, body, bob.token))]).toEqual([method, path, 401, 'PERMISSION_DENIED']);
    await setWorkspaceRole(bob, 'VIEWER');
    expect((await api('GET', `/api/teams/${team.id}/`, undefined, bob.token)).status).toBe(200);
    expect(errorOf(await api('GET', `/api/teams/${team.id}/subjects/`, undefined, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    await setWorkspaceRole(bob, 'BUILDER');
    await api('DELETE', `/api/teams/${team.id}/`);
  });

  test('undo and redo of team actions in the teams_in_workspace scope', async () => {
    const session = undoClient(t, () => ada);
    const scopes = { teams_in_workspace: workspaceId };
    const scope = `workspace${workspaceId}teams_in_workspace`;
    const subjectsOf = async (id: number) => (await api('GET', `/api/teams/${id}/subjects/`)).body.map((s: { subject_id: number }) => s.subject_id).sort();
    const team = (await session.api('POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Undoable', default_role: 'VIEWER', subjects: [userSubject(bob)] })).body;
    expect((await session.api('PUT', `/api/teams/${team.id}/`, { name: 'Renamed', default_role: 'EDITOR', subjects: [userSubject(cat)] })).status).toBe(200);
    expect((await session.undo(scopes)).body).toEqual(done('SUCCESS', ['update_team', scope]));
    expect((await api('GET', `/api/teams/${team.id}/`)).body).toMatchObject({ name: 'Undoable', default_role: 'VIEWER' });
    expect(await subjectsOf(team.id)).toEqual([bob.id]);
    expect((await session.redo(scopes)).body).toEqual(done('SUCCESS', ['update_team', scope]));
    expect((await api('GET', `/api/teams/${team.id}/`)).body).toMatchObject({ name: 'Renamed', default_role: 'EDITOR' });
    expect(await subjectsOf(team.id)).toEqual([cat.id]);

    const subject = (await session.api('POST', `/api/teams/${team.id}/subjects/`, { subject_user_email: bob.email, subject_type: 'auth.User' })).body;
    expect((await session.undo(scopes)).body).toEqual(done('SUCCESS', ['create_team_subject', scope]));
    expect(await subjectsOf(team.id)).toEqual([cat.id]);
    expect((await session.redo(scopes)).body).toEqual(done('SUCCESS', ['create_team_subject', scope]));
    expect(await subjectsOf(team.id)).toEqual([bob.id, cat.id].sort());
    const readded = (await api('GET', `/api/teams/${team.id}/subjects/`)).body.find((s: { subject_id: number }) => s.subject_id === bob.id).id;
    expect(readded).not.toBe(subject.id);
    expect((await session.api('DELETE', `/api/teams/${team.id}/subjects/${readded}/`)).status).toBe(204);
    expect((await session.undo(scopes)).body).toEqual(done('SUCCESS', ['delete_team_subject', scope]));
    expect(await subjectsOf(team.id)).toEqual([bob.id, cat.id].sort());

    expect((await session.api('DELETE', `/api/teams/${team.id}/`)).status).toBe(204);
    expect((await session.undo(scopes)).body).toEqual(done('SUCCESS', ['delete_team', scope]));
    expect((await api('GET', `/api/teams/${team.id}/`)).status).toBe(200);
    // Back to the create: undone, the team is in the trash; redone, back.
    for (const type of ['create_team_subject', 'update_team']) expect((await session.undo(scopes)).body.actions[0].action_type).toBe(type);
    expect((await session.undo(scopes)).body).toEqual(done('SUCCESS', ['create_team', scope]));
    expect(errorOf(await api('GET', `/api/teams/${team.id}/`))).toEqual([404, 'ERROR_TEAM_DOES_NOT_EXIST']);
    expect((await session.redo(scopes)).body).toEqual(done('SUCCESS', ['create_team', scope]));
    expect((await api('GET', `/api/teams/${team.id}/`)).body).toMatchObject({ name: 'Undoable', default_role: 'VIEWER' });
    await api('DELETE', `/api/teams/${team.id}/`);
  });

  test('delete trashes the team; restoring brings it back with its subjects and role', async () => {
    const team = (await createTeam({ name: 'Trashed', default_role: 'VIEWER', subjects: [userSubject(bob)] })).body;
    expect((await api('DELETE', `/api/teams/${team.id}/`)).status).toBe(204);
    expect(errorOf(await api('GET', `/api/teams/${team.id}/`))).toEqual([404, 'ERROR_TEAM_DOES_NOT_EXIST']);
    expect(errorOf(await api('DELETE', `/api/teams/${team.id}/`))).toEqual([404, 'ERROR_TEAM_DOES_NOT_EXIST']);
    expect((await api('GET', `/api/teams/workspace/${workspaceId}/`)).body.map((x: any) => x.id)).not.toContain(team.id);
    // The name stays taken while the team is in the trash (Baserow's unique_together).
    expect(errorOf(await createTeam({ name: 'Trashed' }))).toEqual([400, 'ERROR_TEAM_NAME_NOT_UNIQUE']);
    const trash = await api('GET', `/api/trash/workspace/${workspaceId}/`);
    const entry = trash.body.results.find((e: any) => e.trash_item_type === 'team' && e.trash_item_id === team.id);
    expect(entry).toMatchObject({ name: 'Trashed', application: null, workspace: workspaceId });
    // Only an admin restores it.
    expect(errorOf(await api('PATCH', '/api/trash/restore/', { trash_item_type: 'team', trash_item_id: team.id }, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    expect((await api('PATCH', '/api/trash/restore/', { trash_item_type: 'team', trash_item_id: team.id })).status).toBe(204);
    expect(await api('GET', `/api/teams/${team.id}/`).then((r) => r.body)).toEqual({ ...team, updated_on: expect.any(String) });
    // Emptied from the trash: gone for good, its role assignments with it.
    await api('DELETE', `/api/teams/${team.id}/`);
    expect((await api('DELETE', `/api/trash/workspace/${workspaceId}/`)).status).toBe(204);
    expect(errorOf(await api('PATCH', '/api/trash/restore/', { trash_item_type: 'team', trash_item_id: team.id }))).toEqual([404, 'ERROR_TRASH_ITEM_DOES_NOT_EXIST']);
    expect((await createTeam({ name: 'Trashed' })).status).toBe(200);
    const again = (await api('GET', `/api/teams/workspace/${workspaceId}/?search=Trashed`)).body[0];
    await api('DELETE', `/api/teams/${again.id}/`);
    await api('DELETE', `/api/trash/workspace/${workspaceId}/`);
  });
});

describe(`a team's roles in the permission check (${TEST_DB})`, () => {
  afterEach(async () => {
    for (const team of (await api('GET', `/api/teams/workspace/${workspaceId}/`)).body) await api('DELETE', `/api/teams/${team.id}/`);
    await api('DELETE', `/api/trash/workspace/${workspaceId}/`);
    await setWorkspaceRole(bob, 'BUILDER');
  });

  test("VIEWER on the workspace through a team: its member reads but does not write; leaving the team takes it away", async () => {
    await setWorkspaceRole(bob, 'NO_ROLE_LOW_PRIORITY');
    expect((await rows(bob.token)).status).toBe(401);
    const team = (await createTeam({ name: 'Viewers', default_role: 'VIEWER', subjects: [userSubject(bob)] })).body;
    expect((await rows(bob.token)).status).toBe(200);
    expect(errorOf(await createRow(bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    // Cat, not in the team, is unaffected.
    expect((await createRow(cat.token)).status).toBe(200);
    const subject = (await api('GET', `/api/teams/${team.id}/subjects/`)).body[0];
    await api('DELETE', `/api/teams/${team.id}/subjects/${subject.id}/`);
    expect((await rows(bob.token)).status).toBe(401);
  });

  test('a team role on a table, given through /api/role/, counts for its members', async () => {
    await setWorkspaceRole(bob, 'VIEWER');
    const team = (await createTeam({ name: 'Editors', subjects: [userSubject(bob)] })).body;
    expect(errorOf(await createRow(bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    const res = await assignTeam(team.id, 'database_table', tableId, 'EDITOR');
    expect(res.body).toMatchObject({ subject_type: 'baserow_enterprise.Team', subject_id: team.id, role: 'EDITOR', scope_type: 'database_table', scope_id: tableId });
    expect((await createRow(bob.token)).status).toBe(200);
    // The team's role counts in the member's highest role (the members list's `highest_role_uid`).
    const bobMember = (await api('GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body.find((m: any) => m.user_id === bob.id);
    expect([bobMember.role_uid, bobMember.highest_role_uid, bobMember.teams]).toEqual(['VIEWER', 'EDITOR', [{ id: team.id, name: 'Editors' }]]);
    // Trashed, the team's roles no longer count; restored, they do again.
    await api('DELETE', `/api/teams/${team.id}/`);
    expect((await createRow(bob.token)).status).toBe(401);
    await api('PATCH', '/api/trash/restore/', { trash_item_type: 'team', trash_item_id: team.id });
    expect((await createRow(bob.token)).status).toBe(200);
  });

  test("precedence: the user's own role on a scope wins over their teams'; teams' roles add up", async () => {
    await setWorkspaceRole(bob, 'VIEWER');
    const editors = (await createTeam({ name: 'Editors', subjects: [userSubject(bob)] })).body;
    await assignTeam(editors.id, 'database_table', tableId, 'EDITOR');
    expect((await createRow(bob.token)).status).toBe(200);
    // Bob's own VIEWER on the table wins over his team's EDITOR there.
    await api('POST', `/api/role/${workspaceId}/`, { subject_type: 'auth.User', subject_id: bob.id, scope_type: 'database_table', scope_id: tableId, role: 'VIEWER' });
    expect(errorOf(await createRow(bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    await api('POST', `/api/role/${workspaceId}/`, { subject_type: 'auth.User', subject_id: bob.id, scope_type: 'database_table', scope_id: tableId, role: null });
    // Two teams on one scope: the most capable of their roles allows.
    const viewers = (await createTeam({ name: 'Viewers', subjects: [userSubject(bob)] })).body;
    await assignTeam(viewers.id, 'database_table', tableId, 'VIEWER');
    expect((await createRow(bob.token)).status).toBe(200);
    // A user's own workspace role (not NO_ROLE_LOW_PRIORITY) wins over a team's workspace role.
    await api('PUT', `/api/teams/${viewers.id}/`, { name: 'Viewers', default_role: 'ADMIN', subjects: [userSubject(bob)] });
    expect(errorOf(await api('PATCH', `/api/workspaces/${workspaceId}/`, { name: 'Renamed' }, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    await setWorkspaceRole(bob, 'NO_ROLE_LOW_PRIORITY');
    expect((await api('PATCH', `/api/workspaces/${workspaceId}/`, { name: 'Renamed' }, bob.token)).status).toBe(200);
  });

  test('a member removed from the workspace leaves its teams', async () => {
    const dan = await signUp(t, 'Dan');
    await addMember(t, ada, dan, workspaceId);
    const team = (await createTeam({ name: 'Leavers', default_role: 'EDITOR', subjects: [userSubject(dan)] })).body;
    expect((await api('POST', `/api/workspaces/${workspaceId}/leave/`, undefined, dan.token)).status).toBe(204);
    expect((await api('GET', `/api/teams/${team.id}/`)).body).toMatchObject({ subject_count: 0, subject_sample: [] });
    await addMember(t, ada, dan, workspaceId);
    expect((await api('GET', `/api/teams/${team.id}/subjects/`)).body).toEqual([]);
  });

  test('permissions_updated goes to the members of a team whose role or membership changes, after commit', async () => {
    const bobSocket = await connect(t, bob.token);
    const catSocket = await connect(t, cat.token);
    const message = { type: 'permissions_updated', workspace_id: workspaceId };
    const team = (await createTeam({ name: 'Signals', subjects: [userSubject(bob)] })).body;
    expect(await bobSocket.waitFor('permissions_updated')).toEqual(message);
    await assignTeam(team.id, 'database_table', tableId, 'EDITOR');
    expect(await bobSocket.waitFor('permissions_updated')).toEqual(message);
    expect((await catSocket.drain()).filter((m) => m.type === 'permissions_updated')).toEqual([]);
    // A refused change tells nobody.
    expect((await api('POST', `/api/teams/${team.id}/subjects/`, userSubject(eve))).status).toBe(400);
    await expectNone(bobSocket, catSocket);
    await api('POST', `/api/teams/${team.id}/subjects/`, userSubject(cat));
    expect(await catSocket.waitFor('permissions_updated')).toEqual(message);
    await api('DELETE', `/api/teams/${team.id}/`);
    expect(await bobSocket.waitFor('permissions_updated')).toEqual(message);
    expect(await catSocket.waitFor('permissions_updated')).toEqual(message);
    bobSocket.close();
    catSocket.close();
  });

  test("a warm check of a team member's request sends no query for their teams or roles", async () => {
    await setWorkspaceRole(bob, 'NO_ROLE_LOW_PRIORITY');
    await createTeam({ name: 'Warm', default_role: 'VIEWER', subjects: [userSubject(bob)] });
    expect((await rows(bob.token)).status).toBe(200);
    const sent = recordStatements(t.app);
    expect((await rows(bob.token)).status).toBe(200);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((sql) => /enterprise_|workspace_user/.test(sql))).toEqual([]);
  });
});
