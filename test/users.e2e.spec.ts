import { JwtService } from '@nestjs/jwt';
import { Mailer } from '../src/core/mail/mailer';
import { Signer } from '../src/core/signing/signer';
import { UsersService } from '../src/users/users.service';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { keyOf } from './support/tokens';

/** The account itself: profile, password, reset by mail, deletion, dashboard (baserow-rest.md §2.7). */

const invalidAccess = { detail: 'Access token is expired or invalid.', error: 'ERROR_INVALID_ACCESS_TOKEN' };
const invalidRefresh = { error: 'ERROR_INVALID_REFRESH_TOKEN', detail: 'Refresh token is expired or invalid.' };
const required = [{ error: 'This field is required.', code: 'required' }];
const notAuthenticated = { detail: 'Authentication credentials were not provided.' };

function payloadOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
}

async function login(t: TestApp, email: string, password: string) {
  return t.request('POST', '/api/user/token-auth/', { body: { email, password } });
}

async function me(t: TestApp, user: SignedUp) {
  const res = await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: user.refresh } });
  expect(res.status).toBe(200);
  return res.body.user;
}

describe('Users: account (§2.7 PATCH /api/user/account/)', () => {
  let t: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    t = await startApp();
    user = await signUp(t, 'Nikolas');
  });
  afterAll(() => t.close());

  it('updates the given keys and answers the whole account, as Baserow\'s AccountSerializer', async () => {
    const res = await t.request('PATCH', '/api/user/account/', { token: user.token, body: { first_name: 'NewName', language: 'fr' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['first_name', 'language', 'email_notification_frequency', 'completed_onboarding', 'completed_guided_tours']);
    expect(res.body).toEqual({ first_name: 'NewName', language: 'fr', email_notification_frequency: 'instant', completed_onboarding: false, completed_guided_tours: [] });
    const one = await t.request('PATCH', '/api/user/account/', { token: user.token, body: { email_notification_frequency: 'daily' } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ first_name: 'NewName', language: 'fr', email_notification_frequency: 'daily', completed_onboarding: false, completed_guided_tours: [] });
    const rest = await t.request('PATCH', '/api/user/account/', {
      token: user.token,
      body: { completed_onboarding: true, completed_guided_tours: ['sidebar', 'database'] },
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      first_name: 'NewName',
      language: 'fr',
      email_notification_frequency: 'daily',
      completed_onboarding: true,
      completed_guided_tours: ['sidebar', 'database'],
    });
    expect(await me(t, user)).toMatchObject({
      first_name: 'NewName',
      language: 'fr',
      email_notification_frequency: 'daily',
      completed_onboarding: true,
      completed_guided_tours: ['sidebar', 'database'],
    });
    const login1 = await login(t, user.email, user.password);
    expect(login1.body.user).toMatchObject({ first_name: 'NewName', language: 'fr', completed_guided_tours: ['sidebar', 'database'] });
  });

  it('accepts every e-mail notification frequency', async () => {
    for (const email_notification_frequency of ['instant', 'daily', 'weekly', 'never']) {
      const res = await t.request('PATCH', '/api/user/account/', { token: user.token, body: { email_notification_frequency } });
      expect(res.status).toBe(200);
      expect(res.body.email_notification_frequency).toBe(email_notification_frequency);
    }
  });

  it('adds sent guided tours to the stored ones (in order, once each) and answers the whole list, as Baserow', async () => {
    const fresh = await signUp(t);
    const patch = (completed_guided_tours: string[]) =>
      t.request('PATCH', '/api/user/account/', { token: fresh.token, body: { completed_guided_tours } });
    const tours = async (sent: string[]) => (await patch(sent)).body.completed_guided_tours;
    expect(await tours(['database'])).toEqual(['database']);
    expect(await tours(['sidebar', 'database', 'sidebar'])).toEqual(['database', 'sidebar']);
    // The web client sends only the tour it just finished; nothing is ever taken away.
    expect(await tours([])).toEqual(['database', 'sidebar']);
    expect(await tours(['builder'])).toEqual(['database', 'sidebar', 'builder']);
    expect((await me(t, fresh)).completed_guided_tours).toEqual(['database', 'sidebar', 'builder']);
    // The other keys are replaced.
    const other = await t.request('PATCH', '/api/user/account/', { token: fresh.token, body: { completed_onboarding: false, first_name: 'Again' } });
    expect(other.body).toMatchObject({ completed_onboarding: false, first_name: 'Again', completed_guided_tours: ['database', 'sidebar', 'builder'] });
    expect(await me(t, fresh)).toMatchObject({ completed_onboarding: false, first_name: 'Again', completed_guided_tours: ['database', 'sidebar', 'builder'] });
  });

  it('loses no tour when several PATCHes arrive at once', async () => {
    const fresh = await signUp(t);
    const tours = Array.from({ length: 12 }, (_, i) => `tour${i}`);
    const answers = await Promise.all(
      tours.map((tour) => t.request('PATCH', '/api/user/account/', { token: fresh.token, body: { completed_guided_tours: [tour] } })),
    );
    expect(answers.map((res) => res.status)).toEqual(tours.map(() => 200));
    expect([...(await me(t, fresh)).completed_guided_tours].sort()).toEqual([...tours].sort());
  });

  it('400s an empty body and a body with only unknown keys', async () => {
    for (const body of [{}, { foo: 'bar', username: 'x@example.com', is_staff: true }]) {
      const res = await t.request('PATCH', '/api/user/account/', { token: user.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'ERROR_REQUEST_BODY_VALIDATION',
        detail: {
          non_field_errors: [
            {
              error:
                'At least one of the fields first_name, language, email_notification_frequency, completed_onboarding, completed_guided_tours must be provided.',
              code: 'invalid',
            },
          ],
        },
      });
    }
    expect((await me(t, user)).is_staff).toBe(true);
  });

  it('answers the detail tree for bad values and changes nothing', async () => {
    const before = await me(t, user);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ first_name: 'A' }, { first_name: [{ error: 'Ensure this field has at least 2 characters.', code: 'min_length' }] }],
      [{ first_name: 'x'.repeat(151) }, { first_name: [{ error: 'Ensure this field has no more than 150 characters.', code: 'max_length' }] }],
      [{ first_name: null }, { first_name: [{ error: 'This field may not be null.', code: 'null' }] }],
      [{ first_name: {} }, { first_name: [{ error: 'Not a valid string.', code: 'invalid' }] }],
      [
        { language: 'invalid' },
        { language: [{ error: 'Only the following language keys are valid: en,fr,nl,de,es,it,pl,ko', code: 'invalid_language' }] },
      ],
      [{ email_notification_frequency: 'hourly' }, { email_notification_frequency: [{ error: '"hourly" is not a valid choice.', code: 'invalid_choice' }] }],
      [{ completed_onboarding: 'perhaps' }, { completed_onboarding: [{ error: 'Must be a valid boolean.', code: 'invalid' }] }],
      [
        { completed_guided_tours: 'sidebar' },
        { completed_guided_tours: [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }] },
      ],
      [{ completed_guided_tours: ['ok', {}] }, { completed_guided_tours: { '1': [{ error: 'Not a valid string.', code: 'invalid' }] } }],
      // One bad key fails the whole request, the good key included.
      [{ first_name: 'Valid name', language: 'xx' }, { language: [{ error: 'Only the following language keys are valid: en,fr,nl,de,es,it,pl,ko', code: 'invalid_language' }] }],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('PATCH', '/api/user/account/', { token: user.token, body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail } });
    }
    expect(await me(t, user)).toEqual(before);
  });

  it('needs authentication', async () => {
    const res = await t.request('PATCH', '/api/user/account/', { body: { first_name: 'Nobody' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(notAuthenticated);
  });
});

describe('Users: change password (§2.7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('changes the password; older tokens stop working while a login right after works at once', async () => {
    const user = await signUp(t);
    const otherSession = await login(t, user.email, user.password);
    const res = await t.request('POST', '/api/user/change-password/', {
      token: user.token,
      body: { old_password: user.password, new_password: 'brand-new-password' },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const token of [user.token, otherSession.body.access_token]) {
      const old = await t.request('GET', '/api/workspaces/', { token });
      expect(old.status).toBe(401);
      expect(old.body).toEqual(invalidAccess);
    }
    for (const refresh_token of [user.refresh, otherSession.body.refresh_token]) {
      const old = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token } });
      expect(old.status).toBe(401);
      expect(old.body).toEqual(invalidRefresh);
    }
    expect((await login(t, user.email, user.password)).status).toBe(401);
    const fresh = await login(t, user.email, 'brand-new-password');
    expect(fresh.status).toBe(200);
    expect((await t.request('GET', '/api/workspaces/', { token: fresh.body.access_token })).status).toBe(200);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: fresh.body.refresh_token } })).status).toBe(200);
  });

  it('400s a wrong old password and keeps the password and the tokens', async () => {
    const user = await signUp(t);
    for (const old_password of ['not-my-password', 'x'.repeat(300)]) {
      const res = await t.request('POST', '/api/user/change-password/', { token: user.token, body: { old_password, new_password: 'another-password' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'ERROR_INVALID_OLD_PASSWORD', detail: '' });
    }
    expect((await t.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    expect((await login(t, user.email, user.password)).status).toBe(200);
    expect((await login(t, user.email, 'another-password')).status).toBe(401);
  });

  it('validates the body and changes nothing', async () => {
    const user = await signUp(t);
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { old_password: required, new_password: required }],
      [{ old_password: user.password }, { new_password: required }],
      [
        { old_password: user.password, new_password: 'short' },
        { new_password: [{ error: 'This password is too short. It must contain at least 8 characters.', code: 'password_validation_failed' }] },
      ],
      [
        { old_password: user.password, new_password: 'n'.repeat(257) },
        { new_password: [{ error: 'This password is too long. It must not exceed 256 characters.', code: 'password_validation_failed' }] },
      ],
      [{ old_password: ['x'], new_password: 'long-enough-password' }, { old_password: [{ error: 'Not a valid string.', code: 'invalid' }] }],
      [{ old_password: user.password, new_password: null }, { new_password: [{ error: 'This field may not be null.', code: 'null' }] }],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', '/api/user/change-password/', { token: user.token, body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail } });
    }
    expect((await t.request('GET', '/api/workspaces/', { token: user.token })).status).toBe(200);
    expect((await login(t, user.email, user.password)).status).toBe(200);
    const anon = await t.request('POST', '/api/user/change-password/', { body: { old_password: user.password, new_password: 'whatever-password' } });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual(notAuthenticated);
  });
});

describe('Users: password reset by e-mail (§2.7)', () => {
  let t: TestApp;
  let mails: { to: string; subject: string; text: string }[];
  beforeAll(async () => {
    t = await startApp();
    mails = [];
    jest.spyOn(t.app.get(Mailer), 'send').mockImplementation(async (mail) => {
      mails.push(mail);
    });
  });
  afterAll(() => t.close());

  async function resetToken(email: string, baseUrl = 'http://localhost:8000/reset-password'): Promise<string> {
    mails.length = 0;
    const res = await t.request('POST', '/api/user/send-reset-password-email/', { body: { email, base_url: baseUrl } });
    expect(res.status).toBe(204);
    expect(mails).toHaveLength(1);
    const match = new RegExp(`${baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/(\\S+)`).exec(mails[0].text);
    expect(match).not.toBeNull();
    return match![1];
  }

  it('mails a reset link to a known address (in any spelling), and nothing for an unknown one', async () => {
    const user = await signUp(t);
    mails.length = 0;
    const unknown = await t.request('POST', '/api/user/send-reset-password-email/', {
      body: { email: 'unknown@example.com', base_url: 'http://localhost:8000/reset' },
    });
    expect(unknown.status).toBe(204);
    expect(mails).toHaveLength(0);
    const res = await t.request('POST', '/api/user/send-reset-password-email/', {
      body: { email: ` ${user.email.toUpperCase()} `, base_url: 'http://localhost:3000/reset' },
    });
    expect(res.status).toBe(204);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe(user.email);
    expect(mails[0].text).toContain('http://localhost:3000/reset/');
  });

  it('refuses a base_url on another host with ERROR_HOSTNAME_IS_NOT_ALLOWED and sends nothing', async () => {
    const user = await signUp(t);
    mails.length = 0;
    const res = await t.request('POST', '/api/user/send-reset-password-email/', { body: { email: user.email, base_url: 'http://evil.example.org/reset' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERROR_HOSTNAME_IS_NOT_ALLOWED', detail: 'Only the hostname of the web frontend is allowed.' });
    expect(mails).toHaveLength(0);
  });

  it('validates the send body', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { email: required, base_url: required }],
      [{ email: 'nope', base_url: 'http://localhost:8000' }, { email: [{ error: 'Enter a valid email address.', code: 'invalid' }] }],
      [{ email: 'a@example.com', base_url: 'not a url' }, { base_url: [{ error: 'Enter a valid URL.', code: 'invalid' }] }],
      [{ email: 'a@example.com', base_url: 12 }, { base_url: [{ error: 'Enter a valid URL.', code: 'invalid' }] }],
      [{ email: ['a@example.com'], base_url: 'http://localhost:8000' }, { email: [{ error: 'Not a valid string.', code: 'invalid' }] }],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', '/api/user/send-reset-password-email/', { body });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail } });
    }
  });

  it('resets the password once per link; older tokens stop working', async () => {
    const user = await signUp(t);
    const token = await resetToken(user.email);
    const res = await t.request('POST', '/api/user/reset-password/', { body: { token, password: 'reset-password-1' } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await login(t, user.email, user.password)).status).toBe(401);
    expect((await login(t, user.email, 'reset-password-1')).status).toBe(200);
    const old = await t.request('GET', '/api/workspaces/', { token: user.token });
    expect(old.status).toBe(401);
    expect(old.body).toEqual(invalidAccess);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: user.refresh } })).status).toBe(401);
    const again = await t.request('POST', '/api/user/reset-password/', { body: { token, password: 'reset-password-2' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
    expect((await login(t, user.email, 'reset-password-1')).status).toBe(200);
  });

  it('answers BAD_TOKEN_SIGNATURE, EXPIRED_TOKEN_SIGNATURE and ERROR_USER_NOT_FOUND', async () => {
    const user = await signUp(t);
    const token = await resetToken(user.email);
    const bad = await t.request('POST', '/api/user/reset-password/', { body: { token: 'test', password: 'valid-password' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
    const tampered = await t.request('POST', '/api/user/reset-password/', { body: { token: `${token}x`, password: 'valid-password' } });
    expect(tampered.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
    // A correctly signed link of the same kind whose lifetime is over.
    const { exp: _exp, iat: _iat, ...payload } = payloadOf(token);
    const expired = t.app.get(JwtService).sign(
      { ...payload, iat: Math.floor(Date.now() / 1000) - 49 * 3600, exp: Math.floor(Date.now() / 1000) - 3600 },
      { algorithm: 'HS256', secret: keyOf(t, 'signing') },
    );
    const late = await t.request('POST', '/api/user/reset-password/', { body: { token: expired, password: 'valid-password' } });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: 'EXPIRED_TOKEN_SIGNATURE', detail: '' });
    const { purpose, ...rest } = payload;
    const ghost = t.app.get(Signer).sign(String(purpose), { ...rest, user_id: 999999 }, 3600);
    const notFound = await t.request('POST', '/api/user/reset-password/', { body: { token: ghost, password: 'valid-password' } });
    expect(notFound.status).toBe(400);
    expect(notFound.body).toEqual({ error: 'ERROR_USER_NOT_FOUND', detail: '' });
    // An invitation-style token signed for another purpose is no reset token.
    const otherPurpose = t.app.get(Signer).sign('user_session', { user_id: user.id });
    expect((await t.request('POST', '/api/user/reset-password/', { body: { token: otherPurpose, password: 'valid-password' } })).body).toEqual({
      error: 'BAD_TOKEN_SIGNATURE',
      detail: '',
    });
    // Nothing above changed the password, and the real link still works.
    expect((await login(t, user.email, user.password)).status).toBe(200);
    expect((await t.request('POST', '/api/user/reset-password/', { body: { token, password: 'valid-password' } })).status).toBe(204);
  });

  it('validates the reset body without using up the link', async () => {
    const user = await signUp(t);
    const token = await resetToken(user.email);
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { token: required, password: required }],
      [
        { token, password: 'short' },
        { password: [{ error: 'This password is too short. It must contain at least 8 characters.', code: 'password_validation_failed' }] },
      ],
      [
        { token, password: 'p'.repeat(257) },
        { password: [{ error: 'This password is too long. It must not exceed 256 characters.', code: 'password_validation_failed' }] },
      ],
      [{ token: { t: token }, password: 'valid-password' }, { token: [{ error: 'Not a valid string.', code: 'invalid' }] }],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', '/api/user/reset-password/', { body });
      expect({ status: res.status, answer: res.body }).toEqual({ status: 400, answer: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail } });
    }
    expect((await login(t, user.email, user.password)).status).toBe(200);
    const ok = await t.request('POST', '/api/user/reset-password/', { body: { token, password: 'final-password', extra: true } });
    expect(ok.status).toBe(204);
    expect((await login(t, user.email, 'final-password')).status).toBe(200);
  });
});

describe('Users: scheduled and permanent account deletion (§2.7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const inFuture = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000);

  async function shareWorkspace(admin: SignedUp, member: SignedUp): Promise<number> {
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: admin.token })).body[0].id;
    const invitation = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: admin.token,
      body: { email: member.email, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' },
    });
    expect(invitation.status).toBe(200);
    const accepted = await t.request('POST', `/api/workspaces/invitations/${invitation.body.id}/accept/`, { token: member.token });
    expect(accepted.status).toBe(200);
    return workspaceId;
  }

  it('refuses the instance’s last staff account (the first one signed up), as Baserow', async () => {
    const admin = await signUp(t, 'Owner');
    const member = await signUp(t, 'Member');
    await shareWorkspace(admin, member);
    const res = await t.request('POST', '/api/user/schedule-account-deletion/', { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERROR_USER_IS_LAST_ADMIN', detail: '' });
    // Not scheduled: refresh still works and nothing is deleted later.
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: admin.refresh } })).status).toBe(200);
    await t.app.get(UsersService).deleteExpiredAccounts(inFuture(365));
    expect((await login(t, admin.email, admin.password)).status).toBe(200);
  });

  it('schedules deletion (204); refresh fails while scheduled; signing in again cancels it', async () => {
    const user = await signUp(t);
    const res = await t.request('POST', '/api/user/schedule-account-deletion/', { token: user.token, body: { ignored: true } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const path of ['/api/user/token-refresh/', '/api/user/token-verify/']) {
      const refresh = await t.request('POST', path, { body: { refresh_token: user.refresh } });
      expect(refresh.status).toBe(401);
      expect(refresh.body).toEqual(invalidRefresh);
    }
    const again = await login(t, user.email, user.password);
    expect(again.status).toBe(200);
    expect((await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: again.body.refresh_token } })).status).toBe(200);
    await t.app.get(UsersService).deleteExpiredAccounts(inFuture(365));
    expect((await login(t, user.email, user.password)).status).toBe(200);
  });

  it('deletes the account after the grace period with its own workspaces, keeping shared ones', async () => {
    const admin = await signUp(t, 'Keeper');
    const leaver = await signUp(t, 'Leaver');
    const shared = await shareWorkspace(admin, leaver);
    const own = (await t.request('GET', '/api/workspaces/', { token: leaver.token })).body.find((w: { name: string }) => w.name === "Leaver's workspace");
    expect(own).toBeDefined();
    expect((await t.request('POST', '/api/user/schedule-account-deletion/', { token: leaver.token })).status).toBe(204);

    // Still inside the grace period (30 days by default): nothing happens.
    await t.app.get(UsersService).deleteExpiredAccounts(inFuture(29));
    const members = await t.request('GET', `/api/workspaces/users/workspace/${shared}/`, { token: admin.token });
    expect(members.body.map((m: { email: string }) => m.email).sort()).toEqual([admin.email, leaver.email].sort());

    await t.app.get(UsersService).deleteExpiredAccounts(inFuture(31));
    const res = await login(t, leaver.email, leaver.password);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'ERROR_INVALID_CREDENTIALS', detail: 'No active account found with the given credentials.' });
    expect((await t.request('GET', '/api/workspaces/', { token: leaver.token })).body).toEqual(invalidAccess);
    const workspaces = await t.request('GET', '/api/workspaces/', { token: admin.token });
    expect(workspaces.body.map((w: { id: number }) => w.id)).toEqual([shared]);
    const after = await t.request('GET', `/api/workspaces/users/workspace/${shared}/`, { token: admin.token });
    expect(after.status).toBe(200);
    expect(after.body.map((m: { email: string }) => m.email)).toEqual([admin.email]);
    const apps = await t.request('GET', '/api/applications/', { token: admin.token });
    expect(apps.body.map((a: { name: string }) => a.name)).toEqual(["Keeper's company"]);
    // The deleted user's own workspace is gone for good.
    const gone = await t.request('GET', `/api/workspaces/${own.id}/permissions/`, { token: admin.token });
    expect(gone.status).toBe(404);
    // The address can sign up again.
    const reuse = await t.request('POST', '/api/user/', { body: { name: 'Back', email: leaver.email, password: 'password123' } });
    expect(reuse.status).toBe(200);
  });

  it('needs authentication', async () => {
    const res = await t.request('POST', '/api/user/schedule-account-deletion/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(notAuthenticated);
  });
});

describe('Users: dashboard (§2.7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('lists the invitations addressed to the user\'s e-mail', async () => {
    const inviter = await signUp(t, 'Inviter');
    const invitee = await signUp(t, 'Invitee');
    const empty = await t.request('GET', '/api/user/dashboard/', { token: invitee.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ workspace_invitations: [] });

    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: inviter.token })).body[0].id;
    const created = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: inviter.token,
      body: { email: invitee.email.toUpperCase(), permissions: 'ADMIN', message: 'Welcome aboard', base_url: 'http://localhost:8000/invite' },
    });
    expect(created.status).toBe(200);
    // An invitation to somebody else is not shown.
    await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
      token: inviter.token,
      body: { email: 'third@example.com', permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' },
    });
    const res = await t.request('GET', '/api/user/dashboard/', { token: invitee.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['workspace_invitations']);
    expect(res.body.workspace_invitations).toEqual([
      {
        id: created.body.id,
        invited_by: 'Inviter',
        workspace: "Inviter's workspace",
        email: invitee.email,
        message: 'Welcome aboard',
        created_on: created.body.created_on,
        email_exists: true,
      },
    ]);
    expect(Object.keys(res.body.workspace_invitations[0])).toEqual(['id', 'invited_by', 'workspace', 'email', 'message', 'created_on', 'email_exists']);
    const own = await t.request('GET', '/api/user/dashboard/', { token: inviter.token });
    expect(own.body).toEqual({ workspace_invitations: [] });
  });

  it('needs authentication', async () => {
    const res = await t.request('GET', '/api/user/dashboard/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(notAuthenticated);
  });
});
