import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { createApp } from '../../src/app';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import type { LogOptions } from '../../src/core/logging/logger';

/** Which database the suites run on: SQLite by default, PostgreSQL with ROWSPACE_TEST_DB=postgres. */
export const TEST_DB = process.env.ROWSPACE_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = process.env.ROWSPACE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface Response<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (no JSON encoding, no content type unless given). */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  url: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
  close(): Promise<void>;
}

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file. */
export async function freshDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'rowspace-test-'));
  if (TEST_DB === 'sqlite') {
    return { env: { DATA_DIR: dir, SQLITE_PATH: join(dir, 'test.sqlite') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `rowspace_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: `${PG_URL}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    env: { DATA_DIR: dir, DATABASE_URL: `${PG_URL}/${name}` },
    drop: async () => {
      const client = new Client({ connectionString: `${PG_URL}/postgres` });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Settings for an app that must see only its requests' statements: the suites that prove a
 * refused request changed nothing (fuzz, tenant matrix) and the ones that count a request's SQL
 * statements. The timed background work is held back: queued webhook calls are neither polled
 * for (a query every second) nor sent (a call's log), notification e-mails are not sent (each new
 * tenant's invitation-accepted notification is unscheduled by the sender's next run), nor are
 * marked import/export resources deleted (an import marks its upload).
 */
export const NO_TIMED_WORK = {
  WEBHOOKS_DELIVER: 'false',
  EMAIL_NOTIFICATIONS_INTERVAL_SECONDS: '86400',
  BASEROW_IMPORT_EXPORT_RESOURCE_CLEANUP_INTERVAL_MINUTES: String(7 * 24 * 60),
  BASEROW_ENTERPRISE_AUDIT_LOG_CLEANUP_INTERVAL_MINUTES: String(7 * 24 * 60),
} as const;

/**
 * Boots the real app on a real database and listens on a free port. Logs only errors unless
 * ROWSPACE_TEST_LOGS is set or `log` says otherwise (a stream captures the JSON lines);
 * `withoutSecretKey`: the instance resolves its own secret, as without SECRET_KEY.
 */
export async function startApp(
  env: Record<string, string> = {},
  database?: TestDatabase,
  options: { withoutSecretKey?: boolean; log?: LogOptions } = {},
): Promise<TestApp> {
  const db = database ?? (await freshDatabase());
  const secret = options.withoutSecretKey ? {} : { SECRET_KEY: 'test-secret-key-that-is-long-enough' };
  // The e-mail notification sender's background writes (every minute by default) would change
  // the database under suites that prove a refused request changed nothing: a day, unless asked.
  // Template previews (a workspace per template, built in the background at start) only where a suite asks for them.
  const config = loadConfig({
    ...secret,
    PUBLIC_URL: 'http://localhost:8000',
    EMAIL_NOTIFICATIONS_INTERVAL_SECONDS: '86400',
    BASEROW_TRIGGER_SYNC_TEMPLATES_AFTER_MIGRATION: 'false',
    ...db.env,
    ...env,
  });
  const app = await createApp(config, { log: { level: process.env.ROWSPACE_TEST_LOGS ? undefined : 'error', ...options.log } });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    config,
    url,
    request: (method, path, options = {}) => request(url, method, path, options),
    close: async () => {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

export async function request<T = any>(base: string, method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  if (options.token) headers.Authorization = `JWT ${options.token}`;
  const res = await fetch(base + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain-text answers (health, HTML) stay text.
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

let counter = 0;

export interface SignedUp {
  id: number;
  email: string;
  name: string;
  password: string;
  token: string;
  refresh: string;
}

/** Signs a new user up with tokens; every call gets a unique e-mail. */
export async function signUp(t: TestApp, name = 'Tester', extra: Record<string, unknown> = {}): Promise<SignedUp> {
  counter += 1;
  const email = `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'password123';
  const res = await t.request('POST', '/api/user/', { body: { name, email, password, authenticate: true, ...extra } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { id: res.body.user.id, email, name, password, token: res.body.access_token, refresh: res.body.refresh_token };
}

export const TEST_REDIS_URL = process.env.ROWSPACE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Two instances on one fresh database, talking through Redis on a channel prefix of their own (the multi-instance suites). */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }> {
  const database = await freshDatabase();
  const shared = { REDIS_URL: TEST_REDIS_URL, REDIS_CHANNEL_PREFIX: `rowspace-test-${randomBytes(6).toString('hex')}`, ...env };
  const a = await startApp(shared, database);
  const b = await startApp(shared, database).catch(async (error: unknown) => {
    await a.close();
    throw error;
  });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}
