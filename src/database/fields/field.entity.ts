import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../../core/database/columns';

/**
 * A field of a user table. Its values live in column `field_<id>` of `database_table_<table_id>`
 * (or in a junction table, for the types that need one); `properties` holds the
 * type-specific settings its field type declares (e.g. `number_decimal_places`).
 */
@Entity('database_field')
export class FieldEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  order: number;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'boolean', default: false })
  primary: boolean;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'db_index', type: 'boolean', default: false })
  dbIndex: boolean;

  @JsonColumn({ name: 'field_constraints', default: '[]' })
  fieldConstraints: { type_name: string }[];

  @JsonColumn({ default: '{}' })
  properties: Record<string, any>;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @Column({ type: 'boolean', default: false })
  trashed: boolean;
}

/** An option of a single or multiple select field. */
@Entity('database_select_option')
export class SelectOptionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @Column({ type: 'varchar', length: 255 })
  value: string;

  @Column({ type: 'varchar', length: 255 })
  color: string;

  @Column({ type: 'integer', default: 0 })
  order: number;
}
