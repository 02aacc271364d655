import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { FieldDependencyEntity } from './field-dependency.entity';

/** A computed field's edges as the compiler found them. */
export interface DependencyEdges {
  dependencies: { fieldId: number; viaFieldId: number | null }[];
  broken: { tableId: number; name: string }[];
}

@Injectable()
export class FieldDependencyRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(FieldDependencyEntity);
  }

  /** Every edge of a database's graph. */
  ofDatabase(databaseId: number): Promise<FieldDependencyEntity[]> {
    return this.repo.find({ where: { databaseId }, order: { id: 'ASC' } });
  }

  /** The edges of one computed field. */
  ofDependant(dependantId: number): Promise<FieldDependencyEntity[]> {
    return this.repo.find({ where: { dependantId }, order: { id: 'ASC' } });
  }

  /** The databases that have computed fields with edges. */
  async databaseIds(): Promise<number[]> {
    const rows = await this.repo.createQueryBuilder('d').select('DISTINCT d.database_id', 'id').getRawMany<{ id: unknown }>();
    return rows.map((row) => Number(row.id));
  }

  /** Replaces the edges of a computed field. */
  async replace(dependantId: number, databaseId: number, edges: DependencyEdges): Promise<void> {
    await this.repo.delete({ dependantId });
    const rows = [
      ...edges.dependencies.map((d) => ({ databaseId, dependantId, dependencyId: d.fieldId, viaId: d.viaFieldId, brokenTableId: null, brokenName: null })),
      ...edges.broken.map((b) => ({ databaseId, dependantId, dependencyId: null, viaId: null, brokenTableId: b.tableId, brokenName: b.name })),
    ];
    if (rows.length) await this.repo.insert(rows);
  }

}
