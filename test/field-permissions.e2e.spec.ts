import { DataSource } from 'typeorm';
import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { addMember, databaseOf, emptyTable, endedJob } from './support/fixtures';
import { recordStatements } from './support/statements';
import { undoClient } from './support/undo';
import { connect, expectNone, WsClient } from './support/ws';

let t: TestApp;
let ada: SignedUp; // the workspace's admin
let bob: SignedUp; // a member, given roles per test
let eve: SignedUp; // a member of nothing of Ada's
let workspaceId: number;
let tableId: number;
let nameId: number; // the primary field, never protected
let secretId: number; // the protected field

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error];
const perms = (fieldId: number, body?: unknown, token = ada.token) => api(body === undefined ? 'GET' : 'PATCH', `/api/field-permissions/${fieldId}/`, body, token);
const setRole = async (user: SignedUp, role: string) => {
  const res = await api('POST', `/api/role/${workspaceId}/`, { subject_type: 'auth.User', subject_id: user.id, scope_type: 'workspace', scope_id: workspaceId, role });
  expect(res.status).toBe(200);
};
const protect = async (role: string, allow_in_forms = false) => expect((await perms(secretId, { role, allow_in_forms })).status).toBe(200);
const rowsOf = async () => (await api('GET', `/api/database/rows/table/${tableId}/`)).body.results as any[];
const name = (id: number) => `field_${id}`;

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  eve = await signUp(t, 'Eve');
  workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
  tableId = await emptyTable(t, ada, await databaseOf(t, ada), 'Salaries');
  const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
  nameId = fields.find((f: any) => f.primary).id;
  secretId = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Salary', type: 'text' })).body.id;
  await addMember(t, ada, bob, workspaceId);
});
afterAll(async () => t?.close());

afterEach(async () => {
  await protect('EDITOR');
  await setRole(bob, 'BUILDER');
});

describe(`field permissions API (${TEST_DB})`, () => {
  test("read and change as Baserow answers them; EDITOR is the default (and removes the rule)", async () => {
    expect(await perms(secretId)).toMatchObject({ status: 200, body: { role: 'EDITOR', allow_in_forms: true, field_id: secretId } });
    const set = await perms(secretId, { role: 'ADMIN' });
    expect([set.status, set.body]).toEqual([200, { role: 'ADMIN', allow_in_forms: false, field_id: secretId, can_write_values: true }]);
    expect((await perms(secretId)).body).toEqual({ role: 'ADMIN', allow_in_forms: false, field_id: secretId });
    const nobody = await perms(secretId, { role: 'NOBODY', allow_in_forms: true });
    expect(nobody.body).toEqual({ role: 'NOBODY', allow_in_forms: true, field_id: secretId, can_write_values: false });
    const reset = await perms(secretId, { role: 'EDITOR', allow_in_forms: false });
    expect(reset.body).toEqual({ role: 'EDITOR', allow_in_forms: true, field_id: secretId, can_write_values: true });
  });

  test('a change is the undoable update_field_permissions, in the audit log', async () => {
    const session = undoClient(t, () => ada, 'perms-session');
    expect((await session.api('PATCH', `/api/field-permissions/${secretId}/`, { role: 'ADMIN', allow_in_forms: true })).status).toBe(200);
    expect((await session.api('PATCH', `/api/field-permissions/${secretId}/`, { role: 'NOBODY' })).status).toBe(200);
    const undone = await session.undo({ table: tableId });
    expect(undone.body).toEqual({ actions: [{ action_type: 'update_field_permissions', action_scope: `table${tableId}` }], result_code: 'SUCCESS' });
    expect((await perms(secretId)).body).toEqual({ role: 'ADMIN', allow_in_forms: true, field_id: secretId });
    await session.undo({ table: tableId });
    expect((await perms(secretId)).body).toEqual({ role: 'EDITOR', allow_in_forms: true, field_id: secretId });
    await session.redo({ table: tableId });
    expect((await perms(secretId)).body.role).toBe('ADMIN');
    const log = await api('GET', `/api/audit-log/?action_type=update_field_permissions&workspace_id=${workspaceId}`);
    expect(log.status).toBe(200);
    expect(log.body.results[0]).toMatchObject({
      action_type: 'update_field_permissions',
      description: expect.stringMatching(new RegExp(`^REDONE: Field "Salary" \\(${secretId}\\): permissions updated to role "ADMIN" and "allow in forms" set to "True" in table "Salaries"`)),
    });
  });

  test('a rule goes with its field: hidden while the field is trashed, deleted with it for good', async () => {
    const temp = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Temp', type: 'text' })).body.id;
    expect((await perms(temp, { role: 'NOBODY' })).status).toBe(200);
    expect((await api('DELETE', `/api/database/fields/${temp}/`)).status).toBe(200);
    expect(errorOf(await perms(temp))).toEqual([404, 'ERROR_FIELD_DOES_NOT_EXIST']);
    const databaseId = await databaseOf(t, ada);
    const kept = await t.app.get(DataSource).query('SELECT field_id FROM baserow_enterprise_fieldpermissions');
    expect(kept.map((r: any) => Number(r.field_id))).toContain(temp);
    expect((await api('DELETE', `/api/trash/workspace/${workspaceId}/?application_id=${databaseId}`)).status).toBe(204);
    const left = await t.app.get(DataSource).query('SELECT field_id FROM baserow_enterprise_fieldpermissions');
    expect(left.map((r: any) => Number(r.field_id))).not.toContain(temp);
  });

  test("Baserow's errors: unknown field, another workspace's field, bad bodies (CUSTOM is not settable), roles below BUILDER", async () => {
    expect(errorOf(await perms(999999))).toEqual([404, 'ERROR_FIELD_DOES_NOT_EXIST']);
    expect(errorOf(await perms(999999, { role: 'ADMIN' }))).toEqual([404, 'ERROR_FIELD_DOES_NOT_EXIST']);
    expect(errorOf(await perms(secretId, undefined, eve.token))).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect(errorOf(await perms(secretId, { role: 'ADMIN' }, eve.token))).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    for (const body of [{}, { role: 'CUSTOM' }, { role: 'OWNER' }, { role: 'ADMIN', allow_in_forms: 'maybe' }, []]) {
      expect(errorOf(await perms(secretId, body))).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    }
    await setRole(bob, 'EDITOR');
    expect(errorOf(await perms(secretId, undefined, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    expect(errorOf(await perms(secretId, { role: 'NOBODY' }, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    await setRole(bob, 'BUILDER');
    expect((await perms(secretId, { role: 'BUILDER' }, bob.token)).status).toBe(200);
    expect((await perms(secretId)).body.role).toBe('BUILDER');
  });
});

describe(`the workspace's permissions tell the web client (${TEST_DB})`, () => {
  const managerOf = async (token: string) => {
    const managers = (await api('GET', `/api/workspaces/${workspaceId}/permissions/`, undefined, token)).body as { name: string; permissions: any }[];
    return managers.find((m) => m.name === 'write_field_values')?.permissions;
  };

  test("Baserow's write_field_values manager: the fields the member may not write, and those forms may not", async () => {
    expect(await managerOf(bob.token)).toBeUndefined();
    await protect('ADMIN');
    expect(await managerOf(bob.token)).toEqual({
      'database.table.field.write_values': { default: true, exceptions: [secretId] },
      'database.table.field.submit_anonymous_values': { default: true, exceptions: [secretId] },
    });
    await protect('BUILDER', true);
    expect(await managerOf(ada.token)).toEqual({
      'database.table.field.write_values': { default: true, exceptions: [] },
      'database.table.field.submit_anonymous_values': { default: true, exceptions: [] },
    });
    const names = (await api('GET', `/api/workspaces/${workspaceId}/permissions/`)).body.map((m: any) => m.name);
    expect(names.slice(names.indexOf('write_field_values'))).toEqual(['write_field_values', 'basic']);
  });
});

describe(`field permissions on row writes (${TEST_DB})`, () => {
  const create = (token: string, body: Record<string, unknown>) => api('POST', `/api/database/rows/table/${tableId}/`, body, token);
  const update = (token: string, rowId: number, body: Record<string, unknown>) => api('PATCH', `/api/database/rows/table/${tableId}/${rowId}/`, body, token);

  test('each level: a role at or above it writes, one below is refused (and nothing is written); other fields stay writable', async () => {
    const row = (await create(ada.token, { [name(nameId)]: 'levels' })).body;
    const levels: [string, string, boolean][] = [
      ['BUILDER', 'EDITOR', false],
      ['BUILDER', 'BUILDER', true],
      ['ADMIN', 'BUILDER', false],
      ['ADMIN', 'ADMIN', true],
      ['EDITOR', 'EDITOR', true],
    ];
    for (const [level, bobRole, allowed] of levels) {
      await protect(level);
      await setRole(bob, bobRole);
      const res = await update(bob.token, row.id, { [name(secretId)]: `${level}/${bobRole}` });
      if (allowed) expect(res.status).toBe(200);
      else expect(errorOf(res)).toEqual([401, 'PERMISSION_DENIED']);
      expect(errorOf(await create(bob.token, { [name(secretId)]: 'x' }))).toEqual(allowed ? [200, undefined] : [401, 'PERMISSION_DENIED']);
      // Writing other fields, or creating without the protected one, works at every level.
      expect((await update(bob.token, row.id, { [name(nameId)]: `ok ${level}` })).status).toBe(200);
    }
    await protect('NOBODY');
    expect(errorOf(await update(ada.token, row.id, { [name(secretId)]: 'admin' }))).toEqual([401, 'PERMISSION_DENIED']);
    expect((await create(ada.token, { [name(nameId)]: 'no secret' })).status).toBe(200);
    const after = (await rowsOf()).find((r) => r.id === row.id);
    expect(after[name(secretId)]).toBe('EDITOR/EDITOR');
  });

  test('warm row writes read no rule and no role (metadata caches)', async () => {
    await protect('BUILDER');
    const row = (await create(bob.token, { [name(secretId)]: 'warm' })).body;
    expect((await update(bob.token, row.id, { [name(secretId)]: 'warmer' })).status).toBe(200);
    const sent = recordStatements(t.app);
    expect((await update(bob.token, row.id, { [name(secretId)]: 'warmest' })).status).toBe(200);
    expect((await create(bob.token, { [name(secretId)]: 'warm too' })).status).toBe(200);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((sql) => /fieldpermissions|enterprise_roleassignment|enterprise_team|workspace_user/.test(sql))).toEqual([]);
  });

  test('a batch touching a protected field is refused whole', async () => {
    const created = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{ [name(nameId)]: 'b1' }, { [name(nameId)]: 'b2' }] });
    const [r1, r2] = created.body.items;
    await protect('ADMIN');
    const before = (await rowsOf()).length;
    const batchCreate = await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{ [name(nameId)]: 'b3' }, { [name(secretId)]: 'no' }] }, bob.token);
    expect(errorOf(batchCreate)).toEqual([401, 'PERMISSION_DENIED']);
    expect((await rowsOf()).length).toBe(before);
    const items = [{ id: r1.id, [name(nameId)]: 'changed' }, { id: r2.id, [name(secretId)]: 'no' }];
    expect(errorOf(await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items }, bob.token))).toEqual([401, 'PERMISSION_DENIED']);
    expect((await rowsOf()).find((r) => r.id === r1.id)[name(nameId)]).toBe('b1');
    // Without the protected field the batch goes through.
    expect((await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: [items[0]] }, bob.token)).status).toBe(200);
  });

  test('an import into the table leaves out the fields the importer may not write, as Baserow does', async () => {
    await protect('ADMIN');
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    const line = (who: string) => fields.map((f: any) => (f.id === secretId ? `${who} secret` : f.id === nameId ? `imported by ${who}` : f.type === 'boolean' ? false : ''));
    const data = [line('bob')];
    const job = await api('POST', `/api/database/tables/${tableId}/import/async/`, { data }, bob.token);
    expect(job.status).toBe(200);
    const ended = await endedJob(t, bob.token, job.body.id);
    expect([ended.state, ended.report]).toEqual(['finished', { failing_rows: {} }]);
    const row = (await rowsOf()).find((r) => r[name(nameId)] === 'imported by bob');
    expect(row[name(secretId)]).toBeFalsy();
    // The admin's import writes it.
    const adminJob = await api('POST', `/api/database/tables/${tableId}/import/async/`, { data: [line('ada')] });
    expect((await endedJob(t, ada.token, adminJob.body.id)).state).toBe('finished');
    expect((await rowsOf()).find((r) => r[name(nameId)] === 'imported by ada')[name(secretId)]).toBe('ada secret');
  });

  test('undo and redo of a row change are refused once the field is protected, and write nothing', async () => {
    const session = undoClient(t, () => bob);
    const row = (await create(ada.token, { [name(nameId)]: 'undo' })).body;
    expect((await session.api('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [name(secretId)]: 'v1' })).status).toBe(200);
    await protect('ADMIN');
    const undone = await session.undo({ table: tableId });
    expect(undone.status).toBe(200);
    expect(undone.body.result_code).not.toBe('SUCCESS');
    expect((await rowsOf()).find((r) => r.id === row.id)[name(secretId)]).toBe('v1');
    await protect('EDITOR');
    const again = await session.api('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [name(secretId)]: 'v2' });
    expect(again.status).toBe(200);
    expect((await session.undo({ table: tableId })).body.result_code).toBe('SUCCESS');
    expect((await rowsOf()).find((r) => r.id === row.id)[name(secretId)]).toBe('v1');
  });

  test('a form writes a protected field only when allow_in_forms', async () => {
    const form = (await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Apply', type: 'form', public: true })).body;
    const enable = { [nameId]: { enabled: true }, [secretId]: { enabled: true } };
    expect((await api('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: enable })).status).toBe(200);
    const submit = (value: string) => t.request('POST', `/api/database/views/form/${form.slug}/submit/`, { body: { [name(nameId)]: value, [name(secretId)]: `${value} secret` } });
    const fieldsShown = async () => (await t.request('GET', `/api/database/views/form/${form.slug}/submit/`)).body.fields.map((f: any) => f.field.id);

    await protect('NOBODY', true);
    expect(await fieldsShown()).toEqual([nameId, secretId]);
    expect((await submit('allowed')).status).toBe(200);
    expect((await rowsOf()).find((r) => r[name(nameId)] === 'allowed')[name(secretId)]).toBe('allowed secret');

    await protect('NOBODY', false);
    expect(await fieldsShown()).toEqual([nameId]);
    expect((await submit('left out')).status).toBe(200);
    expect((await rowsOf()).find((r) => r[name(nameId)] === 'left out')[name(secretId)]).toBeFalsy();
  });
});

describe(`field_permissions_updated (${TEST_DB})`, () => {
  test("Baserow's payload to the workspace's members after commit, not to the sender's socket nor to others", async () => {
    const open: WsClient[] = [];
    try {
      const adaOther = await connect(t, ada.token);
      const bobs = await connect(t, bob.token);
      const eves = await connect(t, eve.token);
      const sender = await connect(t, ada.token);
      open.push(adaOther, bobs, eves, sender);
      const res = await t.request('PATCH', `/api/field-permissions/${secretId}/`, { token: ada.token, body: { role: 'BUILDER', allow_in_forms: true }, headers: { WebSocketId: sender.webSocketId } });
      expect(res.status).toBe(200);
      const expected = { type: 'field_permissions_updated', workspace_id: workspaceId, field_id: secretId, role: 'BUILDER', allow_in_forms: true };
      expect(await adaOther.waitFor('field_permissions_updated')).toEqual(expected);
      expect(await bobs.waitFor('field_permissions_updated')).toEqual(expected);
      await expectNone(eves, sender);
      // A refused change sends nothing.
      expect((await perms(secretId, { role: 'CUSTOM' })).status).toBe(400);
      await expectNone(adaOther, bobs);
    } finally {
      for (const client of open) client.close();
    }
  });
});
