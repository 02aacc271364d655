import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A saved filter of a view: a field, a filter type and its value, optionally inside a filter group. */
@Entity('database_view_filter')
export class ViewFilterEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @Column({ type: 'varchar', length: 48 })
  type: string;

  @Column({ type: 'text', default: "''" })
  value: string;

  @Column({ name: 'group_id', type: 'integer', nullable: true })
  groupId: number | null;
}

/** A group of saved filters combined with its own `filter_type`; groups nest through `parent_group`. */
@Entity('database_view_filter_group')
export class ViewFilterGroupEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ name: 'filter_type', type: 'varchar', length: 3, default: "'AND'" })
  filterType: string;

  @Column({ name: 'parent_group_id', type: 'integer', nullable: true })
  parentGroupId: number | null;
}
