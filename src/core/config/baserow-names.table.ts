import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';

export type Env = Record<string, string | undefined>;

export const isSet = (env: Env, name: string): boolean => (env[name]?.trim() ?? '') !== '';

/** A Rowspace value built from several Baserow variables (DATABASE_*, REDIS_*). */
export interface Built {
  value(env: Env): string | undefined;
  /** The variables it was built from, to name them in a conflict. */
  sources(env: Env): string[];
}

/**
 * One environment variable of Baserow 1.35.3 (backend/src/baserow/config/settings/base.py,
 * docs/installation/configuration.md) and what it does here. This table is the one place:
 * the start-up reading (baserow-names.ts) and the README's table (a test compares them) come from it.
 */
export interface BaserowName {
  /** Baserow's variable (for a pattern, how the README shows it). */
  name: string;
  /** Matches a family of names (DATABASE_READ_1_HOST…) instead of `name`. */
  pattern?: RegExp;
  /** The Rowspace variable it sets (its own name when Rowspace reads it as is); null: no effect here. */
  setting: string | null;
  /** How to compare it with the Rowspace variable's value (`https://x/` equals `https://x`). */
  kind?: 'url' | 'bool' | 'int' | 'text';
  /** What it means here; for a name without effect, why. */
  note: string;
  /** Baserow's value in Rowspace's form (units, words); undefined: sets nothing. */
  convert?: (value: string, name: string, env: Env) => string | undefined;
  /** Part of a value built from several variables. */
  build?: Built;
  /** Why, in this environment, it has no effect (Baserow's own precedence); null: it has. */
  inertWhen?: (env: Env) => string | null;
  /** For a name without effect: values that ask for what Rowspace does anyway (no warning). */
  harmless?: (value: string) => boolean;
}

/** Baserow's truthiness: any non-empty value; here `false`, `0`, `no` and `off` are false. */
const flag = (value: string): string => (['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase()) ? 'false' : 'true');
const isFalse = (value: string): boolean => flag(value) === 'false';
const isTrue = (value: string): boolean => flag(value) === 'true';

/** A `*_FILE` variable: the secret is the file's content (Baserow's all-in-one image's file_env). */
function file(path: string, name: string): string {
  try {
    return readFileSync(path.trim(), 'utf8').trim();
  } catch (error) {
    throw new ConfigError(`${name}: cannot read ${path.trim()} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

const LOG_LEVELS: Record<string, string> = { CRITICAL: 'fatal', ERROR: 'error', WARNING: 'warn', WARN: 'warn', INFO: 'info', DEBUG: 'debug', TRACE: 'trace' };

function logLevel(value: string, name: string): string {
  const level = LOG_LEVELS[value.trim().toUpperCase()];
  if (!level) throw new ConfigError(`${name} must be one of ${Object.keys(LOG_LEVELS).join(', ')}, got "${value}".`);
  return level;
}

/** A crontab of every minute or every N minutes, as minutes. */
function crontabMinutes(value: string, name: string): string {
  const match = /^(\*|\*\/(\d+))\s+\*\s+\*\s+\*\s+\*$/.exec(value.trim());
  const step = match ? (match[2] ? Number(match[2]) : 1) : NaN;
  if (!(step >= 1)) throw new ConfigError(`${name} must be "* * * * *" or "*/N * * * *" here, got "${value}".`);
  return String(step);
}

function addressingStyle(value: string, name: string): string | undefined {
  const style = value.trim().toLowerCase();
  if (style === 'auto') return undefined;
  if (style === 'path' || style === 'virtual') return String(style === 'path');
  throw new ConfigError(`${name} must be path, virtual or auto, got "${value}".`);
}

/** django-storages' URL of a custom domain: AWS_S3_URL_PROTOCOL (https:) // domain /. */
function customDomain(_value: string, _name: string, env: Env): string | undefined {
  if (!isSet(env, 'AWS_S3_CUSTOM_DOMAIN')) return undefined;
  const protocol = (env.AWS_S3_URL_PROTOCOL?.trim() || 'https:').replace(/:?$/, ':');
  if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`AWS_S3_URL_PROTOCOL must be http: or https:, got "${env.AWS_S3_URL_PROTOCOL}".`);
  return `${protocol}//${env.AWS_S3_CUSTOM_DOMAIN!.trim().replace(/\/+$/, '')}/`;
}

function secretOnce(env: Env, plain: string, fromFile: string): string | undefined {
  if (isSet(env, plain) && isSet(env, fromFile)) throw new ConfigError(`${plain} and ${fromFile} are both set; set only one of them.`);
  if (isSet(env, fromFile)) return file(env[fromFile]!, fromFile);
  return isSet(env, plain) ? env[plain] : undefined;
}

const DATABASE_NOTES: Record<string, string> = {
  DATABASE_HOST: 'host (default `db`)',
  DATABASE_PORT: 'port (default `5432`)',
  DATABASE_NAME: 'database (default `baserow`)',
  DATABASE_USER: 'user (default `baserow`)',
  DATABASE_PASSWORD: 'password (default `baserow`)',
  DATABASE_PASSWORD_FILE: 'a file holding the password',
  DATABASE_OPTIONS: 'JSON of connection options (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`, `application_name`)',
};
const DATABASE_PARTS = Object.keys(DATABASE_NOTES);

/** The options of Baserow's DATABASE_OPTIONS (libpq's, passed to psycopg) that the PostgreSQL driver here reads from the URL. */
const DATABASE_OPTIONS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'application_name'];

/** DATABASE_OPTIONS as the URL's query string; an option the driver would not apply is refused, not dropped. */
function databaseOptions(env: Env): string {
  if (!isSet(env, 'DATABASE_OPTIONS')) return '';
  let options: unknown;
  try {
    options = JSON.parse(env.DATABASE_OPTIONS!);
  } catch {
    throw new ConfigError(`DATABASE_OPTIONS must be a JSON object, got "${env.DATABASE_OPTIONS}".`);
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new ConfigError('DATABASE_OPTIONS must be a JSON object.');
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) {
    if (!DATABASE_OPTIONS.includes(key)) throw new ConfigError(`DATABASE_OPTIONS: ${key} is not supported here (only ${DATABASE_OPTIONS.join(', ')}).`);
    if (typeof value !== 'string' && typeof value !== 'number') throw new ConfigError(`DATABASE_OPTIONS: ${key} must be a string.`);
    query.set(key, String(value));
  }
  return query.size ? `?${query}` : '';
}

/** Baserow's DATABASES["default"] from DATABASE_* (its defaults: baserow:baserow@db:5432/baserow) as a URL. */
const database: Built = {
  sources: (env) => DATABASE_PARTS.filter((name) => isSet(env, name)),
  value(env) {
    const get = (name: string, def: string) => (isSet(env, name) ? env[name]!.trim() : def);
    const port = get('DATABASE_PORT', '5432');
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new ConfigError(`DATABASE_PORT must be a port number, got "${port}".`);
    const password = secretOnce(env, 'DATABASE_PASSWORD', 'DATABASE_PASSWORD_FILE') ?? 'baserow';
    const auth = `${encodeURIComponent(get('DATABASE_USER', 'baserow'))}:${encodeURIComponent(password)}`;
    return `postgresql://${auth}@${hostPart(get('DATABASE_HOST', 'db'))}:${port}/${encodeURIComponent(get('DATABASE_NAME', 'baserow'))}${databaseOptions(env)}`;
  },
};

const REDIS_NOTES: Record<string, string> = {
  REDIS_HOST: 'host (default `redis`)',
  REDIS_PORT: 'port (default `6379`)',
  REDIS_USER: 'user (default none)',
  REDIS_PASSWORD: 'password (default none)',
  REDIS_PASSWORD_FILE: 'a file holding the password',
  REDIS_PROTOCOL: '`redis` (default) or `rediss` (TLS)',
};
const REDIS_PARTS = Object.keys(REDIS_NOTES);

/** Baserow's REDIS_URL from REDIS_* ({protocol}://{user}:{password}@{host}:{port}/0; host redis, port 6379). */
const redis: Built = {
  sources: (env) => REDIS_PARTS.filter((name) => isSet(env, name)),
  value(env) {
    const get = (name: string, def: string) => (isSet(env, name) ? env[name]!.trim() : def);
    const protocol = get('REDIS_PROTOCOL', 'redis');
    if (protocol !== 'redis' && protocol !== 'rediss') throw new ConfigError(`REDIS_PROTOCOL must be redis or rediss, got "${protocol}".`);
    const port = get('REDIS_PORT', '6379');
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new ConfigError(`REDIS_PORT must be a port number, got "${port}".`);
    const user = get('REDIS_USER', '');
    const password = secretOnce(env, 'REDIS_PASSWORD', 'REDIS_PASSWORD_FILE') ?? '';
    const auth = user || password ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}@` : '';
    return `${protocol}://${auth}${hostPart(get('REDIS_HOST', 'redis'))}:${port}/0`;
  },
};

/** An IPv6 address goes in brackets in a URL. */
const hostPart = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

const unless = (name: string, why = `${name} is set and wins, as in Baserow`) => (env: Env) => (isSet(env, name) ? why : null);
const smtpOff = (env: Env) => (isSet(env, 'EMAIL_SMTP') && !isFalse(env.EMAIL_SMTP!) ? null : 'EMAIL_SMTP is not on; without it Baserow logs mails instead of sending them');
const withoutBucket = (env: Env) => (isSet(env, 'AWS_STORAGE_BUCKET_NAME') || isSet(env, 'S3_BUCKET') ? null : 'AWS_STORAGE_BUCKET_NAME is not set, so files are stored on disk');

/** Rowspace reads it under Baserow's name. */
const same = (name: string, note: string, kind?: BaserowName['kind']): BaserowName => ({ name, setting: name, kind, note });
const alias = (name: string, setting: string, kind: BaserowName['kind'], note: string, more: Partial<BaserowName> = {}): BaserowName => ({
  name,
  setting,
  kind,
  note,
  ...more,
});
/** Names that have no effect here, for one reason. */
const none = (note: string, ...names: (string | [string, RegExp])[]): BaserowName[] =>
  names.map((entry) => (typeof entry === 'string' ? { name: entry, setting: null, note } : { name: entry[0], pattern: entry[1], setting: null, note }));

const ONE_PROCESS = 'Rowspace is one Node.js process serving HTTP and WebSocket on PORT; scale with more instances sharing PostgreSQL and Redis';
const NO_CELERY = 'no Celery here: background work runs inside the server';
const NOT_HERE = 'a Baserow feature Rowspace does not have';
const NO_OTHER_STORAGE = 'only disk and S3 storage here (AWS_STORAGE_BUCKET_NAME)';

export const BASEROW_NAMES: BaserowName[] = [
  // Addresses.
  alias('BASEROW_PUBLIC_URL', 'PUBLIC_URL', 'url', 'the address users reach the instance at; also the web client address'),
  alias('PUBLIC_BACKEND_URL', 'PUBLIC_URL', 'url', "the API's public address (MEDIA_URL's default base)", { inertWhen: unless('BASEROW_PUBLIC_URL') }),
  { ...same('PUBLIC_WEB_FRONTEND_URL', "the web client's address: hosts of base_url in reset and invitation links, base of mail links (default PUBLIC_URL)", 'url'), inertWhen: unless('BASEROW_PUBLIC_URL') },
  same('BASEROW_EMBEDDED_SHARE_URL', 'base of links in notification mails (default PUBLIC_WEB_FRONTEND_URL)', 'url'),
  alias('BASEROW_BACKEND_PORT', 'PORT', 'int', 'HTTP port'),
  // Secrets and tokens.
  same('SECRET_KEY', 'the secret every signing key is derived from'),
  alias('SECRET_KEY_FILE', 'SECRET_KEY', 'text', 'a file holding SECRET_KEY', { convert: file }),
  alias('BASEROW_JWT_SIGNING_KEY', 'SECRET_KEY', 'text', 'the secret when SECRET_KEY is unset (Rowspace derives its token keys from one secret)', {
    inertWhen: unless('SECRET_KEY', 'SECRET_KEY is set; Rowspace derives its token keys from that one secret'),
  }),
  alias('BASEROW_ACCESS_TOKEN_LIFETIME_MINUTES', 'ACCESS_TOKEN_LIFETIME_MINUTES', 'int', 'access token lifetime (Baserow: 10, Rowspace: 60)'),
  alias('BASEROW_REFRESH_TOKEN_LIFETIME_HOURS', 'REFRESH_TOKEN_LIFETIME_HOURS', 'int', 'refresh token lifetime'),
  // PostgreSQL.
  same('DATABASE_URL', 'PostgreSQL URL; wins over DATABASE_*, as in Baserow', 'url'),
  ...DATABASE_PARTS.map((name) =>
    alias(name, 'DATABASE_URL', 'url', `${DATABASE_NOTES[name]}: part of the PostgreSQL URL, built as Baserow does`, { build: database, inertWhen: unless('DATABASE_URL') }),
  ),
  // Redis.
  same('REDIS_URL', 'Redis URL; wins over REDIS_*, as in Baserow', 'url'),
  ...REDIS_PARTS.map((name) =>
    alias(name, 'REDIS_URL', 'url', `${REDIS_NOTES[name]}: part of the Redis URL, built as Baserow does`, { build: redis, inertWhen: unless('REDIS_URL') }),
  ),
  // Mail.
  alias('EMAIL_SMTP', 'SMTP_HOST', 'text', 'on (any value but false/0/no/off): send through SMTP (EMAIL_SMTP_HOST, default localhost:25); unset or off: mails are logged', {
    convert: () => undefined,
  }),
  alias('EMAIL_SMTP_HOST', 'SMTP_HOST', 'text', 'SMTP server (with EMAIL_SMTP on)', { inertWhen: smtpOff }),
  alias('EMAIL_SMTP_PORT', 'SMTP_PORT', 'int', 'SMTP port (default 25 with EMAIL_SMTP on)', { inertWhen: smtpOff }),
  alias('EMAIL_SMTP_USER', 'SMTP_USER', 'text', 'SMTP user', { inertWhen: smtpOff }),
  alias('EMAIL_SMTP_PASSWORD', 'SMTP_PASSWORD', 'text', 'SMTP password', { inertWhen: smtpOff, convert: (value) => value }),
  alias('EMAIL_SMTP_USE_SSL', 'SMTP_SECURE', 'bool', 'implicit TLS (usually port 465)', { inertWhen: smtpOff, convert: flag }),
  alias('EMAIL_SMTP_USE_TLS', 'SMTP_REQUIRE_TLS', 'bool', 'STARTTLS, required (usually port 587)', { inertWhen: smtpOff, convert: flag }),
  alias('EMAIL_SMPT_USE_TLS', 'SMTP_REQUIRE_TLS', 'bool', "Baserow's old misspelling of EMAIL_SMTP_USE_TLS", { inertWhen: smtpOff, convert: flag }),
  same('FROM_EMAIL', 'sender of mails'),
  ...none('no client certificate for SMTP here', 'EMAIL_SMTP_SSL_CERTFILE_PATH', 'EMAIL_SMTP_SSL_KEYFILE_PATH'),
  // Files.
  same('MEDIA_ROOT', 'folder of stored files (default DATA_DIR/media; Baserow: /baserow/media)'),
  same('MEDIA_URL', 'URL of stored files (default PUBLIC_URL/media/)', 'url'),
  alias('BASEROW_FILE_UPLOAD_SIZE_LIMIT_MB', 'FILE_UPLOAD_SIZE_LIMIT_MB', 'int', 'largest user file, in MB'),
  alias('AWS_STORAGE_BUCKET_NAME', 'S3_BUCKET', 'text', 'set: files go to this S3 bucket'),
  alias('AWS_ACCESS_KEY_ID', 'S3_ACCESS_KEY_ID', 'text', 'S3 access key', { inertWhen: withoutBucket }),
  alias('AWS_SECRET_ACCESS_KEY', 'S3_SECRET_ACCESS_KEY', 'text', 'S3 secret key', { inertWhen: withoutBucket, convert: (value) => value.trim() }),
  alias('AWS_SECRET_ACCESS_KEY_FILE_PATH', 'S3_SECRET_ACCESS_KEY', 'text', 'a file holding the S3 secret key', { inertWhen: withoutBucket, convert: file }),
  alias('AWS_S3_REGION_NAME', 'S3_REGION', 'text', 'S3 region', { inertWhen: withoutBucket }),
  alias('AWS_S3_ENDPOINT_URL', 'S3_ENDPOINT', 'url', 'S3-compatible endpoint (MinIO, R2…)', { inertWhen: withoutBucket }),
  alias('AWS_S3_CUSTOM_DOMAIN', 'S3_PUBLIC_URL', 'url', 'files are linked at `https://<domain>/<key>`, unsigned', { inertWhen: withoutBucket, convert: customDomain }),
  alias('AWS_S3_URL_PROTOCOL', 'S3_PUBLIC_URL', 'url', 'scheme of AWS_S3_CUSTOM_DOMAIN (default https:)', {
    inertWhen: (env) => withoutBucket(env) ?? (isSet(env, 'AWS_S3_CUSTOM_DOMAIN') ? null : 'AWS_S3_CUSTOM_DOMAIN is not set'),
    convert: customDomain,
  }),
  alias('AWS_QUERYSTRING_EXPIRE', 'S3_SIGNED_URL_EXPIRY_SECONDS', 'int', 'seconds a signed file URL is valid', { inertWhen: withoutBucket }),
  alias('AWS_S3_ADDRESSING_STYLE', 'S3_FORCE_PATH_STYLE', 'bool', 'path: path-style URLs; virtual: host-style; auto: the default', { inertWhen: withoutBucket, convert: addressingStyle }),
  {
    ...none('file links are signed here unless AWS_S3_CUSTOM_DOMAIN (or S3_PUBLIC_URL) gives a public address', 'AWS_QUERYSTRING_AUTH')[0],
    harmless: isTrue,
  },
  ...none(
    'not supported by the S3 storage here',
    'AWS_DEFAULT_ACL',
    'AWS_S3_OBJECT_PARAMETERS',
    'AWS_LOCATION',
    'AWS_S3_SESSION_PROFILE',
    'AWS_IS_GZIPPED',
    'GZIP_CONTENT_TYPES',
    'AWS_S3_USE_SSL',
    'AWS_S3_VERIFY',
    'AWS_S3_PROXIES',
    'AWS_S3_SIGNATURE_VERSION',
    'AWS_CLOUDFRONT_KEY',
    'AWS_CLOUDFRONT_KEY_ID',
    'AWS_S3_MAX_MEMORY_SIZE',
  ),
  ...none(NO_OTHER_STORAGE, ['GS_*', /^GS_/], ['AZURE_*', /^AZURE_/]),
  ...none(
    'files are served at MEDIA_URL or from the bucket',
    'BASEROW_SERVE_FILES_THROUGH_BACKEND',
    'BASEROW_SERVE_FILES_THROUGH_BACKEND_PERMISSION',
    'BASEROW_SERVE_FILES_THROUGH_BACKEND_EXPIRE_SECONDS',
  ),
  // Limits and retention.
  alias('BASEROW_ROW_PAGE_SIZE_LIMIT', 'ROW_PAGE_SIZE_LIMIT', 'int', 'largest page of rows'),
  same('BATCH_ROWS_SIZE_LIMIT', 'largest batch of rows', 'int'),
  same('BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED', 'lowest role that may create and use personal views'),
  alias('BASEROW_MAX_FIELD_LIMIT', 'IMPORT_MAX_COLUMNS', 'int', 'most columns of an imported file (here imports only)'),
  alias('BASEROW_MAX_ROW_REPORT_ERROR_COUNT', 'MAX_ROW_REPORT_ERROR_COUNT', 'int', 'failing rows after which an import fails whole'),
  alias('BASEROW_ROW_HISTORY_RETENTION_DAYS', 'ROW_HISTORY_RETENTION_DAYS', 'int', 'days row history is kept'),
  same('HOURS_UNTIL_TRASH_PERMANENTLY_DELETED', 'hours trashed items stay restorable', 'int'),
  same('MINUTES_UNTIL_ACTION_CLEANED_UP', 'minutes an action can be undone', 'int'),
  same('OLD_ACTION_CLEANUP_INTERVAL_MINUTES', 'minutes between deletions of old actions', 'int'),
  same('DISABLE_ANONYMOUS_PUBLIC_VIEW_WS_CONNECTIONS', 'refuse anonymous WebSocket connections', 'bool'),
  alias('BASEROW_PERIODIC_FIELD_UPDATE_CRONTAB', 'FORMULA_NOW_REFRESH_MINUTES', 'int', 'how often `now()`/`today()` formulas are computed again (`*/N * * * *` only)', {
    convert: crontabMinutes,
  }),
  alias('BASEROW_BACKEND_LOG_LEVEL', 'LOG_LEVEL', 'text', 'lowest log level (ERROR, WARNING, INFO, DEBUG, TRACE)', { convert: logLevel }),
  // Webhooks and notifications: Rowspace reads Baserow's names.
  ...[
    'BASEROW_WEBHOOKS_MAX_PER_TABLE',
    'BASEROW_WEBHOOKS_MAX_RETRIES_PER_CALL',
    'BASEROW_WEBHOOKS_MAX_CONSECUTIVE_TRIGGER_FAILURES',
    'BASEROW_WEBHOOKS_MAX_CALL_LOG_ENTRIES',
    'BASEROW_WEBHOOKS_REQUEST_TIMEOUT_SECONDS',
    'BASEROW_WEBHOOKS_BATCH_LIMIT',
  ].map((name) => same(name, 'database webhooks', 'int')),
  same('BASEROW_IMPORT_EXPORT_RESOURCE_REMOVAL_AFTER_DAYS', 'days workspace exports and import uploads are kept', 'int'),
  same('BASEROW_IMPORT_EXPORT_RESOURCE_CLEANUP_INTERVAL_MINUTES', 'how often expired exports and uploads are deleted', 'int'),
  same('BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS', 'days audit log entries are kept', 'int'),
  same('BASEROW_ENTERPRISE_AUDIT_LOG_CLEANUP_INTERVAL_MINUTES', 'how often audit log entries past their retention are deleted', 'int'),
  same('BASEROW_MAX_SNAPSHOTS_PER_GROUP', 'restorable application snapshots per workspace (-1: no limit)', 'int'),
  same('BASEROW_SNAPSHOT_EXPIRATION_TIME_DAYS', 'days a snapshot is kept before the hourly cleanup deletes it', 'int'),
  same('BASEROW_ICAL_VIEW_MAX_EVENTS', "events a calendar view's iCal feed holds at most (unset or 0: all)", 'int'),
  same('BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS', 'webhooks may call private addresses ("false" means false here)', 'bool'),
  same('BASEROW_EMAIL_NOTIFICATIONS_ENABLED', 'notification mails are sent', 'bool'),
  same('BASEROW_EMAIL_NOTIFICATIONS_INSTANT_CRONTAB', 'how often instant summaries go out (`* * * * *` or `*/N * * * *` only)'),
  ...[
    'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_INSTANT',
    'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_DAILY',
    'BASEROW_EMAIL_NOTIFICATIONS_LIMIT_WEEKLY',
    'BASEROW_EMAIL_NOTIFICATIONS_DAILY_HOUR_OF_DAY',
    'BASEROW_EMAIL_NOTIFICATIONS_WEEKLY_DAY_OF_WEEK',
    'BASEROW_EMAIL_NOTIFICATIONS_AUTO_RETRY_IF_LIMIT_REACHED_AFTER',
    'BASEROW_MAX_NOTIFICATIONS_LISTED_PER_EMAIL',
  ].map((name) => same(name, 'notification mails', 'int')),
  same('BASEROW_STALE_MENTIONS_CLEANUP_INTERVAL_MINUTES', 'minutes a removed mention is remembered', 'int'),
  same('BASEROW_SEND_VERIFY_EMAIL_RATE_LIMIT', 'verification mails per user and period (`5/h`)'),
  same('BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION', "each template is installed in a read-only preview workspace at start-up, in the background (the web client's template preview; default true)", 'bool'),
  same('BASEROW_ALLOW_MULTIPLE_SSO_PROVIDERS_FOR_SAME_ACCOUNT', 'an existing account may sign in through an SSO provider other than the one it was made or first signed in with (default false)', 'bool'),
  same('BASEROW_MAX_PENDING_WORKSPACE_INVITES', 'pending invitations a workspace may have (Rowspace: 1000; 0: no limit, Baserow\'s default)', 'int'),
  { ...none('fixed at 100 here (`limit` of unique_row_values)', 'BASEROW_UNIQUE_ROW_VALUES_SIZE_LIMIT')[0], harmless: (value) => value === '100' },
  // No effect here.
  ...none(
    ONE_PROCESS,
    'BASEROW_AMOUNT_OF_GUNICORN_WORKERS',
    'BASEROW_AMOUNT_OF_WORKERS',
    'BASEROW_RUN_MINIMAL',
    'BASEROW_ASGI_HTTP_MAX_CONCURRENCY',
    'BASEROW_BACKEND_BIND_ADDRESS',
    'BASEROW_WEBFRONTEND_BIND_ADDRESS',
    'BASEROW_CADDY_ADDRESSES',
    'BASEROW_CADDY_GLOBAL_CONF',
    'WEB_FRONTEND_PORT',
    'PRIVATE_BACKEND_URL',
    'DJANGO_SETTINGS_MODULE',
    'ADDITIONAL_APPS',
    'ADDITIONAL_MODULES',
    'BASEROW_EXTRA_ALLOWED_HOSTS',
    'DISABLE_VOLUME_CHECK',
    'POSTGRES_STARTUP_CHECK_ATTEMPTS',
    'BASEROW_BACKEND_DATABASE_LOG_LEVEL',
  ),
  { ...none('migrations always run at start-up here', 'MIGRATE_ON_STARTUP')[0], harmless: isTrue },
  { ...none('there is no debug mode here', 'BASEROW_BACKEND_DEBUG')[0], harmless: isFalse },
  ...none('set TRUST_PROXY so X-Forwarded-* of your proxy is believed', 'BASEROW_ENABLE_SECURE_PROXY_SSL_HEADER'),
  ...none('read replicas are not supported: everything goes to DATABASE_URL', ['DATABASE_READ_*', /^DATABASE_READ_/]),
  ...none(
    NO_CELERY,
    'BASEROW_CELERY_BEAT_STARTUP_DELAY',
    'BASEROW_CELERY_BEAT_DEBUG_LEVEL',
    'BASEROW_MAX_HEALTHY_CELERY_QUEUE_SIZE',
    'BASEROW_CELERY_SEARCH_UPDATE_HARD_TIME_LIMIT',
    'BASEROW_GROUP_STORAGE_USAGE_QUEUE',
    'BASEROW_PERIODIC_FIELD_UPDATE_QUEUE_NAME',
    'BASEROW_JOB_SOFT_TIME_LIMIT',
    'BASEROW_JOB_EXPIRATION_TIME_LIMIT',
    'BASEROW_JOB_CLEANUP_INTERVAL_MINUTES',
    ['CELERY_*', /^CELERY_/],
  ),
  ...none(
    'templates are files read from TEMPLATES_DIR at start-up',
    'SYNC_TEMPLATES_ON_STARTUP',
    'BASEROW_SYNC_TEMPLATES_TIME_LIMIT',
    'BASEROW_SYNC_TEMPLATES_PATTERN',
  ),
  ...none('no formula upgrade step after migrations here', 'DONT_UPDATE_FORMULAS_AFTER_MIGRATION', 'BASEROW_MIGRATION_LOCK_ID'),
  ...none(
    'no OpenTelemetry, Sentry or PostHog here: logs (LOG_LEVEL) and Prometheus metrics (METRICS_ENABLED)',
    'BASEROW_ENABLE_OTEL',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_RESOURCE_ATTRIBUTES',
    'OTEL_TRACES_SAMPLER',
    'OTEL_TRACES_SAMPLER_ARG',
    'OTEL_PER_MODULE_SAMPLER_OVERRIDES',
    'SENTRY_DSN',
    'SENTRY_BACKEND_DSN',
    'SENTRY_ENVIRONMENT',
    'POSTHOG_PROJECT_API_KEY',
    'POSTHOG_HOST',
  ),
  ...none(
    'no AI features here',
    ['BASEROW_OPENAI_*', /^BASEROW_OPENAI_/],
    ['BASEROW_ANTHROPIC_*', /^BASEROW_ANTHROPIC_/],
    ['BASEROW_MISTRAL_*', /^BASEROW_MISTRAL_/],
    ['BASEROW_OLLAMA_*', /^BASEROW_OLLAMA_/],
    ['BASEROW_OPENROUTER_*', /^BASEROW_OPENROUTER_/],
  ),
  ...none(
    NOT_HERE,
    ['BASEROW_BUILDER_*', /^BASEROW_BUILDER_/],
    ['BASEROW_AUTOMATION_*', /^BASEROW_AUTOMATION_/],
    ['BASEROW_ENTERPRISE_*', /^BASEROW_ENTERPRISE_/],
    ['BASEROW_TWO_WAY_SYNC_*', /^BASEROW_TWO_WAY_SYNC_/],
    ['BASEROW_PLUGIN_*', /^BASEROW_PLUGIN_/],
    ['BASEROW_USER_LOG_ENTRY_*', /^BASEROW_USER_LOG_ENTRY_/],
    'BASEROW_DISABLE_PLUGIN_INSTALL_ON_STARTUP',
    'BASEROW_PREVENT_POSTGRESQL_DATA_SYNC_CONNECTION_TO_DATABASE',
    'BASEROW_POSTGRESQL_DATA_SYNC_BLACKLIST',
    'BASEROW_AIRTABLE_IMPORT_SOFT_TIME_LIMIT',
    'BASEROW_OSS_ONLY',
    'FEATURE_FLAGS',
    'BASEROW_DISABLE_SUPPORT',
    'BASEROW_INTEGRATIONS_ALLOW_PRIVATE_ADDRESS',
    'BASEROW_INTEGRATION_LOCAL_BASEROW_PAGE_SIZE_LIMIT',
    'BASEROW_LOGIN_ACTION_LOG_LIMIT',
    'BASEROW_SEAT_USAGE_JOB_CRONTAB',
    'BASEROW_IMPORT_EXPORT_TABLE_ROWS_COUNT_LIMIT',
    'FIELD_RULE_ROWS_LIMIT',
  ),
  ...none(
    "settings of Baserow's web client, not of the API",
    'BASEROW_DISABLE_PUBLIC_URL_CHECK',
    'BASEROW_FRONTEND_SAME_SITE_COOKIE',
    'BASEROW_DISABLE_GOOGLE_DOCS_FILE_PREVIEW',
    'DOWNLOAD_FILE_VIA_XHR',
  ),
  ...none(
    'Rowspace has no such tuning knob',
    'BASEROW_ROW_HISTORY_CLEANUP_INTERVAL_MINUTES',
    'BASEROW_USE_PG_FULLTEXT_SEARCH',
    'BASEROW_PG_FULLTEXT_SEARCH_UPDATE_DATA_THROTTLE_SECONDS',
    'BASEROW_PG_SEARCH_CONFIG',
    'BASEROW_DEFAULT_SEARCH_MODE',
    ['BASEROW_CACHALOT_*', /^BASEROW_CACHALOT_/],
    'BASEROW_USE_LOCAL_CACHE',
    'BASEROW_DISABLE_MODEL_CACHE',
    'BASEROW_DEADLOCK_INITIAL_BACKOFF',
    'BASEROW_DEADLOCK_MAX_RETRIES',
    'BASEROW_WAIT_INSTEAD_OF_409_CONFLICT_ERROR',
    'BASEROW_MAX_CONCURRENT_USER_REQUESTS',
    'BASEROW_CONCURRENT_USER_REQUESTS_THROTTLE_TIMEOUT',
    'BASEROW_MAX_EMAILS_PER_MINUTE',
    'BASEROW_AUTO_INDEX_VIEW_ENABLED',
    'BASEROW_AUTO_INDEX_LOCK_EXPIRY',
    'BASEROW_PERIODIC_FIELD_UPDATE_TIMEOUT_MINUTES',
    'BASEROW_PERIODIC_FIELD_UPDATE_UNUSED_WORKSPACE_INTERVAL_MIN',
    'BASEROW_WEBHOOKS_URL_REGEX_BLACKLIST',
    'BASEROW_WEBHOOKS_IP_WHITELIST',
    'BASEROW_WEBHOOKS_IP_BLACKLIST',
    'BASEROW_WEBHOOKS_URL_CHECK_TIMEOUT_SECS',
    'BASEROW_MAX_WEBHOOK_CALLS_IN_QUEUE_PER_WEBHOOK',
    'BASEROW_WEBHOOK_ROWS_ENTER_VIEW_BATCH_SIZE',
    'BASEROW_MAX_IMPORT_FILE_SIZE_MB',
    'INITIAL_TABLE_DATA_LIMIT',
    'BASEROW_INITIAL_CREATE_SYNC_TABLE_DATA_LIMIT',
    'BASEROW_MAX_FILE_IMPORT_ERROR_COUNT',
  ),
];
