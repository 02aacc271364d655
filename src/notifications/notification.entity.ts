import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

/**
 * A notification (Baserow's `Notification`): what happened, once, whoever hears of it.
 * `workspaceId` null is a user-level notification (listed in every workspace of its
 * recipients); `broadcast` ones are for every user and get their recipient rows lazily.
 */
@Entity('notification')
export class NotificationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'boolean', default: false })
  broadcast: boolean;

  @Column({ name: 'workspace_id', type: 'integer', nullable: true })
  workspaceId: number | null;

  /** Who caused it; null for the system, an anonymous form submitter, or a deleted account. */
  @Column({ name: 'sender_id', type: 'integer', nullable: true })
  senderId: number | null;

  @JsonColumn()
  data: Record<string, unknown>;
}

/**
 * One recipient's state of a notification (Baserow's `NotificationRecipient`). Direct
 * notifications get one row per recipient at creation; a broadcast gets one placeholder with
 * `recipientId` null, and a user's own row only once they read or clear it.
 * `emailScheduled` is the e-mail queue itself: the background sender mails what is flagged
 * and clears the flag, so a restart loses nothing.
 */
@Entity('notification_recipient')
export class NotificationRecipientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'notification_id', type: 'integer' })
  notificationId: number;

  @Column({ name: 'recipient_id', type: 'integer', nullable: true })
  recipientId: number | null;

  @Column({ type: 'boolean', default: false })
  read: boolean;

  @Column({ type: 'boolean', default: false })
  cleared: boolean;

  /** Not yet shown (Baserow's grouped producers); invisible to lists and counts. */
  @Column({ type: 'boolean', default: false })
  queued: boolean;

  @Column({ name: 'email_scheduled', type: 'boolean', default: false })
  emailScheduled: boolean;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  /** Copies of the notification's, so lists and counts read one table. */
  @Column({ type: 'boolean', default: false })
  broadcast: boolean;

  @Column({ name: 'workspace_id', type: 'integer', nullable: true })
  workspaceId: number | null;
}

/** When a user was last sent a summary mail (Baserow's `profile.last_notifications_email_sent_at`: the daily and weekly guards), and who is mailing them now. */
@Entity('notification_email_state')
export class NotificationEmailStateEntity {
  @Column({ name: 'user_id', type: 'integer', primary: true })
  userId: number;

  @DateTimeColumn({ name: 'last_sent_at', nullable: true })
  lastSentAt: Date | null;

  /** The sender working on this user's mail holds it until then (a crashed one's claim runs out). */
  @DateTimeColumn({ name: 'claimed_until', nullable: true })
  claimedUntil: Date | null;
}
