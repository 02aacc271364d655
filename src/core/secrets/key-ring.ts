import { createHmac, createSecretKey, KeyObject } from 'node:crypto';

/** What a derived key is for; a value signed for one purpose never verifies for another. */
export type KeyPurpose = 'jwt' | 'signing' | 'token-encryption';

/** HMAC-SHA256(instance secret, purpose): one independent key per purpose from the one secret. */
export function deriveKey(secret: string, purpose: KeyPurpose): string {
  return createHmac('sha256', secret).update(`rowspace:${purpose}`).digest('base64url');
}

/**
 * The keys of this instance, derived from the instance secret resolved at start-up
 * (see instance-secret.ts). Nothing signs with the secret itself.
 */
export class KeyRing {
  private readonly keys = new Map<KeyPurpose, string>();
  private readonly keyObjects = new Map<KeyPurpose, KeyObject>();

  constructor(secret: string) {
    for (const purpose of ['jwt', 'signing', 'token-encryption'] as const) {
      const key = deriveKey(secret, purpose);
      this.keys.set(purpose, key);
      this.keyObjects.set(purpose, createSecretKey(Buffer.from(key, 'utf8')));
    }
  }

  key(purpose: KeyPurpose): string {
    return this.keys.get(purpose)!;
  }

  /**
   * The same key (its UTF-8 text) as a KeyObject: jsonwebtoken given a string first tries it as
   * a public key, which cost most of a request's verification time.
   */
  keyObject(purpose: KeyPurpose): KeyObject {
    return this.keyObjects.get(purpose)!;
  }

  /** The 32 raw bytes of a purpose's key (an AES-256 key). */
  bytes(purpose: KeyPurpose): Buffer {
    return Buffer.from(this.key(purpose), 'base64url');
  }
}
