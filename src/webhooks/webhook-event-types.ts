import type { DomainEvent, DomainEventName } from '../core/events/domain-events';
import type { TableWebhookEntity } from './webhook.entity';

/**
 * Baserow 1.35.3's webhook event types, in its registry's order (`view.rows_entered` is of its
 * enterprise edition: an ordinary feature here, spec decision 4).
 */
export const WEBHOOK_EVENT_TYPES = [
  'rows.created',
  'rows.updated',
  'rows.deleted',
  'field.created',
  'field.updated',
  'field.deleted',
  'view.created',
  'view.updated',
  'view.deleted',
  'view.rows_entered',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The domain event each webhook event type follows (restores are not webhook events, as in Baserow). */
export const EVENT_TYPE_OF: Partial<Record<DomainEventName, WebhookEventType>> = {
  'rows.created': 'rows.created',
  'rows.updated': 'rows.updated',
  'rows.deleted': 'rows.deleted',
  'field.created': 'field.created',
  'field.updated': 'field.updated',
  'field.deleted': 'field.deleted',
  'view.created': 'view.created',
  'view.updated': 'view.updated',
  'view.deleted': 'view.deleted',
};

type EachEvent<K> = K extends DomainEventName ? DomainEvent<K> : never;

/** The domain events that may call webhooks (one union member per event, narrowed by `name`). */
export type WebhookDomainEvent = EachEvent<
  'rows.created' | 'rows.updated' | 'rows.deleted' | 'field.created' | 'field.updated' | 'field.deleted' | 'view.created' | 'view.updated' | 'view.deleted'
>;

/** Whether an event may call webhooks: row changes not asked to stay quiet (`send_webhook_events=false`, a job). */
export function callsWebhooks(event: DomainEvent): event is WebhookDomainEvent {
  const type = EVENT_TYPE_OF[event.name];
  if (!type) return false;
  return !(type.startsWith('rows.') && event.actor.sendWebhookEvents === false);
}

/**
 * Whether a webhook listens to an event type (Baserow's `find_webhooks_to_call`): all events,
 * or that one; a `rows.updated` narrowed to fields only when the change names one of them
 * (the fields of the request, changed or not; a move names none).
 */
export function listensTo(webhook: TableWebhookEntity, type: WebhookEventType, updatedFieldIds: readonly number[] = []): boolean {
  // `view.rows_entered` names its views: "all events" does not include it.
  if (webhook.includeAllEvents) return type !== 'view.rows_entered';
  const config = webhook.events.find((event) => event.event_type === type);
  if (!config) return false;
  if (type === 'rows.updated' && config.fields.length) return config.fields.some((id) => updatedFieldIds.includes(id));
  return true;
}
