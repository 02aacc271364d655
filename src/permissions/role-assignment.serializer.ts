import { ApiProperty } from '@nestjs/swagger';
import type { ScopeType, SubjectType } from './role-assignment.entity';
import type { SubjectUser } from './role-assignment.repository';
import { roleOfMembership } from './roles';

export class RoleSubjectJson {
  @ApiProperty() id: number;
  @ApiProperty({ required: false, description: 'A user subject: the e-mail address.' }) username?: string;
  @ApiProperty({ required: false }) first_name?: string;
  @ApiProperty({ required: false }) email?: string;
}

/** Baserow's RoleAssignmentSerializer. A workspace-level role of a user is no stored assignment: its `id` is null. */
export class RoleAssignmentJson {
  @ApiProperty({ nullable: true, type: 'integer' }) id: number | null;
  @ApiProperty({ description: 'The uid of the role.' }) role: string;
  @ApiProperty({ type: RoleSubjectJson, description: 'The structure of the subject depends on the subject type.' }) subject: RoleSubjectJson;
  @ApiProperty() subject_id: number;
  @ApiProperty() scope_id: number;
  @ApiProperty({ enum: ['auth.User', 'baserow_enterprise.Team'] }) subject_type: string;
  @ApiProperty({ enum: ['workspace', 'application', 'database_table'] }) scope_type: string;
}

interface AssignmentLike {
  id: number | null;
  subjectType: SubjectType;
  subjectId: number;
  scopeType: ScopeType;
  scopeId: number;
  role: string;
}

export function serializeAssignments(rows: AssignmentLike[], users: Map<number, SubjectUser>): RoleAssignmentJson[] {
  return rows.map((row) => {
    const user = row.subjectType === 'auth.User' ? users.get(row.subjectId) : undefined;
    return {
      id: row.id,
      role: roleOfMembership(row.role),
      subject: user ? { id: user.id, username: user.email, first_name: user.firstName, email: user.email } : { id: row.subjectId },
      subject_id: row.subjectId,
      scope_id: row.scopeId,
      subject_type: row.subjectType,
      scope_type: row.scopeType,
    };
  });
}
