import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError } from '../core/errors/api-error';
import { RateLimiterAbstract, RateLimiterRes, sharedLimiter } from '../core/http/rate-limiters';
import { Mailer } from '../core/mail/mailer';
import { RedisService } from '../core/redis/redis.service';
import { Signer } from '../core/signing/signer';
import { UserEntity } from './user.entity';
import { UserRepository } from './user.repository';
import { normalizeEmail } from './user.serializer';

const PURPOSE = 'verify_email';
/** Baserow's verification links are valid one day. */
const LIFETIME_SECONDS = 24 * 3600;

export const EmailVerificationErrors = {
  invalidToken: () => new ApiError('ERROR_INVALID_VERIFICATION_TOKEN', 400, 'A valid verification token is required.'),
  alreadyVerified: () => new ApiError('ERROR_EMAIL_ALREADY_VERIFIED', 400, "The user's email is verified already."),
  required: () => new ApiError('ERROR_EMAIL_VERIFICATION_REQUIRED', 401, 'Email address has to be verified first.'),
};

/**
 * E-mail address verification (Baserow's UserHandler): a signed link valid one day, tied to
 * the address it was sent to (a changed address makes it invalid), mailed on request, on
 * sign-up when the instance recommends or enforces verification, and on each refused sign-in
 * when it enforces it.
 */
@Injectable()
export class EmailVerificationService {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly db: UnitOfWork,
    private readonly users: UserRepository,
    private readonly signer: Signer,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    redis: RedisService,
  ) {
    const { calls: points, seconds: duration } = config.sendVerifyEmailRateLimit;
    // Every instance counts the same mails.
    this.limiter = sharedLimiter(redis, { keyPrefix: `${config.redisChannelPrefix}:verify-email`, points, duration });
  }

  /** Mails the link to an unverified user; nothing for a verified one, nor past the rate limit. */
  async sendPending(user: UserEntity): Promise<void> {
    if (user.emailVerified) return;
    try {
      await this.limiter.consume(String(user.id));
    } catch (error) {
      // Over the limit: not sent, and nothing tells the caller (Baserow's `raise_exception=False`).
      if (error instanceof RateLimiterRes) return;
      throw error;
    }
    const token = this.signer.sign(PURPOSE, { user_id: user.id, email: user.email }, LIFETIME_SECONDS);
    await this.mailer.send({
      to: user.email,
      subject: 'Please confirm your e-mail address',
      text: `Hi ${user.firstName},\n\nConfirm your e-mail address within 24 hours: ${this.config.emailNotifications.shareUrl}/verify-email-address/${token}\n`,
    });
  }

  /** `POST /api/user/send-verify-email/`: answers the same whether the address is known, verified or not. */
  async sendByEmail(email: string): Promise<void> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (user?.isActive) await this.sendPending(user);
  }

  /** Marks the address of the token's user verified; the user, for signing in. */
  async verify(token: string): Promise<UserEntity> {
    let payload: { user_id?: unknown; email?: unknown };
    try {
      payload = this.signer.unsign(PURPOSE, token);
    } catch {
      throw EmailVerificationErrors.invalidToken();
    }
    return this.db.run(async () => {
      const user = typeof payload.user_id === 'number' ? await this.users.findByIdForUpdate(payload.user_id) : null;
      if (!user || !user.isActive) throw EmailVerificationErrors.invalidToken();
      if (user.emailVerified) throw EmailVerificationErrors.alreadyVerified();
      if (user.email !== payload.email) throw EmailVerificationErrors.invalidToken();
      await this.users.update(user.id, { emailVerified: true });
      return Object.assign(user, { emailVerified: true });
    });
  }
}
