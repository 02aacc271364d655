/**
 * The parts of @node-saml/node-saml used here, typed here: its own type definitions reach
 * @xmldom/xmldom's, which add the DOM library to the whole program (and with it stricter
 * `Blob`/`fetch` body types that other modules' Buffers do not meet).
 */
export interface SamlCacheProvider {
  saveAsync(key: string, value: string): Promise<{ value: string; createdAt: number } | null>;
  getAsync(key: string): Promise<string | null>;
  removeAsync(key: string | null): Promise<string | null>;
}

export interface SamlProfile {
  issuer: string;
  nameID: string;
  getAssertionXml?(): string;
  [attribute: string]: unknown;
}

export interface SamlOptions {
  callbackUrl: string;
  issuer: string;
  audience: string;
  entryPoint: string;
  idpIssuer: string;
  idpCert: string[];
  wantAssertionsSigned: boolean;
  wantAuthnResponseSigned: boolean;
  acceptedClockSkewMs: number;
  validateInResponseTo: 'never' | 'ifPresent' | 'always';
  requestIdExpirationPeriodMs: number;
  cacheProvider: SamlCacheProvider;
  disableRequestedAuthnContext: boolean;
}

export interface SamlClient {
  getAuthorizeUrlAsync(relayState: string, host: string | undefined, options: Record<string, unknown>): Promise<string>;
  validatePostResponseAsync(container: Record<string, string>): Promise<{ profile: SamlProfile | null; loggedOut: boolean }>;
}

interface NodeSaml {
  SAML: new (options: SamlOptions) => SamlClient;
  generateServiceProviderMetadata(params: { issuer: string; callbackUrl: string; wantAssertionsSigned: boolean; identifierFormat: string }): string;
}

export const nodeSaml = require('@node-saml/node-saml') as NodeSaml;
