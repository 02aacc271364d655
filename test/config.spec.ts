import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/core/config/config';

describe('configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rowspace-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has the documented defaults: port 8000, embedded SQLite under the data folder, 60 min / 7 day tokens', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(8000);
    expect(config.databaseUrl).toBeNull();
    expect(config.sqlitePath).toBe(join(dir, 'rowspace.sqlite'));
    expect(config.redisUrl).toBeNull();
    expect(config.accessTokenLifetimeMinutes).toBe(60);
    expect(config.refreshTokenLifetimeHours).toBe(168);
    expect(config.publicUrl).toBe('http://localhost:8000');
  });

  it("reads Baserow's e-mail notification settings: every minute, 50/1000/5000 users per run, midnight UTC on Mondays", () => {
    expect(loadConfig({ DATA_DIR: dir }).emailNotifications).toEqual({
      enabled: true,
      intervalSeconds: 60,
      limitInstant: 50,
      limitDaily: 1000,
      limitWeekly: 5000,
      dailyHourOfDay: 0,
      weeklyDayOfWeek: 0,
      maxListedPerEmail: 10,
      autoRetryAfterSeconds: null,
      shareUrl: 'http://localhost:8000',
    });
    expect(loadConfig({ DATA_DIR: dir, BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB: '*/5 * * * *' }).emailNotifications.intervalSeconds).toBe(300);
    expect(loadConfig({ DATA_DIR: dir, BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB: '*/5 * * * *', EMAIL_NOTIFICATIONS_INTERVAL_SECONDS: '2' }).emailNotifications.intervalSeconds).toBe(2);
    expect(() => loadConfig({ DATA_DIR: dir, BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB: '0 * * * 1' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, BASEROW_EMAIL_NOTIFICATIONS_DAILY_HOUR_OF_DAY: '24' })).toThrow(ConfigError);
    expect(loadConfig({ DATA_DIR: dir, BASEROW_EMAIL_NOTIFICATIONS_ENABLED: 'false' }).emailNotifications.enabled).toBe(false);
    expect(loadConfig({ DATA_DIR: dir }).staleMentionsCleanupMinutes).toBe(360);
  });

  it('reads SQLite with 2 worker threads by default, SQLITE_READ_WORKERS=0 on the one connection, never with workers in memory', () => {
    expect(loadConfig({ DATA_DIR: dir }).sqliteReadWorkers).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, SQLITE_READ_WORKERS: '0' }).sqliteReadWorkers).toBe(0);
    expect(loadConfig({ DATA_DIR: dir, SQLITE_READ_WORKERS: '8' }).sqliteReadWorkers).toBe(8);
    expect(loadConfig({ DATA_DIR: dir, SQLITE_PATH: ':memory:', SQLITE_READ_WORKERS: '4' }).sqliteReadWorkers).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dir, SQLITE_READ_WORKERS: 'many' })).toThrow(ConfigError);
  });

  it('leaves an unset SECRET_KEY to start-up (instance-secret.ts) and takes a set one as is', () => {
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBeNull();
    expect(existsSync(join(dir, 'secret_key'))).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, SECRET_KEY: 'a-configured-secret-key' }).secretKey).toBe('a-configured-secret-key');
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['loopback, 10.0.0.0/8,::1', ['loopback', '10.0.0.0/8', '::1']],
  ])('reads TRUST_PROXY=%p as Express trust proxy %p', (raw, expected) => {
    expect(loadConfig({ DATA_DIR: dir, ...(raw === undefined ? {} : { TRUST_PROXY: raw }) }).trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL is not a valid URL/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY must be at least 16 characters/],
    [{ ACCESS_TOKEN_LIFETIME_MINUTES: '0' }, /ACCESS_TOKEN_LIFETIME_MINUTES must be between 1/],
    [{ SMTP_HOST: 'mail', SMTP_SECURE: 'maybe' }, /SMTP_SECURE must be true or false/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT must be one of json, pretty/],
    [{ METRICS_ENABLED: 'maybe' }, /METRICS_ENABLED must be true or false/],
    [{ TRUST_PROXY: 'proxy.example.com' }, /TRUST_PROXY must be true, false, a hop count/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY must be/],
  ])('rejects %p with a clear message', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dir, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, ...env })).toThrow(message);
  });
});
