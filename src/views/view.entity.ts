import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

/** A view of a user table; `properties` holds its view type's own settings (grid: row height...). */
@Entity('database_view')
export class ViewEntity {
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

  @Column({ name: 'filter_type', type: 'varchar', length: 3, default: "'AND'" })
  filterType: string;

  @Column({ name: 'filters_disabled', type: 'boolean', default: false })
  filtersDisabled: boolean;

  @Column({ type: 'boolean', default: false })
  public: boolean;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'show_logo', type: 'boolean', default: true })
  showLogo: boolean;

  @Column({ name: 'allow_public_export', type: 'boolean', default: false })
  allowPublicExport: boolean;

  @Column({ name: 'ownership_type', type: 'varchar', length: 32, default: "'collaborative'" })
  ownershipType: string;

  @Column({ name: 'owned_by_id', type: 'integer', nullable: true })
  ownedById: number | null;

  /** A calendar's iCal feed slug (`{ical_slug}.ics`), null until its feed is first made public. */
  @Column({ name: 'ical_slug', type: 'varchar', length: 64, nullable: true })
  icalSlug: string | null;

  @JsonColumn({ default: '{}' })
  properties: Record<string, any>;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @Column({ type: 'boolean', default: false })
  trashed: boolean;

  /** Counts changes of the view's filters, groups, sorts and group-bys (the key of its cached selection). */
  @Column({ type: 'integer', default: 0 })
  version: number;
}

/** The options of one field in one view (grid: width, hidden, order, aggregations). */
@Entity('database_view_field_options')
export class ViewFieldOptionsEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @JsonColumn({ default: '{}' })
  options: Record<string, any>;
}
