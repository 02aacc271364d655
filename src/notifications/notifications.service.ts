import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError } from '../core/errors/api-error';
import { databaseId, NO_ID } from '../core/validation/ids';
import type { NotificationSnapshot } from '../core/events/domain-events';
import { NotificationEntity } from './notification.entity';
import { NotificationRepository } from './notification.repository';
import { NotificationJson, serializeNotification } from './notification.serializer';
import { isEmailNotificationType } from './notification-types';

/** One notification to create: its type and data (Baserow's keys), where it belongs and who caused it. */
export interface NotifyInput {
  /** The recipients; users that do not exist or are deactivated are left out. */
  userIds: number[];
  type: string;
  data: Record<string, unknown>;
  /** The workspace it belongs to; null: user-level (listed in every workspace of the recipient). */
  workspaceId: number | null;
  /** The user who caused it; null for the system or an anonymous visitor. */
  senderId: number | null;
  /** Leave out recipients who are not members of `workspaceId` (any more). */
  membersOnly?: boolean;
}

export const NotificationErrors = {
  doesNotExist: () => new ApiError('ERROR_NOTIFICATION_DOES_NOT_EXIST', 404, 'The requested notification does not exist.'),
};

/**
 * Notifications: the API other modules call to notify users, and the reads and changes of
 * one user's notifications. Every method joins the caller's unit of work (or opens one), so a
 * notification is written in the same transaction as the change it reports and its
 * `notifications_created` message leaves only after that commits; a rolled-back change
 * notifies nobody. E-mails are flagged on the recipient rows and sent by the background
 * sender (email-sender.ts), so nothing is lost to a restart.
 *
 * It depends on nothing but the database, so any module may import NotificationsModule:
 *
 *   await this.notifications.notifyWorkspaceAdmins(workspaceId, 'webhook_deactivated', { webhook_id, table_id, database_id, webhook_name }, null);
 *   await this.notifications.notifyUsers({ userIds, type: 'row_comment', data, workspaceId, senderId: user.id });
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: NotificationRepository,
  ) {}

  // ------------------------------------------------------------------ creating (other modules)

  /**
   * Creates one notification for the given users (Baserow's `create_direct_notification_for_users`);
   * after commit they all get `notifications_created` with it. Answers it as its recipients see
   * it, or null when there is nobody to notify.
   */
  async notifyUsers(input: NotifyInput): Promise<NotificationJson | null> {
    return this.db.run(async () => {
      const created = await this.create(input);
      if (!created) return null;
      this.db.record('notifications.created', { userIds: created.userIds, notifications: [created.json] });
      return created.json;
    });
  }

  /** One notification for each admin of the workspace (Baserow's `notify_admins_in_workspace`), e.g. `webhook_deactivated`. */
  async notifyWorkspaceAdmins(workspaceId: number, type: string, data: Record<string, unknown>, senderId: number | null = null): Promise<NotificationJson | null> {
    return this.db.run(async () => this.notifyUsers({ userIds: await this.repo.adminIds(workspaceId), type, data, workspaceId, senderId }));
  }

  /**
   * Several notifications at once, told to each user in one message (Baserow's grouped path, used
   * for collaborators added to rows and rich-text mentions): a user with up to 20 new ones gets
   * them in `notifications_created`, one with more gets `notifications_fetch_required`.
   */
  async notifyUsersGrouped(inputs: NotifyInput[]): Promise<void> {
    if (!inputs.length) return;
    await this.db.run(async () => {
      const perUser: Record<string, NotificationSnapshot[]> = {};
      for (const input of inputs) {
        const created = await this.create(input);
        for (const userId of created?.userIds ?? []) (perUser[String(userId)] ??= []).push(created!.json);
      }
      if (Object.keys(perUser).length) this.db.record('notifications.created_per_user', { perUser });
    });
  }

  /** A notification for every user (Baserow's broadcast, e.g. `baserow_version_upgrade`): one placeholder, rows made as users read or clear it. */
  async broadcast(type: string, data: Record<string, unknown>, senderId: number | null = null): Promise<NotificationJson> {
    return this.db.run(async () => {
      const notification = await this.repo.createNotification({ createdOn: new Date(), type, broadcast: true, workspaceId: null, senderId, data });
      await this.repo.addBroadcastPlaceholder(notification);
      const [view] = await this.repo.views([{ id: notification.id, read: false }]);
      const json = serializeNotification(view);
      this.db.record('notifications.created', { userIds: null, notifications: [json] });
      return json;
    });
  }

  /**
   * The invitee answered an invitation: their `workspace_invitation_created` notification of it
   * is marked read, and every socket of theirs (the answering one too) hears of it.
   */
  async markInvitationNotificationRead(userId: number, invitationId: number): Promise<void> {
    await this.db.run(async () => {
      const recipient = await this.repo.unreadInvitationNotification(userId, invitationId);
      if (!recipient) return;
      await this.repo.setRead(recipient.id, true);
      const [view] = await this.repo.views([{ id: recipient.notificationId, read: true }]);
      if (view) this.db.record('notification.marked_as_read', { userId, notification: serializeNotification(view), includeOrigin: true });
    });
  }

  private async create(input: NotifyInput): Promise<{ userIds: number[]; json: NotificationJson & NotificationSnapshot } | null> {
    let users = await this.repo.users(input.userIds);
    if (input.membersOnly && input.workspaceId !== null) {
      const members = await this.repo.memberIds(input.workspaceId, users.map((user) => user.id));
      users = users.filter((user) => members.has(user.id));
    }
    if (!users.length) return null;
    const notification = await this.repo.createNotification({
      createdOn: new Date(),
      type: input.type,
      broadcast: false,
      workspaceId: input.workspaceId,
      senderId: input.senderId,
      data: input.data,
    });
    const mailed = isEmailNotificationType(input.type);
    await this.repo.addRecipients(
      notification,
      users.map((user) => ({ userId: user.id, emailScheduled: mailed && user.emailNotificationFrequency !== 'never' })),
    );
    const [view] = await this.repo.views([{ id: notification.id, read: false }]);
    return { userIds: users.map((user) => user.id), json: serializeNotification(view) };
  }

  // ------------------------------------------------------------------ unread counts (other modules)

  /** Per workspace id: the user's unread notifications of it (the workspace list's `unread_notifications_count`). */
  unreadCounts(userId: number, workspaceIds: number[]): Promise<Map<number, number>> {
    return this.repo.unreadCounts(userId, workspaceIds);
  }

  /** `user_notifications.unread_count` of the sign-in answers: unread user-level and broadcast notifications. */
  unreadUserLevelCount(userId: number): Promise<number> {
    return this.repo.unreadUserLevelCount(userId);
  }

  // ------------------------------------------------------------------ one user's (the API; membership checked by the caller)

  async list(userId: number, workspaceId: number, limit: number, offset: number): Promise<{ count: number; results: NotificationJson[] }> {
    const { count, items } = await this.repo.page(userId, workspaceId, limit, offset);
    return { count, results: items.map(serializeNotification) };
  }

  /**
   * Sets `read` of one of the user's notifications in the workspace (or a user-level one). A
   * notification of another workspace, another user's, or a cleared one does not exist.
   */
  async markRead(userId: number, workspaceId: number, notificationId: number, read: boolean): Promise<NotificationJson> {
    return this.db.run(async () => {
      const notification = await this.repo.findNotification(databaseId(notificationId) ?? NO_ID);
      if (!notification || !this.inWorkspace(notification, workspaceId)) throw NotificationErrors.doesNotExist();
      const own = await this.repo.findRecipient(notification.id, userId);
      if (own) {
        if (own.cleared || own.queued) throw NotificationErrors.doesNotExist();
        await this.repo.setRead(own.id, read);
      } else if (notification.broadcast && (await this.repo.hasPlaceholder(notification.id))) {
        await this.repo.addBroadcastRow(notification, userId, { read, cleared: false });
      } else {
        throw NotificationErrors.doesNotExist();
      }
      const [view] = await this.repo.views([{ id: notification.id, read }]);
      const json = serializeNotification(view);
      this.db.record('notification.marked_as_read', { userId, notification: json, includeOrigin: false });
      return json;
    });
  }

  async markAllRead(userId: number, workspaceId: number): Promise<void> {
    await this.db.run(async () => {
      await this.repo.markAllRead(userId, workspaceId);
      this.db.record('notifications.all_marked_as_read', { userId });
    });
  }

  async clear(userId: number, workspaceId: number): Promise<void> {
    await this.db.run(async () => {
      await this.repo.clear(userId, workspaceId);
      this.db.record('notifications.all_cleared', { userId });
    });
  }

  /** Stricter than Baserow: the path's workspace must be the notification's, or it is user-level or a broadcast. */
  private inWorkspace(notification: NotificationEntity, workspaceId: number): boolean {
    return notification.workspaceId === null || notification.workspaceId === workspaceId;
  }
}
