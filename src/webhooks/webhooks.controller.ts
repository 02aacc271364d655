import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Field } from '../core/validation/field';
import { Answer } from '../openapi/decorators';
import type { SchemaObject } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types';
import { REQUEST_METHODS, WebhookJson, WebhooksService } from './webhooks.service';

const eventConfig = { kind: 'list', of: { kind: 'any' }, maxItems: 100, required: false, description: '`[{"event_type", "fields": [id], "views": [id]}]`: the fields a `rows.updated` must touch.' } as const;
const headers = { kind: 'object', required: false, description: 'Headers sent with each call, by name (not `Host`, hop-by-hop headers or `Content-Length`).' } as const;

export class CreateWebhookDto {
  @Field({ kind: 'string', max: 2000, description: 'An http(s) URL; non-global addresses are refused unless BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS.' })
  url: string;

  @Field({ kind: 'string', max: 255 })
  name: string;

  @Field({ kind: 'choice', choices: REQUEST_METHODS, required: false, default: 'POST' })
  request_method: string;

  @Field({ kind: 'bool', required: false, default: true })
  include_all_events: boolean;

  @Field({ kind: 'list', of: { kind: 'choice', choices: WEBHOOK_EVENT_TYPES }, maxItems: 100, required: false })
  events?: string[];

  @Field(eventConfig)
  event_config?: unknown[];

  @Field(headers)
  headers?: Record<string, unknown>;

  @Field({ kind: 'bool', required: false, default: true })
  use_user_field_names: boolean;
}

export class UpdateWebhookDto {
  @Field({ kind: 'string', max: 2000, required: false })
  url?: string;

  @Field({ kind: 'string', max: 255, required: false })
  name?: string;

  @Field({ kind: 'choice', choices: REQUEST_METHODS, required: false })
  request_method?: string;

  @Field({ kind: 'bool', required: false })
  include_all_events?: boolean;

  @Field({ kind: 'list', of: { kind: 'choice', choices: WEBHOOK_EVENT_TYPES }, maxItems: 100, required: false })
  events?: string[];

  @Field(eventConfig)
  event_config?: unknown[];

  @Field(headers)
  headers?: Record<string, unknown>;

  @Field({ kind: 'bool', required: false })
  use_user_field_names?: boolean;

  @Field({ kind: 'bool', required: false })
  active?: boolean;
}

export class TestCallDto {
  @Field({ kind: 'string', max: 2000 })
  url: string;

  @Field({ kind: 'choice', choices: WEBHOOK_EVENT_TYPES })
  event_type: string;

  @Field({ kind: 'choice', choices: REQUEST_METHODS, required: false, default: 'POST' })
  request_method: string;

  @Field(headers)
  headers?: Record<string, unknown>;

  @Field({ kind: 'bool', required: false, default: true })
  use_user_field_names: boolean;
}

const CALL: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    event_id: { type: 'string', format: 'uuid' },
    event_type: { type: 'string' },
    called_time: { type: 'string', format: 'date-time' },
    called_url: { type: 'string' },
    request: { type: 'string' },
    response: { type: 'string' },
    response_status: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true },
  },
};
const WEBHOOK: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } },
    event_config: { type: 'array', items: { type: 'object', properties: { event_type: { type: 'string' }, fields: { type: 'array', items: { type: 'integer' } }, views: { type: 'array', items: { type: 'integer' } } } } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    calls: { type: 'array', items: CALL },
    created_on: { type: 'string', format: 'date-time' },
    updated_on: { type: 'string', format: 'date-time' },
    use_user_field_names: { type: 'boolean' },
    url: { type: 'string' },
    request_method: { type: 'string', enum: [...REQUEST_METHODS] },
    name: { type: 'string' },
    include_all_events: { type: 'boolean' },
    failed_triggers: { type: 'integer' },
    active: { type: 'boolean' },
  },
};

@ApiTags('Database table webhooks')
@Authentication('JWT')
@Controller('api/database/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('table/:tableId')
  @Answer({ type: 'array', items: WEBHOOK })
  @ApiOperation({ operationId: 'list_database_table_webhooks', summary: "The table's webhooks, with their last calls." })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number): Promise<WebhookJson[]> {
    return this.webhooks.list(user, tableId);
  }

  @Post('table/:tableId')
  @HttpCode(200)
  @Answer(WEBHOOK)
  @ApiOperation({ operationId: 'create_database_table_webhook', summary: 'Creates a webhook, called after each change of the table it listens to.' })
  create(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: CreateWebhookDto): Promise<WebhookJson> {
    return this.webhooks.create(user, tableId, body);
  }

  @Post('table/:tableId/test-call')
  @HttpCode(200)
  @Answer({ type: 'object', properties: { request: { type: 'string' }, response: { type: 'string' }, status_code: { type: 'integer', nullable: true }, is_unreachable: { type: 'boolean' } } })
  @ApiOperation({ operationId: 'test_call_database_table_webhook', summary: 'Calls a URL as a webhook would, with a made-up event; nothing is stored.' })
  testCall(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: TestCallDto) {
    return this.webhooks.testCall(user, tableId, body);
  }

  @Get(':webhookId')
  @Answer(WEBHOOK)
  @ApiOperation({ operationId: 'get_database_table_webhook', summary: 'One webhook, with its last calls.' })
  get(@CurrentUser() user: UserEntity, @IdParam('webhookId') id: number): Promise<WebhookJson> {
    return this.webhooks.get(user, id);
  }

  @Patch(':webhookId')
  @Answer(WEBHOOK)
  @ApiOperation({ operationId: 'update_database_table_webhook', summary: 'Changes a webhook (activating it again resets its failures).' })
  update(@CurrentUser() user: UserEntity, @IdParam('webhookId') id: number, @Body() body: UpdateWebhookDto): Promise<WebhookJson> {
    return this.webhooks.update(user, id, body);
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_webhook', summary: 'Deletes a webhook, its call log and its queued calls.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('webhookId') id: number): Promise<void> {
    await this.webhooks.delete(user, id);
  }
}
