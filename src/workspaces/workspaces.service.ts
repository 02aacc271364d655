import { Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { parseSortParameter } from '../core/http/sorts';
import { ApiError, Errors } from '../core/errors/api-error';
import { UnitOfWork } from '../core/database/unit-of-work';
import { NotificationsService } from '../notifications/notifications.service';
import { TrashService } from '../trash/trash.service';
import { UserEntity } from '../users/user.entity';
import { storedWorkspaceRole, WorkspaceEntity, WorkspaceRole, WorkspaceUserEntity } from './workspace.entity';
import { SettingsService } from '../settings/settings.service';
import { OperationType, PermissionService, WorkspaceOperations as W } from '../permissions';
import { RoleAssignmentRepository } from '../permissions/role-assignment.repository';
import { roleOfMembership } from '../permissions/roles';
import { TeamSubjects } from '../permissions/team-subjects';
import { WorkspaceRepository } from './workspace.repository';
import {
  serializeMember,
  serializeWorkspace,
  serializeWorkspaceItem,
  WorkspaceItemJson,
  WorkspaceJson,
  WorkspaceUserJson,
} from './workspace.serializer';

export interface Membership {
  workspace: WorkspaceEntity;
  membership: WorkspaceUserEntity;
}

export const WorkspaceErrors = {
  lastAdmin: () =>
    new ApiError(
      'ERROR_GROUP_USER_IS_LAST_ADMIN',
      400,
      'The related user is the last admin in the group. They must delete the group or give someone else admin permissions.',
    ),
  workspaceUserDoesNotExist: () =>
    new ApiError('ERROR_GROUP_USER_DOES_NOT_EXIST', 404, 'The requested group user does not exist.'),
  cannotDeleteYourself: () =>
    new ApiError(
      'ERROR_CANNOT_DELETE_YOURSELF_FROM_GROUP',
      400,
      'You cannot delete yourself from the group. Use the leave group endpoint for that.',
    ),
};

/** Workspaces, their members and the ADMIN/MEMBER rules every other module checks through. */
@Injectable()
export class WorkspacesService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: WorkspaceRepository,
    private readonly trash: TrashService,
    private readonly notifications: NotificationsService,
    private readonly actions: ActionLog,
    private readonly settings: SettingsService,
    private readonly permissions: PermissionService,
    private readonly roleAssignments: RoleAssignmentRepository,
    private readonly teams: TeamSubjects,
  ) {}

  /**
   * The workspace, when the user may do `operation` on it: 404 when it does not exist (or is
   * trashed), else the permission check's answer.
   */
  async require(workspaceId: number, userId: number, operation: OperationType): Promise<WorkspaceEntity> {
    const workspace = await this.repo.findWorkspace(workspaceId);
    if (!workspace) throw Errors.workspaceDoesNotExist();
    await this.permissions.require(userId, operation, { workspaceId });
    return workspace;
  }

  /** As `require`, with the user's membership. */
  async requireMembership(workspaceId: number, userId: number, operation: OperationType): Promise<Membership> {
    const workspace = await this.require(workspaceId, userId, operation);
    return { workspace, membership: (await this.repo.findMembership(workspaceId, userId))! };
  }

  async listForUser(userId: number): Promise<WorkspaceItemJson[]> {
    const memberships = await this.repo.membershipsOfUser(userId);
    const workspaceIds = memberships.map((m) => m.workspace.id);
    const members = await this.repo.members(workspaceIds);
    const unread = await this.notifications.unreadCounts(userId, workspaceIds);
    return memberships.map(({ workspace, membership }) =>
      serializeWorkspaceItem(workspace, membership, members.filter((m) => m.membership.workspaceId === workspace.id), unread.get(workspace.id) ?? 0),
    );
  }

  /**
   * The workspace as the given member sees it: without `unread_notifications_count` in the
   * create and accept-invitation answers (spec §3.1), with it in `group_restored` (realtime §4.4).
   */
  async item(workspaceId: number, userId: number, options: { withUnreadCount?: boolean } = {}): Promise<WorkspaceItemJson> {
    const { workspace, membership } = await this.requireMembership(workspaceId, userId, W.membership);
    const unread = options.withUnreadCount ? ((await this.notifications.unreadCounts(userId, [workspaceId])).get(workspaceId) ?? 0) : null;
    return serializeWorkspaceItem(workspace, membership, await this.repo.members([workspaceId]), unread);
  }

  async workspaceJson(workspaceId: number): Promise<WorkspaceJson | null> {
    const workspace = await this.repo.findWorkspace(workspaceId);
    return workspace ? serializeWorkspace(workspace) : null;
  }

  async memberJson(workspaceUserId: number): Promise<WorkspaceUserJson | null> {
    const membership = await this.repo.findMembershipById(workspaceUserId);
    if (!membership) return null;
    const row = (await this.repo.members([membership.workspaceId])).find((m) => m.membership.id === workspaceUserId);
    return row ? serializeMember(row) : null;
  }

  /**
   * Creates a workspace with the user as its ADMIN, last in the user's order. With
   * `allow_global_workspace_creation` off only staff may (Baserow's setting_operation manager).
   */
  async create(user: UserEntity, name: string): Promise<WorkspaceEntity> {
    if (!user.isStaff && !(await this.settings.get()).allowGlobalWorkspaceCreation) throw Errors.permissionDenied();
    return this.db.run(async () => {
      const workspace = await this.repo.createWorkspace(name);
      await this.addMember(workspace.id, user.id, 'ADMIN');
      this.db.record('workspace.created', { workspaceId: workspace.id });
      this.actions.record('create_group', { workspaceId: workspace.id }, { scope: ActionScopes.root(), workspaceId: workspace.id });
      return workspace;
    });
  }

  /** Adds a member, placing the workspace last in the member's own order. */
  async addMember(workspaceId: number, userId: number, role: WorkspaceRole): Promise<WorkspaceUserEntity> {
    const order = (await this.repo.maxOrderOfUser(userId)) + 1;
    return this.repo.addMember(workspaceId, userId, role, order);
  }

  async update(user: UserEntity, workspaceId: number, name: string): Promise<WorkspaceJson> {
    return this.db.run(async () => {
      const workspace = await this.require(workspaceId, user.id, W.update);
      await this.repo.updateWorkspace(workspace.id, { name });
      this.db.record('workspace.updated', { workspaceId });
      this.actions.record('update_group', { workspaceId, before: workspace.name, after: name }, { scope: ActionScopes.root(), workspaceId });
      return serializeWorkspace({ ...workspace, name });
    });
  }

  /** Moves the workspace to the trash; from then on it behaves as not existing. */
  async delete(user: UserEntity, workspaceId: number): Promise<void> {
    await this.db.run(async () => {
      const workspace = await this.require(workspaceId, user.id, W.delete);
      const memberUserIds = await this.repo.memberUserIds(workspaceId);
      await this.trash.trashItem(WorkspaceEntity, user, { type: 'workspace', itemId: workspaceId, workspaceId, applicationId: null, name: workspace.name, parentName: null });
      this.db.record('workspace.deleted', { workspaceId, memberUserIds });
      this.actions.record('delete_group', { workspaceId }, { scope: ActionScopes.root(), workspaceId });
    });
  }

  /**
   * Sets the user's own order of their workspaces: each listed workspace gets its position
   * in the list (1-based, as Baserow does, so ignored ids still take a position); ids that
   * are not the user's are ignored.
   */
  async order(user: UserEntity, workspaceIds: number[]): Promise<void> {
    await this.db.run(async () => {
      const memberships = await this.repo.membershipsOfUser(user.id);
      const byWorkspace = new Map(memberships.map((m) => [m.workspace.id, m.membership]));
      const positions = new Map<number, number>();
      workspaceIds.forEach((id, index) => {
        if (byWorkspace.has(id)) positions.set(id, index + 1);
      });
      for (const [id, order] of positions) await this.repo.updateMembership(byWorkspace.get(id)!.id, { order });
      const ordered = [...positions.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
      this.db.record('workspaces.reordered', { userId: user.id, workspaceIds: ordered });
      const before = [...memberships].sort((a, b) => a.membership.order - b.membership.order || a.workspace.id - b.workspace.id).map((m) => m.workspace.id);
      this.actions.record('order_groups', { before, after: workspaceIds }, { scope: ActionScopes.root(), workspaceId: null });
    });
  }

  async leave(user: UserEntity, workspaceId: number): Promise<void> {
    await this.db.run(async () => {
      const { membership } = await this.requireMembership(workspaceId, user.id, W.membership);
      await this.removeMembership(membership);
      this.actions.record('leave_group', {}, { scope: ActionScopes.root(), workspaceId });
    });
  }

  async listMembers(user: UserEntity, workspaceId: number, search?: string, sorts?: string): Promise<WorkspaceUserJson[]> {
    await this.require(workspaceId, user.id, W.listWorkspaceUsers);
    const rows = await this.repo.members([workspaceId]);
    const highest = await this.permissions.highestRoles(workspaceId, rows.map((r) => ({ userId: r.user.id, permissions: r.membership.permissions })));
    const teams = await this.teams.teamsOfMembers(workspaceId);
    // Baserow enterprise's member data: the workspace role's uid, the highest role anywhere and the member's teams.
    let members: WorkspaceUserJson[] = rows.map((row) => ({
      ...serializeMember(row),
      role_uid: roleOfMembership(row.membership.permissions),
      highest_role_uid: highest.get(row.user.id) ?? null,
      teams: teams.get(row.user.id) ?? [],
    }));
    if (search) {
      const needle = search.toLowerCase();
      members = members.filter((m) => m.name.toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle));
    }
    return sortBy(members, sorts, ['name', 'email', 'role_uid'], (m, attr) => (attr === 'role_uid' ? m.permissions : (m as any)[attr]));
  }

  async updateMember(user: UserEntity, workspaceUserId: number, choice: string): Promise<WorkspaceUserJson> {
    const permissions = storedWorkspaceRole(choice);
    return this.db.run(async () => {
      const membership = await this.repo.findMembershipById(workspaceUserId);
      if (!membership) throw WorkspaceErrors.workspaceUserDoesNotExist();
      await this.require(membership.workspaceId, user.id, W.updateWorkspaceUser);
      await this.changeRole(membership, permissions, WorkspaceErrors.lastAdmin);
      return (await this.memberJson(workspaceUserId))!;
    });
  }

  /**
   * The member's workspace-level role (`workspace_user.permissions`; BUILDER is stored as MEMBER,
   * as Baserow stores it), as the role API sets it. Call inside a unit of work, permission checked.
   */
  async setMemberRole(workspaceId: number, userId: number, permissions: WorkspaceRole, lastAdmin: () => ApiError): Promise<void> {
    const membership = await this.repo.findMembership(workspaceId, userId);
    if (!membership) throw Errors.userNotInWorkspace();
    await this.changeRole(membership, permissions, lastAdmin);
  }

  /** Changes a membership's role (never the last admin's away), telling the workspace and, when it changed, the member's sockets. */
  private async changeRole(membership: WorkspaceUserEntity, permissions: WorkspaceRole, lastAdmin: () => ApiError): Promise<void> {
    if (membership.permissions === 'ADMIN' && permissions !== 'ADMIN' && (await this.repo.countAdmins(membership.workspaceId)) <= 1) {
      throw lastAdmin();
    }
    await this.repo.updateMembership(membership.id, { permissions });
    this.db.record('workspace_user.updated', { workspaceId: membership.workspaceId, workspaceUserId: membership.id });
    if (membership.permissions !== permissions) {
      this.db.record('permissions.updated', { workspaceId: membership.workspaceId, userIds: [membership.userId], teamIds: [] });
    }
  }

  async deleteMember(user: UserEntity, workspaceUserId: number): Promise<void> {
    await this.db.run(async () => {
      const membership = await this.repo.findMembershipById(workspaceUserId);
      if (!membership) throw WorkspaceErrors.workspaceUserDoesNotExist();
      await this.require(membership.workspaceId, user.id, W.deleteWorkspaceUser);
      if (membership.userId === user.id) throw WorkspaceErrors.cannotDeleteYourself();
      await this.removeMembership(membership);
    });
  }

  /**
   * Account deletion, as Baserow's: deletes for good the user's workspaces (trashed ones
   * included) in which no other member is an admin, their other members' access with them,
   * after `beforeDelete` has removed their applications' data. Answers the user's workspaces
   * that are kept and those deleted.
   */
  async deleteWorkspacesLeftWithoutAdmin(userId: number, beforeDelete: (workspaceIds: number[]) => Promise<void>): Promise<{ kept: number[]; deleted: number[] }> {
    const workspaceIds = await this.repo.workspaceIdsOfUser(userId);
    const deleted: number[] = [];
    for (const id of workspaceIds) if ((await this.repo.countAdmins(id, userId)) === 0) deleted.push(id);
    await beforeDelete(deleted);
    for (const id of deleted) {
      await this.repo.deleteWorkspace(id);
      await this.trash.forgetEntriesOf({ workspaceId: id });
    }
    return { kept: workspaceIds.filter((id) => !deleted.includes(id)), deleted };
  }

  /**
   * The admin delete (Baserow's WorkspacesAdminHandler): the live workspace goes for good, with
   * its applications' data (`beforeDelete`) and its trash entries; its members are told.
   * Call inside a unit of work.
   */
  async deletePermanently(workspaceId: number, beforeDelete: (workspaceIds: number[]) => Promise<void>): Promise<void> {
    const workspace = await this.repo.findWorkspace(workspaceId);
    if (!workspace) throw Errors.workspaceDoesNotExist();
    const memberUserIds = await this.repo.memberUserIds(workspaceId);
    await beforeDelete([workspaceId]);
    await this.repo.deleteWorkspace(workspaceId);
    await this.trash.forgetEntriesOf({ workspaceId });
    this.db.record('workspace.permanently_deleted', { workspaceId, memberUserIds });
  }

  /** Removes a membership unless it is the last admin's; members' pages in it are discarded. */
  private async removeMembership(membership: WorkspaceUserEntity): Promise<void> {
    if (membership.permissions === 'ADMIN' && (await this.repo.countAdmins(membership.workspaceId)) <= 1) {
      throw WorkspaceErrors.lastAdmin();
    }
    const snapshot = (await this.memberJson(membership.id))!;
    await this.repo.deleteMembership(membership.id);
    await this.roleAssignments.removeOfUser(membership.workspaceId, membership.userId);
    await this.teams.leaveTeams(membership.workspaceId, membership.userId);
    this.db.record('workspace_user.deleted', {
      workspaceId: membership.workspaceId,
      workspaceUser: snapshot,
      tableIds: await this.repo.tableIdsOfWorkspace(membership.workspaceId),
    });
  }
}

/** Applies Baserow's `sorts` parameter (`+name,-email`) to a list; without it the list keeps its order. */
export function sortBy<T>(items: T[], sorts: string | undefined, allowed: string[], get: (item: T, attr: string) => unknown): T[] {
  if (!sorts) return items;
  const keys = parseSortParameter(sorts, allowed);
  return [...items].sort((a, b) => {
    for (const { key, descending } of keys) {
      const x = String(get(a, key) ?? '').toLowerCase();
      const y = String(get(b, key) ?? '').toLowerCase();
      if (x !== y) return x < y === descending ? 1 : -1;
    }
    return 0;
  });
}
