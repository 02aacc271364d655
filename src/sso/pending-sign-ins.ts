import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { AuthProviderRepository } from './auth-provider.repository';

export const randomKey = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** How long a browser may take at the identity provider. */
const LIFETIME_MS = 10 * 60 * 1000;

/**
 * Sign-ins started and not finished: kept in the database (any instance may get the callback)
 * under the hash of a random key (OpenID Connect's `state`, SAML's request id), taken once.
 */
@Injectable()
export class PendingSignIns {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: AuthProviderRepository,
  ) {}

  async start(providerId: number, data: Record<string, unknown>, key = randomKey()): Promise<string> {
    await this.db.run(() => this.repo.savePending(sha256(key), providerId, data, new Date(Date.now() + LIFETIME_MS)));
    return key;
  }

  /** The data of a pending sign-in of this provider, left in place (see `take`, `remove`). */
  async peek(key: string, providerId: number): Promise<Record<string, unknown> | null> {
    if (!key || key.length > 512) return null;
    const pending = await this.repo.findPending(sha256(key));
    return pending && pending.providerId === providerId ? pending.data : null;
  }

  async remove(key: string): Promise<void> {
    if (key && key.length <= 512) await this.db.run(() => this.repo.deletePending(sha256(key)));
  }

  /** The data of a pending sign-in of this provider, removed; null when unknown, used, expired or another provider's. */
  async take(key: string, providerId: number): Promise<Record<string, unknown> | null> {
    if (!key || key.length > 512) return null;
    const pending = await this.db.run(() => this.repo.takePending(sha256(key)));
    return pending && pending.providerId === providerId ? pending.data : null;
  }
}
