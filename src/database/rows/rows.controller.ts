import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, RequestBody } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import type { Request, Response } from 'express';
import { Authentication, CurrentUser, TokenOperations } from '../../auth/decorators';
import { RequestContext } from '../../core/context/request-context';
import { TokenErrors } from '../../tokens/tokens.errors';
import { IdParam } from '../../core/http/params';
import type { UserEntity } from '../../users/user.entity';
import { AdjacentRowQuery, BatchCreateRowsQuery, BatchUpdateRowsQuery, CreateRowQuery, GetRowQuery, ListRowsQuery, MoveRowQuery, RowNamesQuery, UserFieldNamesQuery } from './rows.query';
import { RowJson, RowPage, RowsService } from './rows.service';

import { requestUrl } from '../../core/http/pagination';

/** The request's own absolute URL, so `next`/`previous` carry its host and port (kept here for its importers). */
export { requestUrl };

@ApiTags('Database table rows')
@Authentication('JWT')
@Controller('api/database/rows')
export class RowsController {
  constructor(private readonly rows: RowsService) {}

  @Get('names')
  @Answer({ type: 'object', description: '`{"<table_id>": {"<row_id>": "<primary value>"}}`', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } })
  @Authentication('JWT', 'Token')
  @TokenOperations('read')
  @ApiOperation({ operationId: 'list_database_table_row_names', summary: 'Primary values of rows, by table (`table__<id>=1,2`).' })
  names(@CurrentUser() user: UserEntity, @Query() query: RowNamesQuery): Promise<Record<string, Record<string, string>>> {
    return this.rows.names(user, query as Record<string, unknown>);
  }

  @Get('table/:tableId')
  @Answer(Schemas.ref('RowPage'))
  @Authentication('JWT', 'Token')
  @TokenOperations('read')
  @ApiOperation({ operationId: 'list_database_table_rows', summary: 'Lists rows with filters, search, sorts and pages.' })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Query() query: ListRowsQuery, @Req() req: Request): Promise<RowPage> {
    return this.rows.list(user, tableId, query, requestUrl(req));
  }

  @Post('table/:tableId')
  @HttpCode(200)
  @RequestBody(Schemas.ref('RowValues'))
  @Answer(Schemas.ref('Row'))
  @Authentication('JWT', 'Token')
  @TokenOperations('create')
  @ApiOperation({ operationId: 'create_database_table_row', summary: 'Creates a row (before `before` or last).' })
  create(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: unknown, @Query() query: CreateRowQuery): Promise<RowJson> {
    return this.rows.create(user, tableId, body, { before: query.before ?? null, userFieldNames: !!query.user_field_names });
  }

  @Post('table/:tableId/batch')
  @HttpCode(200)
  @RequestBody({ type: 'object', required: ['items'], properties: { items: { type: 'array', minItems: 1, maxItems: 200, items: Schemas.ref('RowValues') } } })
  @Answer(Schemas.ref('Rows'))
  @Authentication('JWT', 'Token')
  @TokenOperations('create')
  @ApiOperation({ operationId: 'batch_create_database_table_rows', summary: 'Creates 1 to 200 rows, all or nothing.' })
  async batchCreate(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: unknown, @Query() query: BatchCreateRowsQuery) {
    const result = await this.rows.batchCreate(user, tableId, body, { before: query.before ?? null, userFieldNames: !!query.user_field_names });
    return withMetadata(result, !!query.include_metadata);
  }

  @Patch('table/:tableId/batch')
  @RequestBody({ type: 'object', required: ['items'], properties: { items: { type: 'array', minItems: 1, maxItems: 200, items: { allOf: [Schemas.ref('RowValues'), { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] } } } })
  @Answer(Schemas.ref('Rows'))
  @Authentication('JWT', 'Token')
  @TokenOperations('update')
  @ApiOperation({ operationId: 'batch_update_database_table_rows', summary: 'Updates 1 to 200 rows, all or nothing.' })
  async batchUpdate(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: unknown, @Query() query: BatchUpdateRowsQuery) {
    const result = await this.rows.batchUpdate(user, tableId, body, !!query.user_field_names);
    return withMetadata(result, !!query.include_metadata);
  }

  @Post('table/:tableId/batch-delete')
  @HttpCode(204)
  @RequestBody({ type: 'object', required: ['items'], properties: { items: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'integer' } } } })
  @Authentication('JWT', 'Token')
  @TokenOperations('delete')
  @ApiOperation({ operationId: 'batch_delete_database_table_rows', summary: 'Deletes 1 to 200 rows, all or nothing.' })
  async batchDelete(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: unknown): Promise<void> {
    await this.rows.batchDelete(user, tableId, body);
  }

  @Get('table/:tableId/:rowId')
  @Answer(Schemas.ref('Row'))
  @Authentication('JWT', 'Token')
  @TokenOperations('read')
  @ApiOperation({ operationId: 'get_database_table_row', summary: 'One row.' })
  async get(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Query() query: GetRowQuery): Promise<RowJson> {
    const withMetadata = (query.include ?? '').split(',').includes('metadata');
    const row = await this.rows.get(user, tableId, rowId, !!query.user_field_names, withMetadata);
    // Row metadata (comments…) is for people: a database token may not ask for it, as in Baserow.
    // The token's table grant is known once the table was resolved.
    if (withMetadata && RequestContext.tableGrant()) throw TokenErrors.cannotIncludeRowMetadata();
    return row;
  }

  @Patch('table/:tableId/:rowId')
  @RequestBody(Schemas.ref('RowValues'))
  @Answer(Schemas.ref('Row'))
  @Authentication('JWT', 'Token')
  @TokenOperations('update')
  @ApiOperation({ operationId: 'update_database_table_row', summary: 'Updates cells of a row.' })
  update(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Body() body: unknown, @Query() query: UserFieldNamesQuery): Promise<RowJson> {
    return this.rows.update(user, tableId, rowId, body, !!query.user_field_names);
  }

  @Delete('table/:tableId/:rowId')
  @HttpCode(204)
  @Authentication('JWT', 'Token')
  @TokenOperations('delete')
  @ApiOperation({ operationId: 'delete_database_table_row', summary: 'Deletes a row.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number): Promise<void> {
    await this.rows.delete(user, tableId, rowId);
  }

  @Patch('table/:tableId/:rowId/move')
  @Answer(Schemas.ref('Row'))
  @Authentication('JWT', 'Token')
  @TokenOperations('update')
  @ApiOperation({ operationId: 'move_database_table_row', summary: 'Moves a row before another (or last).' })
  move(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Query() query: MoveRowQuery): Promise<RowJson> {
    return this.rows.move(user, tableId, rowId, query.before_id ?? null, !!query.user_field_names);
  }

  @Get('table/:tableId/:rowId/adjacent')
  @Answer(Schemas.ref('Row'), { description: 'The adjacent row (204 without a body when there is none).' })
  @ApiOperation({ operationId: 'get_database_table_row_adjacent', summary: 'The next (or previous) row in a view or search order; 204 when none.' })
  async adjacent(
    @CurrentUser() user: UserEntity,
    @IdParam('tableId') tableId: number,
    @IdParam('rowId') rowId: number,
    @Query() query: AdjacentRowQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RowJson | undefined> {
    const row = await this.rows.adjacent(user, tableId, rowId, query);
    if (!row) {
      res.status(204);
      return undefined;
    }
    return row;
  }
}

function withMetadata(result: { rows: RowJson[]; updatedFieldIds: number[] }, include: boolean) {
  return include ? { items: result.rows, metadata: { updated_field_ids: result.updatedFieldIds } } : { items: result.rows };
}
