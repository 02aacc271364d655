import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A saved sort of a view (one per field). */
@Entity('database_view_sort')
export class ViewSortEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @Column({ type: 'varchar', length: 4, default: "'ASC'" })
  order: string;

  @Column({ type: 'varchar', length: 32, default: "'default'" })
  type: string;
}

/** A saved group-by of a grid view (one per field), with the width of its column. */
@Entity('database_view_group_by')
export class ViewGroupByEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @Column({ type: 'varchar', length: 4, default: "'ASC'" })
  order: string;

  @Column({ type: 'varchar', length: 32, default: "'default'" })
  type: string;

  @Column({ type: 'integer', default: 200 })
  width: number;
}
