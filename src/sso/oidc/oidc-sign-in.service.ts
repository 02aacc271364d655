import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createLocalJWKSet, errors as joseErrors, JSONWebKeySet, jwtVerify, JWTPayload } from 'jose';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { AuthProviderEntity } from '../auth-provider.entity';
import { AuthProviderRepository } from '../auth-provider.repository';
import { AuthProvidersService } from '../auth-providers.service';
import { PendingSignIns, randomKey, sha256 } from '../pending-sign-ins';
import { providerRequest, ProviderHttpError, ProviderHttpLimits } from '../provider-http';
import { SsoError, SsoErrorCode } from '../sso-redirects';
import { SsoSignInService } from '../sso-sign-in.service';
import type { SsoLoginRequest } from '../sso-login-request';


interface PendingOidc {
  verifier: string;
  nonce: string;
  browser: string;
  request: SsoLoginRequest;
}

const SCOPE = 'openid email profile';
const JWKS_TTL_MS = 3600_000;
/** Asymmetric algorithms only: an HMAC-signed ID token would be keyed with the client secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const flowError = (why: string) => new SsoError(SsoErrorCode.authFlowError, why);
const base64url = (buffer: Buffer) => buffer.toString('base64url');

/**
 * OpenID Connect's authorization code flow with PKCE (Baserow's `/api/sso/oauth2/`): the login
 * redirect records state, nonce and code verifier, bound to the browser by a cookie; the
 * callback takes them once, exchanges the code, verifies the ID token's signature against the
 * provider's JWKS with its issuer, audience, expiry and nonce, and signs the user in.
 */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger(OidcSignInService.name);
  private readonly limits: ProviderHttpLimits;
  private readonly jwks = new Map<string, { set: JSONWebKeySet; at: number }>();

  constructor(
    private readonly providers: AuthProviderRepository,
    private readonly admin: AuthProvidersService,
    private readonly pending: PendingSignIns,
    private readonly signIns: SsoSignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.limits = { timeoutMs: config.ssoProviderTimeoutMs, maxBytes: config.ssoProviderMaxBytes };
  }

  callbackUrl(providerId: number): string {
    return `${this.config.publicUrl}/api/sso/oauth2/callback/${providerId}/`;
  }

  private async provider(id: number): Promise<AuthProviderEntity> {
    const provider = await this.providers.findById(id);
    if (!provider || provider.type !== 'openid_connect' || !provider.enabled) throw new SsoError(SsoErrorCode.providerDoesNotExist, `no enabled provider ${id}`);
    return provider;
  }

  /** The provider's authorization URL and the browser's binding (a cookie's value). */
  async start(providerId: number, request: SsoLoginRequest): Promise<{ location: string; browser: string }> {
    const provider = await this.provider(providerId);
    const s = provider.settings as Record<string, string>;
    const verifier = randomKey();
    const nonce = randomKey();
    const browser = randomKey();
    const state = await this.pending.start(provider.id, { verifier, nonce, browser: sha256(browser), request } satisfies PendingOidc);
    const url = new URL(s.authorization_url);
    const params = {
      response_type: 'code',
      client_id: s.client_id,
      redirect_uri: this.callbackUrl(provider.id),
      scope: SCOPE,
      state,
      nonce,
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return { location: url.toString(), browser };
  }

  /** The URL the browser goes to after the provider sent it back; throws SsoError. */
  async callback(providerId: number, query: Record<string, unknown>, browser: string | undefined): Promise<string> {
    const provider = await this.provider(providerId);
    const state = typeof query.state === 'string' ? query.state : '';
    const pending = (await this.pending.take(state, provider.id)) as PendingOidc | null;
    if (!pending) throw flowError('unknown, used or expired state');
    const expected = Buffer.from(pending.browser);
    const given = Buffer.from(sha256(browser ?? ''));
    if (!browser || expected.length !== given.length || !timingSafeEqual(expected, given)) throw flowError('the state was started in another browser');
    if (typeof query.error === 'string') throw flowError(`the provider answered ${query.error}`);
    if (typeof query.code !== 'string' || !query.code) throw flowError('no code');
    try {
      const claims = await this.claims(provider, query.code, pending);
      const s = provider.settings as Record<string, string>;
      const text = (key: string | undefined) => (key && typeof claims[key] === 'string' ? (claims[key] as string).trim() : '');
      const name = [text(s.first_name_attr_key || 'name'), text(s.last_name_attr_key)].filter(Boolean).join(' ');
      const email = text(s.email_attr_key || 'email');
      return await this.signIns.signIn(
        provider,
        { email, name: name || email, language: pending.request.language, workspaceInvitationToken: pending.request.workspace_invitation_token, original: pending.request.original },
        SsoErrorCode.authFlowError,
        true,
      );
    } catch (error) {
      if (error instanceof ProviderHttpError) throw flowError(error.message);
      throw error;
    }
  }

  /** The verified ID token's claims, or the user info endpoint's of the same subject. */
  private async claims(provider: AuthProviderEntity, code: string, pending: PendingOidc): Promise<Record<string, unknown>> {
    const s = provider.settings as Record<string, string | boolean>;
    const secret = typeof s.secret === 'string' ? (this.admin.secrets.open(s.secret) ?? '') : '';
    const basic = Buffer.from(`${encodeURIComponent(String(s.client_id))}:${encodeURIComponent(secret)}`).toString('base64');
    const { status, json } = await providerRequest(
      String(s.access_token_url),
      {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.callbackUrl(provider.id), code_verifier: pending.verifier }).toString(),
      },
      this.limits,
    );
    const tokens = (json ?? {}) as Record<string, unknown>;
    if (status !== 200 || typeof tokens.id_token !== 'string') throw flowError(`the token endpoint answered ${status} without an ID token`);
    const idToken = await this.verifyIdToken(provider, tokens.id_token);
    if (idToken.nonce !== pending.nonce) throw flowError('the ID token has another nonce');
    if (idToken.email_verified === false) throw flowError('the provider has not verified the e-mail address');
    if (s.use_id_token === true || !s.user_info_url) return idToken;
    if (typeof tokens.access_token !== 'string') throw flowError('no access token for the user info');
    const info = await providerRequest(String(s.user_info_url), { headers: { Authorization: `Bearer ${tokens.access_token}`, Accept: 'application/json' } }, this.limits);
    const userInfo = (info.json ?? {}) as Record<string, unknown>;
    if (info.status !== 200 || userInfo.sub !== idToken.sub) throw flowError('the user info is not of the ID token subject');
    if (userInfo.email_verified === false) throw flowError('the provider has not verified the e-mail address');
    return userInfo;
  }

  private async verifyIdToken(provider: AuthProviderEntity, token: string): Promise<JWTPayload> {
    const s = provider.settings as Record<string, string>;
    const verify = async (fresh: boolean) =>
      (await jwtVerify(token, createLocalJWKSet(await this.keySet(s.jwks_url, fresh)), { issuer: s.issuer, audience: s.client_id, algorithms: ALGORITHMS, clockTolerance: 60 })).payload;
    try {
      try {
        return await verify(false);
      } catch (error) {
        // The provider may have rotated its keys since they were read: read them again once.
        if (error instanceof joseErrors.JWKSNoMatchingKey) return await verify(true);
        throw error;
      }
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) {
        this.logger.warn(`ID token of provider ${provider.id} refused: ${error.code} ${error.message}`);
        throw flowError(`ID token refused: ${error.message}`);
      }
      throw error;
    }
  }

  private async keySet(url: string, fresh: boolean): Promise<JSONWebKeySet> {
    const cached = this.jwks.get(url);
    if (cached && !fresh && Date.now() - cached.at < JWKS_TTL_MS) return cached.set;
    const { status, json } = await providerRequest(url, { headers: { Accept: 'application/json' } }, this.limits);
    const set = json as JSONWebKeySet;
    if (status !== 200 || !Array.isArray(set?.keys)) throw flowError(`the JWKS endpoint answered ${status}`);
    this.jwks.set(url, { set, at: Date.now() });
    return set;
  }
}
