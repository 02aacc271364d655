import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { Mailer } from '../src/core/mail/mailer';
import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { LogCapture } from './support/log-capture';
import { Browser, ChildIdp, startChildIdp } from './support/sso';
import { connect } from './support/ws';

/**
 * Single sign-on with OpenID Connect (Baserow enterprise's `/api/sso/oauth2/` and
 * `/api/admin/auth-provider/`) against a real OpenID provider (oidc-provider) on loopback,
 * the browser's redirects followed by hand.
 */

const FRONTEND = 'http://frontend.test';
const CALLBACKS = Array.from({ length: 20 }, (_, i) => `http://localhost:8000/api/sso/oauth2/callback/${i + 1}/`);
const NOT_STAFF = { detail: 'You do not have permission to perform this action.' };

describe(`single sign-on: OpenID Connect (${TEST_DB})`, () => {
  let t: TestApp;
  let idp: ChildIdp;
  let forger: ChildIdp;
  let staff: SignedUp;
  let alice: SignedUp;
  let providerId: number;
  const logs = new LogCapture();
  /** Why the last refusals were refused (the warnings the app logs). */
  const reasons = () => logs.lines.filter((line) => String(line.msg).includes('sign-in refused')).map((line) => String(line.msg));

  const admin = (method: string, path: string, body?: unknown, token = staff.token) => t.request(method, `/api/admin/auth-provider/${path}`, { token, body });
  const createOidc = async (issuer: string, extra: Record<string, unknown> = {}) => {
    const res = await admin('POST', '', { type: 'openid_connect', name: 'Company IdP', base_url: issuer, client_id: 'rowspace', secret: 'top-secret', ...extra });
    expect(res.status).toBe(200);
    return res.body;
  };

  /** The browser's whole sign-in; `tamper` may change the authorization URL. Answers the callback URL and where the browser lands. */
  async function signIn(browser: Browser, id: number, login: string, tamper: (url: URL) => void = () => undefined, query = '') {
    const start = await browser.request('GET', `${t.url}/api/sso/oauth2/login/${id}/${query}`);
    expect(start.status).toBe(302);
    if (!start.location!.startsWith('http://127.0.0.1')) return { callback: null, landing: start.location! };
    const authorize = new URL(start.location!);
    tamper(authorize);
    const isCallback = (location: string) => location.startsWith('http://localhost:8000/');
    const form = await browser.follow(authorize.toString(), isCallback);
    expect(form.status).toBe(200);
    const submitted = await browser.request('POST', form.url, { prompt: 'login', login, password: 'any' });
    const back = await browser.follow(submitted.location!, isCallback);
    expect(back.location).toMatch(/^http:\/\/localhost:8000\/api\/sso\/oauth2\/callback\//);
    const landing = await browser.request('GET', back.location!);
    expect(landing.status).toBe(302);
    return { callback: back.location!, landing: landing.location! };
  }
  const errorOf = (landing: string) => new URL(landing).searchParams.get('error');

  beforeAll(async () => {
    idp = await startChildIdp('oidc-idp.mjs', { clients: [{ client_id: 'rowspace', client_secret: 'top-secret', redirect_uris: CALLBACKS }] });
    forger = await startChildIdp('oidc-idp.mjs', { clients: [{ client_id: 'rowspace', client_secret: 'top-secret', redirect_uris: CALLBACKS }], forgeKeys: true });
    t = await startApp({ PUBLIC_WEB_FRONTEND_URL: FRONTEND, SSO_PROVIDER_TIMEOUT_SECONDS: '1', SSO_PROVIDER_MAX_KB: '64', RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' }, undefined, { log: { level: 'warn', stream: logs } });
    staff = await signUp(t, 'Staff');
    alice = await signUp(t, 'Alice');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await forger?.close();
  });

  it('lets staff manage auth providers with Baserow keys and errors; others get 403', async () => {
    const list = await admin('GET', '');
    expect(list.status).toBe(200);
    expect(list.body.auth_provider_types.map((type: any) => type.type)).toEqual(['password', 'openid_connect', 'saml']);
    const password = list.body.auth_provider_types[0];
    expect(password).toMatchObject({ can_create_new: false, can_delete_existing: false, auth_providers: [{ type: 'password', domain: null, enabled: true }] });
    expect(list.body.auth_provider_types[2]).toMatchObject({ relay_state_url: `${FRONTEND}/dashboard`, acs_url: 'http://localhost:8000/api/sso/saml/acs/' });

    const created = await createOidc(idp.info.issuer);
    providerId = created.id;
    expect(created).toEqual({
      id: providerId,
      type: 'openid_connect',
      domain: null,
      enabled: true,
      name: 'Company IdP',
      base_url: idp.info.issuer,
      client_id: 'rowspace',
      secret: 'top-secret',
      use_id_token: false,
      email_attr_key: 'email',
      first_name_attr_key: 'name',
      last_name_attr_key: '',
    });
    expect((await admin('GET', `${providerId}/`)).body).toEqual(created);
    // The secret is kept sealed with the instance key, not as given.
    const raw = await t.app.get(DataSource).query(`SELECT settings FROM core_authprovidermodel WHERE id = ${providerId}`);
    expect(raw[0].settings).not.toContain('top-secret');
    expect(JSON.parse(raw[0].settings)).toMatchObject({ jwks_url: `${idp.info.issuer}/jwks`, issuer: idp.info.issuer, authorization_url: `${idp.info.issuer}/auth` });

    const options = await t.request('GET', '/api/auth-provider/login-options/');
    expect(options.body).toEqual({
      password: { type: 'password' },
      openid_connect: {
        type: 'openid_connect',
        items: [{ redirect_url: `http://localhost:8000/api/sso/oauth2/login/${providerId}/`, name: 'Company IdP', type: 'openid_connect' }],
        default_redirect_url: `http://localhost:8000/api/sso/oauth2/login/${providerId}/`,
      },
    });

    const required = await admin('POST', '', { type: 'openid_connect' });
    expect(required.status).toBe(400);
    expect(required.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect(Object.keys(required.body.detail).sort()).toEqual(['base_url', 'client_id', 'name', 'secret']);
    const badUrl = await admin('PATCH', `${providerId}/`, { base_url: 'not_url' });
    expect(badUrl.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { base_url: [{ error: 'Enter a valid URL.', code: 'invalid' }] } });
    const notOidc = await admin('POST', '', { type: 'openid_connect', name: 'x', base_url: t.url, client_id: 'a', secret: 'b' });
    expect(notOidc.body.error).toBe('ERROR_INVALID_PROVIDER_URL');
    expect((await admin('POST', '', { type: 'password' })).body.error).toBe('ERROR_AUTH_PROVIDER_CANNOT_BE_CREATED');
    expect((await admin('POST', '', { type: 'nope' })).body.detail.type[0].code).toBe('invalid_choice');
    expect((await admin('DELETE', `${password.auth_providers[0].id}/`)).body.error).toBe('ERROR_AUTH_PROVIDER_CANNOT_BE_DELETED');
    expect((await admin('GET', '99999/')).body.error).toBe('ERROR_AUTH_PROVIDER_DOES_NOT_EXIST');
    expect((await admin('GET', 'next-id/')).body).toEqual({ next_provider_id: providerId + 1 });

    for (const [method, path] of [['GET', ''], ['POST', ''], ['GET', `${providerId}/`], ['PATCH', `${providerId}/`], ['DELETE', `${providerId}/`], ['GET', 'next-id/']]) {
      const refused = await admin(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, alice.token);
      expect([method, path, refused.status, refused.body]).toEqual([method, path, 403, NOT_STAFF]);
    }
    expect((await admin('GET', `${providerId}/`)).body.secret).toBe('top-secret');
  });

  it('signs a new user in with PKCE, state and nonce; the user then uses the API and the socket', async () => {
    const browser = new Browser(t);
    const start = await browser.request('GET', `${t.url}/api/sso/oauth2/login/${providerId}/?original=/database/1/table/2&language=fr`);
    const authorize = new URL(start.location!);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'rowspace',
      redirect_uri: `http://localhost:8000/api/sso/oauth2/callback/${providerId}/`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const key of ['state', 'nonce', 'code_challenge']) expect(authorize.searchParams.get(key)).toMatch(/^[\w-]{43}$/);

    const { landing } = await signIn(new Browser(t), providerId, 'carol@company.test');
    const url = new URL(landing);
    expect(url.origin + url.pathname).toBe(`${FRONTEND}/dashboard`);
    const refresh = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: url.searchParams.get('token') } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.user).toMatchObject({ username: 'carol@company.test', first_name: 'Name of carol' });
    expect(url.searchParams.get('user_session')).toBeTruthy();
    const token = refresh.body.access_token;
    const workspaces = await t.request('GET', '/api/workspaces/', { token });
    expect(workspaces.status).toBe(200);
    const socket = await connect(t, token);
    expect(socket.authentication).toMatchObject({ success: true });
    socket.close();

    // The next sign-in is the same account, landing where it asked to.
    const again = await signIn(new Browser(t), providerId, 'carol@company.test');
    expect(new URL(again.landing).pathname).toBe('/dashboard');
    const users = await t.app.get(DataSource).query(`SELECT count(*) AS n FROM "user" WHERE email = 'carol@company.test'`);
    expect(Number(users[0].n)).toBe(1);
    // The audit log names the provider of the sign-up and of each sign-in.
    const carol = Number(refresh.body.user.id);
    const log = await t.request('GET', `/api/admin/audit-log/?user_id=${carol}&action_type=create_user&size=5`, { token: staff.token });
    expect(log.body.results.map((e: { description: string }) => e.description)).toEqual([
      `User "carol@company.test" (${carol}) created via "openid_connect" (${providerId}) auth provider (invitation: False)`,
    ]);
    const signIns = await t.request('GET', `/api/admin/audit-log/?user_id=${carol}&action_type=sign_in_user&size=5`, { token: staff.token });
    expect(signIns.body.results.map((e: { description: string }) => e.description)).toEqual([
      `User "carol@company.test" (${carol}) signed in via "openid_connect" (${providerId}) auth provider`,
      `User "carol@company.test" (${carol}) signed in via "openid_connect" (${providerId}) auth provider`,
    ]);
    const withOriginal = new Browser(t);
    const first = await withOriginal.request('GET', `${t.url}/api/sso/oauth2/login/${providerId}/?original=%2Fdatabase%2F1%2Ftable%2F2`);
    expect(first.status).toBe(302);
  });

  it('refuses a replayed or forged state, another browser, a wrong nonce and a token signed by another key, never with a 500', async () => {
    const browser = new Browser(t);
    const { callback, landing } = await signIn(browser, providerId, 'dave@company.test');
    expect(errorOf(landing)).toBeNull();
    // The same callback again (state used once).
    const replay = await browser.request('GET', callback!);
    expect(replay.location).toBe(`${FRONTEND}/login/error?error=errorAuthFlowError`);

    const forged = new URL(callback!);
    forged.searchParams.set('state', 'forged-state');
    expect((await browser.request('GET', forged.toString())).location).toBe(`${FRONTEND}/login/error?error=errorAuthFlowError`);
    expect((await browser.request('GET', `http://localhost:8000/api/sso/oauth2/callback/${providerId}/`)).location).toBe(`${FRONTEND}/login/error?error=errorAuthFlowError`);

    // A callback taken to another browser (no binding cookie): refused.
    const victim = new Browser(t);
    const start = await victim.request('GET', `${t.url}/api/sso/oauth2/login/${providerId}/`);
    expect(start.status).toBe(302);
    const other = new Browser(t);
    const stolen = new URL(`http://localhost:8000/api/sso/oauth2/callback/${providerId}/`);
    stolen.searchParams.set('state', new URL(start.location!).searchParams.get('state')!);
    stolen.searchParams.set('code', 'whatever');
    expect((await other.request('GET', stolen.toString())).location).toBe(`${FRONTEND}/login/error?error=errorAuthFlowError`);
    const badCookie = await fetch(stolen.toString().replace('http://localhost:8000', t.url), { headers: { Cookie: 'rowspace_sso_oauth2=%E0%A4%A' }, redirect: 'manual' });
    expect([badCookie.status, badCookie.headers.get('location')]).toEqual([302, `${FRONTEND}/login/error?error=errorAuthFlowError`]);

    const wrongNonce = await signIn(new Browser(t), providerId, 'erin@company.test', (url) => url.searchParams.set('nonce', 'another-nonce'));
    expect(errorOf(wrongNonce.landing)).toBe('errorAuthFlowError');

    const forgedProvider = await createOidc(forger.info.issuer, { name: 'Forger' });
    const forgedKey = await signIn(new Browser(t), forgedProvider.id, 'frank@company.test');
    expect(errorOf(forgedKey.landing)).toBe('errorAuthFlowError');
    expect((await admin('DELETE', `${forgedProvider.id}/`)).status).toBe(204);

    // An address the provider did not verify.
    expect(errorOf((await signIn(new Browser(t), providerId, 'unverified@company.test')).landing)).toBe('errorAuthFlowError');
    // Unknown provider.
    expect((await new Browser(t).request('GET', `${t.url}/api/sso/oauth2/login/99999/`)).location).toBe(`${FRONTEND}/login/error?error=errorProviderDoesNotExist`);
    expect((await new Browser(t).request('GET', `${t.url}/api/sso/oauth2/login/${providerId}/?language=xx-nope`)).status).toBe(400);
    expect(reasons()).toEqual([
      expect.stringContaining('unknown, used or expired state'),
      expect.stringContaining('unknown, used or expired state'),
      expect.stringContaining('unknown, used or expired state'),
      expect.stringContaining('started in another browser'),
      expect.stringContaining('unknown, used or expired state'),
      expect.stringContaining('the ID token has another nonce'),
      expect.stringContaining('signature verification failed'),
      expect.stringContaining('has not verified the e-mail address'),
      expect.stringContaining('no enabled provider 99999'),
    ]);
    const users = await t.app.get(DataSource).query(`SELECT email FROM "user" WHERE email IN ('erin@company.test', 'frank@company.test', 'unverified@company.test')`);
    expect(users).toEqual([]);
  });

  it('applies the e-mail domain, the provider of an account and the sign-up setting', async () => {
    const scoped = await createOidc(idp.info.issuer, { name: 'Scoped', domain: 'company.test' });
    expect(errorOf((await signIn(new Browser(t), scoped.id, 'gina@elsewhere.test')).landing)).toBe('errorAuthFlowError');
    expect(errorOf((await signIn(new Browser(t), scoped.id, 'gina@company.test')).landing)).toBeNull();
    // carol signed up through the first provider: another one may not sign her in.
    expect(errorOf((await signIn(new Browser(t), scoped.id, 'carol@company.test')).landing)).toBe('errorDifferentProvider');
    // alice has a password account.
    expect(errorOf((await signIn(new Browser(t), providerId, alice.email)).landing)).toBe('errorDifferentProvider');

    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: false } })).status).toBe(200);
    expect(errorOf((await signIn(new Browser(t), providerId, 'henry@company.test')).landing)).toBe('errorSignupDisabled');
    // An invited person still signs up (allow_signups_via_workspace_invitations), joining the workspace.
    const mailer = t.app.get(Mailer);
    const sent: string[] = [];
    const send = mailer.send.bind(mailer);
    mailer.send = async (mail) => {
      sent.push(mail.text ?? '');
      return send(mail);
    };
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: staff.token })).body[0].id;
    try {
      const invited = await t.request('POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, {
        token: staff.token,
        body: { email: 'henry@company.test', permissions: 'MEMBER', message: '', base_url: `${FRONTEND}/workspace-invitation` },
      });
      expect(invited.status).toBe(200);
    } finally {
      mailer.send = send;
    }
    const invitationToken = /workspace-invitation\/(\S+)/.exec(sent[sent.length - 1])![1];
    const joined = await signIn(new Browser(t), providerId, 'henry@company.test', undefined, `?workspace_invitation_token=${invitationToken}`);
    expect(errorOf(joined.landing)).toBeNull();
    const henry = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: new URL(joined.landing).searchParams.get('token') } });
    expect((await t.request('GET', '/api/workspaces/', { token: henry.body.access_token })).body.map((w: { id: number }) => w.id)).toEqual([workspaceId]);
    // Existing accounts still sign in.
    expect(errorOf((await signIn(new Browser(t), providerId, 'carol@company.test')).landing)).toBeNull();
    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: true } })).status).toBe(200);

    // A deactivated account is refused.
    const carol = await t.app.get(DataSource).query(`SELECT id FROM "user" WHERE email = 'carol@company.test'`);
    expect((await t.request('PATCH', `/api/admin/users/${carol[0].id}/`, { token: staff.token, body: { is_active: false } })).status).toBe(200);
    expect(errorOf((await signIn(new Browser(t), providerId, 'carol@company.test')).landing)).toBe('errorUserDeactivated');
    expect((await t.request('PATCH', `/api/admin/users/${carol[0].id}/`, { token: staff.token, body: { is_active: true } })).status).toBe(200);

    expect((await admin('PATCH', `${scoped.id}/`, { enabled: false })).body.enabled).toBe(false);
    expect((await new Browser(t).request('GET', `${t.url}/api/sso/oauth2/login/${scoped.id}/`)).location).toBe(`${FRONTEND}/login/error?error=errorProviderDoesNotExist`);
  });

  it('turns password sign-in off for everyone but staff', async () => {
    const list = await admin('GET', '');
    const passwordId = list.body.auth_provider_types[0].auth_providers[0].id;
    expect((await admin('PATCH', `${passwordId}/`, { enabled: false })).body).toEqual({ id: passwordId, type: 'password', domain: null, enabled: false });
    expect(Object.keys((await t.request('GET', '/api/auth-provider/login-options/')).body)).toEqual(['openid_connect']);

    const disabled = { error: 'ERROR_AUTH_PROVIDER_DISABLED', detail: 'Authentication provider is disabled.' };
    const aliceLogin = await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } });
    expect([aliceLogin.status, aliceLogin.body]).toEqual([401, disabled]);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: staff.email, password: staff.password } })).status).toBe(200);
    const signUpRes = await t.request('POST', '/api/user/', { body: { name: 'New', email: 'new@company.test', password: 'password123' } });
    expect([signUpRes.status, signUpRes.body]).toEqual([401, disabled]);
    const change = await t.request('POST', '/api/user/change-password/', { token: alice.token, body: { old_password: alice.password, new_password: 'password456' } });
    expect([change.status, change.body]).toEqual([401, disabled]);
    // Sign-in through the provider still works.
    expect(errorOf((await signIn(new Browser(t), providerId, 'carol@company.test')).landing)).toBeNull();

    // The last enabled provider cannot be turned off or deleted.
    const others = (await admin('GET', '')).body.auth_provider_types.flatMap((type: any) => type.auth_providers).filter((p: any) => p.enabled && p.id !== providerId);
    for (const other of others) expect((await admin('PATCH', `${other.id}/`, { enabled: false })).status).toBe(200);
    const last = { error: 'ERROR_CANNOT_DISABLE_ALL_AUTH_PROVIDERS', detail: 'The last enabled provider cannot be disabled.' };
    expect((await admin('PATCH', `${providerId}/`, { enabled: false })).body).toEqual(last);
    expect((await admin('DELETE', `${providerId}/`)).body).toEqual(last);
    expect((await admin('PATCH', `${passwordId}/`, { enabled: true })).status).toBe(200);
    expect((await t.request('POST', '/api/user/token-auth/', { body: { email: alice.email, password: alice.password } })).status).toBe(200);
  });

  it('bounds the time and size of requests to a provider (whose address may be internal)', async () => {
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/slow/')) return void setTimeout(() => res.end('{}'), 3000);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ issuer: 'x', padding: 'x'.repeat(100 * 1024) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const url of [`${base}/slow`, `${base}/huge`]) {
        const started = Date.now();
        const res = await admin('POST', '', { type: 'openid_connect', name: 'x', base_url: url, client_id: 'a', secret: 'b' });
        expect([url, res.status, res.body.error]).toEqual([url, 400, 'ERROR_INVALID_PROVIDER_URL']);
        expect(Date.now() - started).toBeLessThan(2500);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
