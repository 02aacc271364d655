import { randomBytes } from 'node:crypto';
import { Mailer } from '../src/core/mail/mailer';
import { UsersService } from '../src/users/users.service';
import { freshDatabase, SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';

/** Instance settings (Baserow's Settings model): served, changed by staff only, and obeyed. */
describe(`instance settings (${TEST_DB})`, () => {
  let t: TestApp;
  let staff: SignedUp;
  let member: SignedUp;
  const mails: { to: string; text: string }[] = [];

  const patch = (body: unknown, token = staff.token) => t.request('PATCH', '/api/settings/update/', { token, body });
  const email = () => `someone-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    t = await startApp({ ACCOUNT_DELETION_GRACE_DAYS: '12', RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    const mailer = t.app.get(Mailer);
    const original = mailer.send.bind(mailer);
    mailer.send = async (mail) => {
      mails.push({ to: mail.to, text: mail.text });
      return original(mail);
    };
  });
  afterAll(() => t.close());

  it('serves every key of Baserow 1.35.3 with its defaults, the grace delay from the configuration, and the admin sign-up page before the first account', async () => {
    const res = await t.request('GET', '/api/settings/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      allow_new_signups: true,
      allow_signups_via_workspace_invitations: true,
      allow_reset_password: true,
      allow_global_workspace_creation: true,
      account_deletion_grace_delay: 12,
      show_admin_signup_page: true,
      track_workspace_usage: false,
      show_baserow_help_request: true,
      co_branding_logo: null,
      email_verification: 'no_verification',
      verify_import_signature: true,
      instance_wide_licenses: expect.any(Object),
    });
  });

  it('makes the first account staff, and no later one; the admin sign-up page is then over', async () => {
    staff = await signUp(t, 'Staff');
    member = await signUp(t, 'Member');
    const me = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: staff.refresh } });
    expect(me.body.user.is_staff).toBe(true);
    const other = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: member.refresh } });
    expect(other.body.user.is_staff).toBe(false);
    expect((await t.request('GET', '/api/settings/')).body.show_admin_signup_page).toBe(false);
  });

  it('refuses a member (403) and an anonymous caller (401) on the staff routes, before looking at the body', async () => {
    for (const [method, path] of [['PATCH', '/api/settings/update/'], ['GET', '/api/settings/instance-id/']]) {
      const asMember = await t.request(method, path, { token: member.token, body: method === 'PATCH' ? { allow_new_signups: 'not a boolean' } : undefined });
      expect([asMember.status, asMember.body]).toEqual([403, { detail: 'You do not have permission to perform this action.' }]);
      const anonymous = await t.request(method, path, { body: method === 'PATCH' ? { allow_new_signups: false } : undefined });
      expect(anonymous.status).toBe(401);
    }
    expect((await t.request('GET', '/api/settings/')).body.allow_new_signups).toBe(true);
  });

  it("answers the instance id to staff", async () => {
    const res = await t.request('GET', '/api/settings/instance-id/', { token: staff.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['instance_id']);
    expect(res.body.instance_id).toMatch(/^[A-Za-z0-9_-]{8,}$/);
  });

  it('refuses wrong types with the body validation tree and changes nothing', async () => {
    const res = await patch({ allow_new_signups: 'maybe', account_deletion_grace_delay: -1, email_verification: 'sometimes', co_branding_logo: 'logo.png' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: {
        allow_new_signups: [{ error: 'Must be a valid boolean.', code: 'invalid' }],
        account_deletion_grace_delay: [{ error: 'Ensure this value is greater than or equal to 0.', code: 'min_value' }],
        email_verification: [{ error: '"sometimes" is not a valid choice.', code: 'invalid_choice' }],
        co_branding_logo: [{ error: 'The value must be an object containing the file name.', code: 'invalid_value' }],
      },
    });
    const nullChoice = await patch({ email_verification: null });
    expect(nullChoice.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { email_verification: [{ error: "'null' is not a valid choice.", code: 'invalid_choice' }] } });
    const missingFile = await patch({ co_branding_logo: { name: 'nothing.png' } });
    expect(missingFile.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { co_branding_logo: [{ error: 'The provided user file does not exist.', code: 'invalid_user_file' }] } });
    const tooBig = await patch({ account_deletion_grace_delay: 32768 });
    expect(tooBig.body.detail.account_deletion_grace_delay[0].code).toBe('max_value');
    expect((await t.request('GET', '/api/settings/')).body).toMatchObject({ allow_new_signups: true, account_deletion_grace_delay: 12, email_verification: 'no_verification' });
  });

  it('changes the keys sent, answers them all, and ignores show_admin_signup_page', async () => {
    const res = await patch({ track_workspace_usage: true, show_baserow_help_request: false, verify_import_signature: false, show_admin_signup_page: true, account_deletion_grace_delay: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      allow_new_signups: true,
      allow_signups_via_workspace_invitations: true,
      allow_reset_password: true,
      allow_global_workspace_creation: true,
      account_deletion_grace_delay: 3,
      show_admin_signup_page: false,
      track_workspace_usage: true,
      show_baserow_help_request: false,
      co_branding_logo: null,
      email_verification: 'no_verification',
      verify_import_signature: false,
    });
    expect((await t.request('GET', '/api/settings/')).body).toMatchObject({ account_deletion_grace_delay: 3, verify_import_signature: false, show_admin_signup_page: false });
  });

  it('serves a co-branding logo given by its user file name, and takes it away with null', async () => {
    const form = new FormData();
    // A 1x1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    form.append('file', new Blob([png], { type: 'image/png' }), 'logo.png');
    const upload = await fetch(`${t.url}/api/user-files/upload-file/`, { method: 'POST', headers: { Authorization: `JWT ${staff.token}` }, body: form });
    const file = (await upload.json()) as { name: string };
    expect(upload.status).toBe(200);
    const res = await patch({ co_branding_logo: { name: file.name } });
    expect(res.status).toBe(200);
    expect(res.body.co_branding_logo).toMatchObject({ name: file.name, is_image: true, original_name: 'logo.png' });
    expect((await t.request('GET', '/api/settings/')).body.co_branding_logo.name).toBe(file.name);
    expect((await patch({ co_branding_logo: null })).body.co_branding_logo).toBeNull();
  });

  it('refuses sign-ups when they are off, but lets an invited person sign up while invitations may', async () => {
    expect((await patch({ allow_new_signups: false })).status).toBe(200);
    const refused = await t.request('POST', '/api/user/', { body: { name: 'Nobody', email: email(), password: 'password123' } });
    expect([refused.status, refused.body]).toEqual([400, { error: 'ERROR_DISABLED_SIGNUP', detail: '' }]);
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: staff.token })).body[0].id;
    const invite = async (address: string) => {
      const res = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
        token: staff.token,
        body: { email: address, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' },
      });
      expect(res.status).toBe(200);
      return /invite\/(\S+)/.exec(mails.filter((m) => m.to === address).at(-1)!.text)![1];
    };
    const invited = email();
    const token = await invite(invited);
    const joined = await t.request('POST', '/api/user/', { body: { name: 'Invited', email: invited, password: 'password123', workspace_invitation_token: token } });
    expect(joined.status).toBe(200);
    expect(joined.body.user.email_verified).toBe(true);

    expect((await patch({ allow_signups_via_workspace_invitations: false })).status).toBe(200);
    const second = email();
    const refusedInvited = await t.request('POST', '/api/user/', { body: { name: 'Invited', email: second, password: 'password123', workspace_invitation_token: await invite(second) } });
    expect(refusedInvited.body.error).toBe('ERROR_DISABLED_SIGNUP');
    // Open sign-ups let an invited person in whatever the invitation setting says.
    expect((await patch({ allow_new_signups: true })).status).toBe(200);
    const open = await t.request('POST', '/api/user/', { body: { name: 'Invited', email: second, password: 'password123', workspace_invitation_token: await invite(`x${second}`).then(() => invite(second)) } });
    expect(open.status).toBe(200);
    expect((await patch({ allow_signups_via_workspace_invitations: true })).status).toBe(200);
  });

  it('refuses password reset mails and resets when resets are off', async () => {
    expect((await patch({ allow_reset_password: false })).status).toBe(200);
    const send = await t.request('POST', '/api/user/send-reset-password-email/', { body: { email: member.email, base_url: 'http://localhost:3000/reset' } });
    expect([send.status, send.body.error]).toEqual([400, 'ERROR_DISABLED_RESET_PASSWORD']);
    const reset = await t.request('POST', '/api/user/reset-password/', { body: { token: 'x', password: 'password1234' } });
    expect([reset.status, reset.body.error]).toEqual([400, 'ERROR_DISABLED_RESET_PASSWORD']);
    expect((await patch({ allow_reset_password: true })).status).toBe(200);
    expect((await t.request('POST', '/api/user/send-reset-password-email/', { body: { email: member.email, base_url: 'http://localhost:3000/reset' } })).status).toBe(204);
  });

  it('lets only staff create workspaces when global creation is off, and gives new accounts no workspace then', async () => {
    expect((await patch({ allow_global_workspace_creation: false })).status).toBe(200);
    const refused = await t.request('POST', '/api/workspaces/', { token: member.token, body: { name: 'Mine' } });
    expect([refused.status, refused.body]).toEqual([401, { error: 'PERMISSION_DENIED', detail: "You don't have the required permission to execute this operation." }]);
    expect((await t.request('POST', '/api/workspaces/', { token: staff.token, body: { name: 'Staff made' } })).status).toBe(200);
    const newcomer = await t.request('POST', '/api/user/', { body: { name: 'New', email: email(), password: 'password123', authenticate: true } });
    expect(newcomer.status).toBe(200);
    expect(newcomer.body.user.completed_onboarding).toBe(true);
    expect(newcomer.body.permissions.find((p: { name: string }) => p.name === 'setting_operation').permissions).toEqual({ staff_only_operations: ['create_workspace'], always_allowed_operations: [] });
    expect((await t.request('GET', '/api/workspaces/', { token: newcomer.body.access_token })).body).toEqual([]);
    expect((await patch({ allow_global_workspace_creation: true })).status).toBe(200);
    expect((await t.request('POST', '/api/workspaces/', { token: member.token, body: { name: 'Mine' } })).status).toBe(200);
  });

  it('deletes a scheduled account after the grace delay of the settings, not of the configuration', async () => {
    const leaving = await signUp(t, 'Leaving');
    expect((await patch({ account_deletion_grace_delay: 2 })).status).toBe(200);
    expect((await t.request('POST', '/api/user/schedule-account-deletion/', { token: leaving.token })).status).toBe(204);
    expect(mails.filter((m) => m.to === leaving.email).at(-1)!.text).toContain('in 2 days');
    const users = t.app.get(UsersService);
    const day = 24 * 3600 * 1000;
    expect(await users.deleteExpiredAccounts(new Date(Date.now() + 1 * day))).toBe(0);
    expect(await users.deleteExpiredAccounts(new Date(Date.now() + 2 * day + 60_000))).toBe(1);
    const signIn = await t.request('POST', '/api/user/token-auth/', { body: { email: leaving.email, password: leaving.password } });
    expect(signIn.status).toBe(401);
  });
});

describe(`the first account of an empty instance (${TEST_DB})`, () => {
  it('is the only staff account when several sign up at once', async () => {
    const database = await freshDatabase();
    const t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' }, database);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => t.request('POST', '/api/user/', { body: { name: `Racer ${i}`, email: `racer${i}@example.com`, password: 'password123' } })),
      );
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(answers.filter((res) => res.body.user.is_staff)).toHaveLength(1);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
