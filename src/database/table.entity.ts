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
}
