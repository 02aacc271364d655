import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, RequestBody } from '../openapi/decorators';
import { SchemaObject, Schemas } from '../openapi/schemas';
import { Authentication, CurrentUser } from '../auth/decorators';
import { validationError } from '../core/errors/api-error';
import { IdParam } from '../core/http/params';
import { NoTrailingSlash } from '../core/http/no-trailing-slash';
import { bodyObjectError } from '../core/validation/field';
import type { UserEntity } from '../users/user.entity';
import { ListViewsQuery, OrderViewsDto, ViewIncludeQuery } from './views.dto';
import type { FieldOptionsJson } from './view-field-options.service';
import { NO_INCLUDES, parseIncludes, ViewJson } from './view-json.service';
import { ViewsService } from './views.service';

/** A JSON object body (none counts as empty); its keys are checked by the service against the view type. */
export function objectBody(body: unknown): Record<string, unknown> {
  const notAnObject = bodyObjectError(body);
  if (notAnObject) throw validationError(notAnObject);
  return (body ?? {}) as Record<string, unknown>;
}

const VIEW_BODY: SchemaObject = { type: 'object', description: '`name`, `type` and the view type\'s settings (`filter_type`, `filters_disabled`, `public`, ...).', properties: { name: { type: 'string', maxLength: 255 }, type: { type: 'string', example: 'grid' } }, additionalProperties: true };
const FIELD_OPTIONS: SchemaObject = {
  type: 'object',
  properties: { field_options: { type: 'object', description: 'Options by field id (`width`, `hidden`, `order`, ...).', additionalProperties: { type: 'object', additionalProperties: true } } },
};

@ApiTags('Database table views')
@Authentication('JWT')
@Controller('api/database/views')
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Get('table/:tableId')
  @Answer(Schemas.list('View'))
  @ApiOperation({ operationId: 'list_database_table_views', summary: 'Views of a table by order (`type`, `limit`, `include=filters,sortings,decorations,group_bys`).' })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Query() query: ListViewsQuery): Promise<ViewJson[]> {
    return this.views.list(user, tableId, { type: query.type, limit: query.limit, includes: parseIncludes(query.include) });
  }

  @Post('table/:tableId')
  @HttpCode(200)
  @RequestBody({ ...VIEW_BODY, required: ['name', 'type'] })
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'create_database_table_view', summary: 'Creates a view (`name`, `type` and the type’s settings), last in the table.' })
  create(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: unknown, @Query() { include }: ViewIncludeQuery): Promise<ViewJson> {
    return this.views.create(user, tableId, objectBody(body), parseIncludes(include));
  }

  @Post('table/:tableId/order')
  @HttpCode(204)
  @ApiOperation({ operationId: 'order_database_table_views', summary: 'Orders the views of a table; the ones not listed get order 0.' })
  async order(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: OrderViewsDto): Promise<void> {
    await this.views.order(user, tableId, body.view_ids);
  }

  @Get(':viewId')
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'get_database_table_view', summary: 'One view.' })
  get(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() { include }: ViewIncludeQuery): Promise<ViewJson> {
    return this.views.get(user, viewId, parseIncludes(include));
  }

  @Patch(':viewId')
  @RequestBody(VIEW_BODY)
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'update_database_table_view', summary: 'Updates a view’s name, filter settings, password, sharing and type settings.' })
  update(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown, @Query() { include }: ViewIncludeQuery): Promise<ViewJson> {
    return this.views.update(user, viewId, objectBody(body), parseIncludes(include));
  }

  @Delete(':viewId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view', summary: 'Moves a view to the trash.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<void> {
    await this.views.delete(user, viewId);
  }

  @Post(':viewId/duplicate')
  @HttpCode(200)
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'duplicate_database_table_view', summary: 'Duplicates a view right after it ("<name> 2").' })
  duplicate(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewJson> {
    return this.views.duplicate(user, viewId);
  }

  @Post(':viewId/rotate-slug')
  @HttpCode(200)
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'rotate_database_view_slug', summary: 'Gives a shareable view a new slug: its old shared link stops working.' })
  rotateSlug(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewJson> {
    return this.views.rotateSlug(user, viewId);
  }

  @Get(':viewId/field-options')
  @Answer(FIELD_OPTIONS)
  @ApiOperation({ operationId: 'get_database_table_view_field_options', summary: 'Field options of every field of the view’s table.' })
  fieldOptions(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<{ field_options: FieldOptionsJson }> {
    return this.views.getFieldOptions(user, viewId);
  }

  @Patch(':viewId/field-options')
  @RequestBody(FIELD_OPTIONS)
  @Answer(FIELD_OPTIONS)
  @ApiOperation({ operationId: 'update_database_table_view_field_options', summary: 'Updates field options (`{"field_options": {"<field_id>": {...}}}`).' })
  updateFieldOptions(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown): Promise<{ field_options: FieldOptionsJson }> {
    return this.views.updateFieldOptions(user, viewId, objectBody(body));
  }
}

/** Baserow premium's view attributes, under its own path (`/api/database/view/…`, no trailing slash). */
@ApiTags('Database table views')
@Authentication('JWT')
@Controller('api/database/view')
export class PremiumViewAttributesController {
  constructor(private readonly views: ViewsService) {}

  @Patch(':viewId/premium')
  @NoTrailingSlash()
  @RequestBody({ type: 'object', properties: { show_logo: { type: 'boolean' }, allow_public_export: { type: 'boolean' } } })
  @Answer(Schemas.ref('View'))
  @ApiOperation({ operationId: 'premium_view_attributes_update', summary: 'Sets `show_logo` and `allow_public_export` (whether anyone with the shared link may export the view).' })
  update(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown): Promise<ViewJson> {
    return this.views.update(user, viewId, objectBody(body), NO_INCLUDES, true);
  }
}
