import { createHmac, randomUUID } from 'node:crypto';
import { KeyPurpose, KeyRing } from '../../src/core/secrets/key-ring';
import type { TestApp } from './app';

/** The app's derived key for a purpose ('jwt' for access/refresh tokens, 'signing' for links). */
export function keyOf(t: TestApp, purpose: KeyPurpose): string {
  return t.app.get(KeyRing).key(purpose);
}

export type CraftAlg = 'HS256' | 'HS384' | 'HS512' | 'none';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT built by hand with node:crypto, so tests can make ones the app would never issue. */
export function craftJwt(claims: Record<string, unknown>, key: string, alg: CraftAlg = 'HS256'): string {
  const signed = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  if (alg === 'none') return `${signed}.`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  return `${signed}.${createHmac(hash, key).update(signed).digest('base64url')}`;
}

/** Claims as the app issues them: valid for an hour from now, overridable (undefined drops a claim). */
export function tokenClaims(userId: number, type: 'access' | 'refresh', overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Date.now() / 1000;
  const claims: Record<string, unknown> = { token_type: type, exp: now + 3600, iat: now, jti: randomUUID().replace(/-/g, ''), user_id: userId, ...overrides };
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
}
