import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ApplicationRepository } from '../applications/application.repository';
import { ApplicationsService, hashId } from '../applications/applications.service';
import { DomainEvent } from '../core/events/domain-events';
import { TeamSubjects } from '../permissions/team-subjects';
import { PermissionService, WorkspaceOperations as W } from '../permissions';
import type { ApplicationJson } from '../applications/application.serializer';
import { UserRepository } from '../users/user.repository';
import { serializePublicUser } from '../users/user.serializer';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { Broadcaster } from './broadcaster';
import { Delivery, encode, ServerMessage } from './delivery';
import { tablePermissionGroup } from './pages/page-type';
import { RealtimeRepository } from './realtime.repository';

/** The `WebSocketId` of the request that caused the event: that one socket is left out. */
const origin = (event: DomainEvent): string | null => event.actor.webSocketId;

/** USERS(ids): the message is encoded once for the whole audience. */
function toUsers(userIds: number[], message: ServerMessage, exclude: string | null): Delivery {
  return { kind: 'users', userIds, message: encode(message), exclude };
}

/**
 * Turns committed domain events into wire messages and their audiences (§4.3–4.5 and
 * decision 3). Audiences are read when the event is handled, right after the commit.
 */
@Injectable()
export class RealtimeListener {
  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly repo: RealtimeRepository,
    private readonly users: UserRepository,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
    private readonly applicationRepo: ApplicationRepository,
    private readonly teams: TeamSubjects,
    private readonly permissions: PermissionService,
  ) {}

  // Users: WORKSPACES(every workspace of the user).

  @OnEvent('user.updated')
  async userUpdated(event: DomainEvent<'user.updated'>): Promise<void> {
    await this.toUserWorkspaces(event.payload.userId, 'user_updated', origin(event));
  }

  /** Scheduling, restoring and deleting accounts exclude nobody (§4.3). */
  @OnEvent('user.deletion_scheduled')
  async userDeleted(event: DomainEvent<'user.deletion_scheduled'>): Promise<void> {
    await this.toUserWorkspaces(event.payload.userId, 'user_deleted', null);
  }

  @OnEvent('user.restored')
  async userRestored(event: DomainEvent<'user.restored'>): Promise<void> {
    await this.toUserWorkspaces(event.payload.userId, 'user_restored', null);
  }

  /**
   * To the members of the workspaces the user leaves behind (those deleted with the account
   * have no members left). The account's own sockets, still open, are closed: they must not
   * keep receiving its former pages' messages.
   */
  @OnEvent('user.permanently_deleted')
  async userPermanentlyDeleted(event: DomainEvent<'user.permanently_deleted'>): Promise<void> {
    const { userId, workspaceIds } = event.payload;
    const audience = await this.repo.memberUserIds(workspaceIds);
    await this.broadcaster.send(toUsers(audience, { type: 'user_permanently_deleted', user_id: userId }, null), { kind: 'force_disconnect', userId, exclude: null });
  }

  /** The user's other sockets are told, then closed; the one that changed it stays. */
  @OnEvent('user.password_changed')
  async passwordChanged(event: DomainEvent<'user.password_changed'>): Promise<void> {
    await this.broadcaster.send({ kind: 'force_disconnect', userId: event.payload.userId, exclude: origin(event) });
  }

  /** Deactivated by a staff member: every socket of the user, on every instance, is told and closed. */
  @OnEvent('user.deactivated')
  async userDeactivated(event: DomainEvent<'user.deactivated'>): Promise<void> {
    await this.broadcaster.send({ kind: 'force_disconnect', userId: event.payload.userId, exclude: null });
  }

  // Workspaces (`group_*` types, `workspace*` keys).

  @OnEvent('workspace.created')
  async workspaceCreated(event: DomainEvent<'workspace.created'>): Promise<void> {
    const { workspaceId } = event.payload;
    const workspace = await this.workspaces.workspaceJson(workspaceId);
    if (!workspace) return;
    await this.toWorkspace(workspaceId, { type: 'group_created', workspace }, origin(event));
  }

  @OnEvent('workspace.updated')
  async workspaceUpdated(event: DomainEvent<'workspace.updated'>): Promise<void> {
    const { workspaceId } = event.payload;
    const workspace = await this.workspaces.workspaceJson(workspaceId);
    if (!workspace) return;
    await this.toWorkspace(workspaceId, { type: 'group_updated', workspace_id: workspaceId, workspace }, origin(event));
  }

  /** `before_group_deleted` right before `group_deleted`, to the members captured before deletion. */
  @OnEvent('workspace.deleted')
  async workspaceDeleted(event: DomainEvent<'workspace.deleted'>): Promise<void> {
    const { workspaceId, memberUserIds } = event.payload;
    await this.broadcaster.send(
      toUsers(memberUserIds, { type: 'before_group_deleted', workspace_id: workspaceId }, origin(event)),
      toUsers(memberUserIds, { type: 'group_deleted', workspace_id: workspaceId }, origin(event)),
    );
  }

  /** Deleted for good by a staff member: `group_deleted` to the members captured before, nobody excluded. */
  @OnEvent('workspace.permanently_deleted')
  async workspacePermanentlyDeleted(event: DomainEvent<'workspace.permanently_deleted'>): Promise<void> {
    const { workspaceId, memberUserIds } = event.payload;
    await this.broadcaster.send(toUsers(memberUserIds, { type: 'group_deleted', workspace_id: workspaceId }, null));
  }

  /** `group_restored` to each member with the workspace and its applications as that member sees them. */
  @OnEvent('workspace.restored')
  async workspaceRestored(event: DomainEvent<'workspace.restored'>): Promise<void> {
    const { workspaceId } = event.payload;
    const applications = await this.applications.serialize(await this.applicationRepo.ofWorkspaces([workspaceId]));
    const deliveries: Delivery[] = [];
    for (const userId of await this.repo.memberUserIds([workspaceId])) {
      const workspace = await this.workspaces.item(workspaceId, userId, { withUnreadCount: true }).catch(() => null);
      if (workspace) deliveries.push(toUsers([userId], { type: 'group_restored', workspace_id: workspaceId, workspace, applications }, origin(event)));
    }
    await this.broadcaster.send(...deliveries);
  }

  @OnEvent('workspaces.reordered')
  async workspacesReordered(event: DomainEvent<'workspaces.reordered'>): Promise<void> {
    const { userId, workspaceIds } = event.payload;
    await this.broadcaster.send(toUsers([userId], { type: 'groups_reordered', workspace_ids: workspaceIds }, origin(event)));
  }

  @OnEvent('workspace_user.added')
  async workspaceUserAdded(event: DomainEvent<'workspace_user.added'>): Promise<void> {
    await this.workspaceUserChanged('group_user_added', event.payload.workspaceId, event.payload.workspaceUserId, origin(event));
  }

  @OnEvent('workspace_user.updated')
  async workspaceUserUpdated(event: DomainEvent<'workspace_user.updated'>): Promise<void> {
    await this.workspaceUserChanged('group_user_updated', event.payload.workspaceId, event.payload.workspaceUserId, origin(event));
  }

  /** Baserow's `permissions_updated`, to every socket of the users (and of the teams' users), after commit. */
  @OnEvent('permissions.updated')
  async permissionsUpdated(event: DomainEvent<'permissions.updated'>): Promise<void> {
    const { workspaceId, userIds, teamIds } = event.payload;
    const audience = [...new Set([...userIds, ...(teamIds.length ? await this.teams.userIdsOf(teamIds) : [])])];
    if (!audience.length) return;
    const deliveries: Delivery[] = [toUsers(audience, { type: 'permissions_updated', workspace_id: workspaceId }, null)];
    // Pages of tables the new roles no longer let them listen to are discarded, on every instance.
    for (const [userId, tableIds] of await this.permissions.unlistenableTables(audience, workspaceId)) {
      if (tableIds.length) deliveries.push({ kind: 'discard_pages', userIds: [userId], permissionGroups: tableIds.map(tablePermissionGroup) });
    }
    await this.broadcaster.send(...deliveries);
  }

  /**
   * To the remaining members and the removed user; then the removed user's pages of the
   * workspace's tables are discarded, on every instance.
   */
  @OnEvent('workspace_user.deleted')
  async workspaceUserDeleted(event: DomainEvent<'workspace_user.deleted'>): Promise<void> {
    const { workspaceId, workspaceUser, tableIds } = event.payload;
    const audience = [...(await this.repo.memberUserIds([workspaceId])), workspaceUser.user_id];
    const message = { type: 'group_user_deleted', id: workspaceUser.id, workspace_id: workspaceId, workspace_user: workspaceUser };
    const deliveries: Delivery[] = [toUsers(audience, message, origin(event))];
    if (tableIds.length) {
      deliveries.push({ kind: 'discard_pages', userIds: [workspaceUser.user_id], permissionGroups: tableIds.map(tablePermissionGroup) });
    }
    await this.broadcaster.send(...deliveries);
  }

  // Applications: every member may read every application (no roles), so PERMITTED = WORKSPACE.

  /**
   * Baserow serializes `application_created` per recipient to filter tables by permission;
   * without roles every member's payload is the same, so it is serialized once.
   */
  @OnEvent('application.created')
  async applicationCreated(event: DomainEvent<'application.created'>): Promise<void> {
    const application = await this.applicationRepo.findLive(event.payload.applicationId);
    if (!application) return;
    const [json] = await this.applications.serialize([application]);
    await this.toEachMember(application.workspaceId, json, (visible) => ({ type: 'application_created', application: visible }), origin(event));
  }

  @OnEvent('application.updated')
  async applicationUpdated(event: DomainEvent<'application.updated'>): Promise<void> {
    const application = await this.applicationRepo.findLive(event.payload.applicationId);
    if (!application) return;
    const [json] = await this.applications.serialize([application]);
    await this.toEachMember(application.workspaceId, json, (visible) => ({ type: 'application_updated', application_id: application.id, application: visible }), origin(event));
  }

  @OnEvent('application.deleted')
  async applicationDeleted(event: DomainEvent<'application.deleted'>): Promise<void> {
    const { applicationId, workspaceId } = event.payload;
    const audience = await this.permissions.audience(await this.repo.memberUserIds([workspaceId]), W.listApplications, { workspaceId, applicationId });
    await this.broadcaster.send(toUsers(audience, { type: 'application_deleted', application_id: applicationId }, origin(event)));
  }

  /** Ids travel as SHA-256 hex so members cannot learn of applications they may not see. */
  @OnEvent('applications.reordered')
  async applicationsReordered(event: DomainEvent<'applications.reordered'>): Promise<void> {
    const { workspaceId, applicationIds } = event.payload;
    await this.toWorkspace(
      workspaceId,
      { type: 'applications_reordered', workspace_id: workspaceId, order: applicationIds.map(hashId) },
      origin(event),
    );
  }

  private async workspaceUserChanged(type: string, workspaceId: number, workspaceUserId: number, exclude: string | null): Promise<void> {
    const workspaceUser = await this.workspaces.memberJson(workspaceUserId);
    if (!workspaceUser) return;
    await this.toWorkspace(workspaceId, { type, id: workspaceUserId, workspace_id: workspaceId, workspace_user: workspaceUser }, exclude);
  }

  /**
   * An application's message to each member who may see it, with only the tables they may see
   * (Baserow serializes `application_created` per recipient for this); members who see the same
   * get one delivery.
   */
  private async toEachMember(workspaceId: number, json: ApplicationJson, message: (visible: ApplicationJson) => ServerMessage, exclude: string | null): Promise<void> {
    const byPayload = new Map<string, number[]>();
    for (const userId of await this.repo.memberUserIds([workspaceId])) {
      const [visible] = await this.applications.visibleTo(userId, [json]);
      if (!visible) continue;
      const key = JSON.stringify(visible);
      byPayload.set(key, [...(byPayload.get(key) ?? []), userId]);
    }
    await this.broadcaster.send(...[...byPayload].map(([key, userIds]) => toUsers(userIds, message(JSON.parse(key) as ApplicationJson), exclude)));
  }

  /** WORKSPACE(w): the members as they are now. */
  private async toWorkspace(workspaceId: number, message: ServerMessage, exclude: string | null): Promise<void> {
    await this.broadcaster.send(toUsers(await this.repo.memberUserIds([workspaceId]), message, exclude));
  }

  private async toUserWorkspaces(userId: number, type: string, exclude: string | null): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) return;
    const audience = await this.repo.memberUserIds(await this.repo.workspaceIdsOfUser(userId));
    await this.broadcaster.send(toUsers(audience, { type, user: serializePublicUser(user) }, exclude));
  }
}
