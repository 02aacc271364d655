import { freshDatabase, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { download, pngImage, startS3, uploadFile } from './support/files';
import { LoopbackSmtp, startSmtp } from './support/smtp';

/**
 * An instance configured only with Baserow's variable names (src/core/config/baserow-names.table.ts)
 * sends mail, stores files and reaches PostgreSQL and Redis as one configured with Rowspace's.
 */

let smtp: LoopbackSmtp;

beforeAll(async () => {
  // A loopback server without STARTTLS: plain SMTP works, a client that requires TLS is refused.
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

/** Asks for a password reset mail to `email` (the request answers once the mail was handed to SMTP or refused). */
async function askReset(t: TestApp, email: string): Promise<void> {
  const res = await t.request('POST', '/api/user/send-reset-password-email/', { body: { email, base_url: 'http://localhost:8000/forgot-password' } });
  expect(res.status).toBe(204);
}

describe(`Baserow's configuration names (${TEST_DB})`, () => {
  it('sends a mail through the SMTP server EMAIL_SMTP, EMAIL_SMTP_HOST and EMAIL_SMTP_PORT name, from FROM_EMAIL', async () => {
    const t = await startApp({ EMAIL_SMTP: 'true', EMAIL_SMTP_HOST: '127.0.0.1', EMAIL_SMTP_PORT: String(smtp.port), FROM_EMAIL: 'baserow@example.com' });
    try {
      expect(t.config.smtp).toMatchObject({ host: '127.0.0.1', port: smtp.port, secure: false, requireTls: false });
      expect(t.config.unusedSettings).toEqual([]);
      const user = await signUp(t, 'Mailed');
      await askReset(t, user.email);
      const mail = smtp.received.find((m) => m.to.includes(user.email));
      expect(mail?.from).toBe('baserow@example.com');
      expect(mail?.raw).toMatch(/^Subject: Reset your password$/m);
      // Quoted-printable: soft line breaks joined.
      expect(mail?.raw.replace(/=\r?\n/g, '')).toContain('http://localhost:8000/forgot-password/');
    } finally {
      await t.close();
    }
  });

  it('with EMAIL_SMTP_USE_TLS sends nothing to a server that offers no STARTTLS; with EMAIL_SMTP off it only logs', async () => {
    const envs: Record<string, string>[] = [
      { EMAIL_SMTP: 'true', EMAIL_SMTP_HOST: '127.0.0.1', EMAIL_SMTP_PORT: String(smtp.port), EMAIL_SMTP_USE_TLS: 'true' },
      { EMAIL_SMTP: 'false', EMAIL_SMTP_HOST: '127.0.0.1', EMAIL_SMTP_PORT: String(smtp.port) },
    ];
    for (const env of envs) {
      const t = await startApp(env);
      try {
        const user = await signUp(t, 'Unmailed');
        await askReset(t, user.email);
        expect(smtp.received.filter((m) => m.to.includes(user.email))).toEqual([]);
        expect(t.config.smtp === null).toBe(env.EMAIL_SMTP === 'false');
      } finally {
        await t.close();
      }
    }
  });

  it('stores files in the S3 bucket AWS_STORAGE_BUCKET_NAME, AWS_S3_ENDPOINT_URL and the AWS_* keys name, behind signed links', async () => {
    const s3 = await startS3();
    const t = await startApp({
      AWS_STORAGE_BUCKET_NAME: s3.env.S3_BUCKET,
      AWS_S3_ENDPOINT_URL: s3.env.S3_ENDPOINT,
      AWS_S3_REGION_NAME: s3.env.S3_REGION,
      AWS_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
      AWS_S3_ADDRESSING_STYLE: 'path',
      AWS_QUERYSTRING_EXPIRE: '120',
    });
    try {
      expect(t.config.s3).toMatchObject({ bucket: 'rowspace', endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, signedUrlExpirySeconds: 120, publicUrl: null });
      const user = await signUp(t, 'Uploader');
      const png = await pngImage(40, 30);
      const res = await uploadFile(t, `JWT ${user.token}`, 'photo.png', png, { type: 'image/png' });
      expect(res.status).toBe(200);
      const url = new URL(res.body.url as string);
      expect(`${url.origin}${url.pathname}`).toBe(`${s3.env.S3_ENDPOINT}/rowspace/user_files/${res.body.name}`);
      expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
      const file = await download(t, res.body.url as string);
      expect(file.status).toBe(200);
      expect(file.body.equals(png)).toBe(true);
    } finally {
      await t.close();
      await s3.close();
    }
  });

  (TEST_DB === 'postgres' ? it : it.skip)('reaches PostgreSQL through DATABASE_HOST, _PORT, _NAME, _USER and Redis through REDIS_HOST and REDIS_PORT', async () => {
    const db = await freshDatabase();
    const pg = new URL(db.env.DATABASE_URL);
    const t = await startApp(
      {
        DATABASE_URL: '',
        DATABASE_HOST: pg.hostname,
        DATABASE_PORT: pg.port || '5432',
        DATABASE_NAME: pg.pathname.slice(1),
        DATABASE_USER: decodeURIComponent(pg.username),
        // Unset (trust authentication here): Baserow's default password, baserow, is sent and ignored.
        ...(pg.password ? { DATABASE_PASSWORD: decodeURIComponent(pg.password) } : {}),
        REDIS_HOST: '127.0.0.1',
        REDIS_PORT: '6379',
      },
      db,
    );
    try {
      expect(t.config.databaseUrl).toBe(`postgresql://${pg.username}:${pg.password || 'baserow'}@${pg.hostname}:${pg.port || '5432'}${pg.pathname}`);
      expect(t.config.redisUrl).toBe('redis://127.0.0.1:6379/0');
      const staff = await signUp(t, 'Staff');
      const health = await t.request('GET', '/api/_health/full/', { token: staff.token });
      expect(health.status).toBe(200);
      expect(health.body.checks).toMatchObject({ DatabaseBackend: 'working', RedisHealthCheck: 'working' });
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
