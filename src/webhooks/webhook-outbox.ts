import { Injectable, OnModuleInit } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { DomainEvent } from '../core/events/domain-events';
import { callsWebhooks, WebhookDomainEvent } from './webhook-event-types';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookIndex } from './webhook-index';
import { WebhookNotices } from './webhook-notices';
import { QueuedCall, WebhookRepository } from './webhook.repository';

/**
 * Queues the webhook calls of every write in the write's own transaction (the outbox): they
 * are made once it commits, never for a rolled-back change, and a restart or a crash between
 * the commit and the call loses none. A write to a table without webhooks costs a lookup in
 * a metadata cache (no query).
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: WebhookRepository,
    private readonly index: WebhookIndex,
    private readonly payloads: WebhookPayloads,
    private readonly notices: WebhookNotices,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit((events) => this.queue(events));
  }

  private async queue(events: readonly DomainEvent[]): Promise<void> {
    let relevant: WebhookDomainEvent[] | null = null;
    for (const event of events) if (callsWebhooks(event)) (relevant ??= []).push(event);
    if (!relevant) return;
    const calls: QueuedCall[] = [];
    const webhooksOf = (tableId: number) => this.index.activeOf(tableId);
    for (const event of relevant) {
      const made = [await this.payloads.callsOf(event, await webhooksOf(event.payload.tableId)), await this.payloads.relatedCallsOf(event, webhooksOf), await this.payloads.enteredCallsOf(event)];
      for (const { calls: some } of made) calls.push(...some);
      for (const { webhook, eventId } of made.flatMap((m) => m.tooLarge)) await this.notices.payloadTooLarge(webhook, eventId);
    }
    if (!calls.length) return;
    await this.repo.queue(calls, new Date());
    this.db.record('webhook.calls_queued', { webhookIds: [...new Set(calls.map((call) => call.webhookId))] });
  }
}
