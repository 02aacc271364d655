import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer } from '../../openapi/decorators';
import type { UserEntity } from '../../users/user.entity';
import { AggregationQuery, AggregationsQuery } from './aggregations.dto';
import { AggregationsService } from './aggregations.service';

@ApiTags('Database table grid view')
@Authentication('JWT')
@Controller('api/database/views/grid')
export class AggregationsController {
  constructor(private readonly aggregations: AggregationsService) {}

  @Get(':viewId/aggregations')
  @Answer({ type: 'object', description: '`field_<id>` → the field’s aggregation, and `total` with `include=total`.', additionalProperties: true })
  @ApiOperation({
    operationId: 'get_database_table_grid_view_field_aggregations',
    summary: 'The aggregation of every field whose grid options set `aggregation_raw_type`, over the view’s rows (saved or ad-hoc filters, search).',
  })
  all(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @Query() query: AggregationsQuery): Promise<Record<string, unknown>> {
    return this.aggregations.all(user, viewId, query);
  }

  @Get(':viewId/aggregation/:fieldId')
  @Answer({ type: 'object', properties: { value: {}, total: { type: 'integer' } }, required: ['value'] })
  @ApiOperation({ operationId: 'get_database_table_grid_view_field_aggregation', summary: 'One field’s aggregation of `type` over the view’s rows (`include=total` adds the row count).' })
  one(@CurrentUser() user: UserEntity, @IdParam('viewId') viewId: number, @IdParam('fieldId') fieldId: number, @Query() query: AggregationQuery): Promise<Record<string, unknown>> {
    return this.aggregations.one(user, viewId, fieldId, query.type, query);
  }
}
