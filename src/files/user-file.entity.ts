import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/**
 * A stored user file (Baserow's `core_userfile`). Its name, `<unique>_<sha256>.<extension>`,
 * is what file cells keep and what the storage keys are made of; the row never changes.
 */
@Entity('core_userfile')
export class UserFileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The name the file was uploaded with, at most 64 characters (truncated in the middle). */
  @Column({ name: 'original_name', type: 'varchar', length: 255 })
  originalName: string;

  @Column({ name: 'original_extension', type: 'varchar', length: 64 })
  originalExtension: string;

  @Column({ type: 'varchar', length: 32 })
  unique: string;

  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  size: number;

  /** The content's type when it is an image, else the name's (Baserow's rule); never makes a file `is_image`. */
  @Column({ name: 'mime_type', type: 'varchar', length: 127, default: '' })
  mimeType: string;

  @Column({ name: 'is_image', type: 'boolean', default: false })
  isImage: boolean;

  @Column({ name: 'image_width', type: 'integer', nullable: true })
  imageWidth: number | null;

  @Column({ name: 'image_height', type: 'integer', nullable: true })
  imageHeight: number | null;

  @DateTimeColumn({ name: 'uploaded_at' })
  uploadedAt: Date;

  @Column({ name: 'uploaded_by_id', type: 'integer', nullable: true })
  uploadedById: number | null;

  @Column({ name: 'sha256_hash', type: 'varchar', length: 64 })
  sha256Hash: string;
}

/** `<unique>_<sha256>.<extension>`: the user file's name. */
export function userFileName(file: Pick<UserFileEntity, 'unique' | 'sha256Hash' | 'originalExtension'>): string {
  return `${file.unique}_${file.sha256Hash}.${file.originalExtension}`;
}

/** The parts of a user file name, or null when it is not one (Baserow's `deconstruct_name`). */
export function parseUserFileName(name: string): { unique: string; sha256Hash: string; originalExtension: string } | null {
  const match = /^([a-zA-Z0-9]+)_([a-zA-Z0-9]+)\.(.*)$/.exec(name);
  return match ? { unique: match[1], sha256Hash: match[2], originalExtension: match[3] } : null;
}
