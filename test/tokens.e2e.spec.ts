import { DataSource } from 'typeorm';
import { Caches } from '../src/core/cache/caches';
import { TOKEN_GRANTS_CACHE } from '../src/tokens/token-authenticator';
import { freshDatabase, startApp, startTwoInstances, TEST_DB, TestApp } from './support/app';
import { createTenant, Tenant } from './support/fixtures';
import { connect, expectNone } from './support/ws';

/** Database tokens (§10): CRUD, validation, `Authorization: Token <key>` on exactly the routes that accept it. */
describe(`database tokens (${TEST_DB})`, () => {
  let t: TestApp;
  let ada: Tenant;
  let eve: Tenant;
  let customers: number;
  let projects: number;
  let databaseId: number;

  const jwt = (method: string, path: string, body?: unknown, token = ada.user.token) => t.request(method, path, { token, body });
  const withKey = (key: string, method: string, path: string, body?: unknown) => t.request(method, path, { body, headers: { Authorization: `Token ${key}` } });
  const createToken = async (name = 'Zapier', workspace = Number(ada.ids.workspaceId), token = ada.user.token) => {
    const res = await jwt('POST', '/api/database/tokens/', { name, workspace }, token);
    expect(res.status).toBe(200);
    return res.body;
  };
  const setPermissions = async (id: number, permissions: unknown) => {
    const res = await jwt('PATCH', `/api/database/tokens/${id}/`, { permissions });
    expect(res.status).toBe(200);
    return res.body;
  };
  const storedTokens = () => t.app.get(DataSource).query('SELECT id, name, key_hash, version FROM database_token ORDER BY id');
  const storedPermissions = () => t.app.get(DataSource).query('SELECT token_id, type, database_id, table_id FROM database_token_permission ORDER BY id');

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    ada = await createTenant(t, 'Ada');
    eve = await createTenant(t, 'Eve');
    const [database] = (await jwt('GET', `/api/applications/workspace/${ada.ids.workspaceId}/`)).body;
    databaseId = database.id;
    customers = database.tables.find((x: any) => x.name === 'Customers').id;
    projects = database.tables.find((x: any) => x.name === 'Projects').id;
  });
  afterAll(() => t?.close());

  it('creates a token with every permission and a 32-character key, shown where Baserow shows it but never stored', async () => {
    const token = await createToken();
    expect(token).toEqual({
      id: expect.any(Number),
      name: 'Zapier',
      workspace: Number(ada.ids.workspaceId),
      key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      permissions: { create: true, read: true, update: true, delete: true },
    });
    expect((await jwt('GET', `/api/database/tokens/${token.id}/`)).body).toEqual(token);
    expect((await jwt('GET', '/api/database/tokens/')).body).toContainEqual(token);
    // Only the hash and the ciphertext are in the database.
    const raw = JSON.stringify(await t.app.get(DataSource).query('SELECT * FROM database_token'));
    expect(raw).not.toContain(token.key);
    const other = await createToken('Other');
    expect(other.key).not.toBe(token.key);
  });

  it('validates create with Baserow messages and refuses workspaces of others', async () => {
    const before = await storedTokens();
    const bad = async (body: unknown) => (await jwt('POST', '/api/database/tokens/', body)).body;
    expect(await bad({})).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { name: [{ error: 'This field is required.', code: 'required' }], workspace: [{ error: 'This field is required.', code: 'required' }] },
    });
    expect((await bad({ name: 'x'.repeat(101), workspace: Number(ada.ids.workspaceId) })).detail).toEqual({
      name: [{ error: 'Ensure this field has no more than 100 characters.', code: 'max_length' }],
    });
    expect((await bad({ name: 'A', workspace: 'abc' })).detail).toEqual({ workspace: [{ error: 'Incorrect type. Expected pk value, received str.', code: 'incorrect_type' }] });
    expect((await bad({ name: 'A', workspace: 999999 })).detail).toEqual({ workspace: [{ error: 'Invalid pk "999999" - object does not exist.', code: 'does_not_exist' }] });
    const res = await jwt('POST', '/api/database/tokens/', { name: 'A', workspace: Number(eve.ids.workspaceId) });
    expect([res.status, res.body]).toEqual([400, { error: 'ERROR_USER_NOT_IN_GROUP', detail: '' }]);
    expect(await storedTokens()).toEqual(before);
  });

  it("answers someone else's token as missing: get, update, rotate and delete change nothing", async () => {
    const token = await createToken('Mine');
    const before = await storedTokens();
    const missing = { error: 'ERROR_TOKEN_DOES_NOT_EXIST', detail: 'The token does not exist.' };
    for (const [method, body] of [['GET'], ['PATCH', { rotate_key: true }], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
      const res = await jwt(method, `/api/database/tokens/${token.id}/`, body, eve.user.token);
      expect([method, res.status, res.body]).toEqual([method, 404, missing]);
    }
    expect((await jwt('GET', '/api/database/tokens/', undefined, eve.user.token)).body.map((x: any) => x.id)).not.toContain(token.id);
    expect(await storedTokens()).toEqual(before);
    expect((await withKey(token.key, 'GET', '/api/database/tokens/check/')).status).toBe(200);
  });

  it('validates permissions with Baserow messages, writing nothing', async () => {
    const token = await createToken('Validated');
    const before = [await storedTokens(), await storedPermissions()];
    const all = { create: true, read: true, update: true, delete: true };
    const detail = async (permissions: unknown) => {
      const res = await jwt('PATCH', `/api/database/tokens/${token.id}/`, { name: 'Changed', permissions, rotate_key: true });
      return [res.status, res.body.error, res.body.detail];
    };
    const invalid = (error: string, code: string) => [400, 'ERROR_REQUEST_BODY_VALIDATION', { permissions: [{ error, code }] }];
    const keys = invalid('Only create, read, update and delete keys are allowed.', 'invalid_key');
    const value = invalid('The value must either be a bool, or a list containing database or table ids like [["database", 1], ["table", 1]].', 'invalid_value');
    expect(await detail({ create: true })).toEqual(keys);
    expect(await detail({ ...all, list: true })).toEqual(keys);
    expect(await detail({ create: true, read: true, update: true, remove: true })).toEqual(keys);
    expect(await detail([true, true, true, true])).toEqual(keys);
    expect(await detail('all')).toEqual(keys);
    expect(await detail({ ...all, read: 'yes' })).toEqual(value);
    expect(await detail({ ...all, read: [1] })).toEqual(value);
    expect(await detail({ ...all, read: [['table']] })).toEqual(value);
    expect(await detail({ ...all, read: [['table', '1']] })).toEqual(value);
    expect(await detail({ ...all, read: [[1, 'table']] })).toEqual(value);
    expect(await detail({ ...all, read: [['view', 1]] })).toEqual(invalid('The instance type can only be a database or table.', 'invalid_instance_type'));
    expect(await detail({ ...all, read: [['table', 999999]] })).toEqual(invalid('The table id 999999 is not valid.', 'invalid_table_id'));
    expect(await detail({ ...all, read: [['database', 999999]] })).toEqual(invalid('The database id 999999 is not valid.', 'invalid_database_id'));
    expect(await detail({ ...all, read: [['table', 99999999999]] })).toEqual(invalid('The table id 99999999999 is not valid.', 'invalid_table_id'));
    expect(await detail({ ...all, read: [['database', Number(eve.ids.databaseId)]] })).toEqual([
      400,
      'ERROR_DATABASE_DOES_NOT_BELONG_TO_GROUP',
      'The provided database does not belong to the related group.',
    ]);
    expect(await detail({ ...all, update: [['table', customers], ['table', Number(eve.ids.tableId)]] })).toEqual([
      400,
      'ERROR_TABLE_DOES_NOT_BELONG_TO_GROUP',
      'The provided table does not belong to the related group.',
    ]);
    const other = await jwt('PATCH', `/api/database/tokens/${token.id}/`, { name: '' });
    expect(other.body.detail).toEqual({ name: [{ error: 'This field may not be blank.', code: 'blank' }] });
    expect(await jwt('PATCH', `/api/database/tokens/${token.id}/`, { rotate_key: 'maybe' })).toMatchObject({ status: 400 });
    expect([await storedTokens(), await storedPermissions()]).toEqual(before);
  });

  it('applies concurrent permission changes one after the other', async () => {
    const token = await createToken('Raced');
    const bodies = [
      { create: [['table', customers]], read: [['table', projects]], update: false, delete: false },
      { create: false, read: [['database', databaseId]], update: [['table', customers]], delete: true },
    ];
    const answers = await Promise.all(bodies.concat(bodies).map((permissions) => jwt('PATCH', `/api/database/tokens/${token.id}/`, { permissions })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect(bodies).toContainEqual((await jwt('GET', `/api/database/tokens/${token.id}/`)).body.permissions);
  });

  it('updates the name and permissions and shows them as Baserow does', async () => {
    const token = await createToken('Scoped');
    const res = await jwt('PATCH', `/api/database/tokens/${token.id}/`, {
      name: 'Renamed',
      permissions: { create: false, read: [['database', databaseId], ['table', customers]], update: [['table', projects], ['table', projects]], delete: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...token,
      name: 'Renamed',
      permissions: { create: false, read: [['database', databaseId], ['table', customers]], update: [['table', projects]], delete: true },
    });
    expect((await jwt('GET', `/api/database/tokens/${token.id}/`)).body).toEqual(res.body);
  });

  it('rotates the key: the old key stops working at once, the new one works', async () => {
    const token = await createToken('Rotating');
    expect((await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`)).status).toBe(200);
    const rotated = (await jwt('PATCH', `/api/database/tokens/${token.id}/`, { rotate_key: true })).body;
    expect(rotated).toEqual({ ...token, key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(rotated.key).not.toBe(token.key);
    const old = await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`);
    expect([old.status, old.body]).toEqual([401, { detail: 'The provided token does not exist.', error: 'ERROR_TOKEN_DOES_NOT_EXIST' }]);
    expect((await withKey(rotated.key, 'GET', `/api/database/rows/table/${customers}/`)).status).toBe(200);
    expect((await jwt('GET', `/api/database/tokens/${token.id}/`)).body.key).toBe(rotated.key);
  });

  it('deletes a token: its key stops working', async () => {
    const token = await createToken('Doomed');
    expect((await jwt('DELETE', `/api/database/tokens/${token.id}/`)).status).toBe(204);
    expect((await jwt('GET', `/api/database/tokens/${token.id}/`)).status).toBe(404);
    expect((await jwt('DELETE', `/api/database/tokens/${token.id}/`)).status).toBe(404);
    expect((await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`)).body.error).toBe('ERROR_TOKEN_DOES_NOT_EXIST');
  });

  it('answers /tokens/check/ with 200 for a valid key and 403 for every authentication failure', async () => {
    const token = await createToken('Checked');
    expect(await withKey(token.key, 'GET', '/api/database/tokens/check/')).toMatchObject({ status: 200, body: { token: 'OK' } });
    const lower = await t.request('GET', '/api/database/tokens/check/', { headers: { Authorization: `token ${token.key}` } });
    expect(lower.status).toBe(200);
    const failures: [Record<string, string>, unknown][] = [
      [{}, { detail: 'Authentication credentials were not provided.' }],
      [{ Authorization: `JWT ${ada.user.token}` }, { detail: 'Authentication credentials were not provided.' }],
      [{ Authorization: 'Token' }, { detail: 'Invalid token header. No token provided.', error: 'ERROR_INVALID_TOKEN_HEADER' }],
      [{ Authorization: `Token ${token.key} x` }, { detail: 'Invalid token header. Token string should not contain spaces.', error: 'ERROR_INVALID_TOKEN_HEADER' }],
      [{ Authorization: `Token ${'a'.repeat(32)}` }, { detail: 'The provided token does not exist.', error: 'ERROR_TOKEN_DOES_NOT_EXIST' }],
      [{ Authorization: `Token ${token.key}x` }, { detail: 'The provided token does not exist.', error: 'ERROR_TOKEN_DOES_NOT_EXIST' }],
      [{ Authorization: `Token ${'é'.repeat(5)}` }, { detail: 'The provided token does not exist.', error: 'ERROR_TOKEN_DOES_NOT_EXIST' }],
    ];
    for (const [headers, body] of failures) {
      const res = await t.request('GET', '/api/database/tokens/check/', { headers });
      expect([headers, res.status, res.body, res.headers.get('www-authenticate')]).toEqual([headers, 403, body, null]);
    }
  });

  it('is refused on JWT-only routes as an unrecognised scheme, and with 401 on the row routes', async () => {
    const token = await createToken('Limited');
    for (const path of ['/api/workspaces/', `/api/database/tables/${customers}/`, `/api/database/views/table/${customers}/`, `/api/database/rows/table/${customers}/1/adjacent/`, '/api/database/tokens/']) {
      const res = await withKey(token.key, 'GET', path);
      expect([path, res.status, res.body]).toEqual([path, 401, { detail: 'Authentication credentials were not provided.' }]);
    }
    const unknown = await withKey('b'.repeat(32), 'GET', `/api/database/rows/table/${customers}/`);
    expect([unknown.status, unknown.body, unknown.headers.get('www-authenticate')]).toEqual([
      401,
      { detail: 'The provided token does not exist.', error: 'ERROR_TOKEN_DOES_NOT_EXIST' },
      'JWT realm="api"',
    ]);
    const jwtOnTokenOnly = await jwt('GET', '/api/database/tables/all-tables/');
    expect([jwtOnTokenOnly.status, jwtOnTokenOnly.body]).toEqual([403, { detail: 'Authentication credentials were not provided.' }]);
  });

  it('drives the full row lifecycle with a token, as its owner', async () => {
    const { key } = await createToken('Lifecycle');
    const rows = `/api/database/rows/table/${customers}`;
    const fields = (await withKey(key, 'GET', `/api/database/fields/table/${customers}/`)).body;
    expect(fields.map((f: any) => f.name)).toEqual((await jwt('GET', `/api/database/fields/table/${customers}/`)).body.map((f: any) => f.name));
    const nameField = fields.find((f: any) => f.primary).id;
    const created = await withKey(key, 'POST', `${rows}/`, { [`field_${nameField}`]: 'Token row' });
    expect(created.status).toBe(200);
    const batch = await withKey(key, 'POST', `${rows}/batch/`, { items: [{ [`field_${nameField}`]: 'Batch 1' }, { [`field_${nameField}`]: 'Batch 2' }] });
    expect(batch.status).toBe(200);
    const [b1, b2] = batch.body.items.map((r: any) => r.id);
    const filtered = await withKey(key, 'GET', `${rows}/?filter__field_${nameField}__contains=batch&order_by=-field_${nameField}`);
    expect(filtered.body.results.map((r: any) => r[`field_${nameField}`])).toEqual(['Batch 2', 'Batch 1']);
    const named = await withKey(key, 'GET', `${rows}/?user_field_names=true&search=Token`);
    expect(named.body.results.map((r: any) => r.Name)).toEqual(['Token row']);
    expect((await withKey(key, 'GET', `${rows}/${created.body.id}/`)).body[`field_${nameField}`]).toBe('Token row');
    expect((await withKey(key, 'GET', `/api/database/rows/names/?table__${customers}=${created.body.id}`)).body).toEqual({ [customers]: { [created.body.id]: 'Token row' } });
    const updated = await withKey(key, 'PATCH', `${rows}/${created.body.id}/`, { [`field_${nameField}`]: 'Token row 2', id: 12345 });
    expect([updated.status, updated.body[`field_${nameField}`]]).toEqual([200, 'Token row 2']);
    const batchUpdated = await withKey(key, 'PATCH', `${rows}/batch/`, { items: [{ id: b1, [`field_${nameField}`]: 'Batch 1b' }] });
    expect(batchUpdated.body.items[0][`field_${nameField}`]).toBe('Batch 1b');
    const moved = await withKey(key, 'PATCH', `${rows}/${b2}/move/?before_id=${b1}`);
    expect(moved.status).toBe(200);
    const order = (await withKey(key, 'GET', `${rows}/?size=200`)).body.results.map((r: any) => r.id);
    expect(order.indexOf(b2)).toBe(order.indexOf(b1) - 1);
    expect((await withKey(key, 'DELETE', `${rows}/${created.body.id}/`)).status).toBe(204);
    expect((await withKey(key, 'POST', `${rows}/batch-delete/`, { items: [b1, b2] })).status).toBe(204);
    expect((await jwt('GET', `${rows}/${b1}/`)).status).toBe(404);
    // A token may not include row metadata, nor create fields.
    const metadata = await withKey(key, 'GET', `${rows}/${ada.ids.rowId}/?include=metadata`);
    expect([metadata.status, metadata.body.error]).toEqual([400, 'ERROR_CANNOT_INCLUDE_ROW_METADATA']);
    const field = await withKey(key, 'POST', `/api/database/fields/table/${customers}/`, { name: 'Nope', type: 'text' });
    expect([field.status, field.body]).toEqual([401, { error: 'ERROR_NO_PERMISSION_TO_TABLE', detail: 'The token does not have permissions to the table.' }]);
    // A missing table is missing before it is forbidden.
    expect((await withKey(key, 'GET', '/api/database/rows/table/999999/')).body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
  });

  it("acts as its owner: rows carry the owner as creator, and the table page hears it as usual", async () => {
    const { key } = await createToken('Realtime');
    const creator = (await jwt('POST', `/api/database/fields/table/${projects}/`, { name: 'Creator', type: 'created_by' })).body.id;
    const origin = await connect(t, ada.user.token);
    const watcher = await connect(t, ada.member.token);
    const stranger = await connect(t, eve.user.token);
    try {
      for (const socket of [origin, watcher]) {
        socket.send({ page: 'table', table_id: projects });
        await socket.waitFor('page_add');
      }
      stranger.send({ page: 'table', table_id: Number(eve.ids.tableId) });
      await stranger.waitFor('page_add');
      const res = await t.request('POST', `/api/database/rows/table/${projects}/`, { body: {}, headers: { Authorization: `Token ${key}`, ...origin.origin } });
      expect(res.status).toBe(200);
      expect(res.body[`field_${creator}`]).toEqual({ id: ada.user.id, name: 'Ada' });
      const message = await watcher.waitFor('rows_created');
      expect(message).toMatchObject({ table_id: projects, rows: [{ id: res.body.id }] });
      await expectNone(origin, stranger);
    } finally {
      origin.close();
      watcher.close();
      stranger.close();
    }
  });

  it('is refused outside its workspace and its permissions, and obeys a change at once', async () => {
    const token = await createToken('Narrow');
    const { key } = token;
    const noPermission = [401, 'ERROR_NO_PERMISSION_TO_TABLE'];
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await withKey(key, method, path, body);
      return [res.status, res.body.error];
    };
    const before = await t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM database_table_${eve.ids.tableId}`);
    expect(await call('GET', `/api/database/rows/table/${eve.ids.tableId}/`)).toEqual(noPermission);
    expect(await call('POST', `/api/database/rows/table/${eve.ids.tableId}/`, {})).toEqual(noPermission);
    expect(await call('GET', `/api/database/fields/table/${eve.ids.tableId}/`)).toEqual(noPermission);
    expect(await t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM database_table_${eve.ids.tableId}`)).toEqual(before);
    // A table of another workspace of the same owner is outside the token's workspace too.
    const second = (await jwt('POST', '/api/workspaces/', { name: 'Second' })).body;
    const secondDb = (await jwt('POST', `/api/applications/workspace/${second.id}/`, { name: 'Db', type: 'database' })).body;
    const secondTable = (await jwt('POST', `/api/database/tables/database/${secondDb.id}/`, { name: 'Elsewhere' })).body;
    expect(await call('GET', `/api/database/rows/table/${secondTable.id}/`)).toEqual(noPermission);
    expect(await call('POST', `/api/database/rows/table/${secondTable.id}/`, {})).toEqual(noPermission);
    expect((await withKey(key, 'GET', '/api/database/tables/all-tables/')).body.map((x: any) => x.id)).not.toContain(secondTable.id);
    // A token of a deleted workspace no longer exists.
    const gone = await createToken('Gone', second.id);
    expect((await withKey(gone.key, 'GET', `/api/database/rows/table/${secondTable.id}/`)).status).toBe(200);
    expect((await jwt('DELETE', `/api/workspaces/${second.id}/`)).status).toBe(204);
    expect((await withKey(gone.key, 'GET', '/api/database/tokens/check/')).body.error).toBe('ERROR_TOKEN_DOES_NOT_EXIST');
    expect((await jwt('GET', '/api/database/tokens/')).body.map((x: any) => x.id)).not.toContain(gone.id);

    expect((await withKey(key, 'GET', `/api/database/rows/table/${projects}/`)).status).toBe(200);
    await setPermissions(token.id, { create: [['table', customers]], read: [['table', customers]], update: false, delete: false });
    // The very next request obeys the change.
    expect(await call('GET', `/api/database/rows/table/${projects}/`)).toEqual(noPermission);
    expect((await withKey(key, 'GET', `/api/database/rows/table/${customers}/`)).status).toBe(200);
    expect((await withKey(key, 'POST', `/api/database/rows/table/${customers}/`, {})).status).toBe(200);
    expect(await call('PATCH', `/api/database/rows/table/${customers}/${ada.ids.rowId}/`, {})).toEqual(noPermission);
    expect(await call('PATCH', `/api/database/rows/table/${customers}/${ada.ids.rowId}/move/`)).toEqual(noPermission);
    expect(await call('PATCH', `/api/database/rows/table/${customers}/batch/`, { items: [{ id: Number(ada.ids.rowId) }] })).toEqual(noPermission);
    expect(await call('DELETE', `/api/database/rows/table/${customers}/${ada.ids.rowId}/`)).toEqual(noPermission);
    expect(await call('POST', `/api/database/rows/table/${customers}/batch-delete/`, { items: [Number(ada.ids.rowId)] })).toEqual(noPermission);
    expect(await call('POST', `/api/database/rows/table/${projects}/batch/`, { items: [{}] })).toEqual(noPermission);
    // The fields list takes read, create or update.
    expect((await withKey(key, 'GET', `/api/database/fields/table/${customers}/`)).status).toBe(200);
    expect(await call('GET', `/api/database/fields/table/${projects}/`)).toEqual(noPermission);
    expect((await jwt('GET', `/api/database/rows/table/${customers}/${ada.ids.rowId}/`)).status).toBe(200);

    // Password checks take read on the field's table.
    const password = (await jwt('POST', `/api/database/fields/table/${projects}/`, { name: 'Secret', type: 'password', allow_endpoint_authentication: true })).body.id;
    const row = (await jwt('POST', `/api/database/rows/table/${projects}/`, { [`field_${password}`]: 'open sesame' })).body.id;
    const check = { field_id: password, row_id: row, password: 'open sesame' };
    expect(await call('POST', '/api/database/fields/password-authentication/', check)).toEqual(noPermission);
    await setPermissions(token.id, { create: [['table', customers]], read: [['table', customers], ['table', projects]], update: false, delete: false });
    expect(await withKey(key, 'POST', '/api/database/fields/password-authentication/', check)).toMatchObject({ status: 200, body: { is_correct: true } });
    await setPermissions(token.id, { create: [['table', customers]], read: [['table', customers]], update: false, delete: false });

    const tables = await withKey(key, 'GET', '/api/database/tables/all-tables/');
    expect(tables.body).toEqual([{ id: customers, name: expect.any(String), order: expect.any(Number), database_id: databaseId }]);
    await setPermissions(token.id, { create: false, read: false, update: false, delete: false });
    expect((await withKey(key, 'GET', '/api/database/tables/all-tables/')).body).toEqual([]);
    expect(await call('GET', `/api/database/rows/table/${customers}/`)).toEqual(noPermission);
    await setPermissions(token.id, { create: false, read: [['database', databaseId]], update: false, delete: false });
    expect((await withKey(key, 'GET', `/api/database/rows/table/${projects}/`)).status).toBe(200);
    expect((await withKey(key, 'GET', '/api/database/tables/all-tables/')).body.map((x: any) => x.id).sort()).toEqual(
      (await jwt('GET', `/api/database/tables/database/${databaseId}/`)).body.map((x: any) => x.id).sort(),
    );
  });

  it("stops working when its owner leaves the workspace; the owner's list no longer shows it", async () => {
    const token = await createToken('Member token', Number(ada.ids.workspaceId), ada.member.token);
    expect((await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`)).status).toBe(200);
    expect((await jwt('POST', `/api/workspaces/${ada.ids.workspaceId}/leave/`, undefined, ada.member.token)).status).toBe(204);
    const mismatch = { detail: "The token's user does not belong to the group anymore.", error: 'ERROR_TOKEN_GROUP_MISMATCH' };
    const rows = await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`);
    expect([rows.status, rows.body]).toEqual([401, mismatch]);
    const check = await withKey(token.key, 'GET', '/api/database/tokens/check/');
    expect([check.status, check.body]).toEqual([403, mismatch]);
    expect((await jwt('GET', '/api/database/tokens/', undefined, ada.member.token)).body).toEqual([]);
    expect((await jwt('GET', `/api/database/tokens/${token.id}/`, undefined, ada.member.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
  });

  it('keeps one cache entry per token and frees it when the token changes', async () => {
    const token = await createToken('Cached');
    await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`);
    const cache = t.app.get(Caches).versioned<number, unknown>(TOKEN_GRANTS_CACHE);
    const size = cache.size;
    await withKey(token.key, 'GET', `/api/database/rows/table/${customers}/`);
    expect(cache.size).toBe(size);
    await jwt('DELETE', `/api/database/tokens/${token.id}/`);
    expect(cache.has(token.id)).toBe(false);
  });
});

/**
 * Two instances on one PostgreSQL and one Redis: a permission change through A is obeyed by
 * the very next request to B. Needs ROWSPACE_TEST_REDIS=1 and ROWSPACE_TEST_DB=postgres.
 */
const describeRedis = process.env.ROWSPACE_TEST_REDIS && TEST_DB === 'postgres' ? describe : describe.skip;

describeRedis('database tokens across instances (Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
  });
  afterAll(async () => {
    await close?.();
  });

  it('obeys on B a change made on A, at once', async () => {
    const tenant = await createTenant(a, 'Ada');
    const token = (await a.request('POST', '/api/database/tokens/', { token: tenant.user.token, body: { name: 'Shared', workspace: Number(tenant.ids.workspaceId) } })).body;
    const rows = `/api/database/rows/table/${tenant.ids.tableId}/`;
    const onB = () => b.request('GET', rows, { headers: { Authorization: `Token ${token.key}` } });
    expect((await onB()).status).toBe(200);
    const patched = await a.request('PATCH', `/api/database/tokens/${token.id}/`, { token: tenant.user.token, body: { permissions: { create: true, read: false, update: true, delete: true } } });
    expect(patched.status).toBe(200);
    expect((await onB()).body.error).toBe('ERROR_NO_PERMISSION_TO_TABLE');
    await a.request('PATCH', `/api/database/tokens/${token.id}/`, { token: tenant.user.token, body: { permissions: { create: true, read: true, update: true, delete: true } } });
    expect((await onB()).status).toBe(200);
    const rotated = (await a.request('PATCH', `/api/database/tokens/${token.id}/`, { token: tenant.user.token, body: { rotate_key: true } })).body;
    expect((await onB()).body.error).toBe('ERROR_TOKEN_DOES_NOT_EXIST');
    expect((await b.request('GET', rows, { headers: { Authorization: `Token ${rotated.key}` } })).status).toBe(200);

    // Deleting on A frees B's cache entry too, through Redis.
    const cacheOfB = b.app.get(Caches).versioned<number, unknown>(TOKEN_GRANTS_CACHE);
    expect(cacheOfB.has(token.id)).toBe(true);
    expect((await a.request('DELETE', `/api/database/tokens/${token.id}/`, { token: tenant.user.token })).status).toBe(204);
    for (let i = 0; i < 500 && cacheOfB.has(token.id); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cacheOfB.has(token.id)).toBe(false);
    expect((await b.request('GET', rows, { headers: { Authorization: `Token ${rotated.key}` } })).body.error).toBe('ERROR_TOKEN_DOES_NOT_EXIST');
  });
});

describe(`database token keys after a change of SECRET_KEY (${TEST_DB})`, () => {
  it('keeps the keys working, shows them as null and shows a rotated one again', async () => {
    const database = await freshDatabase();
    try {
      const first = await startApp({}, database);
      const tenant = await createTenant(first, 'Ada');
      await first.close();
      const second = await startApp({ SECRET_KEY: 'another-secret-key-that-is-long-enough' }, database);
      try {
        const login = await second.request('POST', '/api/user/token-auth/', { body: { email: tenant.user.email, password: tenant.user.password } });
        const token = login.body.access_token;
        const shown = await second.request('GET', `/api/database/tokens/${tenant.ids.tokenId}/`, { token });
        expect([shown.status, shown.body.key]).toEqual([200, null]);
        expect((await second.request('GET', '/api/database/tokens/', { token })).status).toBe(200);
        const rows = await second.request('GET', `/api/database/rows/table/${tenant.ids.tableId}/`, { headers: { Authorization: `Token ${tenant.tokenKey}` } });
        expect(rows.status).toBe(200);
        const rotated = await second.request('PATCH', `/api/database/tokens/${tenant.ids.tokenId}/`, { token, body: { rotate_key: true } });
        expect(rotated.body.key).toMatch(/^[A-Za-z0-9]{32}$/);
        expect((await second.request('GET', `/api/database/tokens/${tenant.ids.tokenId}/`, { token })).body.key).toBe(rotated.body.key);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
