import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { Mailer } from '../core/mail/mailer';
import { SettingsService } from '../settings/settings.service';
import { UserRepository } from './user.repository';

/**
 * The mails of the account deletion lifecycle, as Baserow sends them: when the deletion is
 * scheduled, when signing in again cancels it, and when the account is gone. Sent after the
 * commit, so a rolled-back change mails nobody.
 */
@Injectable()
export class AccountDeletionMails {
  constructor(
    private readonly users: UserRepository,
    private readonly mailer: Mailer,
    private readonly settings: SettingsService,
  ) {}

  @OnEvent('user.deletion_scheduled')
  async scheduled(event: DomainEvent<'user.deletion_scheduled'>): Promise<void> {
    const user = await this.users.findById(event.payload.userId);
    if (!user) return;
    const days = await this.settings.accountDeletionGraceDays();
    await this.mailer.send({
      to: user.email,
      subject: 'Account deletion scheduled',
      text: `Hi ${user.firstName},\n\nYour account will be permanently deleted in ${days} day${days === 1 ? '' : 's'}, with the workspaces in which you are the last admin. Sign in again before then to cancel the deletion.\n`,
    });
  }

  @OnEvent('user.restored')
  async restored(event: DomainEvent<'user.restored'>): Promise<void> {
    const user = await this.users.findById(event.payload.userId);
    if (!user) return;
    await this.mailer.send({
      to: user.email,
      subject: 'Account deletion cancelled',
      text: `Hi ${user.firstName},\n\nYou signed in again, so your account will not be deleted.\n`,
    });
  }

  @OnEvent('user.permanently_deleted')
  async deleted(event: DomainEvent<'user.permanently_deleted'>): Promise<void> {
    // An account a staff member deleted gets no mail, as in Baserow's admin delete.
    if (event.payload.byAdmin) return;
    const { email, firstName } = event.payload.account;
    await this.mailer.send({
      to: email,
      subject: 'Account permanently deleted',
      text: `Hi ${firstName},\n\nYour account and the workspaces in which you were the last admin have been permanently deleted.\n`,
    });
  }
}
