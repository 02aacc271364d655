import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer, RequestBody } from '../../openapi/decorators';
import { SchemaObject, specsSchema } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import { objectBody } from '../views.controller';
import { GROUP_CREATE_SPECS, GROUP_UPDATE_SPECS, ViewFilterJson, ViewFiltersService } from './view-filters.service';

const id: SchemaObject = { type: 'integer' };
const FILTER: SchemaObject = {
  type: 'object',
  properties: { id, view: id, field: id, type: { type: 'string' }, value: { type: 'string' }, preload_values: { type: 'object', additionalProperties: true }, group: { type: 'integer', nullable: true } },
};
const FILTER_GROUP: SchemaObject = { type: 'object', properties: { id, filter_type: { type: 'string', enum: ['AND', 'OR'] }, view: id, parent_group: { type: 'integer', nullable: true } } };
const FILTER_BODY = (partial: boolean): SchemaObject => ({
  type: 'object',
  properties: { field: id, type: { type: 'string', example: 'equal', description: 'A filter type compatible with the field.' }, value: { type: 'string' }, ...(partial ? {} : { group: { type: 'integer', nullable: true } }) },
  ...(partial ? {} : { required: ['field', 'type'] }),
});

@ApiTags('Database table view filters')
@Authentication('JWT')
@Controller('api/database/views')
export class ViewFiltersController {
  constructor(private readonly filters: ViewFiltersService) {}

  @Get(':viewId/filters')
  @Answer({ type: 'array', items: FILTER })
  @ApiOperation({ operationId: 'list_database_table_view_filters', summary: 'The saved filters of a view, by id.' })
  list(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number): Promise<ViewFilterJson[]> {
    return this.filters.list(user, viewId);
  }

  @Post(':viewId/filters')
  @HttpCode(200)
  @RequestBody(FILTER_BODY(false))
  @Answer(FILTER)
  @ApiOperation({ operationId: 'create_database_table_view_filter', summary: 'Adds a filter (`field`, `type`, `value`, `group`) to a view.' })
  create(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown): Promise<ViewFilterJson> {
    return this.filters.create(user, viewId, objectBody(body));
  }

  @Get('filter/:viewFilterId')
  @Answer(FILTER)
  @ApiOperation({ operationId: 'get_database_table_view_filter', summary: 'One saved filter.' })
  get(@CurrentUser() user: UserEntity, @IdParam('viewFilterId') filterId: number): Promise<ViewFilterJson> {
    return this.filters.get(user, filterId);
  }

  @Patch('filter/:viewFilterId')
  @RequestBody(FILTER_BODY(true))
  @Answer(FILTER)
  @ApiOperation({ operationId: 'update_database_table_view_filter', summary: 'Changes a filter’s `field`, `type` or `value`.' })
  update(@CurrentUser() user: UserEntity, @IdParam('viewFilterId') filterId: number, @Body() body: unknown): Promise<ViewFilterJson> {
    return this.filters.update(user, filterId, objectBody(body));
  }

  @Delete('filter/:viewFilterId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view_filter', summary: 'Deletes a filter.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('viewFilterId') filterId: number): Promise<void> {
    await this.filters.delete(user, filterId);
  }

  @Post(':viewId/filter-groups')
  @HttpCode(200)
  @RequestBody(specsSchema(GROUP_CREATE_SPECS))
  @Answer(FILTER_GROUP)
  @ApiOperation({ operationId: 'create_database_table_view_filter_group', summary: 'Adds a filter group (`filter_type`, `parent_group`) to a view.' })
  createGroup(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Body() body: unknown): Promise<ViewFilterJson> {
    return this.filters.createGroup(user, viewId, objectBody(body));
  }

  @Get('filter-group/:viewFilterGroupId')
  @Answer(FILTER_GROUP)
  @ApiOperation({ operationId: 'get_database_table_view_filter_group', summary: 'One filter group.' })
  getGroup(@CurrentUser() user: UserEntity, @IdParam('viewFilterGroupId') groupId: number): Promise<ViewFilterJson> {
    return this.filters.getGroup(user, groupId);
  }

  @Patch('filter-group/:viewFilterGroupId')
  @RequestBody(specsSchema(GROUP_UPDATE_SPECS, { partial: true }))
  @Answer(FILTER_GROUP)
  @ApiOperation({ operationId: 'update_database_table_view_filter_group', summary: 'Changes a filter group’s `filter_type` (or `parent_group`).' })
  updateGroup(@CurrentUser() user: UserEntity, @IdParam('viewFilterGroupId') groupId: number, @Body() body: unknown): Promise<ViewFilterJson> {
    return this.filters.updateGroup(user, groupId, objectBody(body));
  }

  @Delete('filter-group/:viewFilterGroupId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table_view_filter_group', summary: 'Deletes a filter group with its filters and nested groups.' })
  async deleteGroup(@CurrentUser() user: UserEntity, @IdParam('viewFilterGroupId') groupId: number): Promise<void> {
    await this.filters.deleteGroup(user, groupId);
  }
}
