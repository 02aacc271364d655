import { randomBytes } from 'node:crypto';
import { freshDatabase, signUp, startApp, TestApp, TestDatabase } from './support/app';

const THROTTLED = /^Request was throttled\. Expected available in \d+ seconds?\.$/;

function expectThrottled(res: { status: number; body: any; headers: Headers }): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'ERROR_TOO_MANY_REQUESTS', detail: expect.stringMatching(THROTTLED) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('per-user request limit', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '5', RATE_LIMIT_REQUESTS_PER_IP: '0' })));
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a user spent the window, and leaves other users and health alone', async () => {
    const alice = await signUp(t, 'Alice');
    const bob = await signUp(t, 'Bob');
    for (let i = 0; i < 5; i++) expect((await t.request('GET', '/api/workspaces/', { token: alice.token })).status).toBe(200);
    expectThrottled(await t.request('GET', '/api/workspaces/', { token: alice.token }));
    // A throttled write changes nothing.
    expectThrottled(await t.request('POST', '/api/workspaces/', { token: alice.token, body: { name: 'Throttled' } }));
    expect((await t.request('GET', '/api/workspaces/', { token: bob.token })).status).toBe(200);
    // Anonymous requests are not a user's.
    expect((await t.request('GET', '/api/settings/')).status).toBe(200);
    const health = await t.request('GET', '/api/_health/');
    expect(health.status).toBe(200);
    expect(health.text).toBe('OK');
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/api/workspaces/', { token: bob.token })).status).toBe(200);
    // Bob's workspaces: his own only, Alice's throttled create never happened.
    const names = (await t.request('GET', '/api/workspaces/', { token: bob.token })).body.map((w: { name: string }) => w.name);
    expect(names).not.toContain('Throttled');
  });
});

describe('per-address request limit', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '4' })));
  afterAll(() => t.close());

  it('counts every request from one address, answers 429 beyond it, and never limits health', async () => {
    for (let i = 0; i < 4; i++) expect((await t.request('GET', '/api/settings/')).status).toBe(200);
    expectThrottled(await t.request('GET', '/api/settings/'));
    expectThrottled(await t.request('POST', '/api/user/token-auth/', { body: { email: 'a@example.com', password: 'x' } }));
    expectThrottled(await t.request('GET', '/api/unknown-route/'));
    for (let i = 0; i < 10; i++) {
      expect((await t.request('GET', '/api/_health/')).status).toBe(200);
      expect((await t.request('GET', '/_health/')).status).toBe(200);
    }
  });
});

describe('disabled limits', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' })));
  afterAll(() => t.close());

  it('never answers 429 with both limits at 0', async () => {
    const user = await signUp(t);
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add((await t.request('GET', '/api/workspaces/', { token: user.token })).status);
    expect([...statuses]).toEqual([200]);
  });
});

/** Like the real-time Redis suite: with ROWSPACE_TEST_REDIS (CI's PostgreSQL + Redis stage). */
const describeRedis = process.env.ROWSPACE_TEST_REDIS ? describe : describe.skip;

describeRedis('shared limit across instances (Redis)', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = {
      REDIS_URL: process.env.ROWSPACE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_CHANNEL_PREFIX: `rowspace-rate-${randomBytes(4).toString('hex')}`,
      RATE_LIMIT_REQUESTS_PER_USER: '6',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
    };
    a = await startApp(env, db);
    b = await startApp(env, db);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  it('counts a user\'s requests on every instance against one budget', async () => {
    const user = await signUp(a);
    for (let i = 0; i < 3; i++) {
      expect((await a.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
      expect((await b.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    }
    expectThrottled(await a.request('GET', '/api/workspaces/', { token: user.token }));
    expectThrottled(await b.request('GET', '/api/workspaces/', { token: user.token }));
  });
});
