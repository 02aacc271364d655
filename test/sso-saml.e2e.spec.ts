import { DataSource } from 'typeorm';
import { SAML_RESPONSE_MAX_CHARS } from '../src/sso/saml/saml-sign-in.service';
import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { LogCapture } from './support/log-capture';
import { postedForm, ResponseValues, SamlIdp } from './support/saml-idp';
import { Browser } from './support/sso';
import { connect } from './support/ws';

/**
 * Single sign-on with SAML 2.0 (Baserow enterprise's `/api/sso/saml/`) against a real IdP
 * (samlify) on loopback: the AuthnRequest by redirect, the response posted by the browser.
 */

const FRONTEND = 'http://frontend.test';
const ACS = 'http://localhost:8000/api/sso/saml/acs/';
const past = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe(`single sign-on: SAML (${TEST_DB})`, () => {
  let t: TestApp;
  let idp: SamlIdp;
  let staff: SignedUp;
  let providerId: number;
  const logs = new LogCapture();
  const reasons = () => logs.lines.filter((line) => String(line.msg).includes('sign-in refused')).map((line) => String(line.msg));
  const admin = (method: string, path: string, body?: unknown) => t.request(method, `/api/admin/auth-provider/${path}`, { token: staff.token, body });
  const errorOf = (landing: string) => new URL(landing).searchParams.get('error');

  /** The browser's SP-initiated sign-in as `email`; answers where it lands and what it posted to the ACS. */
  async function signIn(email: string, query = '') {
    idp.user = { email, firstName: 'Ivy', lastName: 'Example' };
    const browser = new Browser(t);
    const start = await browser.request('GET', `${t.url}/api/sso/saml/login/${query}`);
    expect(start.status).toBe(302);
    if (!start.location!.startsWith(idp.url)) return { landing: start.location!, posted: null, browser };
    const page = await browser.request('GET', start.location!);
    expect(page.status).toBe(200);
    const { action, fields } = postedForm(page.text);
    expect(action).toBe(ACS);
    const landing = await browser.request('POST', action, fields);
    expect(landing.status).toBe(302);
    return { landing: landing.location!, posted: fields, browser };
  }

  /** An IdP-initiated response (no request), changed by `tamper`, posted to the ACS. */
  async function post(email: string, tamper: (values: ResponseValues) => void = () => undefined, relayState = `${FRONTEND}/dashboard`) {
    idp.user = { email };
    idp.tamper = tamper;
    try {
      const response = await idp.response();
      const res = await new Browser(t).request('POST', ACS, { SAMLResponse: response.context, RelayState: relayState });
      expect(res.status).toBe(302);
      return { landing: res.location!, SAMLResponse: response.context };
    } finally {
      idp.tamper = () => undefined;
    }
  }

  beforeAll(async () => {
    t = await startApp({ PUBLIC_WEB_FRONTEND_URL: FRONTEND, RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' }, undefined, { log: { level: 'warn', stream: logs } });
    staff = await signUp(t, 'Staff');
    const metadata = await t.request('GET', '/api/sso/saml/metadata/');
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(metadata.text).toContain(`entityID="${ACS}"`);
    expect(metadata.text).toContain(`Location="${ACS}"`);
    expect(metadata.text).toContain('WantAssertionsSigned="true"');
    idp = await new SamlIdp(metadata.text).start();
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('lets staff add a SAML provider with Baserow keys and errors, and shows it in the login options', async () => {
    const missing = await admin('POST', '', { type: 'saml' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.detail).sort()).toEqual(['domain', 'metadata']);
    const badMetadata = await admin('POST', '', { type: 'saml', domain: 'company.test', metadata: '<nope/>' });
    expect(badMetadata.body.detail).toEqual({ metadata: [{ error: 'The metadata is not valid according to the XML schema.', code: 'invalid' }] });
    expect((await admin('POST', '', { type: 'saml', domain: 'not a domain', metadata: idp.metadata })).body.detail.domain[0].error).toBe('The domain value is not a valid domain name.');

    const created = await admin('POST', '', { type: 'saml', domain: 'company.test', metadata: idp.metadata });
    expect(created.status).toBe(200);
    providerId = created.body.id;
    expect(created.body).toEqual({
      id: providerId,
      type: 'saml',
      domain: 'company.test',
      enabled: true,
      metadata: idp.metadata,
      is_verified: false,
      email_attr_key: 'user.email',
      first_name_attr_key: 'user.first_name',
      last_name_attr_key: 'user.last_name',
    });
    const duplicate = await admin('POST', '', { type: 'saml', domain: 'company.test', metadata: idp.metadata });
    expect(duplicate.body.error).toBe('ERROR_SAML_PROVIDER_FOR_DOMAIN_ALREADY_EXISTS');

    expect((await t.request('GET', '/api/auth-provider/login-options/')).body).toEqual({
      password: { type: 'password' },
      saml: { type: 'saml', domain_required: false, default_redirect_url: 'http://localhost:8000/api/sso/saml/login/' },
    });
    expect((await t.request('GET', '/api/sso/saml/login-url/?email=ivy@company.test&original=%2Fdashboard')).body).toEqual({
      redirect_url: 'http://localhost:8000/api/sso/saml/login/?email=ivy%40company.test&original=%2Fdashboard',
    });
    const unknown = await t.request('GET', '/api/sso/saml/login-url/?email=ivy@elsewhere.test');
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'ERROR_SAML_INVALID_LOGIN_REQUEST', detail: 'No identity provider found with the given information.' }]);
  });

  it('signs a new user in through the IdP; the user then uses the API and the socket', async () => {
    const { landing, browser } = await signIn('ivy@company.test', '?original=%2Fdatabase%2F1%2Ftable%2F2&language=fr');
    const url = new URL(landing);
    expect(url.origin + url.pathname).toBe(`${FRONTEND}/database/1/table/2`);
    const refresh = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: url.searchParams.get('token') } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.user).toMatchObject({ username: 'ivy@company.test', first_name: 'Ivy Example', language: 'fr' });
    expect(url.searchParams.get('user_session')).toBeTruthy();
    const token = refresh.body.access_token;
    expect((await t.request('GET', '/api/workspaces/', { token })).status).toBe(200);
    const socket = await connect(t, token);
    expect(socket.authentication).toMatchObject({ success: true });
    socket.close();
    expect((await admin('GET', `${providerId}/`)).body.is_verified).toBe(true);
    expect(browser).toBeDefined();

    // The same account next time.
    expect(errorOf((await signIn('ivy@company.test')).landing)).toBeNull();
    const users = await t.app.get(DataSource).query(`SELECT count(*) AS n FROM "user" WHERE email = 'ivy@company.test'`);
    expect(Number(users[0].n)).toBe(1);
  });

  it('refuses replayed, forged, changed, expired and misdirected responses, never with a 500', async () => {
    const before = reasons().length;
    const invalid = `${FRONTEND}/login/error?error=errorInvalidSamlResponse`;

    // The response of a request, posted again.
    const { posted } = await signIn('ivy@company.test');
    expect((await new Browser(t).request('POST', ACS, posted!)).location).toBe(invalid);
    // An IdP-initiated assertion, posted twice.
    const first = await post('ivy@company.test');
    expect(errorOf(first.landing)).toBeNull();
    expect((await new Browser(t).request('POST', ACS, { SAMLResponse: first.SAMLResponse, RelayState: `${FRONTEND}/dashboard` })).location).toBe(invalid);

    // Signed by a key the metadata does not name.
    idp.signWith = 'forger';
    try {
      expect((await post('mallory@company.test')).landing).toBe(invalid);
    } finally {
      idp.signWith = 'idp';
    }
    // A signed response whose assertion was changed afterwards.
    idp.user = { email: 'ivy@company.test' };
    const genuine = Buffer.from((await idp.response()).context, 'base64').toString('utf8');
    const changed = Buffer.from(genuine.split('ivy@company.test').join('mallory@company.test')).toString('base64');
    expect((await new Browser(t).request('POST', ACS, { SAMLResponse: changed, RelayState: `${FRONTEND}/dashboard` })).location).toBe(invalid);

    expect((await post('mallory@company.test', (v) => Object.assign(v, { ConditionsNotOnOrAfter: past(3), SubjectConfirmationDataNotOnOrAfter: past(3) }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { ConditionsNotBefore: past(-10) }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { ConditionsNotOnOrAfter: 'garbage', SubjectConfirmationDataNotOnOrAfter: 'garbage' }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { Audience: 'https://another-sp.test/' }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { SubjectRecipient: 'https://another-sp.test/acs' }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { Destination: 'https://another-sp.test/acs' }))).landing).toBe(invalid);
    expect((await post('mallory@company.test', (v) => Object.assign(v, { Issuer: 'https://unknown-idp.test/' }))).landing).toBe(invalid);
    // A response to a request that was never made.
    expect((await post('mallory@company.test', (v) => Object.assign(v, { InResponseTo: '_never-requested' }))).landing).toBe(invalid);
    // Bad posts.
    for (const body of [{}, { SAMLResponse: 'not base64 xml', RelayState: FRONTEND }, { SAMLResponse: Buffer.from('<x').toString('base64'), RelayState: FRONTEND }]) {
      expect((await new Browser(t).request('POST', ACS, body as Record<string, string>)).location).toBe(invalid);
    }
    const huge = Buffer.from(`<Response>${'<a>x</a>'.repeat(SAML_RESPONSE_MAX_CHARS / 8)}</Response>`).toString('base64');
    expect((await new Browser(t).request('POST', ACS, { SAMLResponse: huge, RelayState: FRONTEND })).location).toBe(invalid);
    const json = await t.request('POST', '/api/sso/saml/acs/', { body: { SAMLResponse: 1 } });
    expect([json.status, json.headers.get('location')]).toEqual([302, invalid]);

    expect(reasons().slice(before)).toEqual([
      expect.stringContaining('InResponseTo is not valid'),
      expect.stringContaining('was already used'),
      expect.stringMatching(/signature/i),
      expect.stringMatching(/signature/i),
      expect.stringMatching(/expired|NotOnOrAfter/i),
      expect.stringMatching(/not yet valid|NotBefore/i),
      expect.stringContaining("'garbage' is not a valid date"),
      expect.stringMatching(/audience/i),
      expect.stringContaining('Recipient'),
      expect.stringContaining('Destination'),
      expect.stringContaining('no enabled SAML provider has the issuer'),
      expect.stringContaining('InResponseTo is not valid'),
      expect.stringContaining('SAMLResponse and RelayState are required'),
      expect.stringContaining('no enabled SAML provider has the issuer'),
      expect.stringContaining('the response is not XML'),
      expect.stringContaining(`the SAMLResponse is longer than ${SAML_RESPONSE_MAX_CHARS} characters`),
      expect.stringContaining('SAMLResponse and RelayState are required'),
    ]);
    const users = await t.app.get(DataSource).query(`SELECT email FROM "user" WHERE email = 'mallory@company.test'`);
    expect(users).toEqual([]);
  });

  it('asks for the e-mail when several SAML providers exist, and applies the sign-up setting', async () => {
    const second = await admin('POST', '', { type: 'saml', domain: 'other.test', metadata: idp.metadata });
    expect(second.status).toBe(200);
    expect((await t.request('GET', '/api/auth-provider/login-options/')).body.saml).toEqual({ type: 'saml', domain_required: true, default_redirect_url: `${FRONTEND}/login/saml` });
    expect((await signIn('ivy@company.test')).landing).toBe(`${FRONTEND}/login/error?error=errorInvalidSamlRequest`);
    expect(errorOf((await signIn('ivy@company.test', '?email=ivy%40company.test')).landing)).toBeNull();
    expect((await admin('DELETE', `${second.body.id}/`)).status).toBe(204);

    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: false } })).status).toBe(200);
    expect(errorOf((await signIn('newcomer@company.test')).landing)).toBe('errorSignupDisabled');
    expect((await t.request('PATCH', '/api/settings/update/', { token: staff.token, body: { allow_new_signups: true } })).status).toBe(200);
    // The password account of staff was not made by this provider.
    expect(errorOf((await signIn(staff.email)).landing)).toBe('errorDifferentProvider');

    // A changed metadata must be verified again.
    const updated = await admin('PATCH', `${providerId}/`, { metadata: `<!-- rotated -->${idp.metadata}` });
    expect(updated.body.is_verified).toBe(false);
    expect((await admin('PATCH', `${providerId}/`, { enabled: false })).body.enabled).toBe(false);
    expect((await signIn('ivy@company.test')).landing).toBe(`${FRONTEND}/login/error?error=errorInvalidSamlRequest`);
  });
});
