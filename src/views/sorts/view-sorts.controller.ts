import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer, RequestBody } from '../../openapi/decorators';
import type { SchemaObject } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import { objectBody } from '../views.controller';
import { ViewSortJson, ViewSortsService } from './view-sorts.service';

const id: SchemaObject = { type: 'integer' };
const order: SchemaObject = { type: 'string', enum: ['ASC', 'DESC'] };
const type: SchemaObject = { type: 'string', enum: ['default', 'order'] };
const SORT: SchemaObject = { type: 'object', properties: { id, view: id, field: id, order, type } };
const GROUP_BY: SchemaObject = { type: 'object', properties: { id, view: id, field: id, order, width: id, type } };
const body = (schema: SchemaObject, partial: boolean): SchemaObject => {
  const { id: _id, view: _view, ...properties } = schema.properties as Record<string, SchemaObject>;
  return { type: 'object', properties, ...(partial ? {} : { required: ['field'] }) };
};

@ApiTags('Database table view sortings')
@Authentication('JWT')
@Controller('api/database/views')
export class ViewSortsController {
  constructor(private readonly service: ViewSortsService) {}

  @Get(':viewId/sortings')
  @Answer({ type: 'array', items: SORT })
  @ApiOperation({ operationId: 'list_database_table_view_sortings', summary: 'The saved sorts of a view.' })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewSortJson[]> {
    return this.service.list(this.service.sorts, user, viewId);
  }

  @Post(':viewId/sortings')
  @HttpCode(200)
  @RequestBody(body(SORT, false))
  @Answer(SORT)
  @ApiOperation({ operationId: 'create_database_table_view_sort', summary: 'Adds a sort (`field`, `order`, `type`) to a view.' })
  create(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() input: unknown): Promise<ViewSortJson> {
    return this.service.create(this.service.sorts, user, viewId, objectBody(input));
  }

  @Get('sort/:viewSortId')
  @Answer(SORT)
  @ApiOperation({ operationId: 'get_database_table_view_sort', summary: 'One saved sort.' })
  get(@CurrentUser() user: UserEntity, @IdParam('viewSortId') sortId: number): Promise<ViewSortJson> {
    return this.service.get(this.service.sorts, user, sortId);
  }

  @Patch('sort/:viewSortId')
  @RequestBody(body(SORT, true))
  @Answer(SORT)
  @ApiOperation({ operationId: 'update_database_table_view_sort', summary: 'Changes a sort’s `field`, `order` or `type`.' })
  update(@CurrentUser() user: UserEntity, @IdParam('viewSortId') sortId: number, @Body() input: unknown): Promise<ViewSortJson> {
    return this.service.update(this.service.sorts, user, sortId, objectBody(input));
  }

  @Delete('sort/:viewSortId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view_sort', summary: 'Deletes a sort.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('viewSortId') sortId: number): Promise<void> {
    await this.service.delete(this.service.sorts, user, sortId);
  }
}

@ApiTags('Database table view groupings')
@Authentication('JWT')
@Controller('api/database/views')
export class ViewGroupBysController {
  constructor(private readonly service: ViewSortsService) {}

  @Get(':viewId/group_bys')
  @Answer({ type: 'array', items: GROUP_BY })
  @ApiOperation({ operationId: 'list_database_table_view_group_bys', summary: 'The saved group-bys of a grid view.' })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewSortJson[]> {
    return this.service.list(this.service.groupBys, user, viewId);
  }

  @Post(':viewId/group_bys')
  @HttpCode(200)
  @RequestBody(body(GROUP_BY, false))
  @Answer(GROUP_BY)
  @ApiOperation({ operationId: 'create_database_table_view_group_by', summary: 'Adds a group-by (`field`, `order`, `width`, `type`) to a grid view.' })
  create(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() input: unknown): Promise<ViewSortJson> {
    return this.service.create(this.service.groupBys, user, viewId, objectBody(input));
  }

  @Get('group_by/:viewGroupById')
  @Answer(GROUP_BY)
  @ApiOperation({ operationId: 'get_database_table_view_group_by', summary: 'One saved group-by.' })
  get(@CurrentUser() user: UserEntity, @IdParam('viewGroupById') groupById: number): Promise<ViewSortJson> {
    return this.service.get(this.service.groupBys, user, groupById);
  }

  @Patch('group_by/:viewGroupById')
  @RequestBody(body(GROUP_BY, true))
  @Answer(GROUP_BY)
  @ApiOperation({ operationId: 'update_database_table_view_group_by', summary: 'Changes a group-by’s `field`, `order`, `width` or `type`.' })
  update(@CurrentUser() user: UserEntity, @IdParam('viewGroupById') groupById: number, @Body() input: unknown): Promise<ViewSortJson> {
    return this.service.update(this.service.groupBys, user, groupById, objectBody(input));
  }

  @Delete('group_by/:viewGroupById')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view_group_by', summary: 'Deletes a group-by.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('viewGroupById') groupById: number): Promise<void> {
    await this.service.delete(this.service.groupBys, user, groupById);
  }
}
