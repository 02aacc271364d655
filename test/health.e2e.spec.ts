import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';

const REDIS_URL = process.env.ROWSPACE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('health checks', () => {
  let t: TestApp;
  let staff: SignedUp;
  let member: SignedUp;
  beforeAll(async () => {
    t = await startApp();
    staff = await signUp(t, 'Staff'); // The first user is staff.
    member = await signUp(t, 'Member');
  });
  afterAll(() => t.close());

  it('answers plain OK at /api/_health/ and /_health/, without credentials', async () => {
    for (const path of ['/api/_health/', '/_health/']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.text).toBe('OK');
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    }
  });

  it('refuses the full check without credentials (401) and to non-staff users (403)', async () => {
    const anonymous = await t.request('GET', '/api/_health/full/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const notStaff = await t.request('GET', '/api/_health/full/', { token: member.token });
    expect(notStaff.status).toBe(403);
    expect(notStaff.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it("answers staff with Baserow's shape: every check working and passing", async () => {
    const res = await t.request('GET', '/api/_health/full/', { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passing: true,
      checks: { DatabaseBackend: 'working', DiskUsage: 'working' },
      celery_queue_size: 0,
      celery_export_queue_size: 0,
    });
  });

  it('reports a failing disk check and passing false, still with 200 as Baserow does', async () => {
    const tight = await startApp({ HEALTH_MIN_FREE_DISK_MB: String(1024 * 1024 * 1024) });
    try {
      const admin = await signUp(tight, 'Staff');
      const res = await tight.request('GET', '/api/_health/full/', { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.passing).toBe(false);
      expect(res.body.checks.DatabaseBackend).toBe('working');
      expect(res.body.checks.DiskUsage).toMatch(/^warning: \d+ MB free for the data folder, below the 1073741824 MB minimum$/);
    } finally {
      await tight.close();
    }
  });

  // Redis is checked only when configured; ROWSPACE_TEST_REDIS=1 runs this against a real server.
  (process.env.ROWSPACE_TEST_REDIS ? it : it.skip)(`checks Redis when REDIS_URL is set (${TEST_DB})`, async () => {
    const withRedis = await startApp({ REDIS_URL, REDIS_CHANNEL_PREFIX: `rowspace-health-${process.pid}` });
    try {
      const admin = await signUp(withRedis, 'Staff');
      const res = await withRedis.request('GET', '/api/_health/full/', { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        passing: true,
        checks: { DatabaseBackend: 'working', DiskUsage: 'working', RedisHealthCheck: 'working' },
        celery_queue_size: 0,
        celery_export_queue_size: 0,
      });
    } finally {
      await withRedis.close();
    }
  });
});
