import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What a sort and a group-by share: a field of the view and its direction (one per field and view). */
abstract class ViewFieldOrdering {
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

/** A saved sort of a view (one per field). */
@Entity('database_view_sort')
export class ViewSortEntity extends ViewFieldOrdering {}

/** A saved group-by of a grid view (one per field), with the width of its column. */
@Entity('database_view_group_by')
export class ViewGroupByEntity extends ViewFieldOrdering {
  @Column({ type: 'integer', default: 200 })
  width: number;
}
