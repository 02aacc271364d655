import { Inject, Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { FieldEntity } from '../../database/fields/field.entity';
import { ViewFilterEntity, ViewFilterGroupEntity } from './view-filter.entity';
import { isForeignKeyViolation } from '../../core/database/constraint-errors';
import type { Dialect } from '../../core/database/dialect';
import { insertWithId } from '../../core/database/insert-with-id';
import { DIALECT } from '../../core/database/tokens';

/** Saved view filters and filter groups; one on a trashed field is not found by id until the field comes back. */
@Injectable()
export class ViewFilterRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get filters() {
    return this.db.manager.getRepository(ViewFilterEntity);
  }

  private get groups() {
    return this.db.manager.getRepository(ViewFilterGroupEntity);
  }

  /** The filters of views by id, those on trashed fields included (callers hide them: a restore brings them back). */
  ofViews(viewIds: number[]): Promise<ViewFilterEntity[]> {
    if (!viewIds.length) return Promise.resolve([]);
    return this.filters.find({ where: { viewId: In(viewIds) }, order: { id: 'ASC' } });
  }

  /** The filters on fields (a restored field's `filters`). */
  ofFields(fieldIds: number[]): Promise<ViewFilterEntity[]> {
    if (!fieldIds.length) return Promise.resolve([]);
    return this.filters.find({ where: { fieldId: In(fieldIds) }, order: { id: 'ASC' } });
  }

  groupsOfViews(viewIds: number[]): Promise<ViewFilterGroupEntity[]> {
    if (!viewIds.length) return Promise.resolve([]);
    return this.groups.find({ where: { viewId: In(viewIds) }, order: { id: 'ASC' } });
  }

  /** A filter whose field is live. */
  findLive(id: number): Promise<ViewFilterEntity | null> {
    return this.filters
      .createQueryBuilder('vf')
      .innerJoin(FieldEntity, 'f', 'f.id = vf.field_id AND f.trashed = :f', { f: false })
      .where('vf.id = :id', { id })
      .getOne();
  }

  findGroup(id: number): Promise<ViewFilterGroupEntity | null> {
    return this.groups.findOneBy({ id });
  }

  /** Null when its group (or field) was deleted by a concurrent request (the foreign key refused it). An `id`: one it had before. */
  async create(values: Partial<ViewFilterEntity>): Promise<ViewFilterEntity | null> {
    try {
      if (values.id === undefined) return await this.filters.save(this.filters.create(values));
      await insertWithId(this.db.manager, this.dialect, ViewFilterEntity, { ...values, id: values.id });
      return await this.filters.findOneBy({ id: values.id });
    } catch (error) {
      if (isForeignKeyViolation(error)) return null;
      throw error;
    }
  }

  async update(id: number, values: Partial<ViewFilterEntity>): Promise<void> {
    await this.filters.update(id, values);
  }

  async delete(ids: number[]): Promise<void> {
    if (ids.length) await this.filters.delete({ id: In(ids) });
  }

  /** Null when its parent group was deleted by a concurrent request (the foreign key refused it). An `id`: one it had before. */
  async createGroup(values: Partial<ViewFilterGroupEntity>): Promise<ViewFilterGroupEntity | null> {
    try {
      if (values.id === undefined) return await this.groups.save(this.groups.create(values));
      await insertWithId(this.db.manager, this.dialect, ViewFilterGroupEntity, { ...values, id: values.id });
      return await this.groups.findOneBy({ id: values.id });
    } catch (error) {
      if (isForeignKeyViolation(error)) return null;
      throw error;
    }
  }

  /** False when the new parent group was deleted by a concurrent request. */
  async updateGroup(id: number, values: Partial<ViewFilterGroupEntity>): Promise<boolean> {
    try {
      await this.groups.update(id, values);
      return true;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /** Deletes a group; its filters and nested groups go with it (foreign keys). */
  async deleteGroup(id: number): Promise<void> {
    await this.groups.delete({ id });
  }
}
