import { XMLParser } from 'fast-xml-parser';

/** What the SP needs of an IdP's metadata: who it is, where to send requests, which keys sign. */
export interface IdpMetadata {
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  ssoRedirectUrl: string;
  /** PEM-less base64 certificates of the signing (or unspecified-use) keys. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, processEntities: false });
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown): string => (typeof value === 'object' && value !== null ? String((value as Record<string, unknown>)['#text'] ?? '') : String(value ?? ''));

/** The IdP's metadata (an EntityDescriptor, or the first of an EntitiesDescriptor with an IdP), or null when it is not usable. */
export function parseIdpMetadata(xml: string): IdpMetadata | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  let doc: Record<string, any>;
  try {
    doc = parser.parse(xml);
  } catch {
    return null;
  }
  const entities = [...list(doc.EntityDescriptor), ...list(doc.EntitiesDescriptor?.EntityDescriptor)];
  for (const entity of entities) {
    const idp = list(entity?.IDPSSODescriptor)[0];
    if (!idp || typeof entity['@entityID'] !== 'string') continue;
    const sso = list<Record<string, string>>(idp.SingleSignOnService).find((service) => service['@Binding'] === REDIRECT_BINDING);
    const certificates = list<Record<string, any>>(idp.KeyDescriptor)
      .filter((key) => key['@use'] === undefined || key['@use'] === 'signing')
      .flatMap((key) => list(key.KeyInfo?.X509Data).flatMap((data: Record<string, unknown>) => list(data.X509Certificate)))
      .map((cert) => text(cert).replace(/\s+/g, ''))
      .filter(Boolean);
    if (!sso?.['@Location'] || !certificates.length) return null;
    return { entityId: entity['@entityID'], ssoRedirectUrl: sso['@Location'], certificates };
  }
  return null;
}
