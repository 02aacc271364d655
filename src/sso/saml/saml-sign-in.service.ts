import { Inject, Injectable } from '@nestjs/common';
import { XMLParser } from 'fast-xml-parser';
import { languageCheck } from '../../auth/auth.dto';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { AuthProviderEntity } from '../auth-provider.entity';
import { AuthProviderRepository } from '../auth-provider.repository';
import { AuthProvidersService } from '../auth-providers.service';
import { PendingSignIns } from '../pending-sign-ins';
import { SsoLoginRequest } from '../sso-login-request';
import { frontendLanding, SsoError, SsoErrorCode } from '../sso-redirects';
import { SsoSignInService } from '../sso-sign-in.service';
import { samlAcsUrl } from '../types/saml.type';
import { IdpMetadata, parseIdpMetadata } from './idp-metadata';
import { nodeSaml, SamlCacheProvider, SamlClient } from './node-saml';

/** Clock difference allowed with the IdP on NotBefore / NotOnOrAfter. */
const CLOCK_SKEW_MS = 60_000;
/** How long a used assertion id is remembered when the assertion says nothing of its end. */
const DEFAULT_ASSERTION_LIFETIME_MS = 24 * 3600_000;
/**
 * The longest SAMLResponse read (base64): IdPs send a few kilobytes, a hundred with many group
 * claims. The ACS is open to anyone and its XML is parsed on the request path: a larger post is
 * refused before any parsing.
 */
export const SAML_RESPONSE_MAX_CHARS = 512 * 1024;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, processEntities: false });
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown): string => (typeof value === 'object' && value !== null ? String((value as Record<string, unknown>)['#text'] ?? '') : String(value ?? ''));
const pem = (certificate: string) => `-----BEGIN CERTIFICATE-----\n${certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;
const invalidResponse = (why: string) => new SsoError(SsoErrorCode.invalidSamlResponse, why);
const invalidRequest = (why: string) => new SsoError(SsoErrorCode.invalidSamlRequest, why);

/**
 * SAML 2.0 sign-in (Baserow's `/api/sso/saml/`): one service provider whose entity id is the
 * ACS URL, AuthnRequests by the HTTP-Redirect binding, responses posted to the ACS. An
 * assertion must be signed by a certificate of the IdP's metadata, for this audience and
 * recipient, within its time window, and is used once; a response to a request of ours must
 * answer a pending one (InResponseTo), an IdP-initiated one is accepted, as Baserow's.
 */
@Injectable()
export class SamlSignInService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly providers: AuthProviderRepository,
    private readonly admin: AuthProvidersService,
    private readonly pending: PendingSignIns,
    private readonly signIns: SsoSignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get acsUrl(): string {
    return samlAcsUrl(this.config.publicUrl);
  }

  /** The SP metadata to give the IdP. */
  spMetadata(): string {
    return nodeSaml.generateServiceProviderMetadata({ issuer: this.acsUrl, callbackUrl: this.acsUrl, wantAssertionsSigned: true, identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' });
  }

  private client(provider: AuthProviderEntity, idp: IdpMetadata): SamlClient {
    const cacheProvider: SamlCacheProvider = {
      saveAsync: async (key, value) => {
        await this.pending.start(provider.id, { instant: value }, key);
        return { value, createdAt: Date.now() };
      },
      // node-saml reads a request's id (the response's and the subject's InResponseTo), then removes
      // it: a second response to the same request is refused (and a used assertion id in any case).
      getAsync: async (key) => {
        const data = await this.pending.peek(key, provider.id);
        return typeof data?.instant === 'string' ? data.instant : null;
      },
      removeAsync: async (key) => {
        if (key) await this.pending.remove(key);
        return key;
      },
    };
    return new nodeSaml.SAML({
      callbackUrl: this.acsUrl,
      issuer: this.acsUrl,
      audience: this.acsUrl,
      entryPoint: idp.ssoRedirectUrl,
      idpIssuer: idp.entityId,
      idpCert: idp.certificates.map(pem),
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: 'ifPresent',
      requestIdExpirationPeriodMs: 10 * 60_000,
      cacheProvider,
      disableRequestedAuthnContext: true,
    });
  }

  /** The enabled SAML provider of the e-mail's domain, or the only one; null when none or ambiguous. */
  async providerFor(email: string | undefined): Promise<AuthProviderEntity | null> {
    let candidates = await this.providers.listOfType('saml', true);
    if (email !== undefined) {
      const at = email.lastIndexOf('@');
      if (at < 0) return null;
      const domain = email.slice(at + 1).toLowerCase();
      candidates = candidates.filter((provider) => provider.domain?.toLowerCase() === domain);
    }
    return candidates.length === 1 ? candidates[0] : null;
  }

  /** `/api/sso/saml/login/`: the IdP's sign-in URL with an AuthnRequest; throws SsoError. */
  async loginUrl(email: string | undefined, request: SsoLoginRequest): Promise<string> {
    const provider = await this.providerFor(email);
    if (!provider) throw invalidRequest('no single enabled SAML provider for this e-mail');
    const idp = parseIdpMetadata(String(provider.settings.metadata ?? ''));
    if (!idp) throw invalidRequest(`the metadata of provider ${provider.id} is not usable`);
    const extra: Record<string, string> = {};
    if (request.language) extra.language = request.language;
    if (request.workspace_invitation_token) extra.workspace_invitation_token = request.workspace_invitation_token;
    const relayState = frontendLanding(this.config.webFrontendUrl, request.original, extra);
    try {
      return await this.client(provider, idp).getAuthorizeUrlAsync(relayState, undefined, {});
    } catch (error) {
      throw invalidRequest((error as Error).message);
    }
  }

  /** `/api/sso/saml/acs/`: where the browser goes after the IdP's response; throws SsoError. */
  async consume(body: Record<string, unknown>): Promise<string> {
    const { SAMLResponse: response, RelayState: relayState } = body;
    if (typeof response !== 'string' || !response || typeof relayState !== 'string' || !relayState) throw invalidResponse('SAMLResponse and RelayState are required');
    if (response.length > SAML_RESPONSE_MAX_CHARS) throw invalidResponse(`the SAMLResponse is longer than ${SAML_RESPONSE_MAX_CHARS} characters`);
    const request = this.relayRequest(relayState);
    const xml = Buffer.from(response, 'base64').toString('utf8');
    if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalidResponse('a document type declaration');
    let document: Record<string, any>;
    try {
      document = parser.parse(xml);
    } catch {
      throw invalidResponse('the response is not XML');
    }
    const outer = document.Response;
    const issuer = text(outer?.Issuer ?? list(outer?.Assertion)[0]?.Issuer).trim();
    const providers = await this.providers.listOfType('saml', true);
    const match = providers.map((provider) => ({ provider, idp: parseIdpMetadata(String(provider.settings.metadata ?? '')) })).find(({ idp }) => idp?.entityId === issuer);
    if (!match?.idp) throw invalidResponse(`no enabled SAML provider has the issuer ${issuer}`);
    const { provider, idp } = match;
    let profile;
    try {
      ({ profile } = await this.client(provider, idp).validatePostResponseAsync({ SAMLResponse: response }));
    } catch (error) {
      throw invalidResponse((error as Error).message);
    }
    if (!profile) throw invalidResponse('no assertion');
    // What node-saml leaves to us: the response's Destination and the (signed) assertion's Recipient.
    if (outer?.['@Destination'] !== undefined && outer['@Destination'] !== this.acsUrl) throw invalidResponse(`Destination ${outer['@Destination']} is not the ACS`);
    const assertion = parser.parse(profile.getAssertionXml?.() ?? '').Assertion ?? {};
    const confirmations = list<Record<string, any>>(assertion.Subject?.SubjectConfirmation).map((confirmation) => confirmation.SubjectConfirmationData ?? {});
    if (!confirmations.length || confirmations.some((data) => data['@Recipient'] !== this.acsUrl)) throw invalidResponse('the assertion is not for this ACS (Recipient)');
    const ends = [assertion.Conditions?.['@NotOnOrAfter'], ...confirmations.map((data) => data['@NotOnOrAfter'])].map((value) => Date.parse(String(value))).filter(Number.isFinite);
    const expiresAt = new Date((ends.length ? Math.max(...ends) : Date.now() + DEFAULT_ASSERTION_LIFETIME_MS) + CLOCK_SKEW_MS);
    const assertionId = String(assertion['@ID'] ?? '');
    if (!assertionId) throw invalidResponse('the assertion has no ID');
    if (!(await this.db.run(() => this.providers.useAssertion(`${provider.id}:${assertionId}`.slice(0, 255), expiresAt)))) {
      throw invalidResponse(`assertion ${assertionId} was already used`);
    }
    const attribute = (key: unknown) => {
      const value = typeof key === 'string' && key ? (profile as Record<string, unknown>)[key] : undefined;
      return (Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '').trim();
    };
    const s = provider.settings;
    const email = attribute(s.email_attr_key ?? 'user.email');
    const first = attribute(s.first_name_attr_key ?? 'user.first_name');
    const name = first ? [first, attribute(s.last_name_attr_key)].filter(Boolean).join(' ') : attribute('user.name') || email;
    const landing = await this.signIns.signIn(
      provider,
      { email, name, language: request.language, workspaceInvitationToken: request.workspace_invitation_token, original: request.original },
      SsoErrorCode.invalidSamlResponse,
    );
    await this.db.run(() => this.admin.markVerified(provider));
    return landing;
  }

  /** The RelayState: where to land, and the sign-up's language and invitation in its query (Baserow's SAMLResponseSerializer). */
  private relayRequest(relayState: string): SsoLoginRequest {
    let url: URL;
    try {
      url = new URL(relayState, this.config.webFrontendUrl);
    } catch {
      throw invalidResponse('RelayState is not a URL');
    }
    const request: SsoLoginRequest = {};
    const language = url.searchParams.get('language');
    if (language !== null) {
      if (language.length < 2 || language.length > 10 || languageCheck(language)) throw invalidResponse('Invalid RelayState query parameters.');
      request.language = language;
    }
    const token = url.searchParams.get('workspace_invitation_token');
    if (token) request.workspace_invitation_token = token;
    url.search = '';
    request.original = url.toString();
    return request;
  }
}
