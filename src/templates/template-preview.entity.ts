import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/**
 * A template's preview (Baserow's `Template` row, its `workspace` and `open_application`): the
 * workspace its applications are installed in, read-only to everyone. See the migration
 * TemplatePreviews. `exportHash` is null while it is being built.
 */
@Entity('core_template')
export class TemplatePreviewEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  slug: string;

  @Column({ name: 'workspace_id', type: 'integer', unique: true })
  workspaceId: number;

  @Column({ name: 'export_hash', type: 'varchar', length: 64, nullable: true })
  exportHash: string | null;

  @Column({ name: 'open_application', type: 'integer', nullable: true })
  openApplication: number | null;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;
}
