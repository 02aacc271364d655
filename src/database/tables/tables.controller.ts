import { Body, Controller, Delete, Get, HttpCode, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, MultipartBody } from '../../openapi/decorators';
import { AcceptsMultipart } from '../../core/http/json-body.guard';
import { importUploadSchema, ImportUploadInterceptor } from '../import/import-upload.interceptor';
import { Schemas } from '../../openapi/schemas';
import { Authentication, CurrentUser, TokenOperations } from '../../auth/decorators';
import type { AuthenticatedToken } from '../../tokens/token-authenticator';
import { CurrentToken } from '../../tokens/current-token';
import { TableListItem, TokensService } from '../../tokens/tokens.service';
import { IdParam } from '../../core/http/params';
import type { UserEntity } from '../../users/user.entity';
import { CreateTableAsyncDto, CreateTableDto, ImportRowsDto, OrderTablesDto, RenameTableDto } from './tables.dto';
import { TableImportService } from './table-import.service';
import { TableJobsService } from './table-jobs.service';
import { TableJson } from './table.serializer';
import { TablesService } from './tables.service';

@ApiTags('Database tables')
@Authentication('JWT')
@Controller('api/database/tables')
export class TablesController {
  constructor(
    private readonly tables: TablesService,
    private readonly jobs: TableJobsService,
    private readonly tokens: TokensService,
    private readonly imports: TableImportService,
  ) {}

  // First: `:tableId` must not take it.
  @Get('all-tables')
  @Authentication('Token')
  @TokenOperations('create', 'read', 'update', 'delete')
  @Answer({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, order: { type: 'integer' }, database_id: { type: 'integer' } } } })
  @ApiOperation({ operationId: 'list_all_token_tables', summary: 'Token only: the tables the token has a create, read, update or delete permission on.' })
  allTables(@CurrentToken() token: AuthenticatedToken): Promise<TableListItem[]> {
    return this.tokens.tables(token);
  }

  @Get('database/:databaseId')
  @Answer(Schemas.list('Table'))
  @ApiOperation({ operationId: 'list_database_tables', summary: 'Tables of a database.' })
  list(@CurrentUser() user: UserEntity, @IdParam('databaseId') databaseId: number): Promise<TableJson[]> {
    return this.tables.list(user, databaseId);
  }

  @Post('database/:databaseId')
  @HttpCode(200)
  @Answer(Schemas.ref('Table'))
  @ApiOperation({ operationId: 'create_database_table', summary: 'Creates a table, empty (example fields) or from `data`.' })
  create(@CurrentUser() user: UserEntity, @IdParam('databaseId') databaseId: number, @Body() body: CreateTableDto): Promise<TableJson> {
    return this.tables.create(user, databaseId, { name: body.name, data: body.data, firstRowHeader: body.first_row_header });
  }

  @Post('database/:databaseId/async')
  @HttpCode(200)
  @AcceptsMultipart()
  @UseInterceptors(ImportUploadInterceptor('create'))
  @MultipartBody(importUploadSchema('create'))
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'create_database_table_async', summary: 'Creates a table in a `file_import` job, from `data` or (multipart) from an uploaded CSV, JSON, XML or Excel file.' })
  createAsync(@CurrentUser() user: UserEntity, @IdParam('databaseId') databaseId: number, @Body() body: CreateTableAsyncDto): Promise<Record<string, unknown>> {
    return this.jobs.createAsync(user, databaseId, { name: body.name, data: body.data, firstRowHeader: body.first_row_header });
  }

  @Post(':tableId/duplicate/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'duplicate_database_table_async', summary: 'Duplicates a table in a `duplicate_table` job.' })
  duplicate(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number): Promise<Record<string, unknown>> {
    return this.jobs.duplicateAsync(user, tableId);
  }

  @Post(':tableId/import/async')
  @HttpCode(200)
  @AcceptsMultipart()
  @UseInterceptors(ImportUploadInterceptor('append'))
  @MultipartBody(importUploadSchema('append'))
  @Answer(Schemas.ref('Job'))
  @ApiOperation({
    operationId: 'import_data_database_table_async',
    summary: 'Imports rows into an existing table in a `file_import` job, from `data` or (multipart) from an uploaded CSV, JSON, XML or Excel file; failing rows are reported in `report.failing_rows`.',
  })
  importAsync(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: ImportRowsDto): Promise<Record<string, unknown>> {
    return this.imports.importAsync(user, tableId, { data: body.data, configuration: body.configuration });
  }

  @Post('database/:databaseId/order')
  @HttpCode(204)
  @ApiOperation({ operationId: 'order_database_tables', summary: 'Orders the tables of a database.' })
  async order(@CurrentUser() user: UserEntity, @IdParam('databaseId') databaseId: number, @Body() body: OrderTablesDto): Promise<void> {
    await this.tables.order(user, databaseId, body.table_ids);
  }

  @Get(':tableId')
  @Answer(Schemas.ref('Table'))
  @ApiOperation({ operationId: 'get_database_table', summary: 'One table.' })
  get(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number): Promise<TableJson> {
    return this.tables.get(user, tableId);
  }

  @Patch(':tableId')
  @Answer(Schemas.ref('Table'))
  @ApiOperation({ operationId: 'update_database_table', summary: 'Renames a table.' })
  rename(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: RenameTableDto): Promise<TableJson> {
    return this.tables.rename(user, tableId, body.name);
  }

  @Delete(':tableId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_table', summary: 'Moves a table to the trash.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number): Promise<void> {
    await this.tables.delete(user, tableId);
  }
}
