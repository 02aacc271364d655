import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent, NotificationSnapshot } from '../core/events/domain-events';
import { Broadcaster } from './broadcaster';
import { Delivery, encode } from './delivery';

/** A user told of more new notifications than this at once gets `notifications_fetch_required` instead of them. */
const MAX_NOTIFICATIONS_SENT = 20;

/**
 * Notification messages (realtime §4.11, Baserow's `core/notifications/receivers.py`), all
 * after commit: new notifications to their recipients (a broadcast to every socket), and a
 * user's reads and clears to that user's other sockets. Invitation messages go to the
 * invited user's sockets, `job_started` to the job creator's.
 */
@Injectable()
export class NotificationsListener {
  constructor(private readonly broadcaster: Broadcaster) {}

  @OnEvent('notifications.created')
  async created(event: DomainEvent<'notifications.created'>): Promise<void> {
    const { userIds, notifications } = event.payload;
    const message = encode({ type: 'notifications_created', notifications });
    await this.broadcaster.send(userIds === null ? { kind: 'all', message, exclude: null } : { kind: 'users', userIds, message, exclude: null });
  }

  /** Each user's own list, or when it is long, how many are new per workspace (they fetch them). */
  @OnEvent('notifications.created_per_user')
  async createdPerUser(event: DomainEvent<'notifications.created_per_user'>): Promise<void> {
    const messages: Record<string, string> = {};
    for (const [userId, notifications] of Object.entries(event.payload.perUser)) {
      messages[userId] =
        notifications.length <= MAX_NOTIFICATIONS_SENT
          ? encode({ type: 'notifications_created', notifications })
          : encode({ type: 'notifications_fetch_required', notifications_added: countsPerWorkspace(notifications) });
    }
    await this.broadcaster.send({ kind: 'individual', messages, exclude: null });
  }

  @OnEvent('notification.marked_as_read')
  async markedAsRead(event: DomainEvent<'notification.marked_as_read'>): Promise<void> {
    const { userId, notification, includeOrigin } = event.payload;
    await this.toUser(userId, { type: 'notification_marked_as_read', notification }, includeOrigin ? null : event.actor.webSocketId);
  }

  @OnEvent('notifications.all_marked_as_read')
  async allMarkedAsRead(event: DomainEvent<'notifications.all_marked_as_read'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'all_notifications_marked_as_read' }, event.actor.webSocketId);
  }

  @OnEvent('notifications.all_cleared')
  async allCleared(event: DomainEvent<'notifications.all_cleared'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'all_notifications_cleared' }, event.actor.webSocketId);
  }

  // Invitations (`ws/signals.py`): to every socket of the invited or answering user.

  @OnEvent('workspace_invitation.updated_or_created')
  async invitationUpdatedOrCreated(event: DomainEvent<'workspace_invitation.updated_or_created'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'workspace_invitation_updated_or_created', invitation: event.payload.invitation }, null);
  }

  @OnEvent('workspace_invitation.accepted')
  async invitationAccepted(event: DomainEvent<'workspace_invitation.accepted'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'workspace_invitation_accepted', invitation: event.payload.invitation }, null);
  }

  @OnEvent('workspace_invitation.rejected')
  async invitationRejected(event: DomainEvent<'workspace_invitation.rejected'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'workspace_invitation_rejected', invitation: event.payload.invitation }, null);
  }

  /** Baserow sends it from its worker, where the creator's socket id is unknown: every socket of theirs gets it. */
  @OnEvent('job.started')
  async jobStarted(event: DomainEvent<'job.started'>): Promise<void> {
    await this.toUser(event.payload.userId, { type: 'job_started', job: event.payload.job }, null);
  }

  private async toUser(userId: number, message: { type: string; [key: string]: unknown }, exclude: string | null): Promise<void> {
    const delivery: Delivery = { kind: 'users', userIds: [userId], message: encode(message), exclude };
    await this.broadcaster.send(delivery);
  }
}

/** `[{workspace_id, count}]` of a user's new notifications, user-level ones under null. */
function countsPerWorkspace(notifications: NotificationSnapshot[]): { workspace_id: number | null; count: number }[] {
  const counts = new Map<number | null, number>();
  for (const notification of notifications) {
    const workspace = notification.workspace as { id: number } | null;
    const key = workspace?.id ?? null;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([workspace_id, count]) => ({ workspace_id, count }));
}
