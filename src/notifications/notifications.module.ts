import { Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { NotificationEmailSender } from './email-sender';
import { NotificationEmailStateEntity, NotificationEntity, NotificationRecipientEntity } from './notification.entity';
import { NotificationRepository } from './notification.repository';
import { NotificationsService } from './notifications.service';

/**
 * Notifications and their e-mails. It imports no product module, so every module (workspaces,
 * database, views, webhooks...) may import it to call NotificationsService inside its unit of
 * work; the real-time messages leave from src/realtime/notifications.listener.ts.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [NotificationEntity, NotificationRecipientEntity, NotificationEmailStateEntity] })],
  providers: [NotificationRepository, NotificationsService, NotificationEmailSender],
  exports: [NotificationsService, NotificationEmailSender],
})
export class NotificationsModule {}
