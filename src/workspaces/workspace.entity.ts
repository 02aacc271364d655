import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

@Entity('workspace')
export class WorkspaceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 165 })
  name: string;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  /** Deleted workspaces go to the trash; while trashed they behave as not existing. */
  @Column({ type: 'boolean', default: false })
  trashed: boolean;
}

/** `workspace_user.permissions`: ADMIN, MEMBER (Baserow's BUILDER) or another enterprise role uid. */
export type WorkspaceRole = 'ADMIN' | 'MEMBER' | 'EDITOR' | 'COMMENTER' | 'VIEWER' | 'NO_ACCESS' | 'NO_ROLE_LOW_PRIORITY';
export const WORKSPACE_ROLES: WorkspaceRole[] = ['ADMIN', 'MEMBER', 'EDITOR', 'COMMENTER', 'VIEWER', 'NO_ACCESS', 'NO_ROLE_LOW_PRIORITY'];

/** What a member's or an invitation's `permissions` may be set to: the stored values and Baserow's BUILDER. */
export const WORKSPACE_ROLE_CHOICES: readonly string[] = [...WORKSPACE_ROLES, 'BUILDER'];

/** The stored value of a role choice: BUILDER is kept as MEMBER, as Baserow keeps it. */
export function storedWorkspaceRole(choice: string): WorkspaceRole {
  return choice === 'BUILDER' ? 'MEMBER' : (choice as WorkspaceRole);
}

@Entity('workspace_user')
export class WorkspaceUserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 32, default: 'MEMBER' })
  permissions: WorkspaceRole;

  /** The member's own position of this workspace in their list. */
  @Column({ type: 'integer', default: 0 })
  order: number;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;
}

@Entity('workspace_invitation')
export class WorkspaceInvitationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'invited_by_id', type: 'integer' })
  invitedById: number;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 32, default: 'MEMBER' })
  permissions: WorkspaceRole;

  @Column({ type: 'text', default: '' })
  message: string;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;
}
