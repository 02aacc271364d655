import { Inject, Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Dialect } from '../../core/database/dialect';
import { insertWithId } from '../../core/database/insert-with-id';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ViewEntity } from '../view.entity';
import { ViewDecorationEntity } from './decoration.entity';

/** Decorations of views. */
@Injectable()
export class ViewDecorationRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get decorations() {
    return this.db.manager.getRepository(ViewDecorationEntity);
  }

  find(id: number): Promise<ViewDecorationEntity | null> {
    return this.decorations.findOneBy({ id });
  }

  /** Decorations of the views, by order then id. */
  ofViews(viewIds: number[]): Promise<ViewDecorationEntity[]> {
    if (!viewIds.length) return Promise.resolve([]);
    return this.decorations.find({ where: { viewId: In(viewIds) }, order: { order: 'ASC', id: 'ASC' } });
  }

  /** Decorations of every view (trashed ones too) of a table. */
  ofTable(tableId: number): Promise<ViewDecorationEntity[]> {
    return this.decorations
      .createQueryBuilder('d')
      .innerJoin(ViewEntity, 'v', 'v.id = d.view_id')
      .where('v.table_id = :tableId', { tableId })
      .orderBy('d.id', 'ASC')
      .getMany();
  }

  async lastOrder(viewId: number): Promise<number> {
    const row = await this.decorations.createQueryBuilder('d').select('MAX(d.order)', 'max').where('d.view_id = :viewId', { viewId }).getRawOne();
    return row?.max === null || row?.max === undefined ? 0 : Number(row.max);
  }

  /** An `id`: one it had before (an undo bringing it back). */
  async create(values: Omit<ViewDecorationEntity, 'id'> & { id?: number }): Promise<ViewDecorationEntity> {
    if (values.id === undefined) return this.decorations.save(this.decorations.create(values));
    await insertWithId(this.db.manager, this.dialect, ViewDecorationEntity, { ...values, id: values.id });
    return (await this.find(values.id))!;
  }

  async update(id: number, values: Partial<ViewDecorationEntity>): Promise<void> {
    await this.decorations.update(id, values);
  }

  async delete(id: number): Promise<void> {
    await this.decorations.delete({ id });
  }
}
