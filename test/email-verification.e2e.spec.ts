import { randomBytes } from 'node:crypto';
import { Signer } from '../src/core/signing/signer';
import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { LoopbackSmtp, startSmtp } from './support/smtp';

/**
 * E-mail verification (Baserow's `send-verify-email` and `verify-email`, and the
 * `email_verification` setting) with the mails caught by a real SMTP server on loopback.
 */

describe(`e-mail verification (${TEST_DB})`, () => {
  let smtp: LoopbackSmtp;
  let t: TestApp;
  let staff: SignedUp;

  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email) && m.subject === 'Please confirm your e-mail address');
  async function linkTokenFor(email: string, count = 1): Promise<string> {
    const deadline = Date.now() + 10_000;
    while (mailsTo(email).length < count) {
      if (Date.now() > deadline) throw new Error(`no verification mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const text = mailsTo(email)[count - 1].text;
    const match = /https?:\/\/\S+\/verify-email-address\/(\S+)/.exec(text);
    if (!match) throw new Error(`no link in ${text}`);
    return match[1];
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  const setVerification = async (value: string) => {
    const res = await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { email_verification: value } });
    expect(res.status).toBe(200);
  };
  const newEmail = () => `verify-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      FROM_EMAIL: 'rowspace@example.com',
      PUBLIC_URL: 'http://rowspace.test',
      BASEROW_SEND_VERIFY_EMAIL_RATE_LIMIT: '3/h',
      RATE_LIMIT_REQUESTS_PER_USER: '0',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
    });
    staff = await signUp(t, 'Staff');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails a link on request, which verifies the address and signs the anonymous caller in', async () => {
    const user = await signUp(t, 'Verifier');
    await settle();
    expect(mailsTo(user.email)).toHaveLength(0);
    expect((await t.request('POST', '/api/user/send-verify-email/', { body: { email: user.email.toUpperCase() } })).status).toBe(204);
    const token = await linkTokenFor(user.email);
    expect(mailsTo(user.email)[0].text).toContain('http://rowspace.test/verify-email-address/');
    const verified = await t.request('POST', '/api/user/verify-email/', { body: { token } });
    expect(verified.status).toBe(200);
    expect(Object.keys(verified.body).sort()).toEqual(['access_token', 'active_licenses', 'permissions', 'refresh_token', 'token', 'user', 'user_notifications', 'user_session']);
    expect(verified.body.user).toMatchObject({ id: user.id, email_verified: true });
    expect((await t.request('GET', '/api/workspaces/', { token: verified.body.access_token })).status).toBe(200);
    const again = await t.request('POST', '/api/user/verify-email/', { body: { token } });
    expect([again.status, again.body]).toEqual([400, { error: 'ERROR_EMAIL_ALREADY_VERIFIED', detail: "The user's email is verified already." }]);
    // A verified address is not mailed again; an unknown one answers the same.
    expect((await t.request('POST', '/api/user/send-verify-email/', { body: { email: user.email } })).status).toBe(204);
    expect((await t.request('POST', '/api/user/send-verify-email/', { body: { email: newEmail() } })).status).toBe(204);
    await settle();
    expect(mailsTo(user.email)).toHaveLength(1);
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
    expect(signIn.body.user.email_verified).toBe(true);
  });

  it('mails one user at most BASEROW_SEND_VERIFY_EMAIL_RATE_LIMIT links, answering the same past it', async () => {
    const user = await signUp(t, 'Often');
    for (let i = 0; i < 5; i++) expect((await t.request('POST', '/api/user/send-verify-email/', { body: { email: user.email } })).status).toBe(204);
    await linkTokenFor(user.email, 3);
    await settle();
    expect(mailsTo(user.email)).toHaveLength(3);
  });

  it('answers a signed-in caller with the address only', async () => {
    const user = await signUp(t, 'Signed in');
    await t.request('POST', '/api/user/send-verify-email/', { body: { email: user.email } });
    const res = await t.request('POST', '/api/user/verify-email/', { token: user.token, body: { token: await linkTokenFor(user.email) } });
    expect([res.status, res.body]).toEqual([200, { email: user.email }]);
    const badJwt = await t.request('POST', '/api/user/verify-email/', { token: 'not-a-jwt', body: { token: 'x' } });
    expect(badJwt.status).toBe(401);
  });

  it('refuses bad, expired and stale tokens, and bad bodies', async () => {
    const user = await signUp(t, 'Stale');
    const signer = t.app.get(Signer);
    const invalid = { error: 'ERROR_INVALID_VERIFICATION_TOKEN', detail: 'A valid verification token is required.' };
    const cases = [
      'garbage',
      signer.sign('verify_email', { user_id: user.id, email: user.email }, -10),
      signer.sign('reset_password', { user_id: user.id, email: user.email }, 3600),
      signer.sign('verify_email', { user_id: 999999, email: user.email }, 3600),
      signer.sign('verify_email', { user_id: user.id, email: 'someone-else@example.com' }, 3600),
    ];
    for (const token of cases) {
      const res = await t.request('POST', '/api/user/verify-email/', { body: { token } });
      expect([res.status, res.body]).toEqual([400, invalid]);
    }
    // The link of an address that has changed since no longer verifies.
    await t.request('POST', '/api/user/send-verify-email/', { body: { email: user.email } });
    const token = await linkTokenFor(user.email);
    const changed = newEmail();
    expect((await t.request('PATCH', `/api/admin/users/${user.id}/`, { token: staff.token, body: { username: changed } })).status).toBe(200);
    expect((await t.request('POST', '/api/user/verify-email/', { body: { token } })).body).toEqual(invalid);
    for (const [path, body] of [['send-verify-email', { email: 'not an address' }], ['send-verify-email', {}], ['verify-email', {}], ['verify-email', { token: 5.5 }]] as const) {
      const res = await t.request('POST', `/api/user/${path}/`, { body });
      if (path === 'verify-email' && 'token' in body) expect([res.status, res.body]).toEqual([400, invalid]);
      else expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERROR_REQUEST_BODY_VALIDATION']);
    }
  });

  it('mails new accounts when verification is recommended, and still lets them in', async () => {
    await setVerification('recommended');
    const user = await signUp(t, 'Recommended');
    await linkTokenFor(user.email);
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.email_verified).toBe(false);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: signIn.body.refresh_token } })).status).toBe(200);
    await setVerification('no_verification');
  });

  it('when enforced: no tokens at sign-up, sign-in and refresh refused until the mailed link is followed (staff excepted)', async () => {
    const before = await signUp(t, 'Before');
    await setVerification('enforced');
    const email = newEmail();
    const created = await t.request('POST', '/api/user/', { body: { name: 'Enforced', email, password: 'password123', authenticate: true } });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['user']);
    expect(created.body.user.email_verified).toBe(false);
    await linkTokenFor(email, 1);

    const refused = await t.request('POST', '/api/user/token-auth/', { body: { email, password: 'password123' } });
    expect([refused.status, refused.body]).toEqual([401, { error: 'ERROR_EMAIL_VERIFICATION_REQUIRED', detail: 'Email address has to be verified first.' }]);
    // Each refused sign-in mails a new link.
    const token = await linkTokenFor(email, 2);
    // A session from before the setting changed is refused at its next refresh.
    const refresh = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: before.refresh } });
    expect([refresh.status, refresh.body.error]).toEqual([401, 'ERROR_EMAIL_VERIFICATION_REQUIRED']);
    expect((await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: before.refresh } })).body.error).toBe('ERROR_EMAIL_VERIFICATION_REQUIRED');
    // Staff signs in unverified (and is mailed).
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: staff.email, password: staff.password } })).status).toBe(200);
    await linkTokenFor(staff.email);

    const verified = await t.request('POST', '/api/user/verify-email/', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email_verified).toBe(true);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email, password: 'password123' } })).status).toBe(200);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: verified.body.refresh_token } })).status).toBe(200);
    await setVerification('no_verification');
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: before.refresh } })).status).toBe(200);
  });
});
