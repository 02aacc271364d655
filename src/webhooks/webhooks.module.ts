import { Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { DatabaseModule } from '../database/database.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ViewsModule } from '../views/views.module';
import { WebhookCaller } from './webhook-caller';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookIndex } from './webhook-index';
import { WebhookNotices } from './webhook-notices';
import { WebhookViews } from './webhook-views';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookPayloads } from './webhook-payloads';
import { WEBHOOK_ENTITIES } from './webhook.entity';
import { WebhookRepository } from './webhook.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Database webhooks (`/api/database/webhooks/`): their settings, the outbox their calls are
 * queued in with each change, and the background deliverer.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: WEBHOOK_ENTITIES }), DatabaseModule, ViewsModule, NotificationsModule],
  controllers: [WebhooksController],
  providers: [WebhookRepository, WebhookIndex, WebhookViews, WebhookNotices, WebhooksService, WebhookPayloads, WebhookOutbox, WebhookCaller, WebhookDeliverer],
  exports: [WebhooksService, WebhookDeliverer],
})
export class WebhooksModule {}
