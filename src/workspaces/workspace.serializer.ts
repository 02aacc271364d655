import { ApiProperty } from '@nestjs/swagger';
import { toApiDateTime } from '../core/database/columns';
import { WorkspaceEntity, WorkspaceInvitationEntity, WorkspaceUserEntity } from './workspace.entity';
import { MemberRow } from './workspace.repository';

export class WorkspaceUserJson {
  @ApiProperty({ description: 'The id of the membership.' }) id: number;
  @ApiProperty({ description: "The member's first name." }) name: string;
  @ApiProperty() email: string;
  @ApiProperty({ description: 'The id of the workspace.' }) workspace: number;
  @ApiProperty({ description: 'ADMIN, MEMBER or an enterprise role uid.' }) permissions: string;
  @ApiProperty({ nullable: true }) created_on: string | null;
  @ApiProperty() user_id: number;
  @ApiProperty() to_be_deleted: boolean;
  @ApiProperty({ required: false, description: 'The members list only: the uid of the workspace-level role (MEMBER is BUILDER).' }) role_uid?: string;
  @ApiProperty({ required: false, nullable: true, type: 'string', description: 'The members list only: the highest role on anything, teams included.' }) highest_role_uid?: string | null;
  @ApiProperty({ required: false, type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }, description: "The members list only: the member's teams in the workspace." })
  teams?: { id: number; name: string }[];
}

/** WorkspaceSerializer, as in `group_created` / `group_updated` and PATCH answers. */
export class WorkspaceJson {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) generative_ai_models_enabled: Record<string, string[]>;
}

/** WorkspaceUserWorkspaceSerializer: a workspace as one member sees it. */
export class WorkspaceItemJson {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [WorkspaceUserJson] }) users: WorkspaceUserJson[];
  @ApiProperty() order: number;
  @ApiProperty({ description: 'ADMIN, MEMBER or an enterprise role uid.' }) permissions: string;
  @ApiProperty({ required: false }) unread_notifications_count?: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) generative_ai_models_enabled: Record<string, string[]>;
}

export class WorkspaceInvitationJson {
  @ApiProperty() id: number;
  @ApiProperty() workspace: number;
  @ApiProperty() email: string;
  @ApiProperty({ description: 'ADMIN, MEMBER or an enterprise role uid.' }) permissions: string;
  @ApiProperty() message: string;
  @ApiProperty() created_on: string;
}

/** An invitation as its invitee sees it (by token, dashboard). */
export class UserWorkspaceInvitationJson {
  @ApiProperty() id: number;
  @ApiProperty({ description: "The inviter's first name." }) invited_by: string;
  @ApiProperty({ description: "The workspace's name." }) workspace: string;
  @ApiProperty() email: string;
  @ApiProperty() message: string;
  @ApiProperty() created_on: string;
  @ApiProperty() email_exists: boolean;
}

export function serializeWorkspace(workspace: WorkspaceEntity): WorkspaceJson {
  return { id: workspace.id, name: workspace.name, generative_ai_models_enabled: {} };
}

export function serializeMember(row: MemberRow): WorkspaceUserJson {
  return {
    id: row.membership.id,
    name: row.user.firstName,
    email: row.user.email,
    workspace: row.membership.workspaceId,
    permissions: row.membership.permissions,
    created_on: toApiDateTime(row.membership.createdOn),
    user_id: row.user.id,
    to_be_deleted: row.user.deletionScheduledAt != null,
  };
}

export function serializeWorkspaceItem(
  workspace: WorkspaceEntity,
  membership: WorkspaceUserEntity,
  members: MemberRow[],
  /** `unread_notifications_count`, or null where Baserow leaves the key out. */
  unreadCount: number | null,
): WorkspaceItemJson {
  return {
    id: workspace.id,
    name: workspace.name,
    users: members.map(serializeMember),
    order: membership.order,
    permissions: membership.permissions,
    ...(unreadCount !== null ? { unread_notifications_count: unreadCount } : {}),
    generative_ai_models_enabled: {},
  };
}

export function serializeInvitation(invitation: WorkspaceInvitationEntity): WorkspaceInvitationJson {
  return {
    id: invitation.id,
    workspace: invitation.workspaceId,
    email: invitation.email,
    permissions: invitation.permissions,
    message: invitation.message,
    created_on: toApiDateTime(invitation.createdOn)!,
  };
}
