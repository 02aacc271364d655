import { Injectable } from '@nestjs/common';
import { Brackets, In, IsNull, SelectQueryBuilder } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { UserEntity } from '../users/user.entity';
import { WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { NotificationEmailStateEntity, NotificationEntity, NotificationRecipientEntity } from './notification.entity';

/** A notification as one user sees it: the notification, its sender, and that user's `read`. */
export interface NotificationView {
  notification: NotificationEntity;
  sender: Pick<UserEntity, 'id' | 'email' | 'firstName'> | null;
  read: boolean;
}

/** A recipient to create: the user, and whether the notification waits for their e-mail. */
export interface NewRecipient {
  userId: number;
  emailScheduled: boolean;
}

type Row = Record<string, unknown>;
const bool = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 't';

/**
 * The only place that queries notifications. "Mine in workspace W" is Baserow's set: my direct
 * rows (not queued, not cleared) of W or user-level, my broadcast rows not cleared, and the
 * broadcast placeholders I have no row for yet (unread).
 */
@Injectable()
export class NotificationRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get notifications() {
    return this.db.manager.getRepository(NotificationEntity);
  }

  private get recipients() {
    return this.db.manager.getRepository(NotificationRecipientEntity);
  }

  private get emailStates() {
    return this.db.manager.getRepository(NotificationEmailStateEntity);
  }

  // ------------------------------------------------------------------ creating

  createNotification(values: Omit<NotificationEntity, 'id'>): Promise<NotificationEntity> {
    return this.notifications.save(this.notifications.create(values));
  }

  async addRecipients(notification: NotificationEntity, recipients: NewRecipient[], queued = false): Promise<void> {
    if (!recipients.length) return;
    const rows = recipients.map((r) =>
      this.recipients.create({
        notificationId: notification.id,
        recipientId: r.userId,
        read: false,
        cleared: false,
        queued,
        emailScheduled: r.emailScheduled,
        createdOn: notification.createdOn,
        broadcast: false,
        workspaceId: notification.workspaceId,
      }),
    );
    // In chunks: SQLite binds at most 32766 values a statement.
    for (let i = 0; i < rows.length; i += 500) await this.recipients.insert(rows.slice(i, i + 500));
  }

  /** The single placeholder row of a broadcast notification. */
  async addBroadcastPlaceholder(notification: NotificationEntity): Promise<void> {
    await this.recipients.insert(
      this.recipients.create({ notificationId: notification.id, recipientId: null, read: false, cleared: false, queued: false, emailScheduled: false, createdOn: notification.createdOn, broadcast: true, workspaceId: null }),
    );
  }

  /** Users by id with what creating notifications needs (active ones only). */
  async users(ids: number[]): Promise<Pick<UserEntity, 'id' | 'email' | 'firstName' | 'emailNotificationFrequency'>[]> {
    if (!ids.length) return [];
    return this.db.manager.getRepository(UserEntity).find({
      where: { id: In([...new Set(ids)]), isActive: true },
      select: { id: true, email: true, firstName: true, emailNotificationFrequency: true },
      order: { id: 'ASC' },
    });
  }

  async adminIds(workspaceId: number): Promise<number[]> {
    const rows = await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { workspaceId, permissions: 'ADMIN' }, select: { userId: true }, order: { id: 'ASC' } });
    return rows.map((row) => row.userId);
  }

  /** Which of these users are members of the workspace. */
  async memberIds(workspaceId: number, userIds: number[]): Promise<Set<number>> {
    if (!userIds.length) return new Set();
    const rows = await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { workspaceId, userId: In([...new Set(userIds)]) }, select: { userId: true } });
    return new Set(rows.map((row) => row.userId));
  }

  // ------------------------------------------------------------------ reading one user's

  /** Mine in the workspace (see the class), newest first. */
  private mine(userId: number, workspaceId: number): SelectQueryBuilder<NotificationRecipientEntity> {
    return this.recipients
      .createQueryBuilder('r')
      .innerJoin(NotificationEntity, 'n', 'n.id = r.notification_id')
      .where(
        new Brackets((own) => {
          own
            .where('r.recipient_id = :userId AND r.cleared = :no AND r.queued = :no', { userId, no: false })
            .andWhere('(r.broadcast = :yes OR r.workspace_id = :workspaceId OR r.workspace_id IS NULL)', { yes: true, workspaceId })
            .orWhere(
              'r.recipient_id IS NULL AND r.broadcast = :yes AND NOT EXISTS (SELECT 1 FROM notification_recipient m WHERE m.notification_id = r.notification_id AND m.recipient_id = :userId)',
            );
        }),
      );
  }

  async page(userId: number, workspaceId: number, limit: number, offset: number): Promise<{ count: number; items: NotificationView[] }> {
    const count = await this.mine(userId, workspaceId).getCount();
    const rows: Row[] = await this.mine(userId, workspaceId)
      .select(['r.read AS "read"', 'r.recipient_id AS "recipient_id"', 'n.id AS "id"'])
      .orderBy('n.created_on', 'DESC')
      .addOrderBy('n.id', 'DESC')
      .limit(limit)
      .offset(offset)
      .getRawMany();
    const views = await this.views(rows.map((row) => ({ id: Number(row.id), read: row.recipient_id === null ? false : bool(row.read) })));
    return { count, items: views };
  }

  /** The notifications with their senders, in the order given, each with the `read` given. */
  async views(entries: { id: number; read: boolean }[]): Promise<NotificationView[]> {
    if (!entries.length) return [];
    const notifications = await this.notifications.findBy({ id: In(entries.map((e) => e.id)) });
    const byId = new Map(notifications.map((n) => [n.id, n]));
    const senderIds = [...new Set(notifications.map((n) => n.senderId).filter((id): id is number => id !== null))];
    const senders = senderIds.length
      ? await this.db.manager.getRepository(UserEntity).find({ where: { id: In(senderIds) }, select: { id: true, email: true, firstName: true } })
      : [];
    const senderById = new Map(senders.map((s) => [s.id, s]));
    return entries
      .filter((e) => byId.has(e.id))
      .map((e) => {
        const notification = byId.get(e.id)!;
        return { notification, sender: notification.senderId === null ? null : (senderById.get(notification.senderId) ?? null), read: e.read };
      });
  }

  findNotification(id: number): Promise<NotificationEntity | null> {
    return this.notifications.findOneBy({ id });
  }

  findRecipient(notificationId: number, userId: number): Promise<NotificationRecipientEntity | null> {
    return this.recipients.findOneBy({ notificationId, recipientId: userId });
  }

  /** A broadcast's placeholder exists (it is one of everyone's). */
  async hasPlaceholder(notificationId: number): Promise<boolean> {
    return (await this.recipients.countBy({ notificationId, recipientId: IsNull(), broadcast: true })) > 0;
  }

  async setRead(recipientId: number, read: boolean): Promise<void> {
    await this.recipients.update({ id: recipientId }, { read, emailScheduled: false });
  }

  /** The user's own row of a broadcast notification, made on first read or clear. */
  async addBroadcastRow(notification: NotificationEntity, userId: number, values: { read: boolean; cleared: boolean }): Promise<void> {
    await this.recipients.insert(
      this.recipients.create({ notificationId: notification.id, recipientId: userId, queued: false, emailScheduled: false, createdOn: notification.createdOn, broadcast: true, workspaceId: null, ...values }),
    );
  }

  /** Broadcast notifications the user has no row of yet. */
  private async unseenBroadcastIds(userId: number): Promise<number[]> {
    const rows: Row[] = await this.recipients
      .createQueryBuilder('r')
      .select('r.notification_id', 'id')
      .where('r.recipient_id IS NULL AND r.broadcast = :yes', { yes: true })
      .andWhere('NOT EXISTS (SELECT 1 FROM notification_recipient m WHERE m.notification_id = r.notification_id AND m.recipient_id = :userId)', { userId })
      .getRawMany();
    return rows.map((row) => Number(row.id));
  }

  async markAllRead(userId: number, workspaceId: number): Promise<void> {
    for (const id of await this.unseenBroadcastIds(userId)) {
      const notification = await this.findNotification(id);
      if (notification) await this.addBroadcastRow(notification, userId, { read: true, cleared: false });
    }
    await this.recipients
      .createQueryBuilder()
      .update()
      .set({ read: true, emailScheduled: false })
      .where('recipient_id = :userId AND cleared = :no AND queued = :no AND read = :no', { userId, no: false })
      .andWhere('(broadcast = :yes OR workspace_id = :workspaceId OR workspace_id IS NULL)', { yes: true, workspaceId })
      .execute();
  }

  /**
   * Clears the user's list of the workspace: broadcasts get the user's row marked cleared;
   * direct rows (of W and user-level) are deleted, and so are notifications left without recipients.
   */
  async clear(userId: number, workspaceId: number): Promise<void> {
    for (const id of await this.unseenBroadcastIds(userId)) {
      const notification = await this.findNotification(id);
      if (notification) await this.addBroadcastRow(notification, userId, { read: false, cleared: true });
    }
    await this.recipients.update({ recipientId: userId, broadcast: true }, { cleared: true, emailScheduled: false });
    const direct = await this.recipients
      .createQueryBuilder('r')
      .select(['r.id', 'r.notificationId'])
      .where('r.recipient_id = :userId AND r.broadcast = :no AND r.queued = :no', { userId, no: false })
      .andWhere('(r.workspace_id = :workspaceId OR r.workspace_id IS NULL)', { workspaceId })
      .getMany();
    if (!direct.length) return;
    const notificationIds = [...new Set(direct.map((r) => r.notificationId))];
    for (let i = 0; i < direct.length; i += 500) await this.recipients.delete({ id: In(direct.slice(i, i + 500).map((r) => r.id)) });
    for (let i = 0; i < notificationIds.length; i += 500) {
      const chunk = notificationIds.slice(i, i + 500);
      const kept: Row[] = await this.recipients.createQueryBuilder('r').select('DISTINCT r.notification_id', 'id').where('r.notification_id IN (:...chunk)', { chunk }).getRawMany();
      const keep = new Set(kept.map((row) => Number(row.id)));
      const orphans = chunk.filter((id) => !keep.has(id));
      if (orphans.length) await this.notifications.delete({ id: In(orphans) });
    }
  }

  /** The user's unread invitation notification of this invitation, if any (to mark it read when answered). */
  async unreadInvitationNotification(userId: number, invitationId: number): Promise<NotificationRecipientEntity | null> {
    const rows = await this.recipients
      .createQueryBuilder('r')
      .innerJoin(NotificationEntity, 'n', 'n.id = r.notification_id')
      .where('r.recipient_id = :userId AND r.read = :no AND r.cleared = :no AND n.type = :type', { userId, no: false, type: 'workspace_invitation_created' })
      .orderBy('r.id', 'DESC')
      .getMany();
    for (const row of rows) {
      const notification = await this.findNotification(row.notificationId);
      if (Number(notification?.data.invitation_id) === invitationId) return row;
    }
    return null;
  }

  // ------------------------------------------------------------------ unread counts

  /** Per workspace: the user's unread direct notifications of it (not user-level, not broadcast). */
  async unreadCounts(userId: number, workspaceIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (!workspaceIds.length) return counts;
    const rows: Row[] = await this.recipients
      .createQueryBuilder('r')
      .select('r.workspace_id', 'workspace_id')
      .addSelect('COUNT(*)', 'count')
      .where('r.recipient_id = :userId AND r.read = :no AND r.cleared = :no AND r.queued = :no AND r.broadcast = :no', { userId, no: false })
      .andWhere('r.workspace_id IN (:...workspaceIds)', { workspaceIds })
      .groupBy('r.workspace_id')
      .getRawMany();
    for (const row of rows) counts.set(Number(row.workspace_id), Number(row.count));
    return counts;
  }

  /** `user_notifications.unread_count`: unread user-level notifications and unread broadcasts. */
  async unreadUserLevelCount(userId: number): Promise<number> {
    const own = await this.recipients
      .createQueryBuilder('r')
      .where('r.recipient_id = :userId AND r.read = :no AND r.cleared = :no AND r.queued = :no', { userId, no: false })
      .andWhere('(r.workspace_id IS NULL OR r.broadcast = :yes)', { yes: true })
      .getCount();
    return own + (await this.unseenBroadcastIds(userId)).length;
  }

  // ------------------------------------------------------------------ e-mail queue

  /** Users with notifications waiting for their mail, of the given frequency (active accounts), who were not mailed since `sentBefore`. */
  async usersWithScheduledEmails(frequency: string, limit: number, sentBefore: Date | null): Promise<number[]> {
    const query = this.recipients
      .createQueryBuilder('r')
      .select('r.recipient_id', 'id')
      .innerJoin(UserEntity, 'u', 'u.id = r.recipient_id')
      .leftJoin(NotificationEmailStateEntity, 's', 's.user_id = r.recipient_id')
      .where('r.email_scheduled = :yes AND u.email_notification_frequency = :frequency AND u.is_active = :yes', { yes: true, frequency })
      .groupBy('r.recipient_id')
      .orderBy('r.recipient_id', 'ASC')
      .limit(limit);
    if (sentBefore) query.andWhere('(s.last_sent_at IS NULL OR s.last_sent_at < :sentBefore)', { sentBefore: sentBefore.toISOString() });
    const rows: Row[] = await query.getRawMany();
    return rows.map((row) => Number(row.id));
  }

  /**
   * Claims the user's mail for `leaseMs` (another instance, or this one after a crash, takes it
   * over once the lease has passed): true when this caller got it.
   */
  async claimEmail(userId: number, now: Date, leaseMs: number): Promise<boolean> {
    await this.emailStates.createQueryBuilder().insert().values({ userId, lastSentAt: null, claimedUntil: null }).orIgnore().execute();
    const result = await this.emailStates
      .createQueryBuilder()
      .update()
      .set({ claimedUntil: new Date(now.getTime() + leaseMs) })
      .where('user_id = :userId AND (claimed_until IS NULL OR claimed_until < :now)', { userId, now: now.toISOString() })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async releaseEmail(userId: number, sentAt: Date | null): Promise<void> {
    await this.emailStates.update({ userId }, sentAt ? { claimedUntil: null, lastSentAt: sentAt } : { claimedUntil: null });
  }

  /** The user's scheduled notifications: how many, the newest `limit`, and the greatest id among them. */
  async scheduledEmails(userId: number, limit: number): Promise<{ count: number; maxId: number; items: NotificationView[] }> {
    const base = () =>
      this.recipients
        .createQueryBuilder('r')
        .innerJoin(NotificationEntity, 'n', 'n.id = r.notification_id')
        .where('r.recipient_id = :userId AND r.email_scheduled = :yes', { userId, yes: true });
    const count = await base().getCount();
    if (!count) return { count, maxId: 0, items: [] };
    const rows: Row[] = await base().select(['n.id AS "id"', 'r.read AS "read"']).orderBy('n.id', 'DESC').limit(limit).getRawMany();
    const maxId = Number(rows[0].id);
    return { count, maxId, items: await this.views(rows.map((row) => ({ id: Number(row.id), read: bool(row.read) }))) };
  }

  async unscheduleEmails(userId: number, maxNotificationId: number): Promise<void> {
    await this.recipients
      .createQueryBuilder()
      .update()
      .set({ emailScheduled: false })
      .where('recipient_id = :userId AND email_scheduled = :yes AND notification_id <= :maxNotificationId', { userId, yes: true, maxNotificationId })
      .execute();
  }

  async recipientEmail(userId: number): Promise<Pick<UserEntity, 'id' | 'email' | 'firstName'> | null> {
    return this.db.manager.getRepository(UserEntity).findOne({ where: { id: userId }, select: { id: true, email: true, firstName: true } });
  }
}
