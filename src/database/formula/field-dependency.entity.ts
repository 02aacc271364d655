import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One edge of the computed fields' dependency graph (see the FieldDependencies migration). */
@Entity('database_field_dependency')
export class FieldDependencyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'database_id', type: 'integer' })
  databaseId: number;

  /** The computed field. */
  @Column({ name: 'dependant_id', type: 'integer' })
  dependantId: number;

  /** The field it reads (null for a broken reference). */
  @Column({ name: 'dependency_id', type: 'integer', nullable: true })
  dependencyId: number | null;

  /** The link field of the dependant's table the dependency is read through (lookups), or null. */
  @Column({ name: 'via_id', type: 'integer', nullable: true })
  viaId: number | null;

  @Column({ name: 'broken_table_id', type: 'integer', nullable: true })
  brokenTableId: number | null;

  @Column({ name: 'broken_name', type: 'varchar', length: 255, nullable: true })
  brokenName: string | null;
}
