import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { Dialect } from '../core/database/dialect';
import type { DomainEvent } from '../core/events/domain-events';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { CallResult, WebhookCaller } from './webhook-caller';
import { WebhookNotices } from './webhook-notices';
import { WebhookDeliveryEntity } from './webhook.entity';
import { WebhookRepository } from './webhook.repository';

/**
 * A claim lasts twice the request timeout and this: a call and its log are done well within it,
 * and a crashed instance's calls are made by another instance soon after it ran out.
 */
const CLAIM_MARGIN_MS = 10_000;

/**
 * Sends the calls of the outbox in the background: claims due calls (one at a time per
 * webhook, so each receiver gets its calls in order; up to WEBHOOKS_CONCURRENCY at once), makes
 * each through the guarded fetcher, then in one short transaction logs it, keeps the newest
 * call logs, counts the webhook's failures in a row (deactivating it past the limit) and
 * deletes the call, or queues it again after 1, 2, 4… seconds. Calls this instance queued go at
 * once; others' are found every WEBHOOKS_POLL_MS. A slow receiver holds one slot, never a
 * request or another webhook's calls.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliverer.name);
  /** Who claims calls: this process. */
  private readonly claimer = randomUUID();
  /** Calls being made, by webhook id. */
  private readonly inFlight = new Map<number, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly db: UnitOfWork,
    private readonly repo: WebhookRepository,
    private readonly caller: WebhookCaller,
    private readonly notices: WebhookNotices,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.webhooks.deliver) {
      this.stopped = true;
      return;
    }
    // On SQLite there is one instance: what a crash left claimed is no one's now.
    if (this.dialect.name === 'sqlite') await this.db.run(() => this.repo.releaseClaims());
    this.timer = setInterval(() => this.poke(), this.config.webhooks.pollMs);
    this.timer.unref();
    this.poke();
  }

  /** Stops claiming; waits for the calls being made (each bounded by the request timeout). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.filling;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Calls were queued here: claimed now, unless each of their webhooks has a call in flight (its end claims the next). */
  @OnEvent('webhook.calls_queued')
  queued(event: DomainEvent<'webhook.calls_queued'>): void {
    if (event.payload.webhookIds.every((id) => this.inFlight.has(id))) return;
    this.poke();
  }

  /** Claims and starts what may start now (again once the claim under way ends, if asked meanwhile). */
  poke(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: unknown) => this.logger.error(`Claiming webhook calls failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.filling = null;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Resolves once no call is being made (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.filling || this.inFlight.size) {
      await this.filling;
      await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  private async fill(): Promise<void> {
    const room = this.config.webhooks.concurrency - this.inFlight.size;
    if (room <= 0 || this.stopped) return;
    const now = new Date();
    const until = new Date(now.getTime() + 2 * this.config.webhooks.requestTimeoutMs + CLAIM_MARGIN_MS);
    const claimed = await this.repo.claim(room, this.claimer, now, until, [...this.inFlight.keys()]);
    for (const delivery of claimed) {
      const work = this.deliver(delivery)
        .catch((error: unknown) => this.logger.error(`Webhook call ${delivery.id} failed: ${error instanceof Error ? error.stack : String(error)}`))
        .finally(() => {
          this.inFlight.delete(delivery.webhookId);
          this.poke();
        });
      this.inFlight.set(delivery.webhookId, work);
    }
    if (claimed.length === room) this.again = true;
  }

  private async deliver(delivery: WebhookDeliveryEntity): Promise<void> {
    const webhook = await this.repo.find(delivery.webhookId);
    if (!webhook || !webhook.active) {
      // Deleted or deactivated since: its queued calls go (Baserow clears its queue), unlogged.
      await this.db.run(() => this.repo.dropQueued(delivery.webhookId));
      return;
    }
    const result = await this.caller.call({
      method: webhook.requestMethod,
      url: webhook.url,
      headers: webhook.headers,
      eventType: delivery.eventType,
      eventId: delivery.eventId,
      payload: JSON.parse(delivery.payload),
    });
    await this.db.run(() => this.settle(delivery, result));
  }

  /** Logs the call, counts the webhook's failures and ends or re-queues the call, in one transaction. */
  private async settle(delivery: WebhookDeliveryEntity, result: CallResult): Promise<void> {
    // A claim that ran out went to another instance: the call is theirs to log.
    if (!(await this.repo.stillClaimed(delivery.id, this.claimer))) return;
    const webhook = await this.repo.find(delivery.webhookId);
    if (!webhook) return;
    const settings = this.config.webhooks;
    await this.repo.logCall({
      webhookId: webhook.id,
      eventId: delivery.eventId,
      batchId: delivery.batchId,
      eventType: delivery.eventType,
      calledTime: new Date(),
      calledUrl: webhook.url,
      request: result.request || null,
      response: result.response || null,
      responseStatus: result.status,
      error: result.error,
    }, delivery.attempts > 0);
    await this.repo.pruneCalls(webhook.id, settings.maxCallLogEntries);
    const attempts = delivery.attempts + 1;
    if (result.ok) {
      if (webhook.failedTriggers !== 0) await this.repo.setCounters(webhook.id, { failedTriggers: 0, active: webhook.active });
      await this.repo.done(delivery.id);
      return;
    }
    // Every failed attempt counts, retries included (as Baserow counts them).
    if (webhook.failedTriggers < settings.maxConsecutiveTriggerFailures) {
      await this.repo.setCounters(webhook.id, { failedTriggers: webhook.failedTriggers + 1, active: webhook.active });
    } else if (webhook.active) {
      await this.repo.setCounters(webhook.id, { failedTriggers: webhook.failedTriggers, active: false });
      await this.repo.dropQueued(webhook.id);
      await this.notices.deactivated(webhook);
      return;
    }
    if (attempts <= settings.maxRetriesPerCall) await this.repo.retryAt(delivery.id, attempts, new Date(Date.now() + 1000 * 2 ** (attempts - 1)));
    else await this.repo.done(delivery.id);
  }
}
