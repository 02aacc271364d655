import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/** A user table of a database application; its rows live in `database_table_<id>`. */
@Entity('database_table')
export class TableEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The database application the table belongs to. */
  @Column({ name: 'database_id', type: 'integer' })
  databaseId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  order: number;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @Column({ type: 'boolean', default: false })
  trashed: boolean;

  /** Bumped by every committed change of the table's fields: the process caches them by it. */
  @Column({ name: 'fields_version', type: 'integer', default: 0 })
  fieldsVersion: number;

  /** Bumped by every committed change of the table's rows: cached counts are keyed by it. */
  @Column({ name: 'rows_version', type: 'integer', default: 0 })
  rowsVersion: number;
}
