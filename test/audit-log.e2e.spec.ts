import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ActionTypeRegistry } from '../src/actions/action-type';
import { AuditCleanupService } from '../src/audit/audit-cleanup.service';
import { AUDIT_ACTION_TYPES, AUDIT_DESCRIPTIONS } from '../src/audit/audit-descriptions';
import { NO_TIMED_WORK, SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { addMember, databaseOf, endedJob } from './support/fixtures';

/**
 * The audit log (Baserow enterprise's `/api/audit-log/`): a scripted session read back entry by
 * entry, the filters and their validation, who may read what, the CSV export job and retention.
 */
describe(`audit log (${TEST_DB})`, () => {
  let t: TestApp;
  let staff: SignedUp;
  let alice: SignedUp;
  let bob: SignedUp;
  let workspaceId: number;
  let workspaceName: string;
  let databaseId: number;
  const session = { ClientSessionId: 'audit-session' };

  const as = (user: SignedUp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, path, { token: user.token, body, headers });
  const entries = async (user: SignedUp, query = '') => {
    const res = await as(user, 'GET', `/api/audit-log/${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  /** The password provider's id: Baserow names it in sign-up and sign-in entries. */
  const passwordProviderId = async (): Promise<number> => {
    const providers = await as(staff, 'GET', '/api/admin/auth-provider/');
    expect(providers.status).toBe(200);
    return providers.body.auth_provider_types.flatMap((type: { auth_providers: unknown[] }) => type.auth_providers).find((p: any) => p.type === 'password').id;
  };

  beforeAll(async () => {
    t = await startApp({ ...NO_TIMED_WORK, RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    staff = await signUp(t, 'Staff');
    alice = await signUp(t, 'Alice');
    bob = await signUp(t, 'Bob');
    const workspace = (await as(alice, 'GET', '/api/workspaces/')).body[0];
    workspaceId = workspace.id;
    workspaceName = workspace.name;
    databaseId = await databaseOf(t, alice);
    await addMember(t, alice, bob, workspaceId);
  });
  afterAll(async () => {
    await t.close();
  });

  it('records a scripted session entry by entry: type, description, user, workspace, IP address', async () => {
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: 'wrong-password' } })).status).toBe(401);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } })).status).toBe(200);
    const table = (await as(alice, 'POST', `/api/database/tables/database/${databaseId}/`, { name: 'Audited' }, session)).body;
    const field = (await as(alice, 'POST', `/api/database/fields/table/${table.id}/`, { name: 'Amount', type: 'number' }, session)).body;
    const row = (await as(alice, 'POST', `/api/database/rows/table/${table.id}/`, { [`field_${field.id}`]: 5 }, session)).body;
    expect((await as(alice, 'PATCH', `/api/database/rows/table/${table.id}/${row.id}/`, { [`field_${field.id}`]: 6 }, session)).status).toBe(200);
    expect((await as(alice, 'DELETE', `/api/database/rows/table/${table.id}/${row.id}/`, undefined, session)).status).toBe(204);
    const undo = await as(alice, 'PATCH', '/api/user/undo/', { scopes: { table: table.id } }, session);
    expect(undo.body.result_code).toBe('SUCCESS');
    const redo = await as(alice, 'PATCH', '/api/user/redo/', { scopes: { table: table.id } }, session);
    expect(redo.body.result_code).toBe('SUCCESS');
    const token = (await as(alice, 'POST', '/api/database/tokens/', { name: 'Script', workspace: workspaceId })).body;
    expect((await as(alice, 'PATCH', `/api/database/tokens/${token.id}/`, { name: 'Script 2' })).status).toBe(200);
    expect((await as(alice, 'DELETE', `/api/database/tokens/${token.id}/`)).status).toBe(204);
    expect((await as(staff, 'PATCH', '/api/settings/update/', { allow_new_signups: true })).status).toBe(200);

    const log = await entries(staff, '?size=16');
    const seen = log.results.map((e: any) => ({ action_type: e.action_type, type: e.type, description: e.description, user: e.user, workspace: e.workspace, ip_address: e.ip_address }));
    const aliceUser = `${alice.email} (${alice.id})`;
    const ws = `${workspaceName} (${workspaceId})`;
    const database = (await as(alice, 'GET', `/api/applications/${databaseId}/`)).body.name;
    const inTable = `in table "Audited" (${table.id}) of database "${database}" (${databaseId}).`;
    const ip = '127.0.0.1';
    const password = await passwordProviderId();
    expect(seen.reverse().slice(-13)).toEqual([
      { action_type: 'sign_in_user_failed', type: 'Failed sign in', description: `Sign in as "${alice.email}" refused: invalid credentials`, user: '', workspace: '', ip_address: ip },
      { action_type: 'sign_in_user', type: 'Sign In User', description: `User "${alice.email}" (${alice.id}) signed in via "password" (${password}) auth provider`, user: aliceUser, workspace: '', ip_address: ip },
      { action_type: 'create_table', type: 'Create table', description: `Table "Audited" (${table.id}) created in database "${database}" (${databaseId}).`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'create_field', type: 'Create field', description: `Field "Amount" (${field.id}) created ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'create_row', type: 'Create row', description: `Row (${row.id}) created ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'update_row', type: 'Update row', description: `Row (${row.id}) updated ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'delete_row', type: 'Delete row', description: `Row (${row.id}) deleted ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'delete_row', type: 'Delete row', description: `UNDONE: Row (${row.id}) deleted ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'delete_row', type: 'Delete row', description: `REDONE: Row (${row.id}) deleted ${inTable}`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'create_db_token', type: 'Create DB token', description: `A Database Token with name "Script" (${token.id}) has been created in group "${workspaceName}" (${workspaceId}).`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'update_db_token_name', type: 'Update DB token name', description: `The Database Token (Script 2) name changed from "Script" to "Script 2" in group "${workspaceName}" (${workspaceId}).`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'delete_db_token_key', type: 'Delete DB token', description: `The Database Token "Script 2" (${token.id}) has been deleted in group "${workspaceName}" (${workspaceId}).`, user: aliceUser, workspace: ws, ip_address: ip },
      { action_type: 'update_settings', type: 'Update settings', description: `Instance settings updated: ['allow_new_signups']`, user: `${staff.email} (${staff.id})`, workspace: '', ip_address: ip },
    ]);
    expect(log.results[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Object.keys(log.results[0]).sort()).toEqual(['action_type', 'description', 'id', 'ip_address', 'timestamp', 'type', 'user', 'workspace']);
  });

  it('records what is not undoable: exports, trash restores and empties', async () => {
    const table = (await as(alice, 'POST', `/api/database/tables/database/${databaseId}/`, { name: 'Exported' })).body;
    const exported = await as(alice, 'POST', `/api/database/export/table/${table.id}/`, { exporter_type: 'csv' });
    expect((await endedJob(t, alice.token, exported.body.id)).state).toBe('finished');
    const workspaceExport = await as(alice, 'POST', `/api/workspaces/${workspaceId}/export/async/`, { application_ids: [databaseId], only_structure: true });
    expect((await endedJob(t, alice.token, workspaceExport.body.id)).state).toBe('finished');
    expect((await as(alice, 'DELETE', `/api/database/tables/${table.id}/`)).status).toBe(204);
    expect((await as(alice, 'PATCH', '/api/trash/restore/', { trash_item_type: 'table', trash_item_id: table.id })).status).toBe(204);
    expect((await as(alice, 'DELETE', `/api/trash/workspace/${workspaceId}/`)).status).toBe(204);
    const database = (await as(alice, 'GET', `/api/applications/${databaseId}/`)).body.name;
    const log = (await entries(alice, `?workspace_id=${workspaceId}&size=5`)).results.map((e: any) => [e.action_type, e.description]).reverse();
    expect(log).toEqual([
      ['export_table', `View "None" (None) exported to csv in table "Exported" (${table.id}) of database "${database}" (${databaseId}).`],
      ['export_applications', `Applications "['${database}']" ([${databaseId}]) exported in group "${workspaceName}" (${workspaceId}).`],
      ['delete_table', `Table "Exported" (${table.id}) deleted in database "${database}" (${databaseId}).`],
      ['restore_from_trash', `Item of type "table" (${table.id}) has been restored from trash in group "${workspaceName}" (${workspaceId}).`],
      ['empty_trash', `Trash for application "None" (None) has been emptied in group "${workspaceName}" (${workspaceId}).`],
    ]);
  });

  it("records a user's own account changes, the user acting", async () => {
    const carol = await signUp(t, 'Carol');
    expect((await as(carol, 'PATCH', '/api/user/account/', { first_name: 'Caroline' })).status).toBe(200);
    expect((await as(carol, 'POST', '/api/user/change-password/', { old_password: carol.password, new_password: 'another-password-1' })).status).toBe(204);
    const log = (await entries(staff, `?user_id=${carol.id}&size=10`)).results.map((e: any) => [e.action_type, e.description, e.user]).reverse();
    const who = `${carol.email} (${carol.id})`;
    expect(log.filter(([type]: string[]) => type.endsWith('_user') || type.endsWith('_password'))).toEqual([
      ['create_user', `User "${carol.email}" (${carol.id}) created via "password" (${await passwordProviderId()}) auth provider (invitation: False)`, who],
      ['update_user', `User "${carol.email}" (${carol.id}) updated`, who],
      ['change_user_password', `User "${carol.email}" (${carol.id}) changed password`, who],
    ]);
    expect(log.map(([type]: string[]) => type)).toContain('create_group');
  });

  it('records invitations, leaving, role assignments and teams with Baserow\'s descriptions', async () => {
    const invite = async (email: string) => {
      const res = await as(alice, 'POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, { email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' });
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const since = new Date().toISOString();
    const dropped = await invite('nobody-yet@example.com');
    expect((await as(alice, 'PATCH', `/api/workspaces/invitations/${dropped}/`, { permissions: 'ADMIN' })).status).toBe(200);
    expect((await as(alice, 'DELETE', `/api/workspaces/invitations/${dropped}/`)).status).toBe(204);
    const erin = await signUp(t, 'Erin');
    const frank = await signUp(t, 'Frank');
    const accepted = await invite(erin.email);
    const rejected = await invite(frank.email);
    expect((await as(erin, 'POST', `/api/workspaces/invitations/${accepted}/accept/`)).status).toBe(200);
    expect((await as(frank, 'POST', `/api/workspaces/invitations/${rejected}/reject/`)).status).toBe(204);
    const one = { subject_type: 'auth.User', subject_id: erin.id, scope_type: 'application', scope_id: databaseId, role: 'VIEWER' };
    expect((await as(alice, 'POST', `/api/role/${workspaceId}/`, one)).status).toBe(200);
    const two = [
      { ...one, role: 'EDITOR' },
      { subject_type: 'auth.User', subject_id: erin.id, scope_type: 'workspace', scope_id: workspaceId, role: 'VIEWER' },
    ];
    expect((await as(alice, 'POST', `/api/role/${workspaceId}/batch/`, { items: two })).status).toBe(200);
    const team = (await as(alice, 'POST', `/api/teams/workspace/${workspaceId}/`, { name: 'Auditors', default_role: 'VIEWER', subjects: [] })).body;
    expect((await as(alice, 'PUT', `/api/teams/${team.id}/`, { name: 'Auditors 2', default_role: 'EDITOR', subjects: [] })).status).toBe(200);
    const subject = (await as(alice, 'POST', `/api/teams/${team.id}/subjects/`, { subject_user_email: erin.email, subject_type: 'auth.User' })).body;
    expect((await as(alice, 'DELETE', `/api/teams/${team.id}/subjects/${subject.id}/`)).status).toBe(204);
    expect((await as(alice, 'DELETE', `/api/teams/${team.id}/`)).status).toBe(204);
    expect((await as(erin, 'POST', `/api/workspaces/${workspaceId}/leave/`)).status).toBe(204);

    const log = (await entries(staff, `?workspace_id=${workspaceId}&from_timestamp=${since}&size=30`)).results.map((e: any) => [e.action_type, e.description, e.user]).reverse();
    const group = `"${workspaceName}" (${workspaceId})`;
    const byAlice = `${alice.email} (${alice.id})`;
    const inTeam = `in team "Auditors 2" (${team.id}) `;
    expect(log).toEqual([
      ['create_group_invitation', `Group invitation created for "nobody-yet@example.com" to join ${group} as MEMBER.`, byAlice],
      ['update_group_invitation_permissions', `Invitation (${dropped}) permissions changed from MEMBER to ADMIN for nobody-yet@example.com  on group ${group}.`, byAlice],
      ['delete_group_invitation', `Group invitation (${dropped}) deleted for "nobody-yet@example.com" to join ${group} as ADMIN.`, byAlice],
      ['create_group_invitation', `Group invitation created for "${erin.email}" to join ${group} as MEMBER.`, byAlice],
      ['create_group_invitation', `Group invitation created for "${frank.email}" to join ${group} as MEMBER.`, byAlice],
      ['accept_group_invitation', `Invitation (${accepted}) sent by "${alice.email}" to join ${group} as MEMBER was accepted.`, `${erin.email} (${erin.id})`],
      ['reject_group_invitation', `Invitation (${rejected}) sent by "${alice.email}" to join ${group} as MEMBER was rejected.`, `${frank.email} (${frank.id})`],
      ['batch_assign_role', `Role VIEWER assigned to subject type "auth.User" (${erin.id}) on scope type "application" (${databaseId}).`, byAlice],
      ['batch_assign_role', 'Multiple roles have been assigned', byAlice],
      ['create_team', `Team "Auditors" (${team.id}) created.`, byAlice],
      ['update_team', `Team "Auditors 2" (${team.id}) updated.`, byAlice],
      ['create_team_subject', `Subject (${subject.id}) created ${inTeam}`, byAlice],
      ['delete_team_subject', `Subject (${subject.id}) deleted ${inTeam}`, byAlice],
      ['delete_team', `Team "Auditors 2" (${team.id}) deleted.`, byAlice],
      ['leave_group', `Group ${group} left.`, `${erin.email} (${erin.id})`],
    ]);
  });

  it('describes every undoable action type and every type it lists as Baserow does', () => {
    const undoable = t.app.get(ActionTypeRegistry).names();
    expect(undoable.filter((type) => !AUDIT_ACTION_TYPES.includes(type))).toEqual([]);
    for (const type of AUDIT_ACTION_TYPES) expect(AUDIT_DESCRIPTIONS[type].short).toBeTruthy();
  });

  it('filters by user, workspace, action type and time, sorts and pages; wrong types get the validation error', async () => {
    const mine = await entries(staff, `?user_id=${alice.id}&action_type=create_row`);
    expect(mine.count).toBeGreaterThan(0);
    expect(mine.results.every((e: any) => e.action_type === 'create_row' && e.user.startsWith(alice.email))).toBe(true);
    const inWorkspace = await entries(staff, `?workspace_id=${workspaceId}`);
    expect(inWorkspace.results.every((e: any) => e.workspace.endsWith(`(${workspaceId})`))).toBe(true);
    expect((await entries(staff, '?from_timestamp=2999-01-01T00:00:00Z')).count).toBe(0);
    expect((await entries(staff, '?to_timestamp=2000-01-01')).count).toBe(0);
    const all = await entries(staff, '?size=2');
    expect(all.results).toHaveLength(2);
    expect(all.next).toContain('page=2');
    const byType = await entries(staff, '?sorts=%2Btype&size=100');
    const types = byType.results.map((e: any) => e.action_type);
    expect(types).toEqual([...types].sort());

    const bad = await as(staff, 'GET', '/api/audit-log/?user_id=abc&workspace_id=0&action_type=nope&from_timestamp=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERROR_QUERY_PARAMETER_VALIDATION');
    expect(Object.keys(bad.body.detail).sort()).toEqual(['action_type', 'from_timestamp', 'user_id', 'workspace_id']);
    expect(bad.body.detail.action_type[0].code).toBe('invalid_choice');
    expect(bad.body.detail.from_timestamp[0].code).toBe('invalid');
    expect((await as(staff, 'GET', '/api/audit-log/?sorts=type')).body.error).toBe('ERROR_INVALID_SORT_DIRECTION');
    expect((await as(staff, 'GET', '/api/audit-log/?sorts=-nope')).body.error).toBe('ERROR_INVALID_SORT_ATTRIBUTE');
    expect((await as(staff, 'GET', '/api/audit-log/?size=101')).body.error).toBe('ERROR_PAGE_SIZE_LIMIT');
  });

  it('staff read everything, a workspace admin their workspace only, a member and a stranger nothing', async () => {
    const NOT_STAFF = { detail: 'You do not have permission to perform this action.' };
    expect(await as(alice, 'GET', '/api/audit-log/')).toMatchObject({ status: 403, body: NOT_STAFF });
    const own = await entries(alice, `?workspace_id=${workspaceId}`);
    expect(own.count).toBeGreaterThan(0);
    expect(own.results.every((e: any) => e.workspace.endsWith(`(${workspaceId})`))).toBe(true);
    const member = await as(bob, 'GET', `/api/audit-log/?workspace_id=${workspaceId}`);
    expect([member.status, member.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    const bobWorkspace = (await as(bob, 'GET', '/api/workspaces/')).body.find((w: any) => w.id !== workspaceId).id;
    const stranger = await as(alice, 'GET', `/api/audit-log/?workspace_id=${bobWorkspace}`);
    expect([stranger.status, stranger.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect((await as(staff, 'GET', '/api/audit-log/?workspace_id=999999')).body.error).toBe('ERROR_GROUP_DOES_NOT_EXIST');
    expect((await t.request('GET', '/api/audit-log/')).status).toBe(401);

    const users = await as(alice, 'GET', `/api/audit-log/users/?workspace_id=${workspaceId}&search=${encodeURIComponent(bob.email.slice(0, 8))}`);
    expect(users.body.results).toEqual([{ id: bob.id, value: bob.email }]);
    expect((await as(alice, 'GET', '/api/audit-log/users/')).status).toBe(403);
    expect((await as(alice, 'GET', '/api/audit-log/workspaces/')).status).toBe(403);
    const workspaces = await as(staff, 'GET', `/api/audit-log/workspaces/?search=${encodeURIComponent(workspaceName)}`);
    expect(workspaces.body.results).toContainEqual({ id: workspaceId, value: workspaceName });
    const types = await as(alice, 'GET', `/api/audit-log/action-types/?workspace_id=${workspaceId}&search=row`);
    expect(types.body.results).toContainEqual({ id: 'create_row', value: 'Create row' });
    expect(types.body.results.map((type: any) => type.id)).not.toContain('delete_group');
    expect((await as(staff, 'GET', '/api/admin/audit-log/action-types/')).body.results).toContainEqual({ id: 'delete_group', value: 'Delete group' });
    expect((await as(staff, 'GET', '/api/admin/audit-log/')).body.count).toBe((await entries(staff)).count);
  });

  it('exports the filtered log as CSV in an audit_log_export job', async () => {
    const bad = await as(alice, 'POST', '/api/audit-log/export/', { csv_column_separator: 'x', exclude_columns: 'user_id,user_id', filter_action_type: 'nope' });
    expect([bad.status, bad.body.error, Object.keys(bad.body.detail).sort()]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION', ['csv_column_separator', 'exclude_columns', 'filter_action_type']]);
    expect((await as(alice, 'POST', '/api/audit-log/export/', {})).status).toBe(403);
    const started = await as(alice, 'POST', '/api/audit-log/export/', { filter_workspace_id: workspaceId, filter_action_type: 'create_field', csv_column_separator: ';', exclude_columns: 'ip_address,user_id' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ type: 'audit_log_export', filter_workspace_id: workspaceId, csv_column_separator: ';', csv_first_row_header: true, export_charset: 'utf-8', exported_file_name: null });
    const job = await endedJob(t, alice.token, started.body.id);
    expect(job.state).toBe('finished');
    expect(job.exported_file_name).toMatch(/\.csv$/);
    expect(job.url).toBe(`${t.config.mediaUrl.replace(/\/+$/, '')}/export_files/${job.exported_file_name}`);
    const text = readFileSync(join(t.config.mediaRoot, 'export_files', job.exported_file_name), 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('User Email;Group Name;Group ID;Action Type;Description;Timestamp');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${alice.email.replace(/[.+]/g, '\\$&')};${workspaceName};${workspaceId};Create field;"Field ""Amount"" \\(\\d+\\) created in table ""Audited""`));
    expect(lines[1]).toMatch(/;\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  });

  it('keeps entries BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS days', async () => {
    const dataSource = t.app.get(DataSource);
    const total = (await entries(staff)).count;
    await dataSource.query(`UPDATE "baserow_enterprise_auditlogentry" SET "action_timestamp" = '2001-01-01T00:00:00.000000Z' WHERE "action_type" = 'sign_in_user_failed'`);
    const deleted = await t.app.get(AuditCleanupService).run();
    expect(deleted).toBeGreaterThan(0);
    expect((await entries(staff)).count).toBe(total - deleted);
    expect((await entries(staff, '?action_type=sign_in_user_failed')).count).toBe(0);
  });
});
