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
  /**
   * The account is gone, with what the foreign keys removed in the same transaction.
   * `workspaceIds`: its former workspaces that are kept; `deletedWorkspaceIds`: those deleted
   * with it (no admin left); `account`: who it was, for the goodbye mail.
   */
  'user.permanently_deleted': {
    userId: number;
    workspaceIds: number[];
    deletedWorkspaceIds: number[];
    account: { email: string; firstName: string; language: string };
    /** Deleted by a staff member (admin API), not at the end of its grace period. */
    byAdmin?: boolean;
  };
  /** Deactivated by a staff member: its sockets are closed on every instance. */
  'user.deactivated': { userId: number };
  /** Deleted for good by a staff member (admin API): `group_deleted` to the members, nobody excluded. */
  'workspace.permanently_deleted': { workspaceId: number; memberUserIds: number[] };
  'user.password_changed': { userId: number };
  'workspace.created': { workspaceId: number };
  'workspace.updated': { workspaceId: number };
  'workspace.deleted': { workspaceId: number; memberUserIds: number[] };
  /** Back from the trash: each member gets the workspace as they see it, with its applications. */
  'workspace.restored': { workspaceId: number };
  'workspaces.reordered': { userId: number; workspaceIds: number[] };
  'workspace_user.added': { workspaceId: number; workspaceUserId: number };
  'workspace_user.updated': { workspaceId: number; workspaceUserId: number };
  /** A role of the users (or of the teams' users) changed in the workspace: `permissions_updated` to their sockets. */
  'permissions.updated': { workspaceId: number; userIds: number[]; teamIds: number[] };
  /** A field's write rule changed: `field_permissions_updated` to the members who may read the field. */
  'field_permissions.updated': { workspaceId: number; databaseId: number; tableId: number; fieldId: number; role: string; allowInForms: boolean };
  'workspace_user.deleted': { workspaceId: number; workspaceUser: WorkspaceUserSnapshot; tableIds: number[] };
  'application.created': { applicationId: number; workspaceId: number };
  'application.updated': { applicationId: number; workspaceId: number };
  'application.deleted': { applicationId: number; workspaceId: number };
  'applications.reordered': { workspaceId: number; applicationIds: number[] };
  'table.created': { tableId: number; databaseId: number; workspaceId: number };
  /** `forceTableRefresh`: clients reload the table's rows (a restore of 50 rows or more). */
  'table.updated': { tableId: number; databaseId: number; workspaceId: number; forceTableRefresh?: boolean };
  'table.deleted': { tableId: number; databaseId: number; workspaceId: number };
  'tables.reordered': { databaseId: number; workspaceId: number; tableIds: number[] };
  'field.created': { fieldId: number; tableId: number; relatedFieldIds: number[] };
  'field.updated': { fieldId: number; tableId: number; relatedFieldIds: number[] };
  'field.deleted': { fieldId: number; tableId: number; relatedFieldIds: number[] };
  'field.restored': { fieldId: number; tableId: number; relatedFieldIds: number[] };
  /** `beforeRowId`: the row the new rows were placed before (`?before=`), or null. */
  /** `rows`: the new rows as read in the transaction that created them. */
  'rows.created': { tableId: number; rowIds: number[]; beforeRowId: number | null; rows?: RowSnapshot[] };
  /**
   * `rowsBefore`: the rows as they were, keyed `field_<id>`, aligned with `rowIds`.
   * `visibleBefore`: per filtered public view id, the rows of `rowIds` it showed before the write.
   */
  'rows.updated': {
    tableId: number;
    rowIds: number[];
    rowsBefore: RowSnapshot[];
    updatedFieldIds: number[];
    rows?: RowSnapshot[];
    visibleBefore?: RowVisibility;
    /** Set on the rows of other tables a write changed through links (its table's id): webhooks send them as Baserow's related `rows.updated`. */
    cascadeOf?: number;
  };
  /** `rows`: the rows as they were before deletion; `visibleBefore` as for updates. */
  'rows.deleted': { tableId: number; rowIds: number[]; rows: RowSnapshot[]; visibleBefore?: RowVisibility };
  /** Trashed rows deleted for good (modules forget what they keep of them: comments, history). */
  'rows.deleted_for_good': { tableId: number; rowIds: number[] };
  /** Row history entries just recorded, each as the API answers it, for its row's page. */
  'row_history.created': { entries: { tableId: number; rowId: number; entry: Record<string, unknown> & { id: number } }[] };
  'view.created': { viewId: number; tableId: number };
  /** `previousOwnership`: the ownership type before an update that changed it. */
  'view.updated': { viewId: number; tableId: number; previousOwnership?: string };
  'view.deleted': { viewId: number; tableId: number };
  'views.reordered': { tableId: number; viewIds: number[] };
  'view.field_options_updated': { viewId: number; tableId: number };
  /** A shared view's link may no longer open for some: it stopped being public, got a new password, or `slug` was rotated away. */
  'view.public_access_changed': { viewId: number; slug: string };
  /** Saved filters, filter groups, sorts, group-bys and decorations of a view (`id`: the changed one's). */
  'view_filter.created': ViewPartEvent;
  'view_filter.updated': ViewPartEvent;
  'view_filter.deleted': ViewPartEvent;
  'view_filter_group.created': ViewPartEvent;
  'view_filter_group.updated': ViewPartEvent;
  'view_filter_group.deleted': ViewPartEvent;
  'view_sort.created': ViewPartEvent;
  'view_sort.updated': ViewPartEvent;
  'view_sort.deleted': ViewPartEvent;
  'view_group_by.created': ViewPartEvent;
  'view_group_by.updated': ViewPartEvent;
  'view_group_by.deleted': ViewPartEvent;
  'view_decoration.created': ViewPartEvent;
  'view_decoration.updated': ViewPartEvent;
  'view_decoration.deleted': ViewPartEvent;
  /** `comment`: the comment as the API shows it after the change (`trashed`, `message: null` once deleted). */
  'row_comment.created': { tableId: number; rowId: number; comment: RowCommentSnapshot };
  'row_comment.updated': { tableId: number; rowId: number; comment: RowCommentSnapshot };
  'row_comment.deleted': { tableId: number; rowId: number; comment: RowCommentSnapshot };
  'row_comment.restored': { tableId: number; rowId: number; comment: RowCommentSnapshot };
  /** Webhook calls were queued in the outbox: the deliverer of this instance sends them now. */
  'webhook.calls_queued': { webhookIds: number[] };
  /** `includeOrigin`: the mode was set for the user by the server (their first comment on the row): every socket of theirs hears of it. */
  'row_comments.notification_mode_updated': { userId: number; tableId: number; rowId: number; mode: string; includeOrigin?: boolean };
  /**
   * Notifications just created (`notifications`: each as its recipients see it). `userIds`: the
   * recipients, all sent the same list; null: a broadcast, to every socket.
   */
  'notifications.created': { userIds: number[] | null; notifications: NotificationSnapshot[] };
  /** Notifications created for several users at once, each user's own list (Baserow's grouped path). */
  'notifications.created_per_user': { perUser: Record<string, NotificationSnapshot[]> };
  /** `includeOrigin`: marked by the server as a side effect (an invitation answered), so every socket of the user hears of it. */
  'notification.marked_as_read': { userId: number; notification: NotificationSnapshot; includeOrigin: boolean };
  'notifications.all_marked_as_read': { userId: number };
  'notifications.all_cleared': { userId: number };
  /** An invitation to an existing account was made or changed; `invitation` as its invitee sees it. */
  'workspace_invitation.updated_or_created': { userId: number; invitation: Record<string, unknown> };
  'workspace_invitation.accepted': { userId: number; invitation: Record<string, unknown> };
  'workspace_invitation.rejected': { userId: number; invitation: Record<string, unknown> };
  /** A job began running; `job` as `GET /api/jobs/{id}/` answers it. */
  'job.started': { userId: number; job: Record<string, unknown> };
}

/** A notification as one recipient sees it (`id`, `type`, `sender`, `workspace`, `created_on`, `read`, `data`). */
export type NotificationSnapshot = Record<string, unknown> & { id: number };

/** A change of one of a view's filters, filter groups, sorts or group-bys. */
export interface ViewPartEvent {
  viewId: number;
  tableId: number;
  id: number;
}

/** A row comment as the API shows it (`id`, `user_id`, `first_name`, `message`, …). */
export type RowCommentSnapshot = Record<string, unknown> & { id: number };

/** Per view id (a string key), the row ids it showed; a view not listed showed them all. */
export type RowVisibility = Record<string, number[]>;

/** A row as the API shows it (`id`, `order`, `field_<id>` keys). */
export type RowSnapshot = Record<string, unknown> & { id: number };

export type DomainEventName = keyof DomainEventMap;

/** What listeners receive: the payload and who caused it (for `WebSocketId` exclusion). */
export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  payload: DomainEventMap[K];
  actor: { userId: number | null; webSocketId: string | null; sendWebhookEvents?: boolean };
}
