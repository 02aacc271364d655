import { constants, createHash, createPublicKey, generateKeyPair, KeyObject, sign, verify } from 'node:crypto';
import { promisify } from 'node:util';
import { pythonJsonDumps } from './python-json';

/** `manifest_signature.json`: Baserow's signature of the manifest, with the public key that made it. */
export interface ManifestSignature {
  signature: string;
  /** Base64 of the PEM (SubjectPublicKeyInfo) public key. */
  public_key_pem: string;
  timestamp: string;
}

export interface KeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

/** A new RSA 2048 key pair as Baserow makes one (PKCS#1 private key, SubjectPublicKeyInfo public key). */
export async function createKeyPair(): Promise<KeyPair> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicExponent: 65537,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/**
 * The SHA-256 digest of the manifest as Python's `json.dumps(manifest, sort_keys=True)`: what
 * Baserow signs (RSA-PSS, MGF1 SHA-256, the longest salt, over that digest hashed once more
 * with SHA-256, as `private_key.sign(digest, PSS, SHA256())` does).
 */
function manifestDigest(manifest: unknown): Buffer {
  return createHash('sha256').update(Buffer.from(pythonJsonDumps(manifest), 'utf8')).digest();
}

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING };

export function signManifest(manifest: unknown, keys: KeyPair, now = new Date()): ManifestSignature {
  const signature = sign('sha256', manifestDigest(manifest), { key: keys.privateKeyPem, ...PSS, saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN });
  return {
    signature: signature.toString('base64'),
    public_key_pem: Buffer.from(keys.publicKeyPem, 'utf8').toString('base64'),
    // Python's naive `datetime.now().isoformat()`.
    timestamp: now.toISOString().replace('Z', '').replace(/\.(\d{3})$/, '.$1000'),
  };
}

export type SignatureCheck = 'valid' | 'untrusted' | 'forged' | 'unreadable';

/**
 * Baserow's `validate_signature`: the public key (as the zip's PEM text) must be a trusted
 * source's, else "untrusted" (also when it is no key at all); a trusted key whose signature
 * does not verify is "forged".
 */
export async function checkSignature(manifest: unknown, data: unknown, trusted: (publicKeyPem: string) => Promise<boolean>): Promise<SignatureCheck> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return 'unreadable';
  const { public_key_pem: encodedKey, signature } = data as Partial<Record<string, unknown>>;
  const pem = Buffer.from(typeof encodedKey === 'string' ? encodedKey : '', 'base64').toString('utf8');
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    return 'untrusted';
  }
  if (!(await trusted(pem))) return 'untrusted';
  const bytes = Buffer.from(typeof signature === 'string' ? signature : '', 'base64');
  let ok = false;
  try {
    ok = verify('sha256', manifestDigest(manifest), { key, ...PSS, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, bytes);
  } catch {
    ok = false;
  }
  return ok ? 'valid' : 'forged';
}

/** A trusted key as an operator gives it (Baserow's `manage_trusted_sources add`): base64 of the PEM, or the PEM itself; null when it is no public key. */
export function publicKeyPemOf(given: string): string | null {
  const text = given.includes('BEGIN PUBLIC KEY') ? given : Buffer.from(given.trim(), 'base64').toString('utf8');
  try {
    return createPublicKey(text).export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    return null;
  }
}
