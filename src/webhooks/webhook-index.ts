import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import type { TableWebhookEntity } from './webhook.entity';
import { WebhookRepository } from './webhook.repository';

/**
 * The active webhooks of a table, from a metadata cache (never stale: any change of a webhook
 * is a metadata write): a write to a table without webhooks costs no query.
 */
@Injectable()
export class WebhookIndex {
  private readonly active: MetadataCache<number, TableWebhookEntity[]>;

  constructor(
    caches: Caches,
    private readonly repo: WebhookRepository,
  ) {
    this.active = caches.metadata<number, TableWebhookEntity[]>('table-webhooks');
  }

  activeOf(tableId: number): Promise<TableWebhookEntity[]> {
    return this.active.get(tableId, () => this.repo.activeOfTables([tableId]));
  }

  /** The views of the table whose `view.rows_entered` active webhooks watch, with those webhooks. */
  async watchedViews(tableId: number): Promise<Map<number, TableWebhookEntity[]>> {
    const watched = new Map<number, TableWebhookEntity[]>();
    for (const webhook of await this.activeOf(tableId)) {
      if (webhook.includeAllEvents) continue;
      const config = webhook.events.find((event) => event.event_type === 'view.rows_entered');
      for (const viewId of config?.views ?? []) watched.set(viewId, [...(watched.get(viewId) ?? []), webhook]);
    }
    return watched;
  }
}
