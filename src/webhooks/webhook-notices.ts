import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { TableContextService } from '../database/table-context';
import { notificationType, registerNotificationType } from '../notifications/notification-types';
import { NotificationsService } from '../notifications/notifications.service';
import type { TableWebhookEntity } from './webhook.entity';

/**
 * What the admins of a webhook's workspace are told, in the transaction that decides it
 * (Baserow's `webhook_deactivated` and `webhook_payload_too_large` notifications).
 */
@Injectable()
export class WebhookNotices implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly contexts: TableContextService,
    private readonly notifications: NotificationsService,
  ) {}

  /** The deactivation mail names the configured limit, as Baserow's does. */
  onModuleInit(): void {
    const spec = notificationType('webhook_deactivated');
    const failures = this.config.webhooks.maxConsecutiveTriggerFailures;
    if (spec?.email) {
      registerNotificationType({ ...spec, email: { ...spec.email, description: () => `The webhook failed more than ${failures} consecutive times and was therefore deactivated.` } });
    }
  }

  /** The webhook failed too often in a row and was deactivated. */
  async deactivated(webhook: TableWebhookEntity): Promise<void> {
    await this.notify(webhook, 'webhook_deactivated', {});
  }

  /** An event had more batches than BASEROW_WEBHOOKS_BATCH_LIMIT: the rest was not sent. */
  async payloadTooLarge(webhook: TableWebhookEntity, eventId: string): Promise<void> {
    await this.notify(webhook, 'webhook_payload_too_large', { event_id: eventId, batch_limit: this.config.webhooks.batchLimit });
  }

  private async notify(webhook: TableWebhookEntity, type: string, extra: Record<string, unknown>): Promise<void> {
    const context = await this.contexts.ofTable(webhook.tableId);
    if (!context) return;
    const data = { webhook_id: webhook.id, table_id: webhook.tableId, database_id: context.table.databaseId, webhook_name: webhook.name, ...extra };
    await this.notifications.notifyWorkspaceAdmins(context.workspaceId, type, data, null);
  }
}
