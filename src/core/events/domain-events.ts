/**
 * The typed map of domain events: what happened, with the ids (and the snapshots that
 * cannot be read back after the change) the listeners need. Services record them inside
 * their unit of work; they are dispatched after commit and dropped on rollback.
 */
export interface WorkspaceUserSnapshot {
  id: number;
  name: string;
  email: string;
  workspace: number;
  permissions: string;
  created_on: string | null;
  user_id: number;
  to_be_deleted: boolean;
}

export interface DomainEventMap {
  'user.updated': { userId: number };
  'user.deletion_scheduled': { userId: number };
  'user.restored': { userId: number };
  'user.permanently_deleted': { userId: number; workspaceIds: number[] };
  'user.password_changed': { userId: number };
  'workspace.created': { workspaceId: number };
  'workspace.updated': { workspaceId: number };
  'workspace.deleted': { workspaceId: number; memberUserIds: number[] };
  'workspaces.reordered': { userId: number; workspaceIds: number[] };
  'workspace_user.added': { workspaceId: number; workspaceUserId: number };
  'workspace_user.updated': { workspaceId: number; workspaceUserId: number };
  'workspace_user.deleted': { workspaceId: number; workspaceUser: WorkspaceUserSnapshot; tableIds: number[] };
  'application.created': { applicationId: number; workspaceId: number };
  'application.updated': { applicationId: number; workspaceId: number };
  'application.deleted': { applicationId: number; workspaceId: number };
  'applications.reordered': { workspaceId: number; applicationIds: number[] };
}

export type DomainEventName = keyof DomainEventMap;

/** What listeners receive: the payload and who caused it (for `WebSocketId` exclusion). */
export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  payload: DomainEventMap[K];
  actor: { userId: number | null; webSocketId: string | null };
}
