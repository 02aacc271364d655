import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { validationError } from '../../core/errors/api-error';
import { IdParam } from '../../core/http/params';
import { bodyObjectError } from '../../core/validation/field';
import { Answer, RequestBody } from '../../openapi/decorators';
import type { SchemaObject } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import type { DecorationJson } from './decoration.entity';
import { DecorationsService } from './decorations.service';

const DECORATION: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    view: { type: 'integer' },
    type: { type: 'string', example: 'left_border_color' },
    value_provider_type: { type: 'string', example: 'single_select_color' },
    value_provider_conf: { type: 'object', additionalProperties: true },
    order: { type: 'integer' },
  },
  required: ['id', 'view', 'type', 'value_provider_type', 'value_provider_conf', 'order'],
};
const DECORATION_BODY: SchemaObject = {
  type: 'object',
  description: '`type` (`left_border_color`, `background_color`), `value_provider_type` ("" or `single_select_color`, `conditional_color`), its `value_provider_conf` and `order`.',
  properties: {
    type: { type: 'string', enum: ['left_border_color', 'background_color'] },
    value_provider_type: { type: 'string', enum: ['', 'single_select_color', 'conditional_color'] },
    value_provider_conf: { type: 'object', additionalProperties: true },
    order: { type: 'integer', minimum: -32768, maximum: 32767 },
  },
};

function objectBody(body: unknown): Record<string, unknown> {
  const notAnObject = bodyObjectError(body);
  if (notAnObject) throw validationError(notAnObject);
  return (body ?? {}) as Record<string, unknown>;
}

@ApiTags('Database table view decorations')
@Authentication('JWT')
@Controller('api/database/views')
export class DecorationsController {
  constructor(private readonly decorations: DecorationsService) {}

  @Get(':viewId/decorations')
  @Answer({ type: 'array', items: DECORATION })
  @ApiOperation({ operationId: 'list_database_table_view_decorations', summary: 'Decorations of a view, by order.' })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<DecorationJson[]> {
    return this.decorations.list(user, viewId);
  }

  @Post(':viewId/decorations')
  @HttpCode(200)
  @RequestBody({ ...DECORATION_BODY, required: ['type'] })
  @Answer(DECORATION)
  @ApiOperation({ operationId: 'create_database_table_view_decoration', summary: 'Creates a decoration of a view (last unless `order` is given).' })
  create(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown): Promise<DecorationJson> {
    return this.decorations.create(user, viewId, objectBody(body));
  }

  @Get('decoration/:decorationId')
  @Answer(DECORATION)
  @ApiOperation({ operationId: 'get_database_table_view_decoration', summary: 'One decoration.' })
  get(@CurrentUser() user: UserEntity, @IdParam('decorationId') decorationId: number): Promise<DecorationJson> {
    return this.decorations.get(user, decorationId);
  }

  @Patch('decoration/:decorationId')
  @RequestBody(DECORATION_BODY)
  @Answer(DECORATION)
  @ApiOperation({ operationId: 'update_database_table_view_decoration', summary: 'Updates a decoration’s type, provider, conf or order.' })
  update(@CurrentUser() user: UserEntity, @IdParam('decorationId') decorationId: number, @Body() body: unknown): Promise<DecorationJson> {
    return this.decorations.update(user, decorationId, objectBody(body));
  }

  @Delete('decoration/:decorationId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view_decoration', summary: 'Deletes a decoration.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('decorationId') decorationId: number): Promise<void> {
    await this.decorations.delete(user, decorationId);
  }
}
