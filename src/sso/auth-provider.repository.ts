import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { isUniqueViolation } from '../core/database/constraint-errors';
import { UnitOfWork } from '../core/database/unit-of-work';
import { AuthProviderEntity, AuthProviderUserEntity, PendingSignInEntity, UsedAssertionEntity } from './auth-provider.entity';

/** The auth providers, the users they signed in, pending sign-ins and used SAML assertions. */
@Injectable()
export class AuthProviderRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get providers() {
    return this.db.manager.getRepository(AuthProviderEntity);
  }

  list(): Promise<AuthProviderEntity[]> {
    return this.providers.find({ order: { id: 'ASC' } });
  }

  listOfType(type: string, enabledOnly = false): Promise<AuthProviderEntity[]> {
    return this.providers.find({ where: enabledOnly ? { type, enabled: true } : { type }, order: { id: 'ASC' } });
  }

  findById(id: number): Promise<AuthProviderEntity | null> {
    return this.providers.findOneBy({ id });
  }

  async create(values: Omit<AuthProviderEntity, 'id' | 'createdOn' | 'updatedOn'>): Promise<AuthProviderEntity> {
    const now = new Date();
    return this.providers.save(this.providers.create({ ...values, createdOn: now, updatedOn: now }));
  }

  async update(id: number, values: Partial<Pick<AuthProviderEntity, 'domain' | 'enabled' | 'settings'>>): Promise<void> {
    await this.providers.update({ id }, { ...values, updatedOn: new Date() } as QueryDeepPartialEntity<AuthProviderEntity>);
  }

  async delete(id: number): Promise<void> {
    await this.providers.delete({ id });
  }

  /** Whether a provider other than this one is enabled (the last one may not be turned off). */
  async anotherEnabled(id: number): Promise<boolean> {
    return (await this.providers.createQueryBuilder('p').where('p.enabled = :enabled AND p.id <> :id', { enabled: true, id }).getCount()) > 0;
  }

  async isLinked(providerId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.getRepository(AuthProviderUserEntity).countBy({ providerId, userId })) > 0;
  }

  async link(providerId: number, userId: number): Promise<void> {
    await this.db.manager.getRepository(AuthProviderUserEntity).createQueryBuilder().insert().values({ providerId, userId }).orIgnore().execute();
  }

  /** Records a started sign-in, forgetting those that expired. */
  async savePending(keyHash: string, providerId: number, data: Record<string, unknown>, expiresAt: Date): Promise<void> {
    const pending = this.db.manager.getRepository(PendingSignInEntity);
    await pending.delete({ expiresAt: LessThan(new Date()) as unknown as Date });
    await pending.insert({ keyHash, providerId, data, expiresAt } as QueryDeepPartialEntity<PendingSignInEntity>);
  }

  /** The pending sign-in of this key, removed so that it is used once; null when unknown, used or expired. */
  async takePending(keyHash: string): Promise<PendingSignInEntity | null> {
    const pending = this.db.manager.getRepository(PendingSignInEntity);
    const found = await pending.findOneBy({ keyHash });
    if (!found) return null;
    // Two requests racing with one key: only the one whose delete removed the row goes on.
    const removed = await pending.delete({ id: found.id });
    if (!removed.affected) return null;
    return found.expiresAt.getTime() > Date.now() ? found : null;
  }

  /** The pending sign-in of this key, left in place (SAML reads a request id twice, then removes it). */
  async findPending(keyHash: string): Promise<PendingSignInEntity | null> {
    const found = await this.db.manager.getRepository(PendingSignInEntity).findOneBy({ keyHash });
    return found && found.expiresAt.getTime() > Date.now() ? found : null;
  }

  async deletePending(keyHash: string): Promise<void> {
    await this.db.manager.getRepository(PendingSignInEntity).delete({ keyHash });
  }

  /** Records that an assertion was used; false when it already was (a replay). */
  async useAssertion(assertionId: string, expiresAt: Date): Promise<boolean> {
    const used = this.db.manager.getRepository(UsedAssertionEntity);
    await used.delete({ expiresAt: LessThan(new Date()) as unknown as Date });
    try {
      await used.insert({ assertionId, expiresAt });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
