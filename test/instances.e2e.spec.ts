import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { freshDatabase, signUp, startApp, TEST_DB, TestApp, TestDatabase } from './support/app';
import { connect, WsClient } from './support/ws';

/**
 * Issue 8 item 5: instances started without SECRET_KEY agree on one generated secret. On
 * PostgreSQL it lives in the database (needs ROWSPACE_TEST_DB=postgres and, for the
 * real-time part, ROWSPACE_TEST_REDIS=1 as the Redis suite); SQLite keeps it in a file under
 * DATA_DIR, which the SQLite part checks across a restart.
 */
const describePostgresRedis = TEST_DB === 'postgres' && process.env.ROWSPACE_TEST_REDIS ? describe : describe.skip;
const describeSqlite = TEST_DB === 'sqlite' ? describe : describe.skip;
const REDIS_URL = process.env.ROWSPACE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describePostgresRedis('two instances on one PostgreSQL database and Redis, without SECRET_KEY', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const open: WsClient[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
    const env = { REDIS_URL, REDIS_CHANNEL_PREFIX: `rowspace-test-${randomBytes(6).toString('hex')}`, LOGIN_MAX_FAILURES_PER_IP_AND_EMAIL: '3' };
    // Started together on an empty database: one migrates (advisory lock), both agree on the secret.
    [a, b] = await Promise.all([startApp(env, database, { withoutSecretKey: true }), startApp(env, database, { withoutSecretKey: true })]);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('keeps one generated secret in the database and none in the data folder', async () => {
    expect(a.config.secretKey).toBeNull();
    const rows = await a.app.get(DataSource).query('SELECT secret FROM instance_secret');
    expect(rows).toHaveLength(1);
    expect(rows[0].secret.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(join(database.env.DATA_DIR, 'secret_key'))).toBe(false);
  });

  it('accepts tokens of A on B (access and refresh)', async () => {
    const user = await signUp(a);
    expect((await b.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    const refreshed = await b.request('POST', '/api/user/token-refresh/', { body: { refresh_token: user.refresh } });
    expect(refreshed.status).toBe(200);
    expect((await a.request('GET', '/api/workspaces/', { token: refreshed.body.access_token })).status).toBe(200);
  });

  it('delivers rows_created of a row created through A to a socket on B subscribed to the table', async () => {
    const user = await signUp(a);
    const databaseId = (await a.request('GET', '/api/applications/', { token: user.token })).body[0].id;
    const table = await a.request('POST', `/api/database/tables/database/${databaseId}/`, { token: user.token, body: { name: 'Shared' } });
    expect(table.status).toBe(200);
    const onB = await connect(b, user.token);
    open.push(onB);
    onB.send({ page: 'table', table_id: table.body.id });
    expect(await onB.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: table.body.id } });
    const created = await a.request('POST', `/api/database/rows/table/${table.body.id}/`, { token: user.token, body: {} });
    expect(created.status).toBe(200);
    const message = await onB.waitFor('rows_created');
    expect(message).toMatchObject({ type: 'rows_created', table_id: table.body.id, rows: [{ id: created.body.id }] });
  });

  it('shares failed sign-in counts through Redis', async () => {
    const user = await signUp(a);
    for (const t of [a, b, a]) {
      expect((await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: 'wrong-password' } })).status).toBe(401);
    }
    const limited = await b.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERROR_TOO_MANY_LOGIN_ATTEMPTS');
  });
});

describeSqlite('one SQLite instance without SECRET_KEY', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('generates the secret into DATA_DIR/secret_key once, so tokens survive a restart', async () => {
    const first = await startApp({}, database, { withoutSecretKey: true });
    const user = await signUp(first);
    await first.close();
    const file = join(database.env.DATA_DIR, 'secret_key');
    expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
    const second = await startApp({}, database, { withoutSecretKey: true });
    try {
      expect((await second.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
