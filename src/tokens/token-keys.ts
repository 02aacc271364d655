import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeyRing } from '../core/secrets/key-ring';

/** Baserow's key alphabet (`random_string`: ASCII letters and digits) and length. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const TOKEN_KEY_LENGTH = 32;

/** A new key: 32 characters drawn uniformly by the system's CSPRNG. */
export function generateTokenKey(): string {
  let key = '';
  for (let i = 0; i < TOKEN_KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

/** What requests look a key up by (hex SHA-256): a leaked database does not reveal working keys. */
export function hashTokenKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Keeps keys encrypted (AES-256-GCM with the instance's `token-encryption` key) so Baserow's
 * answers that show a key can still show it.
 */
@Injectable()
export class TokenKeyCipher {
  private readonly key: Buffer;

  constructor(keys: KeyRing) {
    this.key = keys.bytes('token-encryption');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join('.');
  }

  /** The key, or null when it was sealed with another secret (SECRET_KEY changed since): rotating it shows a new one. */
  decrypt(sealed: string): string | null {
    try {
      const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
