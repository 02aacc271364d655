import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableEntity } from './table.entity';

@Injectable()
export class TableRepository {
  constructor(private readonly db: UnitOfWork) {}

  /** Live tables of the given databases, by order then id. */
  ofDatabases(databaseIds: number[]): Promise<TableEntity[]> {
    if (!databaseIds.length) return Promise.resolve([]);
    return this.db.manager
      .getRepository(TableEntity)
      .createQueryBuilder('t')
      .where('t.database_id IN (:...databaseIds) AND t.trashed = :f', { databaseIds, f: false })
      .orderBy('t.order', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }
}
