import { ApiProperty } from '@nestjs/swagger';
import { Field } from '../core/validation/field';

/** The roles a request may set (Baserow's UpdateFieldPermissionsRequestSerializer: CUSTOM is not one of them). */
export const SETTABLE_FIELD_WRITE_ROLES = ['ADMIN', 'BUILDER', 'EDITOR', 'NOBODY'] as const;

/** Baserow's UpdateFieldPermissionsRequestSerializer. */
export class UpdateFieldPermissionsDto {
  @Field({ kind: 'choice', choices: SETTABLE_FIELD_WRITE_ROLES, description: 'The role required to update the data for this field.' })
  role: (typeof SETTABLE_FIELD_WRITE_ROLES)[number];

  @Field({ kind: 'bool', required: false, default: false, description: "Whether to allow this field to be shown in forms. Default is False. This setting is only relevant if the role is not 'EDITOR'." })
  allow_in_forms: boolean;
}

/** Baserow's UpdateFieldPermissionsResponseSerializer (a read leaves `can_write_values` out, as Baserow's does). */
export class FieldPermissionsJson {
  @ApiProperty({ enum: ['ADMIN', 'BUILDER', 'EDITOR', 'NOBODY'], description: 'The role required to update the data for this field.' })
  role: string;

  @ApiProperty({ description: 'Whether to allow this field to be shown in forms, whatever the role.' })
  allow_in_forms: boolean;

  @ApiProperty({ description: 'The ID of the field whose permissions were updated.' })
  field_id: number;

  @ApiProperty({ required: false, description: 'Whether the user can write values to this field.' })
  can_write_values?: boolean;
}
