import { Signer } from '../src/core/signing/signer';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { craftJwt, keyOf, tokenClaims } from './support/tokens';

/** Issue 8 item 4: JWTs the app would never issue are refused with the endpoint's invalid-token answer. */
describe('JWT refusal', () => {
  const SECRET = 'jwt-suite-secret-that-is-long-enough';
  let t: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    t = await startApp({ SECRET_KEY: SECRET });
    user = await signUp(t);
  });
  afterAll(() => t.close());

  const invalidAccess = { detail: 'Access token is expired or invalid.', error: 'ERROR_INVALID_ACCESS_TOKEN' };
  const invalidRefresh = { error: 'ERROR_INVALID_REFRESH_TOKEN', detail: 'Refresh token is expired or invalid.' };

  const useAccess = async (token: string) => {
    const res = await t.request('GET', '/api/workspaces/', { token });
    return { status: res.status, body: res.body };
  };
  const useRefresh = async (token: string) => {
    const res = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: token } });
    return { status: res.status, body: res.status === 200 ? 'ok' : res.body };
  };

  /** Every bad variant of a token of `type`, with what it is, built by hand. */
  const badTokens = (type: 'access' | 'refresh') => {
    const jwt = keyOf(t, 'jwt');
    const now = Date.now() / 1000;
    const other = type === 'access' ? 'refresh' : 'access';
    return {
      'no exp': craftJwt(tokenClaims(user.id, type, { exp: undefined }), jwt),
      'no iat': craftJwt(tokenClaims(user.id, type, { iat: undefined }), jwt),
      'iat a minute ahead': craftJwt(tokenClaims(user.id, type, { iat: now + 60 }), jwt),
      'expired': craftJwt(tokenClaims(user.id, type, { exp: now - 10, iat: now - 100 }), jwt),
      [`token_type ${other}`]: craftJwt(tokenClaims(user.id, other), jwt),
      'no token_type': craftJwt(tokenClaims(user.id, type, { token_type: undefined }), jwt),
      'alg none': craftJwt(tokenClaims(user.id, type), jwt, 'none'),
      'alg HS512 with the right key': craftJwt(tokenClaims(user.id, type), jwt, 'HS512'),
      'signed with the signing key': craftJwt(tokenClaims(user.id, type), keyOf(t, 'signing')),
      // What tokens were signed with before the KeyRing: everyone signs in again once after the upgrade.
      'signed with the raw instance secret': craftJwt(tokenClaims(user.id, type), SECRET),
      'a password-reset link token': t.app.get(Signer).sign('reset_password', tokenClaims(user.id, type)),
      'string user_id': craftJwt(tokenClaims(user.id, type, { user_id: String(user.id) }), jwt),
    };
  };

  it('accepts hand-made tokens with the derived key (the refusals below are not from the crafting)', async () => {
    const jwt = keyOf(t, 'jwt');
    expect((await useAccess(craftJwt(tokenClaims(user.id, 'access'), jwt))).status).toBe(200);
    expect(await useRefresh(craftJwt(tokenClaims(user.id, 'refresh'), jwt))).toEqual({ status: 200, body: 'ok' });
    // An iat a moment ahead (clock skew between instances) is fine.
    expect((await useAccess(craftJwt(tokenClaims(user.id, 'access', { iat: Date.now() / 1000 + 2 }), jwt))).status).toBe(200);
  });

  it('refuses bad access tokens with ERROR_INVALID_ACCESS_TOKEN', async () => {
    for (const [what, token] of Object.entries(badTokens('access'))) {
      expect({ what, ...(await useAccess(token)) }).toEqual({ what, status: 401, body: invalidAccess });
    }
  });

  it('refuses bad refresh tokens with ERROR_INVALID_REFRESH_TOKEN on refresh, verify and blacklist', async () => {
    for (const [what, token] of Object.entries(badTokens('refresh'))) {
      expect({ what, ...(await useRefresh(token)) }).toEqual({ what, status: 401, body: invalidRefresh });
      const verify = await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: token } });
      expect({ what, status: verify.status, body: verify.body }).toEqual({ what, status: 401, body: invalidRefresh });
      const blacklist = await t.request('POST', '/api/user/token-blacklist/', { body: { refresh_token: token } });
      expect({ what, status: blacklist.status, body: blacklist.body }).toEqual({ what, status: 401, body: invalidRefresh });
    }
  });

  it('refuses a JWT as a password-reset link (purposes never cross)', async () => {
    const res = await t.request('POST', '/api/user/reset-password/', { body: { token: user.token, password: 'valid-password' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'BAD_TOKEN_SIGNATURE', detail: '' });
  });
});
