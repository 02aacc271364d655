import { Inject, Injectable } from '@nestjs/common';
import { OperationType, PermissionService, TableOperations as T } from '../permissions';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ErrorTree, FieldError, validationError } from '../core/errors/api-error';
import { checkedAddress, urlProblem } from '../core/http/guarded-fetch';
import { truncateMiddle } from '../core/text/truncate';
import { TableContext, TableContextService, tableScope } from '../database/table-context';
import type { UserEntity } from '../users/user.entity';
import { ViewRepository } from '../views/view.repository';
import { WebhookCaller } from './webhook-caller';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-event-types';
import { WebhookPayloads } from './webhook-payloads';
import { TableWebhookCallEntity, TableWebhookEntity, WebhookEventConfig } from './webhook.entity';
import { WebhookRepository } from './webhook.repository';
import { WebhookErrors } from './webhooks.errors';

export const REQUEST_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;
/** Request and response texts are shown up to this many characters, their middle cut (Baserow's call serializer). */
const CALL_TEXT_SHOWN = 100_000;
const TRUNCATED = '\n...(truncated)\n';
/** Headers a receiver or the connection could be fooled with: set by the server, never by a webhook. */
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface WebhookInput {
  url?: string;
  name?: string;
  request_method?: string;
  include_all_events?: boolean;
  events?: string[];
  event_config?: unknown[];
  headers?: Record<string, unknown>;
  use_user_field_names?: boolean;
  active?: boolean;
}

export interface TestCallInput {
  url: string;
  event_type: string;
  request_method: string;
  headers?: Record<string, unknown>;
  use_user_field_names: boolean;
}

export type WebhookJson = Record<string, unknown>;

/** Database webhooks: their settings (Baserow's `WebhookHandler`) and the test call. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: UnitOfWork,
    private readonly repo: WebhookRepository,
    private readonly contexts: TableContextService,
    private readonly views: ViewRepository,
    private readonly payloads: WebhookPayloads,
    private readonly caller: WebhookCaller,
    private readonly permissions: PermissionService,
  ) {}

  async list(user: UserEntity, tableId: number): Promise<WebhookJson[]> {
    await this.contexts.require(tableId, user.id, T.listWebhooks);
    return this.serialize(await this.repo.ofTable(tableId));
  }

  async get(user: UserEntity, id: number): Promise<WebhookJson> {
    const { webhook } = await this.require(user, id, T.readWebhook);
    return (await this.serialize([webhook]))[0];
  }

  async create(user: UserEntity, tableId: number, input: WebhookInput): Promise<WebhookJson> {
    const context = await this.contexts.require(tableId, user.id, T.createWebhook);
    await this.checkUrl(input.url!);
    const headers = this.checkHeaders(input.headers ?? {});
    checkEventConfig(input.event_config);
    const webhook = await this.db.run(async () => {
      if ((await this.repo.countOfTable(tableId)) >= this.config.webhooks.maxPerTable) throw WebhookErrors.maxLimitExceeded(this.config.webhooks.maxPerTable);
      const includeAll = input.include_all_events ?? true;
      const events = includeAll ? [] : await this.eventConfig(context, input.events ?? [], input.event_config, []);
      const now = new Date();
      return this.repo.save(
        Object.assign(new TableWebhookEntity(), {
          tableId,
          name: input.name!,
          url: input.url!,
          requestMethod: input.request_method ?? 'POST',
          includeAllEvents: includeAll,
          useUserFieldNames: input.use_user_field_names ?? true,
          // A new webhook is active (Baserow ignores `active` on create).
          active: true,
          failedTriggers: 0,
          events,
          headers,
          createdOn: now,
          updatedOn: now,
        }),
      );
    });
    return (await this.serialize([webhook]))[0];
  }

  async update(user: UserEntity, id: number, input: WebhookInput): Promise<WebhookJson> {
    const { webhook, context } = await this.require(user, id, T.updateWebhook);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const headers = input.headers !== undefined ? this.checkHeaders(input.headers) : undefined;
    checkEventConfig(input.event_config);
    const saved = await this.db.run(async () => {
      const current = (await this.repo.find(id)) ?? webhook;
      if (input.url !== undefined) current.url = input.url;
      if (input.name !== undefined) current.name = input.name;
      if (input.request_method !== undefined) current.requestMethod = input.request_method;
      if (input.use_user_field_names !== undefined) current.useUserFieldNames = input.use_user_field_names;
      if (headers !== undefined) current.headers = headers;
      // Activated again: its failures in a row start over.
      if (input.active !== undefined) {
        if (input.active && !current.active) current.failedTriggers = 0;
        current.active = input.active;
      }
      if (input.include_all_events !== undefined) current.includeAllEvents = input.include_all_events;
      if (current.includeAllEvents) current.events = [];
      else if (input.events !== undefined || input.event_config !== undefined) {
        // Events kept keep their fields and views; the config given replaces those of the events it names.
        const names = input.events ?? current.events.map((event) => event.event_type);
        current.events = await this.eventConfig(context, names, input.event_config, current.events);
      }
      current.updatedOn = new Date();
      return this.repo.save(current);
    });
    return (await this.serialize([saved]))[0];
  }

  async delete(user: UserEntity, id: number): Promise<void> {
    await this.require(user, id, T.deleteWebhook);
    await this.db.run(() => this.repo.delete(id));
  }

  /** Calls a URL as a webhook would, with a made-up event of the table; nothing is stored. */
  async testCall(user: UserEntity, tableId: number, input: TestCallInput): Promise<{ request: string; response: string; status_code: number | null; is_unreachable: boolean }> {
    const context = await this.contexts.require(tableId, user.id, T.testTriggerWebhook);
    await this.checkUrl(input.url);
    const headers = this.checkHeaders(input.headers ?? {});
    const type = input.event_type as WebhookEventType;
    const payload = await this.payloads.testPayload(context, type, input.use_user_field_names);
    const result = await this.caller.call({ method: input.request_method, url: input.url, headers, eventType: type, eventId: String(payload.event_id), payload });
    return { request: result.request, response: result.response, status_code: result.status, is_unreachable: result.unreachable };
  }

  /** The webhook, when the user may do `operation` on it: 404 when it (or its table) is gone, else the permission check's answer. */
  private async require(user: UserEntity, id: number, operation: OperationType): Promise<{ webhook: TableWebhookEntity; context: TableContext }> {
    const webhook = await this.repo.find(id);
    if (!webhook) throw WebhookErrors.doesNotExist();
    const access = await this.contexts.access(webhook.tableId, user.id);
    if (!access) throw WebhookErrors.doesNotExist();
    await this.permissions.require(user.id, operation, tableScope(access.table, access.workspaceId));
    return { webhook, context: await this.contexts.withFields(access.table, access.workspaceId) };
  }

  /**
   * A webhook URL: http(s), no credentials, at most 2,000 characters (the DTO), and, unless
   * private addresses are allowed, a host whose every address is global (checked again, and
   * pinned, at each call and redirect).
   */
  private async checkUrl(url: string): Promise<void> {
    const invalid = (error: string) => validationError({ url: [{ error, code: 'invalid_url' }] });
    const problem = urlProblem(url);
    if (problem) throw invalid(problem);
    if (this.config.webhooks.allowPrivateAddress) return;
    // The guarded fetcher's own check (it runs again, and pins the address, at each call and redirect).
    await checkedAddress(new URL(url).hostname, false).catch(() => {
      throw invalid('Invalid URL');
    });
  }

  /** Header names and values a call may carry: `detail.headers` lists what is wrong (Baserow's codes). */
  private checkHeaders(headers: Record<string, unknown>): Record<string, string> {
    const errors: FieldError[] = [];
    const checked: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) errors.push({ error: `The provided header name ${name} is invalid.`, code: 'invalid_http_header_name' });
      else if (FORBIDDEN_HEADERS.has(name.toLowerCase()) || /^x-baserow-/i.test(name)) errors.push({ error: `The provided header name ${name} is not allowed.`, code: 'invalid_http_header_name' });
      else if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 8192) errors.push({ error: `The provided header value for ${name} is invalid.`, code: 'invalid_http_header_value' });
      else checked[name] = value;
    }
    if (errors.length) throw validationError({ headers: errors });
    return checked;
  }

  /**
   * The events a webhook listens to, in the order named (repeats once): an event kept keeps
   * its fields and views, `event_config` replaces those of the events it names (others it
   * names are ignored), and every field and view must be of the table.
   */
  private async eventConfig(context: TableContext, names: string[], config: unknown[] | undefined, current: WebhookEventConfig[]): Promise<WebhookEventConfig[]> {
    const events: WebhookEventConfig[] = [];
    for (const name of names) {
      if (events.some((event) => event.event_type === name)) continue;
      const kept = current.find((event) => event.event_type === name);
      events.push(kept ? { ...kept } : { event_type: name, fields: [], views: [] });
    }
    for (const entry of (config ?? []) as { event_type: string; fields?: number[]; views?: number[] }[]) {
      const event = events.find((e) => e.event_type === entry.event_type);
      if (!event) continue;
      for (const fieldId of entry.fields ?? []) if (!context.byId.has(fieldId)) throw WebhookErrors.fieldNotInTable(fieldId);
      for (const viewId of entry.views ?? []) {
        const view = await this.views.findLive(viewId);
        if (!view || view.tableId !== context.table.id) throw WebhookErrors.viewNotInTable(viewId);
      }
      event.fields = [...new Set(entry.fields ?? [])];
      event.views = [...new Set(entry.views ?? [])];
    }
    return events;
  }

  private async serialize(webhooks: TableWebhookEntity[]): Promise<WebhookJson[]> {
    const calls = await this.repo.callsOf(webhooks.map((webhook) => webhook.id));
    return webhooks.map((webhook) => ({
      id: webhook.id,
      events: webhook.includeAllEvents ? [] : webhook.events.map((event) => event.event_type),
      event_config: webhook.includeAllEvents
        ? []
        : webhook.events.map((event) => ({ event_type: event.event_type, ...(event.fields.length ? { fields: event.fields } : {}), ...(event.views.length ? { views: event.views } : {}) })),
      headers: webhook.headers,
      calls: calls.filter((call) => call.webhookId === webhook.id).map(serializeCall),
      created_on: toApiDateTime(webhook.createdOn),
      updated_on: toApiDateTime(webhook.updatedOn),
      use_user_field_names: webhook.useUserFieldNames,
      url: webhook.url,
      request_method: webhook.requestMethod,
      name: webhook.name,
      include_all_events: webhook.includeAllEvents,
      failed_triggers: webhook.failedTriggers,
      active: webhook.active,
    }));
  }
}

function serializeCall(call: TableWebhookCallEntity): Record<string, unknown> {
  return {
    id: call.id,
    event_id: call.eventId,
    event_type: call.eventType,
    called_time: toApiDateTime(call.calledTime),
    called_url: call.calledUrl,
    request: truncateMiddle(call.request ?? '', CALL_TEXT_SHOWN, TRUNCATED),
    response: truncateMiddle(call.response ?? '', CALL_TEXT_SHOWN, TRUNCATED),
    response_status: call.responseStatus,
    error: call.error,
  };
}

/** `event_config` entries well formed (whether the webhook uses them or not), or the detail tree of what is not. */
function checkEventConfig(config: unknown[] | undefined): void {
  const tree: ErrorTree = {};
  (config ?? []).forEach((entry, index) => {
    const problem = configProblem(entry);
    if (problem) tree[String(index)] = problem;
  });
  if (Object.keys(tree).length) throw validationError({ event_config: tree });
}

/** What is wrong with one `event_config` entry, as DRF would word it; null when it is well formed. */
function configProblem(entry: unknown): ErrorTree | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { non_field_errors: [{ error: 'Invalid data. Expected a dictionary.', code: 'invalid' }] };
  const { event_type, fields, views } = entry as Record<string, unknown>;
  const tree: ErrorTree = {};
  if (event_type === undefined) tree.event_type = [{ error: 'This field is required.', code: 'required' }];
  else if (typeof event_type !== 'string' || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event_type)) {
    tree.event_type = [{ error: `"${String(event_type)}" is not a valid choice.`, code: 'invalid_choice' }];
  }
  for (const [key, ids] of [['fields', fields], ['views', views]] as const) {
    if (ids === undefined || ids === null) continue;
    if (!Array.isArray(ids)) tree[key] = [{ error: `Expected a list of items but got type "${typeof ids}".`, code: 'not_a_list' }];
    else if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) tree[key] = [{ error: 'A valid integer is required.', code: 'invalid' }];
    else if (ids.length > 1000) tree[key] = [{ error: 'Ensure this field has no more than 1000 elements.', code: 'max_length' }];
  }
  return Object.keys(tree).length ? tree : null;
}
