import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { DomainEvent } from '../core/events/domain-events';
import { callsWebhooks, WebhookDomainEvent } from './webhook-event-types';
import { WebhookPayloads } from './webhook-payloads';
import type { TableWebhookEntity } from './webhook.entity';
import { QueuedCall, WebhookRepository } from './webhook.repository';

/**
 * Queues the webhook calls of every write in the write's own transaction (the outbox): they
 * are made once it commits, never for a rolled-back change, and a restart or a crash between
 * the commit and the call loses none. A write to a table without webhooks costs a lookup in
 * a metadata cache (no query).
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit {
  private readonly logger = new Logger(WebhookOutbox.name);
  private readonly active: MetadataCache<number, TableWebhookEntity[]>;

  constructor(
    caches: Caches,
    private readonly db: UnitOfWork,
    private readonly repo: WebhookRepository,
    private readonly payloads: WebhookPayloads,
  ) {
    this.active = caches.metadata<number, TableWebhookEntity[]>('table-webhooks');
  }

  onModuleInit(): void {
    this.db.beforeCommit((events) => this.queue(events));
  }

  private async queue(events: readonly DomainEvent[]): Promise<void> {
    let relevant: WebhookDomainEvent[] | null = null;
    for (const event of events) if (callsWebhooks(event)) (relevant ??= []).push(event);
    if (!relevant) return;
    const calls: QueuedCall[] = [];
    const webhooksOf = (tableId: number) => this.active.get(tableId, () => this.repo.activeOfTables([tableId]));
    for (const event of relevant) {
      const made = await this.payloads.callsOf(event, await webhooksOf(event.payload.tableId));
      const related = await this.payloads.relatedCallsOf(event, webhooksOf);
      calls.push(...made.calls, ...related.calls);
      for (const { webhook, eventId } of [...made.tooLarge, ...related.tooLarge]) {
        this.logger.warn(`Webhook ${webhook.id}: event ${eventId} has more batches than BASEROW_WEBHOOKS_BATCH_LIMIT; the rest is not sent.`);
        this.db.record('webhook.payload_too_large', { webhookId: webhook.id, tableId: webhook.tableId, name: webhook.name, eventId });
      }
    }
    if (!calls.length) return;
    await this.repo.queue(calls, new Date());
    this.db.record('webhook.calls_queued', { count: calls.length });
  }
}
