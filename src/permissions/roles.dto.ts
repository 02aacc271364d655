import { checkItems, Field, FieldSpec } from '../core/validation/field';
import type { RoleAssignmentInput } from './role-assignments.service';

/** Baserow's CreateRoleAssignmentSerializer, field by field (types, role and ids are checked by the service, answering Baserow's 404s). */
export const ROLE_ASSIGNMENT_FIELDS = {
  subject_id: { kind: 'int', min: 1, description: 'The subject ID. A subject is an actor that can do operations.' },
  subject_type: { kind: 'string', description: 'The subject type: `auth.User` or `baserow_enterprise.Team`.' },
  role: { kind: 'string', nullable: true, description: 'The uid of the role to assign, or null to remove the current role.' },
  scope_id: { kind: 'int', min: 1, description: 'The ID of the scope object; the role applies to it and all its descendants.' },
  scope_type: { kind: 'string', description: 'The scope object type: `workspace`, `application` (a database) or `database_table`.' },
} as const satisfies Record<string, FieldSpec>;

export class CreateRoleAssignmentDto {
  @Field(ROLE_ASSIGNMENT_FIELDS.subject_id) subject_id: number;
  @Field(ROLE_ASSIGNMENT_FIELDS.subject_type) subject_type: string;
  @Field(ROLE_ASSIGNMENT_FIELDS.role) role: string | null;
  @Field(ROLE_ASSIGNMENT_FIELDS.scope_id) scope_id: number;
  @Field(ROLE_ASSIGNMENT_FIELDS.scope_type) scope_type: string;
}

/**
 * The most items a batch takes. Baserow sets none; here a batch is one transaction, and 2,000
 * items hold the writer about 50 ms (10,000 held it 250 ms, a stall for every other write).
 */
export const ROLE_BATCH_MAX_ITEMS = 2_000;

export class BatchRoleAssignmentsDto {
  @Field({ kind: 'list', of: { kind: 'object' }, allowEmpty: true, maxItems: ROLE_BATCH_MAX_ITEMS, description: `Role assignments, each as the single route takes it (at most ${ROLE_BATCH_MAX_ITEMS}).` })
  items: Record<string, unknown>[];
}

/** GET's query: Baserow requires both. */
export class RoleAssignmentsQueryDto {
  @Field({ kind: 'int', min: 1, description: 'The id of the scope whose role assignments are listed.' })
  scope_id: number;

  @Field({ kind: 'string', description: 'The type of that scope.' })
  scope_type: string;
}

/** The batch's items checked as the single route's body is, errors under `items.<index>` as DRF nests them. */
export function checkAssignmentItems(items: Record<string, unknown>[]): RoleAssignmentInput[] {
  return checkItems<RoleAssignmentInput>(ROLE_ASSIGNMENT_FIELDS, items, 'items');
}
