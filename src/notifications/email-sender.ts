import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { Mailer } from '../core/mail/mailer';
import { NotificationRepository, NotificationView } from './notification.repository';
import { notificationType } from './notification-types';

/** How long a sender holds a user's mail: past it, another run (here or on another instance) takes it over. */
const CLAIM_MS = 10 * 60_000;
const HOUR_MS = 3_600_000;

type Frequency = 'instant' | 'daily' | 'weekly';

/**
 * Mails each user one summary of their notifications waiting for e-mail (Baserow's
 * `send_queued_notifications_by_email` tasks): instant ones every interval, daily and weekly
 * ones at the configured hour (UTC) and day, not within 12 hours (daily) or 4 days (weekly) of
 * the previous mail, at most the configured number of users per run.
 *
 * The recipient rows' `email_scheduled` flag is the queue. Per user: a short transaction claims
 * the user (a lease, so two instances never mail the same user and a crashed sender's claim
 * runs out), the mail is sent outside any transaction, then a short transaction clears the flags
 * of the notifications mailed. A crash between sending and clearing mails them again later:
 * a notification is mailed at least once, never lost. The SQLite writer is never held during SMTP.
 */
@Injectable()
export class NotificationEmailSender implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(NotificationEmailSender.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: NotificationRepository,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(this.config.emailNotifications.intervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.run().then((limitReached) => {
        const retry = this.config.emailNotifications.autoRetryAfterSeconds;
        this.schedule(limitReached && retry ? retry * 1000 : this.config.emailNotifications.intervalSeconds * 1000);
      });
    }, ms);
    this.timer.unref();
  }

  /** One run (not two at once): instant mails, and daily and weekly ones when it is their hour. Answers whether a limit was reached. */
  run(now = new Date()): Promise<boolean> {
    const run = (this.running ??= this.runAll(now).finally(() => (this.running = null)));
    return run.then(() => this.limitReached);
  }

  private limitReached = false;

  private async runAll(now: Date): Promise<void> {
    const settings = this.config.emailNotifications;
    this.limitReached = false;
    try {
      await this.sendFor('instant', settings.limitInstant, null, now);
      if (now.getUTCHours() === settings.dailyHourOfDay) {
        await this.sendFor('daily', settings.limitDaily, new Date(now.getTime() - 12 * HOUR_MS), now);
        // JavaScript's week starts on Sunday (0), Baserow's on Monday (0).
        if ((now.getUTCDay() + 6) % 7 === settings.weeklyDayOfWeek) await this.sendFor('weekly', settings.limitWeekly, new Date(now.getTime() - 96 * HOUR_MS), now);
      }
    } catch (error) {
      this.logger.error(`Sending notification e-mails failed: ${(error as Error).message}`);
    }
  }

  private async sendFor(frequency: Frequency, limit: number, sentBefore: Date | null, now: Date): Promise<void> {
    const userIds = await this.repo.usersWithScheduledEmails(frequency, limit, sentBefore);
    if (userIds.length >= limit) this.limitReached = true;
    for (const userId of userIds) {
      if (this.stopped) return;
      await this.sendTo(userId, now);
    }
  }

  /** Claims, mails and unflags one user's notifications; a user claimed elsewhere is skipped. */
  async sendTo(userId: number, now = new Date()): Promise<void> {
    const settings = this.config.emailNotifications;
    if (!(await this.db.run(() => this.repo.claimEmail(userId, now, CLAIM_MS)))) return;
    let sentAt: Date | null = null;
    try {
      const { count, maxId, items } = await this.repo.scheduledEmails(userId, settings.maxListedPerEmail);
      const user = await this.repo.recipientEmail(userId);
      if (!count || !user) return;
      // Disabled: the queue is emptied all the same, as Baserow's task does.
      if (settings.enabled) await this.mailer.deliver({ to: user.email, ...summaryMail(count, items, settings.shareUrl) });
      sentAt = now; // the run's clock: the 12-hour spacing of daily mails is measured between runs
      await this.db.run(() => this.repo.unscheduleEmails(userId, maxId));
    } catch (error) {
      this.logger.warn(`Notification e-mail to user ${userId} not sent (kept for the next run): ${(error as Error).message}`);
    } finally {
      await this.db.run(() => this.repo.releaseEmail(userId, sentAt));
    }
  }
}

/** The summary mail: the newest notifications with their titles, descriptions and links, and how many more there are. */
export function summaryMail(count: number, items: NotificationView[], shareUrl: string): { subject: string; text: string } {
  const subject = count === 1 ? 'You have 1 new notification - Baserow' : `You have ${count} new notifications - Baserow`;
  const lines: string[] = [subject.replace(/ - Baserow$/, '') + '.', ''];
  for (const { notification, sender } of items) {
    const spec = notificationType(notification.type);
    const context = { type: notification.type, data: notification.data, senderName: sender?.firstName ?? null };
    lines.push(spec?.email?.title(context) ?? notification.type);
    const description = spec?.email?.description(context);
    if (description) lines.push(description);
    if (spec?.hasWebFrontendRoute && notification.workspaceId !== null) lines.push(`${shareUrl}/notification/${notification.workspaceId}/${notification.id}`);
    lines.push('');
  }
  const unlisted = count - items.length;
  if (unlisted > 0) lines.push(`Plus ${unlisted} more notification${unlisted === 1 ? '' : 's'}.`, '');
  return { subject, text: lines.join('\n') };
}
