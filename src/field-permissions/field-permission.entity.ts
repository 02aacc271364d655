import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';
import type { FieldWriteRole } from '../permissions/field-write-rules';

/** A field's write rule (Baserow enterprise's `FieldPermissions`). See the migration FieldPermissions. */
@Entity('baserow_enterprise_fieldpermissions')
export class FieldPermissionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'field_id', type: 'integer', unique: true })
  fieldId: number;

  @Column({ type: 'varchar', length: 16 })
  role: FieldWriteRole;

  @Column({ name: 'allow_in_forms', type: 'boolean', default: false })
  allowInForms: boolean;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}
