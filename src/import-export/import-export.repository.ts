import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In, LessThanOrEqual } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { JobEntity } from '../jobs/job.entity';
import { ImportExportResourceEntity, TrustedSourceEntity } from './import-export.entity';

/** Import/export resources, trusted keys, the finished export jobs of a workspace and the instance's signature setting. */
@Injectable()
export class ImportExportRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get resources() {
    return this.db.manager.getRepository(ImportExportResourceEntity);
  }

  private get sources() {
    return this.db.manager.getRepository(TrustedSourceEntity);
  }

  createResource(values: Partial<ImportExportResourceEntity>): Promise<ImportExportResourceEntity> {
    const now = new Date();
    return this.resources.save(this.resources.create({ uuid: randomUUID(), originalName: '', size: 0, isValid: false, markedForDeletion: false, createdOn: now, updatedOn: now, ...values }));
  }

  async updateResource(id: number, values: Partial<ImportExportResourceEntity>): Promise<void> {
    await this.resources.update({ id }, { ...values, updatedOn: new Date() } as Parameters<typeof this.resources.update>[1]);
  }

  /** A live (not marked for deletion) resource of the user. */
  findOwned(id: number, userId: number): Promise<ImportExportResourceEntity | null> {
    return this.resources.findOneBy({ id, createdById: userId, markedForDeletion: false });
  }

  /** Marks for deletion the resources created before `removal`, and the unfinished ones created before `abandoned`. */
  async markOldResources(removal: Date, abandoned: Date): Promise<void> {
    await this.resources.update({ markedForDeletion: false, createdOn: LessThanOrEqual(removal.toISOString()) } as never, { markedForDeletion: true, updatedOn: new Date() });
    await this.resources.update({ markedForDeletion: false, isValid: false, createdOn: LessThanOrEqual(abandoned.toISOString()) } as never, { markedForDeletion: true, updatedOn: new Date() });
  }

  markedResources(): Promise<ImportExportResourceEntity[]> {
    return this.resources.find({ where: { markedForDeletion: true }, order: { id: 'ASC' }, take: 500 });
  }

  async deleteResource(id: number): Promise<void> {
    await this.resources.delete({ id });
  }

  async validResourceWithUuid(uuid: string): Promise<boolean> {
    return (await this.resources.countBy({ uuid, isValid: true, markedForDeletion: false })) > 0;
  }

  /** The user's recent finished jobs of a type, latest first. */
  finishedJobs(userId: number, type: string, limit: number): Promise<JobEntity[]> {
    return this.db.manager.getRepository(JobEntity).find({ where: { userId, type, state: 'finished' }, order: { updatedOn: 'DESC', id: 'DESC' }, take: limit });
  }

  /** Pending or running jobs of a type, of any user (an import using a resource). */
  runningJobs(type: string): Promise<JobEntity[]> {
    return this.db.manager.getRepository(JobEntity).findBy({ type, state: In(['pending', 'started']) });
  }

  /** The instance's own key pair (the source with a private key), the oldest when there are several. */
  ownKeys(): Promise<TrustedSourceEntity | null> {
    return this.sources.createQueryBuilder('s').where("s.private_key <> ''").orderBy('s.id', 'ASC').getOne();
  }

  createSource(values: Partial<TrustedSourceEntity>): Promise<TrustedSourceEntity> {
    return this.sources.save(this.sources.create({ name: '', privateKey: '', createdAt: new Date(), ...values }));
  }

  async isTrusted(publicKeyPem: string): Promise<boolean> {
    return (await this.sources.countBy({ publicKey: publicKeyPem })) > 0;
  }

  /**
   * Baserow's `verify_import_signature` instance setting (default true). Read from the settings
   * row when its entity has the column; until then the default holds. The one accessor of it.
   */
}
