import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { readBaserowNames, unknownBaserowNames } from './baserow-names';
import { ConfigError } from './config-error';

/** The whole configuration of an instance, read once from the environment and validated. */
export interface AppConfig {
  port: number;
  /** PostgreSQL connection URL; null means the embedded SQLite database. */
  databaseUrl: string | null;
  sqlitePath: string;
  /**
   * Worker threads reading the SQLite database off the event loop (row lists, counts, search,
   * aggregations, exports); 0 reads on the one connection, as writes do. Unused on PostgreSQL.
   */
  sqliteReadWorkers: number;
  /** Folder for instance files (generated secret, SQLite database by default). */
  dataDir: string;
  redisUrl: string | null;
  /** Prefix of the Redis pub/sub channel real-time broadcasts use (instances sharing one database share it). */
  redisChannelPrefix: string;
  /** SECRET_KEY; null means generated and resolved at start-up (src/core/secrets/instance-secret.ts). */
  secretKey: string | null;
  accessTokenLifetimeMinutes: number;
  refreshTokenLifetimeHours: number;
  publicUrl: string;
  /** The web client's address (PUBLIC_WEB_FRONTEND_URL, default publicUrl): base_url of mailed links must be on its host. */
  webFrontendUrl: string;
  /** Set variables that have no effect here, each with why (Baserow names, see baserow-names.table.ts); main.ts logs them once. */
  unusedSettings: string[];
  accountDeletionGraceDays: number;
  /** Single sign-on: the bounds of a request to an identity provider (discovery, token, JWKS, user info). */
  ssoProviderTimeoutMs: number;
  ssoProviderMaxBytes: number;
  /** An account may sign in through an SSO provider other than the one it is linked to (Baserow's default: no). */
  ssoAllowMultipleProvidersPerAccount: boolean;
  /** Pending invitations a workspace may have (Baserow's BASEROW_MAX_PENDING_WORKSPACE_INVITES; 0: no limit). */
  maxPendingWorkspaceInvites: number;
  /** Failed sign-ins allowed per (client address, e-mail), per e-mail and per address within the window. */
  loginMaxFailuresPerIpAndEmail: number;
  loginMaxFailuresPerEmail: number;
  loginMaxFailuresPerIp: number;
  loginFailureWindowSeconds: number;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address (false: none). */
  trustProxy: boolean | number | string[];
  /** `secure`: implicit TLS; `requireTls`: STARTTLS or no mail (Baserow's EMAIL_SMTP_USE_SSL and _USE_TLS). */
  smtp: { host: string; port: number; user: string | null; password: string | null; from: string; secure: boolean; requireTls: boolean } | null;
  /** Largest request body read, in bytes (larger ones are a 413). */
  requestBodyLimitBytes: number;
  rowPageSizeLimit: number;
  batchRowsSizeLimit: number;
  /** Baserow's BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED: the lowest role that may create and use personal views (the default roles read it, see permissions/roles.ts). */
  personalViewLowestRole: string;
  disableAnonymousPublicViewWs: boolean;
  /** Interval of WebSocket protocol pings; a socket that misses one is dropped. */
  wsPingIntervalSeconds: number;
  // Logs, health and metrics.
  /** Lowest level written: fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevelName;
  /** `json` (one object a line) or `pretty` (for a terminal). */
  logFormat: 'json' | 'pretty';
  /** Whether `GET /api/_metrics/` (Prometheus) exists. */
  metricsEnabled: boolean;
  /** When set, the metrics endpoint needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Free bytes under DATA_DIR below which the full health check's disk check fails. */
  healthMinFreeDiskBytes: number;
  /** `EXTRA_MODULES`: module specifiers (paths from the working folder or package names) of extension modules. */
  extraModules: string[];
  // Operations: graceful shutdown, CORS, request and WebSocket limits.
  /** Seconds SIGTERM waits for in-flight requests and jobs before closing anyway (exit 1). */
  shutdownTimeoutSeconds: number;
  /** Origins allowed by CORS; null reflects any origin. */
  corsAllowedOrigins: string[] | null;
  /** Requests per window per authenticated user and per client address; 0 disables the limit. */
  rateLimitRequestsPerUser: number;
  rateLimitRequestsPerIp: number;
  rateLimitWindowSeconds: number;
  /** Anonymous requests per window and client address on shared view routes, anonymous sockets and their pages included; 0 disables it. */
  rateLimitAnonymousRequestsPerIp: number;
  /** Largest WebSocket frame read (larger: close 1009), pages per socket, sockets per user (more: close 1013). */
  wsMaxFrameBytes: number;
  wsMaxPagesPerSocket: number;
  wsMaxConnectionsPerUser: number;
  // Row comments.
  /** Largest page of row comments a list request may ask for (`size`; `limit` is cut to it). */
  rowCommentPageSizeLimit: number;
  /** Largest row comment message, in characters of its ProseMirror JSON. */
  rowCommentMaxLength: number;
  /** Row history entries older than this many days are purged by the hourly job. */
  rowHistoryRetentionDays: number;
  /** Minutes between recomputations of formulas that use now() or today() (0: never). */
  formulaNowRefreshMinutes: number;
  /**
   * Longest text a formula cell may hold, in characters: a longer result (and a longer text
   * given to regex_replace) is the formula's error value `#ERROR!`, so formulas that multiply
   * text (chained concat, replace) cannot grow cells without bound.
   */
  formulaMaxTextLength: number;
  // Trash.
  /** Trashed items older than this many hours are deleted for good by the hourly job. */
  hoursUntilTrashPermanentlyDeleted: number;
  /** Largest page of a workspace's trash a list request may ask for (`size`). */
  trashPageSizeLimit: number;
  // Undo and redo.
  /** Actions older than this many minutes can no longer be undone and are deleted by a periodic job (Baserow's MINUTES_UNTIL_ACTION_CLEANED_UP). */
  minutesUntilActionCleanedUp: number;
  /** How often, in minutes, old actions are deleted (Baserow's OLD_ACTION_CLEANUP_INTERVAL_MINUTES). */
  oldActionCleanupIntervalMinutes: number;
  // Files.
  /** Folder of stored files (user files, thumbnails, exports) when they are kept on disk. */
  mediaRoot: string;
  /** Absolute URL files on disk are served at (`<PUBLIC_URL>/media/` by default). */
  mediaUrl: string;
  // Templates.
  /** Folder of the template files (`<name>.json`) offered by `/api/templates/`; the repository's `templates/` by default. */
  templatesDir: string;
  /** Slug of the template the web client selects first (`is_default`). */
  defaultTemplate: string;
  /** Each template is installed read-only in a preview workspace at start-up (Baserow's BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION). */
  templatePreviews: boolean;
  /** Where uploads are spooled while they arrive (`<DATA_DIR>/tmp`: per instance, on the data disk). */
  uploadTmpDir: string;
  /** Largest user file accepted (upload or via URL), in bytes (Baserow's default: 1 TB). */
  fileUploadSizeLimitBytes: number;
  /** Images with more pixels than this are stored as plain files, without thumbnails. */
  fileUploadMaxImagePixels: number;
  /** Upload via URL may fetch from loopback, private and link-local addresses (off: server-side request forgery guard). */
  fileUploadUrlAllowPrivateAddresses: boolean;
  /** Seconds an upload via URL may take (connection, redirects and body). */
  fileUploadUrlTimeoutSeconds: number;
  /** S3-compatible object storage instead of the disk, when a bucket is set. */
  s3: S3Config | null;
  // Worker threads and the budgets of CPU-heavy work (parsing uploaded import files).
  /** Worker threads running CPU-heavy tasks at once (more wait their turn). */
  workerThreads: number;
  /** Seconds and heap (MB) the parse of one uploaded import file may take before it is refused. */
  importParseTimeoutMs: number;
  importParseMaxMemoryMb: number;
  /** Largest CSV record (a line with all its cells) an import reads, in bytes of text. */
  importMaxRecordBytes: number;
  /** Most columns an imported file may have (Baserow's MAX_FIELD_LIMIT: a table has no more fields). */
  importMaxColumns: number;
  /** An .xlsx whose entries would inflate to more than this, or an entry inflating more than this ratio, is refused before it is read. */
  importExcelMaxInflatedBytes: number;
  importExcelMaxCompressionRatio: number;
  /** A workspace import whose zip would inflate to more than this, or has an entry inflating more than this ratio, is refused before it is read. */
  importExportMaxInflatedBytes: number;
  importExportMaxCompressionRatio: number;
  /** Largest application JSON of a workspace import read (it is parsed in memory; V8 strings end near 512 MB). */
  importExportMaxApplicationBytes: number;
  /** Public keys (base64 of the PEM, as Baserow's `manage_trusted_sources add` takes them) whose signed exports are imported. */
  importExportTrustedPublicKeys: string[];
  /** Baserow's BASEROW_IMPORT_EXPORT_RESOURCE_CLEANUP_INTERVAL_MINUTES and _REMOVAL_AFTER_DAYS: exports and uploads are deleted after that many days. */
  importExportCleanupIntervalMinutes: number;
  importExportRemovalAfterDays: number;
  /** Baserow's BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS and _CLEANUP_INTERVAL_MINUTES: audit log entries older than that many days are deleted. */
  auditLogRetentionDays: number;
  auditLogCleanupIntervalMinutes: number;
  /** Baserow's BASEROW_ICAL_VIEW_MAX_EVENTS: events a calendar's iCal feed holds at most (null, unset or 0: all). */
  icalViewMaxEvents: number | null;
  // Long writes (imports, table creation from data, duplications, template installs).
  /** Rows a long write writes per transaction; other writes take the writer between two chunks. */
  longWriteChunkRows: number;
  /** Baserow's `BASEROW_MAX_ROW_REPORT_ERROR_COUNT`: an import with more failing rows than this fails whole. */
  maxRowReportErrorCount: number;
  /** Database webhooks (Baserow's `BASEROW_WEBHOOKS_*` settings). */
  webhooks: WebhooksConfig;
  /** Application snapshots (Baserow's settings): restorable snapshots per workspace (-1: no limit), and days a snapshot is kept. */
  snapshots: { maxPerWorkspace: number; expirationDays: number };
  /** Minutes a mention removed from a rich-text cell is remembered (put back sooner, it notifies nobody again). */
  staleMentionsCleanupMinutes: number;
  /** E-mail notifications: Baserow's BASEROW_EMAIL_NOTIFICATIONS_* settings (see src/notifications/email-sender.ts). */
  emailNotifications: EmailNotificationsConfig;
  /** Verification mails one user is sent at most per period (Baserow's BASEROW_SEND_VERIFY_EMAIL_RATE_LIMIT); more are not sent. */
  sendVerifyEmailRateLimit: { calls: number; seconds: number };
}

export interface WebhooksConfig {
  /** Whether this instance sends queued calls (false on instances that only serve the API while another sends them). */
  deliver: boolean;
  maxPerTable: number;
  /** Attempts after the first one, waiting 1, 2, 4… seconds. */
  maxRetriesPerCall: number;
  /** Failed calls in a row after which a webhook is deactivated. */
  maxConsecutiveTriggerFailures: number;
  maxCallLogEntries: number;
  requestTimeoutMs: number;
  allowPrivateAddress: boolean;
  /** Batches one event may be split into (0: no limit); beyond it, nothing is sent and the admins are told. */
  batchLimit: number;
  /** Rows per batch of a related table's `rows.updated`. */
  batchRowsSizeLimit: number;
  /** Calls delivered at once by one instance (one at a time per webhook). */
  concurrency: number;
  /** How often an instance looks for calls another instance queued (its own are sent at once). */
  pollMs: number;
  /** The most of a receiver's answer read and kept. */
  responseMaxBytes: number;
}

export interface EmailNotificationsConfig {
  /** Whether summary mails are sent (when off, the queue is still emptied). */
  enabled: boolean;
  /** Seconds between runs of the sender: the instant crontab's minute step, or EMAIL_NOTIFICATIONS_INTERVAL_SECONDS. */
  intervalSeconds: number;
  /** Most users mailed per run, per frequency. */
  limitInstant: number;
  limitDaily: number;
  limitWeekly: number;
  /** The hour (UTC: users have no time zone here) daily and weekly summaries go out, and the weekly one's day (0 = Monday). */
  dailyHourOfDay: number;
  weeklyDayOfWeek: number;
  /** Notifications listed in one mail; the others are counted. */
  maxListedPerEmail: number;
  /** When a run stopped at its limit, run again after this many seconds (null: at the next interval). */
  autoRetryAfterSeconds: number | null;
  /** Base of the links in the mail (`<url>/notification/<workspace id>/<id>`). */
  shareUrl: string;
}

export interface S3Config {
  bucket: string;
  /** Endpoint of an S3-compatible service (MinIO, R2, ...); null: AWS. */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
  /** Public base URL of the bucket's objects; null: signed URLs that expire. */
  publicUrl: string | null;
  signedUrlExpirySeconds: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** FORMULA_MAX_TEXT_LENGTH's default: Airtable's long text limit, above Excel's (32,767) and Google Sheets' (50,000) cells. */
export const DEFAULT_FORMULA_MAX_TEXT_LENGTH = 100_000;

export { ConfigError };

type Env = Record<string, string | undefined>;

function int(env: Env, key: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return def;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${key} must be a whole number, got "${raw}".`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${key} must be between ${min} and ${max}, got ${value}.`);
  return value;
}

/** Baserow's RateLimit.from_string: `<calls>/<s|m|h>`, calls a positive integer. */
function rateLimit(env: Env, key: string, def: string): { calls: number; seconds: number } {
  const raw = env[key]?.trim() || def;
  const match = /^(\d+)\/([smh])$/.exec(raw);
  if (!match || Number(match[1]) <= 0) throw new ConfigError(`${key} must be <calls>/<period> with a positive number of calls and a period of s, m or h, got "${raw}".`);
  return { calls: Number(match[1]), seconds: { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'] };
}

function bool(env: Env, key: string, def: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got "${env[key]}".`);
}

function oneOf<T extends string>(env: Env, key: string, values: readonly T[], def: T): T {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (!values.includes(raw as T)) throw new ConfigError(`${key} must be one of ${values.join(', ')}, got "${env[key]}".`);
  return raw as T;
}

function url(env: Env, key: string, protocols: string[]): string | null {
  const raw = env[key]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${key} is not a valid URL: "${raw}".`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${key} must start with ${protocols.map((p) => p + '//').join(' or ')}, got "${raw}".`);
  }
  return raw;
}

/** Names Express's `trust proxy` accepts besides addresses and CIDRs. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: true/false, a hop count, or a comma list of addresses, CIDRs and Express's names. */
function trustProxy(env: Env): boolean | number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (['true', 'false'].includes(raw.toLowerCase())) return raw.toLowerCase() === 'true';
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32));
    if (!PROXY_NAMES.includes(entry) && (!version || !validBits || extra !== undefined)) {
      throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or a comma list of addresses/CIDRs, got "${raw}".`);
    }
  }
  return entries;
}

/** A comma list of origins (`scheme://host[:port]`); unset, empty or `*` means any origin. */
function origins(env: Env, key: string): string[] | null {
  const raw = env[key]?.trim();
  if (!raw || raw === '*') return null;
  return raw.split(',').map((item) => {
    const origin = item.trim().replace(/\/+$/, '');
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new ConfigError(`${key} must be a comma list of origins like https://rowspace.example.com, got "${item.trim()}".`);
    }
    if (parsed.origin !== origin) throw new ConfigError(`${key} must list origins only (scheme, host and port), got "${item.trim()}".`);
    return origin;
  });
}

/** SECRET_KEY when set; else null and a generated secret is resolved at start-up (a file on SQLite, a row on PostgreSQL). */
function secret(env: Env): string | null {
  const raw = env.SECRET_KEY?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError('SECRET_KEY must be at least 16 characters long.');
  return raw;
}

/**
 * The configuration from the environment: Rowspace's variables, and Baserow's names of the same
 * settings (baserow-names.table.ts; two names of one setting that disagree are an error).
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const baserow = readBaserowNames(env);
  const read = new Set<string>();
  const watched = new Proxy(baserow.env, {
    get: (target, key) => {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  });
  try {
    const config = readConfig(watched);
    // A name the table calls unsupported that loadConfig reads after all is not unused: the test of the table fails instead.
    const unused = [...baserow.unused.filter((u) => !(u.unsupported && read.has(u.name))), ...unknownBaserowNames(env, read)];
    return { ...config, unusedSettings: unused.map((u) => `${u.name} (${u.unsupported ? '' : 'no effect: '}${u.why})`) };
  } catch (error) {
    // A bad value that came under a Baserow name is reported under that name.
    const key = error instanceof ConfigError ? /^[A-Z][A-Z0-9_]*/.exec(error.message)?.[0] : undefined;
    const origin = key && baserow.origins.get(key);
    if (origin) throw new ConfigError(`${origin} (read as ${key}): ${error instanceof Error ? error.message : ''}`);
    throw error;
  }
}

function readConfig(env: Env): Omit<AppConfig, 'unusedSettings'> {
  const dataDir = resolve(env.DATA_DIR?.trim() || './data');
  const port = int(env, 'PORT', 8000, 0, 65535);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const sqlitePath = env.SQLITE_PATH?.trim() || join(dataDir, 'rowspace.sqlite');
  const smtpHost = env.SMTP_HOST?.trim();
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  return {
    port,
    databaseUrl,
    sqlitePath: sqlitePath === ':memory:' ? sqlitePath : resolve(sqlitePath),
    // An in-memory database is one connection's own: workers could not open it.
    sqliteReadWorkers: sqlitePath === ':memory:' ? 0 : int(env, 'SQLITE_READ_WORKERS', 2, 0, 64),
    dataDir,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisChannelPrefix: env.REDIS_CHANNEL_PREFIX?.trim() || 'rowspace',
    secretKey: secret(env),
    accessTokenLifetimeMinutes: int(env, 'ACCESS_TOKEN_LIFETIME_MINUTES', 60, 1),
    refreshTokenLifetimeHours: int(env, 'REFRESH_TOKEN_LIFETIME_HOURS', 168, 1),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    webFrontendUrl: (url(env, 'PUBLIC_WEB_FRONTEND_URL', ['http:', 'https:']) ?? publicUrl).replace(/\/+$/, ''),
    accountDeletionGraceDays: int(env, 'ACCOUNT_DELETION_GRACE_DAYS', 30, 0),
    ssoProviderTimeoutMs: int(env, 'SSO_PROVIDER_TIMEOUT_SECONDS', 10, 1, 300) * 1000,
    ssoProviderMaxBytes: int(env, 'SSO_PROVIDER_MAX_KB', 1024, 1, 65536) * 1024,
    ssoAllowMultipleProvidersPerAccount: bool(env, 'BASEROW_ALLOW_MULTIPLE_SSO_PROVIDERS_FOR_SAME_ACCOUNT', false),
    maxPendingWorkspaceInvites: int(env, 'BASEROW_MAX_PENDING_WORKSPACE_INVITES', 1000, 0),
    loginMaxFailuresPerIpAndEmail: int(env, 'LOGIN_MAX_FAILURES_PER_IP_AND_EMAIL', 10, 1),
    loginMaxFailuresPerEmail: int(env, 'LOGIN_MAX_FAILURES_PER_EMAIL', 50, 1),
    loginMaxFailuresPerIp: int(env, 'LOGIN_MAX_FAILURES_PER_IP', 500, 1),
    loginFailureWindowSeconds: int(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 900, 1),
    trustProxy: trustProxy(env),
    smtp: smtpHost
      ? {
          host: smtpHost,
          port: int(env, 'SMTP_PORT', 587, 1, 65535),
          user: env.SMTP_USER?.trim() || null,
          password: env.SMTP_PASSWORD ?? null,
          from: env.FROM_EMAIL?.trim() || 'no-reply@localhost',
          secure: bool(env, 'SMTP_SECURE', false),
          requireTls: bool(env, 'SMTP_REQUIRE_TLS', false),
        }
      : null,
    requestBodyLimitBytes: int(env, 'REQUEST_BODY_LIMIT_MB', 20, 1, 1024) * 1024 * 1024,
    rowPageSizeLimit: int(env, 'ROW_PAGE_SIZE_LIMIT', 200, 1),
    batchRowsSizeLimit: int(env, 'BATCH_ROWS_SIZE_LIMIT', 200, 1),
    personalViewLowestRole: oneOf(env, 'BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED', ['admin', 'builder', 'editor', 'commenter', 'viewer', 'no_access', 'no_role_low_priority'], 'viewer'),
    disableAnonymousPublicViewWs: bool(env, 'DISABLE_ANONYMOUS_PUBLIC_VIEW_WS_CONNECTIONS', false),
    wsPingIntervalSeconds: int(env, 'WS_PING_INTERVAL_SECONDS', 20, 1),
    // Logs, health and metrics.
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'], process.stdout.isTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json'),
    metricsEnabled: bool(env, 'METRICS_ENABLED', false),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    healthMinFreeDiskBytes: int(env, 'HEALTH_MIN_FREE_DISK_MB', 500, 0) * 1024 * 1024,
    extraModules: (env.EXTRA_MODULES ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    shutdownTimeoutSeconds: int(env, 'SHUTDOWN_TIMEOUT_SECONDS', 25, 0, 3600),
    corsAllowedOrigins: origins(env, 'CORS_ALLOWED_ORIGINS'),
    rateLimitRequestsPerUser: int(env, 'RATE_LIMIT_REQUESTS_PER_USER', 3000, 0),
    rateLimitRequestsPerIp: int(env, 'RATE_LIMIT_REQUESTS_PER_IP', 12000, 0),
    rateLimitWindowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
    rateLimitAnonymousRequestsPerIp: int(env, 'RATE_LIMIT_ANONYMOUS_REQUESTS_PER_IP', 1200, 0),
    wsMaxFrameBytes: int(env, 'WS_MAX_FRAME_BYTES', 65536, 1024, 100 * 1024 * 1024),
    wsMaxPagesPerSocket: int(env, 'WS_MAX_PAGES_PER_SOCKET', 50, 1),
    wsMaxConnectionsPerUser: int(env, 'WS_MAX_CONNECTIONS_PER_USER', 100, 1),
    // Row comments.
    rowCommentPageSizeLimit: int(env, 'ROW_COMMENT_PAGE_SIZE_LIMIT', 200, 1),
    rowCommentMaxLength: int(env, 'ROW_COMMENT_MAX_LENGTH', 65536, 100, 10 * 1024 * 1024),
    rowHistoryRetentionDays: int(env, 'ROW_HISTORY_RETENTION_DAYS', 180, 0),
    formulaNowRefreshMinutes: int(env, 'FORMULA_NOW_REFRESH_MINUTES', 10, 0),
    formulaMaxTextLength: int(env, 'FORMULA_MAX_TEXT_LENGTH', DEFAULT_FORMULA_MAX_TEXT_LENGTH, 1, 100_000_000),
    hoursUntilTrashPermanentlyDeleted: int(env, 'HOURS_UNTIL_TRASH_PERMANENTLY_DELETED', 72, 0),
    trashPageSizeLimit: int(env, 'TRASH_PAGE_SIZE_LIMIT', 200, 1),
    minutesUntilActionCleanedUp: int(env, 'MINUTES_UNTIL_ACTION_CLEANED_UP', 120, 1),
    oldActionCleanupIntervalMinutes: int(env, 'OLD_ACTION_CLEANUP_INTERVAL_MINUTES', 5, 1),
    mediaRoot: resolve(env.MEDIA_ROOT?.trim() || join(dataDir, 'media')),
    mediaUrl: (url(env, 'MEDIA_URL', ['http:', 'https:']) ?? `${publicUrl.replace(/\/+$/, '')}/media/`).replace(/\/*$/, '/'),
    templatesDir: resolve(env.TEMPLATES_DIR?.trim() || join(__dirname, '..', '..', '..', 'templates')),
    defaultTemplate: env.DEFAULT_TEMPLATE?.trim() || 'project-tracker',
    templatePreviews: bool(env, 'BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION', true),
    uploadTmpDir: join(dataDir, 'tmp'),
    fileUploadSizeLimitBytes: int(env, 'FILE_UPLOAD_SIZE_LIMIT_MB', 1024 * 1024, 1, 1024 * 1024 * 1024) * 1024 * 1024,
    fileUploadMaxImagePixels: int(env, 'FILE_UPLOAD_MAX_IMAGE_PIXELS', 89_478_485, 1),
    fileUploadUrlAllowPrivateAddresses: bool(env, 'FILE_UPLOAD_URL_ALLOW_PRIVATE_ADDRESSES', false),
    fileUploadUrlTimeoutSeconds: int(env, 'FILE_UPLOAD_URL_TIMEOUT_SECONDS', 10, 1, 3600),
    s3: s3(env),
    // Worker threads and the budgets of CPU-heavy work.
    workerThreads: int(env, 'WORKER_THREADS', 2, 1, 64),
    importParseTimeoutMs: int(env, 'IMPORT_PARSE_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    importParseMaxMemoryMb: int(env, 'IMPORT_PARSE_MAX_MEMORY_MB', 512, 64, 64 * 1024),
    importMaxRecordBytes: int(env, 'IMPORT_MAX_RECORD_SIZE_MB', 4, 1, 1024) * 1024 * 1024,
    importMaxColumns: int(env, 'IMPORT_MAX_COLUMNS', 600, 1, 100_000),
    importExcelMaxInflatedBytes: int(env, 'IMPORT_EXCEL_MAX_INFLATED_MB', 32, 1, 64 * 1024) * 1024 * 1024,
    importExcelMaxCompressionRatio: int(env, 'IMPORT_EXCEL_MAX_COMPRESSION_RATIO', 100, 2, 100_000),
    importExportMaxInflatedBytes: int(env, 'IMPORT_EXPORT_MAX_INFLATED_MB', 10 * 1024, 1, 1024 * 1024) * 1024 * 1024,
    importExportMaxCompressionRatio: int(env, 'IMPORT_EXPORT_MAX_COMPRESSION_RATIO', 200, 2, 100_000),
    importExportMaxApplicationBytes: int(env, 'IMPORT_EXPORT_MAX_APPLICATION_MB', 256, 1, 500) * 1024 * 1024,
    importExportTrustedPublicKeys: (env.IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    importExportCleanupIntervalMinutes: int(env, 'BASEROW_IMPORT_EXPORT_RESOURCE_CLEANUP_INTERVAL_MINUTES', 5, 1, 7 * 24 * 60),
    importExportRemovalAfterDays: int(env, 'BASEROW_IMPORT_EXPORT_RESOURCE_REMOVAL_AFTER_DAYS', 5, 0, 3650),
    auditLogRetentionDays: int(env, 'BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS', 365, 0, 36500),
    auditLogCleanupIntervalMinutes: int(env, 'BASEROW_ENTERPRISE_AUDIT_LOG_CLEANUP_INTERVAL_MINUTES', 24 * 60, 1, 7 * 24 * 60),
    icalViewMaxEvents: int(env, 'BASEROW_ICAL_VIEW_MAX_EVENTS', 0, 0) || null,
    // Long writes.
    longWriteChunkRows: int(env, 'LONG_WRITE_CHUNK_ROWS', 2000, 1, 1_000_000),
    maxRowReportErrorCount: int(env, 'MAX_ROW_REPORT_ERROR_COUNT', 30_000, 0),
    webhooks: {
      deliver: bool(env, 'WEBHOOKS_DELIVER', true),
      maxPerTable: int(env, 'BASEROW_WEBHOOKS_MAX_PER_TABLE', 20, 0, 100_000),
      maxRetriesPerCall: int(env, 'BASEROW_WEBHOOKS_MAX_RETRIES_PER_CALL', 8, 0, 20),
      maxConsecutiveTriggerFailures: int(env, 'BASEROW_WEBHOOKS_MAX_CONSECUTIVE_TRIGGER_FAILURES', 8, 0, 1_000_000),
      maxCallLogEntries: int(env, 'BASEROW_WEBHOOKS_MAX_CALL_LOG_ENTRIES', 10, 0, 10_000),
      requestTimeoutMs: int(env, 'BASEROW_WEBHOOKS_REQUEST_TIMEOUT_SECONDS', 5, 1, 600) * 1000,
      allowPrivateAddress: bool(env, 'BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS', false),
      batchLimit: int(env, 'BASEROW_WEBHOOKS_BATCH_LIMIT', 5, 0, 100_000),
      batchRowsSizeLimit: int(env, 'BATCH_ROWS_SIZE_LIMIT', 200, 1, 10_000),
      concurrency: int(env, 'WEBHOOKS_CONCURRENCY', 10, 1, 1000),
      pollMs: int(env, 'WEBHOOKS_POLL_MS', 1000, 50, 3_600_000),
      responseMaxBytes: int(env, 'WEBHOOKS_RESPONSE_MAX_KB', 256, 1, 100_000) * 1024,
    },
    snapshots: {
      // Baserow's -1 is "no limit".
      maxPerWorkspace: env.BASEROW_MAX_SNAPSHOTS_PER_GROUP?.trim() === '-1' ? -1 : int(env, 'BASEROW_MAX_SNAPSHOTS_PER_GROUP', 50, 0),
      expirationDays: int(env, 'BASEROW_SNAPSHOT_EXPIRATION_TIME_DAYS', 360, 0, 100_000),
    },
    staleMentionsCleanupMinutes: int(env, 'BASEROW_STALE_MENTIONS_CLEANUP_INTERVAL_MINUTES', 360, 1),
    emailNotifications: emailNotifications(env, publicUrl.replace(/\/+$/, '')),
    sendVerifyEmailRateLimit: rateLimit(env, 'BASEROW_SEND_VERIFY_EMAIL_RATE_LIMIT', '5/h'),
  };
}

/** Baserow's e-mail notification settings, by their names. */
function emailNotifications(env: Env, publicUrl: string): EmailNotificationsConfig {
  const retry = env.BASEROW_EMAIL_NOTIFICATIONS_AUTO_RETRY_IF_LIMIT_REACHED_AFTER?.trim();
  return {
    enabled: bool(env, 'BASEROW_EMAIL_NOTIFICATIONS_ENABLED', true),
    intervalSeconds: env.EMAIL_NOTIFICATIONS_INTERVAL_SECONDS?.trim()
      ? int(env, 'EMAIL_NOTIFICATIONS_INTERVAL_SECONDS', 60, 1, 86400)
      : instantCrontabSeconds(env.BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB),
    limitInstant: int(env, 'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_INSTANT', 50, 1),
    limitDaily: int(env, 'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_DAILY', 1000, 1),
    limitWeekly: int(env, 'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_WEEKLY', 5000, 1),
    dailyHourOfDay: int(env, 'BASEROW_EMAIL_NOTIFICATIONS_DAILY_HOUR_OF_DAY', 0, 0, 23),
    weeklyDayOfWeek: int(env, 'BASEROW_EMAIL_NOTIFICATIONS_WEEKLY_DAY_OF_WEEK', 0, 0, 6),
    maxListedPerEmail: int(env, 'BASEROW_MAX_NOTIFICATIONS_LISTED_PER_EMAIL', 10, 1),
    autoRetryAfterSeconds: retry ? int(env, 'BASEROW_EMAIL_NOTIFICATIONS_AUTO_RETRY_IF_LIMIT_REACHED_AFTER', 0, 1, 86400) : null,
    // Baserow's default is the web client's address (PUBLIC_WEB_FRONTEND_URL).
    shareUrl: (url(env, 'BASEROW_EMBEDDED_SHARE_URL', ['http:', 'https:']) ?? url(env, 'PUBLIC_WEB_FRONTEND_URL', ['http:', 'https:']) ?? publicUrl).replace(/\/+$/, ''),
  };
}

/** The instant sender's crontab: every minute (`* * * * *`) or every N minutes (a minute field of `*\/N`, the others `*`). */
function instantCrontabSeconds(raw: string | undefined): number {
  const value = raw?.trim() || '* * * * *';
  const match = /^(\*|\*\/(\d+))\s+\*\s+\*\s+\*\s+\*$/.exec(value);
  const step = match ? (match[2] ? Number(match[2]) : 1) : NaN;
  if (!(step >= 1 && step <= 1440)) throw new ConfigError('BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB must be "* * * * *" or "*/N * * * *".');
  return step * 60;
}

function s3(env: Env): S3Config | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || null;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together.');
  return {
    bucket,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
    publicUrl: url(env, 'S3_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/*$/, '/') ?? null,
    signedUrlExpirySeconds: int(env, 'S3_SIGNED_URL_EXPIRY_SECONDS', 3600, 1, 7 * 24 * 3600),
  };
}

/** Loads `.env` from the working directory when there is one; real environment variables win. */
export function loadDotEnv(path = '.env'): void {
  if (!existsSync(path)) return;
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!match || line.trim().startsWith('#')) continue;
    const [, key, rawValue] = match;
    const value = rawValue.replace(/^(['"])(.*)\1$/, '$2');
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export function ensureParentDir(path: string): void {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
}
