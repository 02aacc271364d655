import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Baserow's subject types: who a role is given to. */
export const SUBJECT_TYPES = { user: 'auth.User', team: 'baserow_enterprise.Team' } as const;
export type SubjectType = (typeof SUBJECT_TYPES)[keyof typeof SUBJECT_TYPES];

/** Baserow's object scope types roles are assigned on (a database is an `application`). */
export type ScopeType = 'workspace' | 'application' | 'database_table';

/**
 * A role given to a user or a team on a database or a table (or to a team on the workspace); a
 * user's workspace-level role is `workspace_user.permissions`. See the migration RoleAssignments.
 */
@Entity('enterprise_roleassignment')
export class RoleAssignmentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'subject_type', type: 'varchar', length: 32 })
  subjectType: SubjectType;

  @Column({ name: 'subject_id', type: 'integer' })
  subjectId: number;

  @Column({ name: 'scope_type', type: 'varchar', length: 32 })
  scopeType: ScopeType;

  @Column({ name: 'scope_id', type: 'integer' })
  scopeId: number;

  /** A role uid (roles.ts). */
  @Column({ type: 'varchar', length: 32 })
  role: string;
}
