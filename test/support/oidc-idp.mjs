// A real OpenID provider (oidc-provider) on loopback for the single sign-on suite, run in a child
// process (the package is ESM-only). argv[2]: JSON { clients: [{ client_id, client_secret,
// redirect_uris }], forgeKeys?: true }. Any login is accepted (the development interactions): the
// login is the account id and its e-mail; a login starting with "unverified" has
// email_verified false. With forgeKeys the JWKS it publishes is another key pair's under the same
// key id than the one it signs with (ID tokens "signed by another key"). Prints one JSON line
// { issuer } once listening.
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2]);
const key = () => ({ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' });
const signing = key();
const published = options.forgeKeys ? key() : signing;
const publicOnly = ({ kty, n, e, kid, use, alg }) => ({ kty, n, e, kid, use, alg });

const server = (await import('node:http')).createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: options.clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' })),
  jwks: { keys: [signing] },
  cookies: { keys: ['test-cookie-key'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified'), name: `Name of ${id.split('@')[0]}` }),
  }),
  // First-party test clients: no consent screen.
  loadExistingGrant: async (ctx) => {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
provider.use(async (ctx, next) => {
  if (ctx.path === '/jwks' && options.forgeKeys) {
    ctx.body = { keys: [publicOnly(published)] };
    return;
  }
  await next();
});
server.on('request', provider.callback());
process.stdout.write(JSON.stringify({ issuer }) + '\n');
