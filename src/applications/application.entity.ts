import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

@Entity('application')
export class ApplicationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ type: 'varchar', length: 160 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  order: number;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @Column({ type: 'boolean', default: false })
  trashed: boolean;
}
