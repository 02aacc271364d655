import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

/** One event a webhook listens to, with the fields (`rows.updated`) or views (`view.rows_entered`) it is narrowed to. */
export interface WebhookEventConfig {
  event_type: string;
  fields: number[];
  views: number[];
}

/** A table's webhook (Baserow's `TableWebhook`): where, how and on which events it is called. */
@Entity('database_tablewebhook')
export class TableWebhookEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 2000 })
  url: string;

  @Column({ name: 'request_method', type: 'varchar', length: 10 })
  requestMethod: string;

  @Column({ name: 'include_all_events', type: 'boolean', default: true })
  includeAllEvents: boolean;

  @Column({ name: 'use_user_field_names', type: 'boolean', default: true })
  useUserFieldNames: boolean;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** Failed calls in a row (retries count); the webhook is deactivated past the configured limit. */
  @Column({ name: 'failed_triggers', type: 'integer', default: 0 })
  failedTriggers: number;

  /** The events it listens to when not `include_all_events`, in the order they were added. */
  @JsonColumn({ default: '[]' })
  events: WebhookEventConfig[];

  /** Headers sent with each call, by name. */
  @JsonColumn({ default: '{}' })
  headers: Record<string, string>;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}

/** A call made (Baserow's `TableWebhookCall`): one per event and batch, its retries updating it. */
@Entity('database_tablewebhookcall')
export class TableWebhookCallEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'webhook_id', type: 'integer' })
  webhookId: number;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ name: 'batch_id', type: 'integer', nullable: true })
  batchId: number | null;

  @Column({ name: 'event_type', type: 'varchar', length: 50 })
  eventType: string;

  @DateTimeColumn({ name: 'called_time' })
  calledTime: Date;

  @Column({ name: 'called_url', type: 'varchar', length: 2000 })
  calledUrl: string;

  @Column({ type: 'text', nullable: true })
  request: string | null;

  @Column({ type: 'text', nullable: true })
  response: string | null;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}

/**
 * The outbox: a call to make, written in the transaction of the change that causes it (so it
 * is made exactly when that change commits, and survives a restart), claimed by one instance
 * at a time (`claimed_until`), deleted once made or given up.
 */
@Entity('database_webhookdelivery')
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'webhook_id', type: 'integer' })
  webhookId: number;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 50 })
  eventType: string;

  /** The batch of a split event (1, 2…), null when it is not split. */
  @Column({ name: 'batch_id', type: 'integer', nullable: true })
  batchId: number | null;

  /** The JSON body, as built when the change committed. */
  @Column({ type: 'text' })
  payload: string;

  /** Attempts made so far. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @DateTimeColumn({ name: 'due_at' })
  dueAt: Date;

  /** Until when the instance that claimed it may make the call (null: not claimed). */
  @DateTimeColumn({ name: 'claimed_until', nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'claimed_by', type: 'varchar', length: 36, nullable: true })
  claimedBy: string | null;
}

export const WEBHOOK_ENTITIES = [TableWebhookEntity, TableWebhookCallEntity, WebhookDeliveryEntity];
