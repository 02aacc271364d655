import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { FieldEntity } from '../../database/fields/field.entity';
import { ViewGroupByEntity, ViewSortEntity } from './view-sort.entity';
import { isUniqueViolation } from '../../core/database/constraint-errors';

type Kind = typeof ViewSortEntity | typeof ViewGroupByEntity;

/** Saved sorts and group-bys (same shape, two tables); one on a trashed field is not found by id until it comes back. */
@Injectable()
export class ViewSortRepository {
  constructor(private readonly db: UnitOfWork) {}

  private repo<E extends Kind>(kind: E) {
    return this.db.manager.getRepository<InstanceType<E>>(kind);
  }

  /** Those of views by id, on trashed fields included (callers hide them: a restore brings them back). */
  ofViews<E extends Kind>(kind: E, viewIds: number[]): Promise<InstanceType<E>[]> {
    if (!viewIds.length) return Promise.resolve([]);
    return this.repo(kind).find({ where: { viewId: In(viewIds) } as never, order: { id: 'ASC' } as never });
  }

  ofFields<E extends Kind>(kind: E, fieldIds: number[]): Promise<InstanceType<E>[]> {
    if (!fieldIds.length) return Promise.resolve([]);
    return this.repo(kind).find({ where: { fieldId: In(fieldIds) } as never, order: { id: 'ASC' } as never });
  }

  findLive<E extends Kind>(kind: E, id: number): Promise<InstanceType<E> | null> {
    return this.repo(kind)
      .createQueryBuilder('s')
      .innerJoin(FieldEntity, 'f', 'f.id = s.field_id AND f.trashed = :f', { f: false })
      .where('s.id = :id', { id })
      .getOne();
  }

  /** Whether the view has one on the field (a trashed field's included: the pair is unique). */
  async exists(kind: Kind, viewId: number, fieldId: number, exceptId = 0): Promise<boolean> {
    const found = await this.repo(kind).findOne({ where: { viewId, fieldId } as never });
    return !!found && found.id !== exceptId;
  }

  /** Null when the view already has one on the field (a concurrent request won: the unique index says so). */
  async create<E extends Kind>(kind: E, values: Partial<InstanceType<E>>): Promise<InstanceType<E> | null> {
    const repo = this.repo(kind);
    try {
      return (await repo.save(repo.create(values as never))) as InstanceType<E>;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** False when the change would put a second one on a field of the view (the unique index refused it). */
  async update<E extends Kind>(kind: E, id: number, values: Partial<InstanceType<E>>): Promise<boolean> {
    try {
      await this.repo(kind).update(id, values as never);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async delete(kind: Kind, ids: number[]): Promise<void> {
    if (ids.length) await this.repo(kind).delete({ id: In(ids) } as never);
  }
}
