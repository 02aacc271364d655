import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../config/config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail through SMTP when it is configured; otherwise logs that it was not sent (the body at debug level). */
@Injectable()
export class Mailer {
  private readonly logger = new Logger(Mailer.name);
  private transportOfSmtp: Transporter | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The SMTP transport, made on the first mail (nodemailer loads then, not at start-up); null without SMTP. */
  private get transport(): Transporter | null {
    const smtp = this.config.smtp;
    if (!smtp) return null;
    if (!this.transportOfSmtp) {
      const { createTransport } = require('nodemailer') as typeof import('nodemailer');
      this.transportOfSmtp = createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        requireTLS: smtp.requireTls,
        auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      });
    }
    return this.transportOfSmtp;
  }

  /** Never fails the request that sends it: a mail that cannot go out is logged. */
  async send(mail: Mail): Promise<void> {
    try {
      await this.deliver(mail);
    } catch (error) {
      this.logger.error(`Could not send mail to ${mail.to}: ${(error as Error).message}`);
    }
  }

  /**
   * Sends, or throws when the SMTP server does not take it (for senders that keep the mail
   * queued and try again). Without SMTP configured the mail is logged as not sent.
   */
  async deliver(mail: Mail): Promise<void> {
    if (!this.transport) {
      // The body holds reset and invitation links (secrets): only at debug level.
      this.logger.log(`No SMTP configured; mail not sent to ${mail.to}: ${mail.subject}`);
      this.logger.debug(`Body of the mail to ${mail.to}:\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({ from: this.config.smtp!.from, ...mail });
  }
}
