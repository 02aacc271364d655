import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAML_TEST_KEYS } from './saml-keys';

/**
 * The parts of samlify used here, typed here: its type definitions reach @xmldom/xmldom's, which
 * add the DOM library to the whole program (see src/sso/saml/node-saml.ts).
 */
interface SamlifyEntity {
  getMetadata(): string;
  entityMeta: { getAssertionConsumerService(binding: string): string | string[]; getEntityID(): string };
  parseLoginRequest(sp: SamlifyEntity, binding: string, req: unknown): Promise<{ extract: any }>;
  createLoginResponse(sp: SamlifyEntity, requestInfo: unknown, binding: string, user: unknown, replace: (template: string) => { id: string; context: string }): Promise<unknown>;
}
const samlify = require('samlify') as {
  setSchemaValidator(validator: { validate: (xml: string) => Promise<string> }): void;
  IdentityProvider(settings: Record<string, unknown>): SamlifyEntity;
  ServiceProvider(settings: Record<string, unknown>): SamlifyEntity;
};

// The IdP of the tests reads Rowspace's AuthnRequests as they come; it does not validate them against the XSD.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The values of samlify's login response template, which a test may change before it is signed. */
export type ResponseValues = Record<string, string>;

export interface SamlIdpUser {
  email: string;
  firstName?: string;
  lastName?: string;
}

/**
 * A real SAML 2.0 IdP (samlify) on loopback: its metadata is pasted into Rowspace, it reads the
 * AuthnRequest of the HTTP-Redirect binding at /sso and answers with the auto-posting form of
 * the HTTP-POST binding, its assertion signed with its key. `user` is who signs in; `tamper`
 * changes the response before it is signed; `signWith: 'forger'` signs with a key its metadata
 * does not name.
 */
export class SamlIdp {
  user: SamlIdpUser = { email: 'someone@example.com' };
  tamper: (values: ResponseValues) => void = () => undefined;
  signWith: 'idp' | 'forger' = 'idp';
  private server!: Server;
  url = '';
  entityId = '';

  constructor(private readonly spMetadata: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req.url ?? '/')
        .then((html) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html))
        .catch((error: Error) => res.writeHead(400).end(error.message));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.entityId = `${this.url}/metadata`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private idp(keys: { cert: string; key: string }) {
    return samlify.IdentityProvider({
      entityID: this.entityId,
      signingCert: keys.cert,
      privateKey: keys.key,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${this.url}/sso` }],
    });
  }

  /** The metadata staff paste into Rowspace (it names only the IdP's own certificate). */
  get metadata(): string {
    return this.idp(SAML_TEST_KEYS.idp).getMetadata();
  }

  private get sp() {
    return samlify.ServiceProvider({ metadata: this.spMetadata });
  }

  private async handle(path: string): Promise<string> {
    const url = new URL(path, this.url);
    if (url.pathname !== '/sso') throw new Error(`no such page ${url.pathname}`);
    const idp = this.idp(SAML_TEST_KEYS[this.signWith]);
    const query = Object.fromEntries(url.searchParams);
    const { extract } = await idp.parseLoginRequest(this.sp, 'redirect', { query, octetString: '' });
    return this.form(await this.response(idp, { extract }), query.RelayState ?? '');
  }

  /** A response of the IdP: to the request `requestInfo` (SP-initiated) or to nobody (IdP-initiated). */
  async response(idp = this.idp(SAML_TEST_KEYS[this.signWith]), requestInfo: { extract?: any } = {}): Promise<{ context: string; entityEndpoint: string }> {
    const user = this.user;
    const attributes: [string, string | undefined][] = [['user.email', user.email], ['user.first_name', user.firstName], ['user.last_name', user.lastName]];
    const attributeStatement = `<saml:AttributeStatement>${attributes
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escape(value!)}</saml:AttributeValue></saml:Attribute>`)
      .join('')}</saml:AttributeStatement>`;
    const result = await idp.createLoginResponse(this.sp, requestInfo, 'post', { email: user.email }, (template: string) => {
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const acs = this.sp.entityMeta.getAssertionConsumerService('post') as string;
      const values: ResponseValues = {
        ID: `_${randomBytes(16).toString('hex')}`,
        AssertionID: `_${randomBytes(16).toString('hex')}`,
        Destination: acs,
        Audience: this.sp.entityMeta.getEntityID(),
        SubjectRecipient: acs,
        Issuer: this.entityId,
        IssueInstant: now.toISOString(),
        StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: EMAIL_FORMAT,
        NameID: escape(user.email),
        InResponseTo: requestInfo.extract?.request?.id ?? '',
        AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        AttributeStatement: attributeStatement,
      };
      this.tamper(values);
      return { id: values.ID, context: template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '') };
    });
    return result as { context: string; entityEndpoint: string };
  }

  /** The HTTP-POST binding's page: a form the browser posts to the ACS. */
  private form(response: { context: string; entityEndpoint: string }, relayState: string): string {
    return `<form method="post" action="${escape(response.entityEndpoint)}"><input type="hidden" name="SAMLResponse" value="${escape(response.context)}"/><input type="hidden" name="RelayState" value="${escape(relayState)}"/></form>`;
  }
}

/** The fields and action of the IdP's auto-posting form. */
export function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
  const action = unescape(/action="([^"]*)"/.exec(html)![1]);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) fields[match[1]] = unescape(match[2]);
  return { action, fields };
}
