import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASEROW_NAMES, BaserowName, baserowNamesMarkdown, unusedSettingsWarning } from '../src/core/config/baserow-names';
import { AppConfig, ConfigError, loadConfig } from '../src/core/config/config';

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

/**
 * Baserow's names of the same settings (src/core/config/baserow-names.table.ts): an operator's
 * Baserow environment configures Rowspace as it configured Baserow 1.35.3.
 */
describe("Baserow's configuration names", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rowspace-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

  /** Each name that sets a Rowspace setting, with a value and what the configuration then holds. */
  const mappings: [Record<string, string>, (config: AppConfig) => unknown, unknown][] = [
    [{ BASEROW_PUBLIC_URL: 'https://baserow.example.com/' }, (c) => [c.publicUrl, c.webFrontendUrl, c.mediaUrl], ['https://baserow.example.com', 'https://baserow.example.com', 'https://baserow.example.com/media/']],
    [
      { PUBLIC_BACKEND_URL: 'https://api.example.com', PUBLIC_WEB_FRONTEND_URL: 'https://web.example.com' },
      (c) => [c.publicUrl, c.webFrontendUrl, c.emailNotifications.shareUrl],
      ['https://api.example.com', 'https://web.example.com', 'https://web.example.com'],
    ],
    [{ BASEROW_EMBEDDED_SHARE_URL: 'https://embed.example.com/' }, (c) => c.emailNotifications.shareUrl, 'https://embed.example.com'],
    [{ BASEROW_BACKEND_PORT: '9000' }, (c) => c.port, 9000],
    [{ BASEROW_JWT_SIGNING_KEY: 'a-jwt-signing-key-long-enough' }, (c) => c.secretKey, 'a-jwt-signing-key-long-enough'],
    [{ BASEROW_ACCESS_TOKEN_LIFETIME_MINUTES: '10' }, (c) => c.accessTokenLifetimeMinutes, 10],
    [{ BASEROW_REFRESH_TOKEN_LIFETIME_HOURS: '24' }, (c) => c.refreshTokenLifetimeHours, 24],
    [{ BASEROW_BACKEND_LOG_LEVEL: 'WARNING' }, (c) => c.logLevel, 'warn'],
    [{ BASEROW_ROW_PAGE_SIZE_LIMIT: '500' }, (c) => c.rowPageSizeLimit, 500],
    [{ BASEROW_FILE_UPLOAD_SIZE_LIMIT_MB: '10' }, (c) => c.fileUploadSizeLimitBytes, 10 * 1024 * 1024],
    [{ BASEROW_MAX_FIELD_LIMIT: '100' }, (c) => c.importMaxColumns, 100],
    [{ BASEROW_MAX_ROW_REPORT_ERROR_COUNT: '5' }, (c) => c.maxRowReportErrorCount, 5],
    [{ BASEROW_ROW_HISTORY_RETENTION_DAYS: '7' }, (c) => c.rowHistoryRetentionDays, 7],
    [{ BASEROW_PERIODIC_FIELD_UPDATE_CRONTAB: '*/30 * * * *' }, (c) => c.formulaNowRefreshMinutes, 30],
    [{ HOURS_UNTIL_TRASH_PERMANENTLY_DELETED: '24' }, (c) => c.hoursUntilTrashPermanentlyDeleted, 24],
    [{ BASEROW_WEBHOOKS_MAX_PER_TABLE: '3' }, (c) => c.webhooks.maxPerTable, 3],
    [{ BASEROW_MAX_PENDING_WORKSPACE_INVITES: '0' }, (c) => c.maxPendingWorkspaceInvites, 0],
    [
      { DATABASE_HOST: 'pg.internal', DATABASE_PORT: '6543', DATABASE_NAME: 'rows', DATABASE_USER: 'app@corp', DATABASE_PASSWORD: 'p:ss/word', DATABASE_OPTIONS: '{"sslmode": "require"}' },
      (c) => c.databaseUrl,
      'postgresql://app%40corp:p%3Ass%2Fword@pg.internal:6543/rows?sslmode=require',
    ],
    [{ REDIS_HOST: 'cache', REDIS_PORT: '6380', REDIS_USER: 'app', REDIS_PASSWORD: 's3cret', REDIS_PROTOCOL: 'rediss' }, (c) => c.redisUrl, 'rediss://app:s3cret@cache:6380/0'],
    [
      { EMAIL_SMTP: 'true', EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_PORT: '587', EMAIL_SMTP_USER: 'mailer', EMAIL_SMTP_PASSWORD: ' pw ', EMAIL_SMTP_USE_TLS: 'yes', FROM_EMAIL: 'Baserow <no-reply@example.com>' },
      (c) => c.smtp,
      { host: 'smtp.example.com', port: 587, user: 'mailer', password: ' pw ', from: 'Baserow <no-reply@example.com>', secure: false, requireTls: true },
    ],
    [{ EMAIL_SMTP: 'on', EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_PORT: '465', EMAIL_SMTP_USE_SSL: '1' }, (c) => [c.smtp?.secure, c.smtp?.requireTls], [true, false]],
    [{ EMAIL_SMTP: 'yes', EMAIL_SMPT_USE_TLS: 'true' }, (c) => c.smtp?.requireTls, true],
    [
      {
        AWS_STORAGE_BUCKET_NAME: 'files',
        AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'secret-key',
        AWS_S3_REGION_NAME: 'eu-west-1',
        AWS_S3_ENDPOINT_URL: 'https://minio.example.com',
        AWS_S3_ADDRESSING_STYLE: 'path',
        AWS_QUERYSTRING_EXPIRE: '600',
      },
      (c) => c.s3,
      { bucket: 'files', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-key', region: 'eu-west-1', endpoint: 'https://minio.example.com', forcePathStyle: true, publicUrl: null, signedUrlExpirySeconds: 600 },
    ],
    [{ AWS_STORAGE_BUCKET_NAME: 'files', AWS_S3_CUSTOM_DOMAIN: 'cdn.example.com', AWS_S3_URL_PROTOCOL: 'http:' }, (c) => c.s3?.publicUrl, 'http://cdn.example.com/'],
    [{ AWS_STORAGE_BUCKET_NAME: 'files', AWS_S3_CUSTOM_DOMAIN: 'cdn.example.com' }, (c) => c.s3?.publicUrl, 'https://cdn.example.com/'],
  ];

  it.each(mappings)('reads %p', (env, select, expected) => {
    const config = load(env);
    expect(select(config)).toEqual(expected);
    expect(config.unusedSettings).toEqual([]);
  });

  it('has a case above for every name of the table that sets a Rowspace setting', () => {
    const tested = new Set(mappings.flatMap(([env]) => Object.keys(env)));
    const files = ['SECRET_KEY_FILE', 'DATABASE_PASSWORD_FILE', 'REDIS_PASSWORD_FILE', 'AWS_SECRET_ACCESS_KEY_FILE_PATH']; // below
    const same = (row: BaserowName) => row.setting === row.name; // read by loadConfig itself
    const untested = BASEROW_NAMES.filter((row) => row.setting !== null && !same(row) && !tested.has(row.name) && !files.includes(row.name));
    expect(untested.map((row) => row.name)).toEqual([]);
  });

  it('reads secrets from the files *_FILE and AWS_SECRET_ACCESS_KEY_FILE_PATH name, and refuses both a secret and its file', () => {
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'from-a-file-long-enough\n');
    expect(load({ SECRET_KEY_FILE: secret }).secretKey).toBe('from-a-file-long-enough');
    expect(load({ DATABASE_HOST: 'db', DATABASE_PASSWORD_FILE: secret }).databaseUrl).toBe('postgresql://baserow:from-a-file-long-enough@db:5432/baserow');
    expect(load({ REDIS_HOST: 'r', REDIS_PASSWORD_FILE: secret }).redisUrl).toBe('redis://:from-a-file-long-enough@r:6379/0');
    expect(load({ AWS_STORAGE_BUCKET_NAME: 'b', AWS_SECRET_ACCESS_KEY_FILE_PATH: secret, AWS_ACCESS_KEY_ID: 'k' }).s3?.secretAccessKey).toBe('from-a-file-long-enough');
    expect(() => load({ DATABASE_HOST: 'db', DATABASE_PASSWORD: 'x', DATABASE_PASSWORD_FILE: secret })).toThrow(/DATABASE_PASSWORD and DATABASE_PASSWORD_FILE are both set/);
    expect(() => load({ SECRET_KEY_FILE: join(dir, 'missing') })).toThrow(/SECRET_KEY_FILE: cannot read .*missing \(ENOENT\)/);
  });

  it("builds the PostgreSQL URL from DATABASE_* with Baserow's defaults, and DATABASE_URL wins over them (named in the warning)", () => {
    expect(load({ DATABASE_HOST: 'pg' }).databaseUrl).toBe('postgresql://baserow:baserow@pg:5432/baserow');
    expect(load({ DATABASE_NAME: 'rows' }).databaseUrl).toBe('postgresql://baserow:baserow@db:5432/rows');
    expect(load({ DATABASE_HOST: '::1' }).databaseUrl).toBe('postgresql://baserow:baserow@[::1]:5432/baserow');
    const both = load({ DATABASE_URL: 'postgresql://u@h/d', DATABASE_HOST: 'pg', DATABASE_PASSWORD: 'pw' });
    expect(both.databaseUrl).toBe('postgresql://u@h/d');
    expect(both.unusedSettings).toEqual(['DATABASE_HOST (no effect: DATABASE_URL is set and wins, as in Baserow)', 'DATABASE_PASSWORD (no effect: DATABASE_URL is set and wins, as in Baserow)']);
    expect(load({}).databaseUrl).toBeNull();
    expect(() => load({ DATABASE_HOST: 'pg', DATABASE_PORT: 'five' })).toThrow(/DATABASE_PORT must be a port number/);
    // DATABASE_OPTIONS: the driver's options go in the query string; one it would not apply stops the start.
    expect(load({ DATABASE_HOST: 'pg', DATABASE_OPTIONS: '{"sslmode": "verify-full", "application_name": "rows app"}' }).databaseUrl).toBe(
      'postgresql://baserow:baserow@pg:5432/baserow?sslmode=verify-full&application_name=rows+app',
    );
    expect(() => load({ DATABASE_HOST: 'pg', DATABASE_OPTIONS: '{"keepalives": 1}' })).toThrow(/DATABASE_OPTIONS: keepalives is not supported here/);
    expect(() => load({ DATABASE_HOST: 'pg', DATABASE_OPTIONS: 'sslmode=require' })).toThrow(/DATABASE_OPTIONS must be a JSON object/);
    expect(load({ DATABASE_URL: 'postgresql://u@h/d', DATABASE_OPTIONS: '{"sslmode": "require"}' }).unusedSettings).toEqual([
      'DATABASE_OPTIONS (no effect: DATABASE_URL is set and wins, as in Baserow)',
    ]);
  });

  it('builds the Redis URL from REDIS_* (protocol redis or rediss), and REDIS_URL wins over them', () => {
    expect(load({ REDIS_HOST: 'cache' }).redisUrl).toBe('redis://cache:6379/0');
    expect(load({ REDIS_PASSWORD: 'p@ss' }).redisUrl).toBe('redis://:p%40ss@redis:6379/0');
    const both = load({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_HOST: 'cache' });
    expect(both.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(both.unusedSettings).toEqual(['REDIS_HOST (no effect: REDIS_URL is set and wins, as in Baserow)']);
    expect(() => load({ REDIS_HOST: 'cache', REDIS_PROTOCOL: 'http' })).toThrow(/REDIS_PROTOCOL must be redis or rediss/);
  });

  it('sends through SMTP only with EMAIL_SMTP on (localhost:25 by default); off, EMAIL_SMTP_* have no effect and mails are logged', () => {
    expect(load({ EMAIL_SMTP: 'true' }).smtp).toMatchObject({ host: 'localhost', port: 25, user: null, secure: false, requireTls: false });
    for (const off of [{}, { EMAIL_SMTP: '' }, { EMAIL_SMTP: 'false' }, { EMAIL_SMTP: '0' }] as Record<string, string>[]) {
      const config = load({ ...off, EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_PORT: '2525' });
      expect(config.smtp).toBeNull();
      expect(config.unusedSettings).toEqual([
        'EMAIL_SMTP_HOST (no effect: EMAIL_SMTP is not on; without it Baserow logs mails instead of sending them)',
        'EMAIL_SMTP_PORT (no effect: EMAIL_SMTP is not on; without it Baserow logs mails instead of sending them)',
      ]);
    }
    // Rowspace's own names keep working, with Baserow's beside them when they agree.
    expect(load({ SMTP_HOST: 'mail', EMAIL_SMTP: 'true', EMAIL_SMTP_HOST: 'mail', EMAIL_SMTP_PORT: '587' }).smtp).toMatchObject({ host: 'mail', port: 587 });
    expect(() => load({ EMAIL_SMTP: 'true', EMAIL_SMTP_USE_SSL: 'true', EMAIL_SMTP_USE_TLS: 'true' })).toThrow(/EMAIL_SMTP_USE_SSL and EMAIL_SMTP_USE_TLS are mutually exclusive/);
  });

  it('stores files in S3 only with a bucket: without one, AWS_* keys are named as having no effect', () => {
    const config = load({ AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' });
    expect(config.s3).toBeNull();
    expect(config.unusedSettings.map((u) => u.split(' ')[0])).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);
    expect(load({ S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' }).s3).toMatchObject({ bucket: 'b', accessKeyId: 'k', secretAccessKey: 's' });
    expect(load({ AWS_STORAGE_BUCKET_NAME: 'b', AWS_S3_ADDRESSING_STYLE: 'virtual' }).s3?.forcePathStyle).toBe(false);
    expect(load({ AWS_STORAGE_BUCKET_NAME: 'b', AWS_S3_ADDRESSING_STYLE: 'auto' }).s3?.forcePathStyle).toBe(false);
    expect(() => load({ AWS_STORAGE_BUCKET_NAME: 'b', AWS_S3_ADDRESSING_STYLE: 'sideways' })).toThrow(/AWS_S3_ADDRESSING_STYLE must be path, virtual or auto/);
  });

  it('names every set variable without effect in one warning: unsupported Baserow names and unknown BASEROW_ ones, not harmless values', () => {
    const config = load({
      BASEROW_AMOUNT_OF_GUNICORN_WORKERS: '4',
      BASEROW_ENABLE_OTEL: 'true',
      SYNC_TEMPLATES_ON_STARTUP: 'true',
      CELERY_BROKER_URL: 'redis://x',
      GS_BUCKET_NAME: 'files',
      BASEROW_ROW_PAGE_SIZE_LIMTI: '100',
      MIGRATE_ON_STARTUP: 'true',
      BASEROW_BACKEND_DEBUG: 'off',
      AWS_QUERYSTRING_AUTH: 'true',
      BASEROW_WEBHOOKS_BATCH_LIMIT: '3',
    });
    expect(config.unusedSettings.map((u) => u.split(' ')[0]).sort()).toEqual([
      'BASEROW_AMOUNT_OF_GUNICORN_WORKERS',
      'BASEROW_ENABLE_OTEL',
      'BASEROW_ROW_PAGE_SIZE_LIMTI',
      'CELERY_BROKER_URL',
      'GS_BUCKET_NAME',
      'SYNC_TEMPLATES_ON_STARTUP',
    ]);
    const warning = unusedSettingsWarning(config.unusedSettings)!;
    expect(warning).toMatch(/^These environment variables have no effect in Rowspace: /);
    expect(warning).toContain('BASEROW_AMOUNT_OF_GUNICORN_WORKERS (Rowspace is one Node.js process');
    expect(warning).toContain('BASEROW_ROW_PAGE_SIZE_LIMTI (not a setting Rowspace knows)');
    expect(warning).toContain('GS_BUCKET_NAME (only disk and S3 storage here');
    expect(unusedSettingsWarning(load({}).unusedSettings)).toBeNull();
    expect(load({ MIGRATE_ON_STARTUP: 'false' }).unusedSettings).toEqual(['MIGRATE_ON_STARTUP (migrations always run at start-up here)']);
  });

  it.each([
    [{ BASEROW_PUBLIC_URL: 'https://a.example.com', PUBLIC_URL: 'https://b.example.com' }, 'PUBLIC_URL and BASEROW_PUBLIC_URL'],
    [{ BASEROW_ROW_PAGE_SIZE_LIMIT: '100', ROW_PAGE_SIZE_LIMIT: '200' }, 'ROW_PAGE_SIZE_LIMIT and BASEROW_ROW_PAGE_SIZE_LIMIT'],
    [{ EMAIL_SMTP: 'yes', EMAIL_SMTP_PORT: '25', SMTP_PORT: '587' }, 'SMTP_PORT and EMAIL_SMTP_PORT'],
    [{ EMAIL_SMTP: 'false', SMTP_HOST: 'mail' }, 'EMAIL_SMTP and SMTP_HOST'],
    [{ AWS_STORAGE_BUCKET_NAME: 'a', S3_BUCKET: 'b' }, 'S3_BUCKET and AWS_STORAGE_BUCKET_NAME'],
    [{ DATABASE_HOST: 'pg', SECRET_KEY: 'x'.repeat(20), SECRET_KEY_FILE: '/dev/null' }, 'SECRET_KEY and SECRET_KEY_FILE'],
    [{ PUBLIC_BACKEND_URL: 'https://api.example.com', PUBLIC_URL: 'https://example.com' }, 'PUBLIC_URL and PUBLIC_BACKEND_URL'],
  ])('refuses to start when two names of one setting disagree: %p', (env, names) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(`${names} are both set, to different values`);
  });

  it('takes two names of one setting that agree once normalized, and lets BASEROW_PUBLIC_URL win over PUBLIC_BACKEND_URL as Baserow does', () => {
    expect(load({ BASEROW_PUBLIC_URL: 'https://Example.com/', PUBLIC_URL: 'https://example.com' }).publicUrl).toBe('https://example.com');
    expect(load({ EMAIL_SMTP: '1', EMAIL_SMTP_USE_SSL: 'yes', SMTP_SECURE: 'true', SMTP_HOST: 'mail' }).smtp?.secure).toBe(true);
    const config = load({ BASEROW_PUBLIC_URL: 'https://example.com', PUBLIC_BACKEND_URL: 'https://api.example.com', PUBLIC_WEB_FRONTEND_URL: 'https://web.example.com' });
    expect([config.publicUrl, config.webFrontendUrl]).toEqual(['https://example.com', 'https://example.com']);
    expect(config.unusedSettings).toEqual([
      'PUBLIC_BACKEND_URL (no effect: BASEROW_PUBLIC_URL is set and wins, as in Baserow)',
      'PUBLIC_WEB_FRONTEND_URL (no effect: BASEROW_PUBLIC_URL is set and wins, as in Baserow)',
    ]);
    const secret = load({ SECRET_KEY: 'the-django-secret-key', BASEROW_JWT_SIGNING_KEY: 'another-signing-key' });
    expect(secret.secretKey).toBe('the-django-secret-key');
    expect(secret.unusedSettings).toEqual(['BASEROW_JWT_SIGNING_KEY (no effect: SECRET_KEY is set; Rowspace derives its token keys from that one secret)']);
  });

  it('names the Baserow variable a bad value came from', () => {
    expect(() => load({ BASEROW_ROW_PAGE_SIZE_LIMIT: 'many' })).toThrow('BASEROW_ROW_PAGE_SIZE_LIMIT (read as ROW_PAGE_SIZE_LIMIT): ROW_PAGE_SIZE_LIMIT must be a whole number');
    expect(() => load({ BASEROW_BACKEND_LOG_LEVEL: 'LOUD' })).toThrow(/BASEROW_BACKEND_LOG_LEVEL must be one of CRITICAL, ERROR, WARNING/);
    expect(() => load({ BASEROW_PUBLIC_URL: 'example.com' })).toThrow('BASEROW_PUBLIC_URL (read as PUBLIC_URL): PUBLIC_URL is not a valid URL');
  });

  it("keeps the table honest: no name it calls without effect is read, and the README's table is the code's", () => {
    const unsupported = BASEROW_NAMES.filter((row) => row.setting === null && !row.pattern);
    const env = Object.fromEntries(unsupported.map((row) => [row.name, row.harmless?.('some value') ? 'false' : 'some value']));
    const named = new Set(load(env).unusedSettings.map((u) => u.split(' ')[0]));
    expect(unsupported.filter((row) => !named.has(row.name)).map((row) => row.name)).toEqual([]);
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const [, section] = /<!-- baserow-names -->\n([\s\S]*?)\n<!-- \/baserow-names -->/.exec(readme) ?? [];
    if (process.env.ROWSPACE_WRITE_README && section !== baserowNamesMarkdown()) {
      writeFileSync(join(__dirname, '..', 'README.md'), readme.replace(section, () => baserowNamesMarkdown()));
      return;
    }
    // After a change to the table: ROWSPACE_WRITE_README=1 npx jest test/config.spec.ts
    expect(section).toBe(baserowNamesMarkdown());
  });
});
