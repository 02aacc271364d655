import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import type { RowSnapshot } from '../core/events/domain-events';
import { FieldRepository } from '../database/fields/field.repository';
import { FieldsService } from '../database/fields/fields.service';
import type { RowJson } from '../database/rows/row-reader';
import { RowsService } from '../database/rows/rows.service';
import { TableContext, TableContextService } from '../database/table-context';
import { NO_INCLUDES } from '../views/view-json.service';
import { ViewsService } from '../views/views.service';
import { EVENT_TYPE_OF, listensTo, WebhookDomainEvent, WebhookEventType } from './webhook-event-types';
import { WebhookIndex } from './webhook-index';
import { WebhookViews } from './webhook-views';
import type { TableWebhookEntity } from './webhook.entity';
import type { QueuedCall } from './webhook.repository';

type Payload = Record<string, unknown>;

/** What calls an event queues, and the calls the batch limit held back (the admins are told). */
export interface EventCalls {
  calls: QueuedCall[];
  tooLarge: { webhook: TableWebhookEntity; eventId: string }[];
}

/**
 * The bodies of webhook calls, as Baserow 1.35.3 sends them (`webhook_event_types.py`): the
 * table, database, workspace, webhook and event ids, then what the event carries (rows named as
 * the webhook wants them, the field or view as the API shows it, or the ids of what was
 * deleted). Built in the transaction of the change, so they show what it commits.
 */
@Injectable()
export class WebhookPayloads {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly contexts: TableContextService,
    private readonly rows: RowsService,
    private readonly fields: FieldsService,
    private readonly fieldRepo: FieldRepository,
    private readonly views: ViewsService,
    private readonly index: WebhookIndex,
    private readonly viewsOfWebhooks: WebhookViews,
  ) {}

  /** The calls one event makes to the webhooks of its table (all active), one event id for all of them. */
  async callsOf(event: WebhookDomainEvent, webhooks: TableWebhookEntity[]): Promise<EventCalls> {
    // The rows of other tables a write changes through computed fields or links are sent as
    // Baserow sends them: from the write's own event (see `relatedCallsOf`).
    if (event.name === 'rows.updated' && event.payload.cascadeOf !== undefined) return { calls: [], tooLarge: [] };
    const type = EVENT_TYPE_OF[event.name]!;
    const updatedFieldIds = event.name === 'rows.updated' ? event.payload.updatedFieldIds : [];
    const listening = webhooks.filter((webhook) => listensTo(webhook, type, updatedFieldIds));
    if (!listening.length) return { calls: [], tooLarge: [] };
    const context = await this.contexts.ofTable(event.payload.tableId);
    if (!context) return { calls: [], tooLarge: [] };
    const specific = await this.specific(event, context);
    return specific ? this.calls(context, type, listening, specific) : { calls: [], tooLarge: [] };
  }

  /**
   * `view.rows_entered` (Baserow enterprise's): the rows a create or update made start matching
   * the filters of a view its webhooks watch (`event_config` views), with the view, the names
   * of the row keys and the rows, in batches of BATCH_ROWS_SIZE_LIMIT; one event per view.
   */
  async enteredCallsOf(event: WebhookDomainEvent): Promise<EventCalls> {
    const result: EventCalls = { calls: [], tooLarge: [] };
    if (event.name !== 'rows.created' && event.name !== 'rows.updated') return result;
    if (event.name === 'rows.updated' && event.payload.cascadeOf !== undefined) return result;
    const watched = await this.index.watchedViews(event.payload.tableId);
    if (!watched.size) return result;
    const context = await this.contexts.ofTable(event.payload.tableId);
    if (!context) return result;
    const after = event.payload.rows ?? (await this.rows.rowsByIds(context, event.payload.rowIds));
    for (const [viewId, webhooks] of watched) {
      const view = await this.viewsOfWebhooks.liveView(viewId, context);
      if (!view) continue;
      const now = await this.viewsOfWebhooks.shown(view, context, event.payload.rowIds);
      // Shown before: none of new rows; for an update, what the view showed (all of them without filters).
      const before = event.name === 'rows.created' ? new Set<number>() : now === null ? null : new Set(event.payload.visibleBefore?.[String(viewId)] ?? []);
      if (before === null) continue;
      const entered = after.filter((row) => (now === null || now.has(row.id)) && !before.has(row.id));
      if (!entered.length) continue;
      const json = await this.views.viewJson(viewId, NO_INCLUDES);
      if (!json) continue;
      const named = this.named(context, entered);
      const made = this.calls(context, 'view.rows_entered', webhooks, (webhook) => {
        const rows = named(webhook);
        const fields = ['id', 'order', ...context.fields.map((field) => (webhook.useUserFieldNames ? field.name : `field_${field.id}`))];
        return this.batches(rows, (batch) => ({ view: json, fields, rows: batch }));
      });
      result.calls.push(...made.calls);
      result.tooLarge.push(...made.tooLarge);
    }
    return result;
  }

  /** Rows in one body, or in batches of BATCH_ROWS_SIZE_LIMIT with `batch_id`, `offset` and `batch_size`; `total_count` in each. */
  private batches(rows: RowJson[], body: (rows: RowJson[]) => Payload): Payload[] {
    const size = this.config.webhooks.batchRowsSizeLimit;
    if (rows.length <= size) return [{ ...body(rows), total_count: rows.length }];
    const batches: Payload[] = [];
    for (let offset = 0; offset < rows.length; offset += size) {
      const batch = rows.slice(offset, offset + size);
      batches.push({ ...body(batch), total_count: rows.length, batch_id: batches.length + 1, offset, batch_size: batch.length });
    }
    return batches;
  }

  /**
   * Baserow's related `rows.updated`: the rows of other tables whose link cells a row write
   * changed (the rows linked, or unlinked, through a link field with a related field), sent to
   * those tables' webhooks that listen to `rows.updated` (narrowed to fields: the related
   * field), as `items` and `total_count`, in batches of BATCH_ROWS_SIZE_LIMIT.
   */
  async relatedCallsOf(event: WebhookDomainEvent, webhooksOf: (tableId: number) => Promise<TableWebhookEntity[]>): Promise<EventCalls> {
    const result: EventCalls = { calls: [], tooLarge: [] };
    if (!event.name.startsWith('rows.') || (event.name === 'rows.updated' && event.payload.cascadeOf !== undefined)) return result;
    const context = await this.contexts.ofTable(event.payload.tableId);
    if (!context) return result;
    for (const [tableId, { rowIds, fieldIds }] of this.linkedChanges(event, context)) {
      const listening = (await webhooksOf(tableId)).filter((webhook) => listensTo(webhook, 'rows.updated', fieldIds));
      if (!listening.length) continue;
      const other = await this.contexts.ofTable(tableId);
      if (!other) continue;
      const items = this.named(other, await this.rows.rowsByIds(other, [...rowIds]));
      const made = this.calls(other, 'rows.updated', listening, (webhook) => this.batches(items(webhook), (batch) => ({ items: batch })));
      result.calls.push(...made.calls);
      result.tooLarge.push(...made.tooLarge);
    }
    return result;
  }

  /** The calls of one event to its listening webhooks, one event id for all, batches past the limit held back. */
  private calls(context: TableContext, type: WebhookEventType, listening: TableWebhookEntity[], bodiesOf: (webhook: TableWebhookEntity) => Payload[]): EventCalls {
    const result: EventCalls = { calls: [], tooLarge: [] };
    const eventId = randomUUID();
    for (const webhook of listening) {
      const base = { table_id: context.table.id, database_id: context.table.databaseId, workspace_id: context.workspaceId, webhook_id: webhook.id, event_id: eventId, event_type: type };
      const bodies = bodiesOf(webhook);
      const batched = bodies.length > 1;
      for (let index = 0; index < bodies.length; index++) {
        if (batched && this.config.webhooks.batchLimit > 0 && index >= this.config.webhooks.batchLimit) {
          result.tooLarge.push({ webhook, eventId });
          break;
        }
        result.calls.push({ webhookId: webhook.id, eventId, eventType: type, batchId: batched ? index + 1 : null, payload: JSON.stringify({ ...base, ...bodies[index] }) });
      }
    }
    return result;
  }

  /** Per other table, the rows whose link cells a row event changed, and the related fields they changed in. */
  private linkedChanges(event: WebhookDomainEvent, context: TableContext): Map<number, { rowIds: Set<number>; fieldIds: number[] }> {
    const changes = new Map<number, { rowIds: Set<number>; fieldIds: number[] }>();
    if (event.name !== 'rows.created' && event.name !== 'rows.updated' && event.name !== 'rows.deleted') return changes;
    const linkIds = (cell: unknown): number[] => (Array.isArray(cell) ? cell.map((item) => Number(typeof item === 'object' && item !== null ? (item as { id: unknown }).id : item)) : []);
    for (const field of context.fields) {
      const tableId = Number(field.properties.link_row_table_id);
      const relatedId = Number(field.properties.related_field_id);
      if (field.type !== 'link_row' || !relatedId || tableId === context.table.id) continue;
      const key = `field_${field.id}`;
      const ids = new Set<number>();
      if (event.name === 'rows.created') for (const row of event.payload.rows ?? []) for (const id of linkIds(row[key])) ids.add(id);
      else if (event.name === 'rows.deleted') for (const row of event.payload.rows) for (const id of linkIds(row[key])) ids.add(id);
      else if (event.payload.updatedFieldIds.includes(field.id)) {
        const before = new Map(event.payload.rowsBefore.map((row) => [row.id, new Set(linkIds(row[key]))]));
        for (const row of event.payload.rows ?? []) {
          const was = before.get(row.id) ?? new Set<number>();
          const now = new Set(linkIds(row[key]));
          for (const id of now) if (!was.has(id)) ids.add(id);
          for (const id of was) if (!now.has(id)) ids.add(id);
        }
      }
      if (!ids.size) continue;
      const change = changes.get(tableId) ?? { rowIds: new Set<number>(), fieldIds: [] };
      for (const id of ids) change.rowIds.add(id);
      change.fieldIds.push(relatedId);
      changes.set(tableId, change);
    }
    return changes;
  }

  /** Rows named as each webhook wants them (by field name or `field_<id>`), shaped once per naming. */
  private named(context: TableContext, rows: RowSnapshot[]): (webhook: TableWebhookEntity) => RowJson[] {
    const byNames = new Map<boolean, RowJson[]>();
    return (webhook) => {
      let shaped = byNames.get(webhook.useUserFieldNames);
      if (!shaped) {
        shaped = webhook.useUserFieldNames ? this.rows.named(context, rows as RowJson[]) : (rows as RowJson[]);
        byNames.set(webhook.useUserFieldNames, shaped);
      }
      return shaped;
    };
  }

  /** What a test call sends for an event type (Baserow's `get_test_call_payload`): made-up objects of the table. */
  async testPayload(context: TableContext, type: WebhookEventType, useUserFieldNames: boolean): Promise<Payload> {
    const base = { table_id: context.table.id, database_id: context.table.databaseId, workspace_id: context.workspaceId, webhook_id: null, event_id: randomUUID(), event_type: type };
    const row: RowJson = { id: 0, order: '0.00000000000000000000' };
    for (const field of context.fields) row[useUserFieldNames ? field.name : `field_${field.id}`] = null;
    switch (type) {
      case 'rows.created':
        return { ...base, items: [row] };
      case 'rows.updated':
        return { ...base, items: [row], old_items: [{ ...row }] };
      case 'rows.deleted':
        return { ...base, row_ids: [0] };
      case 'field.created':
      case 'field.updated':
        return { ...base, field: { id: 0, table_id: 0, name: 'Field', order: 1, type: 'text', primary: false, read_only: false, description: null, text_default: '' } };
      case 'field.deleted':
        return { ...base, field_id: 1 };
      case 'view.created':
      case 'view.updated':
        return { ...base, view: { id: 0, table_id: 0, name: 'View', order: 1, type: 'grid', filter_type: 'AND', filters_disabled: false, public: false } };
      case 'view.deleted':
        return { ...base, view_id: 1 };
      case 'view.rows_entered':
        return { ...base, view: { id: 0, table_id: 0, name: 'View', order: 1, type: 'grid' }, fields: ['id', 'order', ...Object.keys(row).slice(2)], rows: [row], total_count: 1 };
    }
  }

  /** What an event carries past the ids, per webhook (rows are named as each wants them); null when what it names is gone. */
  private async specific(event: WebhookDomainEvent, context: TableContext): Promise<((webhook: TableWebhookEntity) => Payload[]) | null> {
    switch (event.name) {
      case 'rows.created': {
        const items = this.named(context, event.payload.rows ?? (await this.rows.rowsByIds(context, event.payload.rowIds)));
        return (webhook) => [{ items: items(webhook) }];
      }
      case 'rows.updated': {
        const items = this.named(context, event.payload.rows ?? (await this.rows.rowsByIds(context, event.payload.rowIds)));
        const old = this.named(context, event.payload.rowsBefore);
        return (webhook) => [{ items: items(webhook), old_items: old(webhook) }];
      }
      case 'rows.deleted':
        return () => [{ row_ids: event.payload.rowIds }];
      case 'field.created':
      case 'field.updated': {
        const field = await this.fieldRepo.findLive(event.payload.fieldId);
        if (!field) return null;
        const [json] = await this.fields.serializeMany([field]);
        return () => [{ field: json }];
      }
      case 'field.deleted':
        return () => [{ field_id: event.payload.fieldId }];
      case 'view.created':
      case 'view.updated': {
        const view = await this.views.viewJson(event.payload.viewId, NO_INCLUDES);
        if (!view) return null;
        return () => [{ view }];
      }
      case 'view.deleted':
        return () => [{ view_id: event.payload.viewId }];
    }
  }
}
