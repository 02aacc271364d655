import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { Mailer } from '../src/core/mail/mailer';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { keyOf } from './support/tokens';

/** Sign-up, token-auth, refresh, verify and blacklist (baserow-rest.md §2.1–2.6, README decisions 1, 2, 8). */

const USER_KEYS = [
  'first_name',
  'username',
  'is_staff',
  'id',
  'language',
  'email_notification_frequency',
  'email_verified',
  'completed_onboarding',
  'completed_guided_tours',
];
const TOKEN_ANSWER_KEYS = ['token', 'access_token', 'refresh_token', 'user_session', 'user', 'permissions', 'user_notifications', 'active_licenses'];

function claims(jwt: string): Record<string, unknown> {
  const parts = jwt.split('.');
  expect(parts).toHaveLength(3);
  expect(JSON.parse(Buffer.from(parts[0], 'base64url').toString())).toMatchObject({ alg: 'HS256' });
  return JSON.parse(Buffer.from(parts[1], 'base64url').toString());
}

let seq = 0;
const uniqueEmail = (prefix = 'person') => `${prefix}${++seq}-${Date.now().toString(36)}@example.com`;

const required = [{ error: 'This field is required.', code: 'required' }];

describe('Users & auth: sign-up (§2.2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('makes the first account ever staff and later ones not, answering only {user} without authenticate', async () => {
    const first = await t.request('POST', '/api/user/', { body: { name: 'First', email: 'first@example.com', password: 'password123' } });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['user']);
    expect(Object.keys(first.body.user)).toEqual(USER_KEYS);
    expect(first.body.user).toEqual({
      first_name: 'First',
      username: 'first@example.com',
      is_staff: true,
      id: first.body.user.id,
      language: 'en',
      email_notification_frequency: 'instant',
      email_verified: false,
      completed_onboarding: false,
      completed_guided_tours: [],
    });
    const second = await t.request('POST', '/api/user/', {
      body: { name: 'Second', email: 'second@example.com', password: 'password123', authenticate: false },
    });
    expect(second.status).toBe(200);
    expect(Object.keys(second.body)).toEqual(['user']);
    expect(second.body.user.is_staff).toBe(false);
    expect(second.body.user.id).not.toBe(first.body.user.id);
  });

  it('answers tokens, session, permissions and notifications with authenticate true; the token works', async () => {
    const email = uniqueEmail();
    const res = await t.request('POST', '/api/user/', { body: { name: 'Tok', email, password: 'password123', authenticate: true } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...TOKEN_ANSWER_KEYS].sort());
    expect(res.body.token).toBe(res.body.access_token);
    expect(claims(res.body.access_token)).toMatchObject({ token_type: 'access', user_id: res.body.user.id });
    expect(claims(res.body.refresh_token)).toMatchObject({ token_type: 'refresh', user_id: res.body.user.id });
    expect(typeof res.body.user_session).toBe('string');
    expect(res.body.user_session.length).toBeGreaterThan(0);
    expect(res.body.user_notifications).toEqual({ unread_count: 0 });
    expect(res.body.permissions.map((p: { name: string }) => p.name)).toEqual(['core', 'setting_operation', 'staff', 'allow_if_template', 'member']);
    const list = await t.request('GET', '/api/workspaces/', { token: res.body.access_token });
    expect(list.status).toBe(200);
  });

  it('normalizes the e-mail (trim, lower case, NFKC) and refuses a duplicate in any spelling', async () => {
    // U+FF21 FULLWIDTH LATIN CAPITAL LETTER A becomes "a" under NFKC and lower-casing.
    const res = await t.request('POST', '/api/user/', {
      body: { name: 'Norma', email: '  \uFF21nna.Norm@Example.COM ', password: 'password123' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('anna.norm@example.com');
    for (const email of ['anna.norm@example.com', 'ANNA.NORM@EXAMPLE.COM', ' Anna.Norm@example.com']) {
      const dup = await t.request('POST', '/api/user/', { body: { name: 'Other', email, password: 'password123' } });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ error: 'ERROR_EMAIL_ALREADY_EXISTS', detail: '' });
    }
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: 'ANNA.norm@example.com ', password: 'password123' } });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(res.body.user.id);
  });

  it('stores language and name as given', async () => {
    const res = await t.request('POST', '/api/user/', {
      body: { name: '  Ingrid  ', email: uniqueEmail(), password: 'password123', language: 'nl', authenticate: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe('nl');
    expect(res.body.user.first_name).toBe('Ingrid');
    for (const language of ['en', 'fr', 'nl', 'de', 'es', 'it', 'pl', 'ko']) {
      const ok = await t.request('POST', '/api/user/', { body: { name: 'Lang', email: uniqueEmail('lang'), password: 'password123', language } });
      expect(ok.status).toBe(200);
      expect(ok.body.user.language).toBe(language);
    }
  });

  it('gives a new account the example workspace with its database', async () => {
    const user = await signUp(t, 'Grace');
    const workspaces = await t.request('GET', '/api/workspaces/', { token: user.token });
    expect(workspaces.status).toBe(200);
    expect(workspaces.body).toHaveLength(1);
    expect(workspaces.body[0]).toMatchObject({ name: "Grace's workspace", permissions: 'ADMIN' });
    const apps = await t.request('GET', '/api/applications/', { token: user.token });
    expect(apps.status).toBe(200);
    expect(apps.body).toHaveLength(1);
    expect(apps.body[0]).toMatchObject({ name: "Grace's company", type: 'database', workspace: { id: workspaces.body[0].id, name: "Grace's workspace" } });
  });

  it('accepts template_id (null or an id) and still creates the example workspace', async () => {
    for (const template_id of [null, 1]) {
      const res = await t.request('POST', '/api/user/', {
        body: { name: 'Tpl', email: uniqueEmail('tpl'), password: 'password123', template_id, authenticate: true },
      });
      expect(res.status).toBe(200);
      const workspaces = await t.request('GET', '/api/workspaces/', { token: res.body.access_token });
      expect(workspaces.body.map((w: { name: string }) => w.name)).toEqual(["Tpl's workspace"]);
    }
  });

  it('rejects name, email, password and language with the field rules and codes, creating nothing', async () => {
    const base = { name: 'Valid', email: uniqueEmail('bad'), password: 'password123' };
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: 'A' }, { name: [{ error: 'Ensure this field has at least 2 characters.', code: 'min_length' }] }],
      [{ name: 'x'.repeat(151) }, { name: [{ error: 'Ensure this field has no more than 150 characters.', code: 'max_length' }] }],
      [{ name: '' }, { name: [{ error: 'This field may not be blank.', code: 'blank' }] }],
      [{ name: null }, { name: [{ error: 'This field may not be null.', code: 'null' }] }],
      [{ name: ['Ada'] }, { name: [{ error: 'Not a valid string.', code: 'invalid' }] }],
      [{ email: 'not-an-email' }, { email: [{ error: 'Enter a valid email address.', code: 'invalid' }] }],
      [{ email: 42 }, { email: [{ error: 'Enter a valid email address.', code: 'invalid' }] }],
      [{ email: {} }, { email: [{ error: 'Not a valid string.', code: 'invalid' }] }],
      [
        { password: 'short' },
        { password: [{ error: 'This password is too short. It must contain at least 8 characters.', code: 'password_validation_failed' }] },
      ],
      [
        { password: 'p'.repeat(257) },
        { password: [{ error: 'This password is too long. It must not exceed 256 characters.', code: 'password_validation_failed' }] },
      ],
      [{ password: '' }, { password: [{ error: 'This field may not be blank.', code: 'blank' }] }],
      [
        { language: 'xx' },
        { language: [{ error: 'Only the following language keys are valid: en,fr,nl,de,es,it,pl,ko', code: 'invalid_language' }] },
      ],
      [{ authenticate: 'maybe' }, { authenticate: [{ error: 'Must be a valid boolean.', code: 'invalid' }] }],
      [{ template_id: 'abc' }, { template_id: [{ error: 'A valid integer is required.', code: 'invalid' }] }],
      [{ workspace_invitation_token: '' }, { workspace_invitation_token: [{ error: 'This field may not be blank.', code: 'blank' }] }],
    ];
    for (const [override, detail] of cases) {
      const res = await t.request('POST', '/api/user/', { body: { ...base, ...override } });
      expect({ override, status: res.status, body: res.body }).toEqual({ override, status: 400, body: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail } });
    }
    const missing = await t.request('POST', '/api/user/', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { name: required, email: required, password: required } });
    const list = await t.request('POST', '/api/user/', { body: [base] });
    expect(list.status).toBe(400);
    expect(list.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(Object.keys(list.body.detail)).toEqual(['non_field_errors']);
    // None of them created the account.
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: base.email, password: 'password123' } });
    expect(login.status).toBe(401);
  });

  it('accepts a password of exactly 8 and 256 characters and a name of 2 and 150', async () => {
    for (const [name, password] of [['Ab', '12345678'], ['x'.repeat(150), 'p'.repeat(256)]]) {
      const email = uniqueEmail('edge');
      const res = await t.request('POST', '/api/user/', { body: { name, email, password } });
      expect(res.status).toBe(200);
      expect(res.body.user.first_name).toBe(name);
      const login = await t.request('POST', '/api/user/token-auth/', { body: { email, password } });
      expect(login.status).toBe(200);
    }
  });

  it('ignores unknown keys in the body', async () => {
    const email = uniqueEmail('extra');
    const res = await t.request('POST', '/api/user/', {
      body: { name: 'Extra', email, password: 'password123', is_staff: true, id: 999, username: 'hacker@example.com', foo: 'bar' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ is_staff: false, username: email });
    expect(res.body.user.id).not.toBe(999);
  });

  it('415s a non-JSON body', async () => {
    const res = await t.request('POST', '/api/user/', { raw: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
  });
});

describe('Users & auth: sign-up through a workspace invitation (§2.2)', () => {
  let t: TestApp;
  let admin: SignedUp;
  let workspaceId: number;
  let mails: { to: string; text: string }[];

  beforeAll(async () => {
    t = await startApp();
    admin = await signUp(t, 'Admin');
    workspaceId = (await t.request('GET', '/api/workspaces/', { token: admin.token })).body[0].id;
    mails = [];
    jest.spyOn(t.app.get(Mailer), 'send').mockImplementation(async (mail) => {
      mails.push(mail);
    });
  });
  afterAll(() => t.close());

  async function invite(email: string): Promise<string> {
    mails.length = 0;
    const res = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: admin.token,
      body: { email, permissions: 'MEMBER', message: 'Join us', base_url: 'http://localhost:8000/invite' },
    });
    expect(res.status).toBe(200);
    expect(mails).toHaveLength(1);
    const match = /http:\/\/localhost:8000\/invite\/(\S+)/.exec(mails[0].text);
    expect(match).not.toBeNull();
    return match![1];
  }

  it('joins the invited workspace instead of creating the example one, verified and onboarded', async () => {
    const token = await invite('Invitee@Example.com');
    const res = await t.request('POST', '/api/user/', {
      body: { name: 'Invitee', email: 'invitee@example.com', password: 'password123', workspace_invitation_token: token, authenticate: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email_verified: true, completed_onboarding: true, is_staff: false });
    const workspaces = await t.request('GET', '/api/workspaces/', { token: res.body.access_token });
    expect(workspaces.body.map((w: { id: number; permissions: string }) => [w.id, w.permissions])).toEqual([[workspaceId, 'MEMBER']]);
    const apps = await t.request('GET', '/api/applications/', { token: res.body.access_token });
    expect(apps.body.map((a: { name: string }) => a.name)).toEqual(["Admin's company"]);
    // The invitation is used up.
    const pending = await t.request('GET', `/api/workspaces/invitations/workspace/${workspaceId}/`, { token: admin.token });
    expect(pending.body).toEqual([]);
  });

  it('refuses an invitation addressed to another e-mail, creating nothing', async () => {
    const token = await invite('someone@example.com');
    const res = await t.request('POST', '/api/user/', {
      body: { name: 'Intruder', email: 'intruder@example.com', password: 'password123', workspace_invitation_token: token },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERROR_GROUP_INVITATION_EMAIL_MISMATCH', detail: 'Your email address does not match with the invitation.' });
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: 'intruder@example.com', password: 'password123' } });
    expect(login.status).toBe(401);
  });

  it('answers BAD_TOKEN_SIGNATURE for a forged or tampered token', async () => {
    const token = await invite('tamper@example.com');
    for (const bad of ['INVALID', `${token}2`, token.slice(0, -3)]) {
      const res = await t.request('POST', '/api/user/', {
        body: { name: 'Tamper', email: 'tamper@example.com', password: 'password123', workspace_invitation_token: bad },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
    }
  });

  it('answers 404 for a valid token of a deleted invitation', async () => {
    const token = await invite('gone@example.com');
    const list = await t.request('GET', `/api/workspaces/invitations/workspace/${workspaceId}/`, { token: admin.token });
    const invitation = list.body.find((i: { email: string }) => i.email === 'gone@example.com');
    expect((await t.request('DELETE', `/api/workspaces/invitations/${invitation.id}/`, { token: admin.token })).status).toBe(204);
    const res = await t.request('POST', '/api/user/', {
      body: { name: 'Gone', email: 'gone@example.com', password: 'password123', workspace_invitation_token: token },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERROR_GROUP_INVITATION_DOES_NOT_EXIST', detail: 'The requested group invitation does not exist.' });
  });
});

describe('Users & auth: token-auth (§2.3, decision 1)', () => {
  let t: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    t = await startApp();
    user = await signUp(t, 'Login');
  });
  afterAll(() => t.close());

  it('signs in with email and with the legacy username key, answering Baserow\'s keys', async () => {
    for (const body of [{ email: user.email, password: user.password }, { username: user.email, password: user.password }]) {
      const res = await t.request('POST', '/api/user/token-auth/', { body });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...TOKEN_ANSWER_KEYS].sort());
      expect(res.body.token).toBe(res.body.access_token);
      expect(Object.keys(res.body.user)).toEqual(USER_KEYS);
      expect(res.body.user).toMatchObject({ id: user.id, username: user.email, first_name: 'Login', is_staff: true });
      expect(res.body.user_notifications).toEqual({ unread_count: 0 });
      expect(res.body.permissions).toEqual([
        { name: 'core', permissions: expect.arrayContaining(['list_workspaces']) },
        { name: 'setting_operation', permissions: { staff_only_operations: expect.any(Array), always_allowed_operations: expect.any(Array) } },
        { name: 'staff', permissions: { staff_only_operations: ['settings.update'], is_staff: true } },
        { name: 'allow_if_template', permissions: { allowed_operations_on_templates: expect.any(Array), workspace_template_ids: [] } },
        { name: 'member', permissions: false },
      ]);
      const me = await t.request('GET', '/api/workspaces/', { token: res.body.access_token });
      expect(me.status).toBe(200);
    }
  });

  it('issues real HS256 JWTs: 60 minute access and 7 day refresh tokens with the simplejwt claims', async () => {
    const before = Date.now() / 1000;
    const res = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
    const after = Date.now() / 1000;
    const access = claims(res.body.access_token);
    const refresh = claims(res.body.refresh_token);
    expect(Object.keys(access).sort()).toEqual(['exp', 'iat', 'jti', 'token_type', 'user_id']);
    // A sign-in's refresh token carries Baserow's verified_email_claim (read while verification is enforced).
    expect(Object.keys(refresh).sort()).toEqual(['exp', 'iat', 'jti', 'token_type', 'user_id', 'verified_email_claim']);
    expect(refresh.verified_email_claim).toBe('enforced');
    for (const c of [access, refresh]) {
      expect(c.user_id).toBe(user.id);
      expect(typeof c.jti).toBe('string');
      expect(c.iat as number).toBeGreaterThanOrEqual(Math.floor(before));
      expect(c.iat as number).toBeLessThanOrEqual(after + 1);
    }
    expect(access.token_type).toBe('access');
    expect(refresh.token_type).toBe('refresh');
    expect(access.jti).not.toBe(refresh.jti);
    expect(Math.round((access.exp as number) - (access.iat as number))).toBe(60 * 60);
    expect(Math.round((refresh.exp as number) - (refresh.iat as number))).toBe(7 * 24 * 3600);
  });

  it("hashes passwords with argon2id at OWASP's parameters, and still signs in with a hash of argon2's default cost", async () => {
    const db = t.app.get(DataSource);
    const [{ password_hash: hash }] = await db.query(`SELECT "password_hash" FROM "user" WHERE "id" = ${user.id}`);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const older = await argon2.hash('an older password', { type: argon2.argon2id });
    expect(older).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    const other = await signUp(t, 'Older');
    await db.query(`UPDATE "user" SET "password_hash" = '${older}' WHERE "id" = ${other.id}`);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: other.email, password: 'an older password' } })).status).toBe(200);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: other.email, password: other.password } })).status).toBe(401);
  });

  it('401s wrong credentials for a known and an unknown e-mail alike', async () => {
    for (const body of [
      { email: user.email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: user.password },
      { username: user.email, password: 'wrong-password' },
    ]) {
      const res = await t.request('POST', '/api/user/token-auth/', { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'ERROR_INVALID_CREDENTIALS', detail: 'No active account found with the given credentials.' });
    }
  });

  it('answers DRF-style 400 bodies for missing or invalid fields', async () => {
    const cases: [unknown, unknown][] = [
      [{}, { password: ['This field is required.'] }],
      [{ password: user.password }, { email: ['This field is required.'] }],
      [{ email: user.email }, { password: ['This field is required.'] }],
      [{ email: 'not-an-email', password: user.password }, { email: ['Enter a valid email address.'] }],
      [{ username: 'not-an-email', password: user.password }, { username: ['Enter a valid email address.'] }],
      [{ email: '', password: user.password }, { email: ['This field may not be blank.'] }],
      [{ email: null, password: user.password }, { email: ['This field may not be null.'] }],
      [{ email: user.email, password: '' }, { password: ['This field may not be blank.'] }],
      [{ email: user.email, password: null }, { password: ['This field may not be null.'] }],
      [{ email: user.email, password: ['x'] }, { password: ['Not a valid string.'] }],
      [{ email: 'bad', password: '' }, { email: ['Enter a valid email address.'], password: ['This field may not be blank.'] }],
    ];
    for (const [body, expected] of cases) {
      const res = await t.request('POST', '/api/user/token-auth/', { body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: expected });
    }
  });

  it('ignores unknown keys and normalizes the e-mail', async () => {
    const res = await t.request('POST', '/api/user/token-auth/', {
      body: { email: `  ${user.email.toUpperCase()} `, password: user.password, remember: true, user_id: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });
});

describe('Users & auth: token lifetimes are configurable (decision 1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ ACCESS_TOKEN_LIFETIME_MINUTES: '5', REFRESH_TOKEN_LIFETIME_HOURS: '2' });
  });
  afterAll(() => t.close());

  it('uses ACCESS_TOKEN_LIFETIME_MINUTES and REFRESH_TOKEN_LIFETIME_HOURS', async () => {
    const user = await signUp(t);
    const res = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
    const access = claims(res.body.access_token);
    const refresh = claims(res.body.refresh_token);
    expect(Math.round((access.exp as number) - (access.iat as number))).toBe(5 * 60);
    expect(Math.round((refresh.exp as number) - (refresh.iat as number))).toBe(2 * 3600);
    const refreshed = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: res.body.refresh_token } });
    const again = claims(refreshed.body.access_token);
    expect(Math.round((again.exp as number) - (again.iat as number))).toBe(5 * 60);
  });

  it('rejects an expired access token with ERROR_INVALID_ACCESS_TOKEN', async () => {
    const user = await signUp(t);
    const { JwtService } = await import('@nestjs/jwt');
    const expired = t.app.get(JwtService).sign(
      { token_type: 'access', exp: Math.floor(Date.now() / 1000) - 10, iat: Math.floor(Date.now() / 1000) - 100, jti: 'x'.repeat(32), user_id: user.id },
      { algorithm: 'HS256', secret: keyOf(t, 'jwt') },
    );
    const res = await t.request('GET', '/api/workspaces/', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Access token is expired or invalid.', error: 'ERROR_INVALID_ACCESS_TOKEN' });
  });
});

describe('Users & auth: failed login limits (decision 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ LOGIN_MAX_FAILURES_PER_EMAIL: '3', LOGIN_MAX_FAILURES_PER_IP: '50' });
  });
  afterAll(() => t.close());

  const tooMany = (res: { status: number; body: any }) => {
    expect(res.status).toBe(429);
    expect(Object.keys(res.body)).toEqual(['error', 'detail']);
    expect(res.body.error).toBe('ERROR_TOO_MANY_LOGIN_ATTEMPTS');
    expect(typeof res.body.detail).toBe('string');
  };

  it('never limits successful logins', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 15; i += 1) {
      const res = await t.request('POST', '/api/user/token-auth/', { body: { username: user.email, password: user.password } });
      expect(res.status).toBe(200);
    }
  });

  it('limits failures per e-mail, without counting malformed requests', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 3; i += 1) {
      expect((await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: '' } })).status).toBe(400);
    }
    for (let i = 0; i < 3; i += 1) {
      const res = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: 'wrong-password' } });
      expect(res.status).toBe(401);
    }
    tooMany(await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: 'wrong-password' } }));
    // The same address in another spelling is the same counter.
    tooMany(await t.request('POST', '/api/user/token-auth/', { body: { email: user.email.toUpperCase(), password: 'wrong-password' } }));
  });

  it('forgets an e-mail\'s failures after a successful login', async () => {
    const user = await signUp(t);
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 2; i += 1) {
        const res = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: 'wrong-password' } });
        expect(res.status).toBe(401);
      }
      const ok = await t.request('POST', '/api/user/token-auth/', { body: { email: user.email, password: user.password } });
      expect(ok.status).toBe(200);
    }
  });
});

describe('Users & auth: failed login limit per IP (decision 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ LOGIN_MAX_FAILURES_PER_EMAIL: '100', LOGIN_MAX_FAILURES_PER_IP: '4' });
  });
  afterAll(() => t.close());

  it('limits failures across e-mails from one address', async () => {
    for (let i = 0; i < 4; i += 1) {
      const res = await t.request('POST', '/api/user/token-auth/', { body: { email: `stranger${i}@example.com`, password: 'wrong-password' } });
      expect(res.status).toBe(401);
    }
    const res = await t.request('POST', '/api/user/token-auth/', { body: { email: 'stranger99@example.com', password: 'wrong-password' } });
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('ERROR_TOO_MANY_LOGIN_ATTEMPTS');
  });
});

describe('Users & auth: refresh, verify, blacklist (§2.4–2.6)', () => {
  let t: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    t = await startApp();
    user = await signUp(t, 'Refresher');
  });
  afterAll(() => t.close());

  const invalidRefresh = { error: 'ERROR_INVALID_REFRESH_TOKEN', detail: 'Refresh token is expired or invalid.' };

  it('refreshes with refresh_token or legacy token, without a new refresh token', async () => {
    for (const key of ['refresh_token', 'token']) {
      const res = await t.request('POST', '/api/user/token-refresh/', { body: { [key]: user.refresh } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'active_licenses', 'permissions', 'token', 'user', 'user_notifications']);
      expect(res.body.token).toBe(res.body.access_token);
      expect(claims(res.body.access_token)).toMatchObject({ token_type: 'access', user_id: user.id });
      expect(Object.keys(res.body.user)).toEqual(USER_KEYS);
      expect(res.body.user.id).toBe(user.id);
      expect(res.body.permissions.map((p: { name: string }) => p.name)).toEqual(['core', 'setting_operation', 'staff', 'allow_if_template', 'member']);
      expect(res.body.user_notifications).toEqual({ unread_count: 0 });
      expect((await t.request('GET', '/api/workspaces/', { token: res.body.access_token })).status).toBe(200);
    }
  });

  it('401s an access token, garbage, a foreign signature and a missing token on refresh', async () => {
    const { JwtService } = await import('@nestjs/jwt');
    const foreign = t.app
      .get(JwtService)
      .sign({ token_type: 'refresh', exp: Math.floor(Date.now() / 1000) + 3600, iat: Date.now() / 1000, jti: 'f'.repeat(32), user_id: user.id }, {
        algorithm: 'HS256',
        secret: 'another-secret-that-is-long-enough',
      });
    for (const body of [{ refresh_token: user.token }, { refresh_token: 'garbage' }, { refresh_token: foreign }, {}, { refresh_token: 12 }]) {
      const res = await t.request('POST', '/api/user/token-refresh/', { body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 401, answer: invalidRefresh });
    }
  });

  it('answers DRF-style 400s for wrong-typed refresh and verify bodies', async () => {
    for (const path of ['/api/user/token-refresh/', '/api/user/token-verify/']) {
      const res = await t.request('POST', path, { body: { refresh_token: ['x'] } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ refresh_token: ['Not a valid string.'] });
    }
    const missing = await t.request('POST', '/api/user/token-verify/', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ refresh_token: ['This field is required.'] });
  });

  it('verifies a refresh token, answering user data without tokens', async () => {
    const res = await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: user.refresh } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['active_licenses', 'permissions', 'user', 'user_notifications']);
    expect(res.body.user.id).toBe(user.id);
    const access = await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: user.token } });
    expect(access.status).toBe(401);
    expect(access.body).toEqual(invalidRefresh);
  });

  it('blacklists a refresh token: 204, then refresh and verify 401, and blacklisting again 400', async () => {
    const other = await signUp(t);
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: other.email, password: other.password } });
    const res = await t.request('POST', '/api/user/token-blacklist/', { body: { refresh_token: other.refresh } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const path of ['/api/user/token-refresh/', '/api/user/token-verify/']) {
      const after = await t.request('POST', path, { body: { refresh_token: other.refresh } });
      expect(after.status).toBe(401);
      expect(after.body).toEqual(invalidRefresh);
    }
    const again = await t.request('POST', '/api/user/token-blacklist/', { body: { refresh_token: other.refresh } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'ERROR_REFRESH_TOKEN_ALREADY_BLACKLISTED', detail: 'The provided refresh token is already blacklisted.' });
    // Only that token: another session of the same user still refreshes.
    const second = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: login.body.refresh_token } });
    expect(second.status).toBe(200);
  });

  it('validates the blacklist body and 401s tokens that are not refresh tokens', async () => {
    const missing = await t.request('POST', '/api/user/token-blacklist/', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { refresh_token: required } });
    const wrongType = await t.request('POST', '/api/user/token-blacklist/', { body: { refresh_token: { a: 1 } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { refresh_token: [{ error: 'Not a valid string.', code: 'invalid' }] } });
    for (const refresh_token of [user.token, 'garbage']) {
      const res = await t.request('POST', '/api/user/token-blacklist/', { body: { refresh_token } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(invalidRefresh);
    }
    // None of that touched the user's own refresh token.
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: user.refresh } })).status).toBe(200);
  });
});
