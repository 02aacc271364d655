import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/**
 * An export written or an import uploaded (Baserow's `ImportExportResource`): the zip is kept
 * in the file storage as `export_files/<uuid>.zip` or `import_files/<uuid>.zip`. An upload is
 * `is_valid` once its manifest (and signature) checked; a deleted one is `marked_for_deletion`
 * and its file removed.
 */
@Entity('import_export_resource')
export class ImportExportResourceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 36 })
  uuid: string;

  @Column({ name: 'original_name', type: 'varchar', length: 255, default: '' })
  originalName: string;

  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  size: number;

  @Column({ name: 'created_by_id', type: 'integer', nullable: true })
  createdById: number | null;

  @Column({ name: 'is_valid', type: 'boolean', default: false })
  isValid: boolean;

  @Column({ name: 'marked_for_deletion', type: 'boolean', default: false })
  markedForDeletion: boolean;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}

/**
 * A key exports are signed with or imports are trusted from (Baserow's `ImportExportTrustedSource`):
 * the instance's own pair (made at its first export) has a private key; keys an operator
 * trusts (BASEROW_IMPORT_TRUSTED_PUBLIC_KEYS) have only the public one.
 */
@Entity('import_export_trusted_source')
export class TrustedSourceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  name: string;

  @Column({ name: 'private_key', type: 'text', default: '' })
  privateKey: string;

  @Column({ name: 'public_key', type: 'text' })
  publicKey: string;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}

/** The archive's name in the storage (Baserow's `get_archive_name`). */
export const archiveName = (resource: Pick<ImportExportResourceEntity, 'uuid'>): string => `${resource.uuid}.zip`;
export const exportKey = (resource: Pick<ImportExportResourceEntity, 'uuid'>): string => `export_files/${archiveName(resource)}`;
export const importKey = (resource: Pick<ImportExportResourceEntity, 'uuid'>): string => `import_files/${archiveName(resource)}`;
