import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer, RequestBody } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import { fieldBodySchema } from './field-body.schema';
import { FieldTypeRegistry } from './field-type';
import { Authentication, CurrentUser, TokenOperations } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Field } from '../../core/validation/field';
import type { UserEntity } from '../../users/user.entity';
import { FieldJson, FieldsService } from './fields.service';
import { UniqueValuesService } from './unique-values.service';
import { FieldJobsService } from './field-jobs.service';

export class ChangePrimaryFieldDto {
  @Field({ kind: 'int', min: 1 })
  new_primary_field_id: number;
}

export class UniqueRowValuesQuery {
  @Field({ kind: 'int', min: 1, max: 100, required: false, default: 100 })
  limit: number;

  @Field({ kind: 'bool', required: false, default: false })
  split_comma_separated: boolean;
}

export class DuplicateFieldDto {
  @Field({ kind: 'bool', required: false, default: false, description: 'Whether the cells are copied too.' })
  duplicate_data: boolean;
}

@ApiTags('Database table fields')
@Authentication('JWT')
@Controller('api/database/fields')
export class FieldsController {
  constructor(
    private readonly fields: FieldsService,
    private readonly uniqueValues: UniqueValuesService,
    private readonly jobs: FieldJobsService,
  ) {}

  @Post(':fieldId/duplicate/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'duplicate_table_field', summary: 'Duplicates a field (with its cells when `duplicate_data`) in a `duplicate_field` job.' })
  duplicate(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number, @Body() body: DuplicateFieldDto): Promise<Record<string, unknown>> {
    return this.jobs.duplicateAsync(user, fieldId, body.duplicate_data ?? false);
  }

  @Get('table/:tableId')
  @Answer(Schemas.list('Field'))
  @Authentication('JWT', 'Token')
  @TokenOperations('read', 'create', 'update')
  @ApiOperation({ operationId: 'list_database_table_fields', summary: 'Fields of a table, the primary first.' })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number): Promise<FieldJson[]> {
    return this.fields.list(user, tableId);
  }

  @Post('table/:tableId')
  @HttpCode(200)
  @RequestBody((app) => fieldBodySchema(app.get(FieldTypeRegistry), { partial: false }))
  @Answer(Schemas.ref('Field'))
  // Tokens are authenticated here but may create no field (401 ERROR_NO_PERMISSION_TO_TABLE), as in Baserow.
  @Authentication('JWT', 'Token')
  @TokenOperations()
  @ApiOperation({ operationId: 'create_database_table_field', summary: 'Creates a field; answers it with `related_fields`.' })
  create(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: Record<string, unknown>): Promise<FieldJson> {
    return this.fields.create(user, tableId, body);
  }

  @Post('table/:tableId/change-primary-field')
  @HttpCode(200)
  @Answer(Schemas.ref('Field'))
  @ApiOperation({ operationId: 'change_primary_field', summary: 'Makes another field the primary field.' })
  changePrimary(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: ChangePrimaryFieldDto): Promise<FieldJson> {
    return this.fields.changePrimary(user, tableId, body.new_primary_field_id);
  }

  @Get(':fieldId/unique_row_values')
  @Answer({ type: 'object', properties: { values: { type: 'array', items: { type: 'string' } } } })
  @ApiOperation({ operationId: 'get_database_field_unique_row_values', summary: 'Distinct cell values, most frequent first.' })
  unique(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number, @Query() query: UniqueRowValuesQuery): Promise<{ values: string[] }> {
    return this.uniqueValues.values(user, fieldId, query.limit, query.split_comma_separated);
  }

  @Get(':fieldId')
  @Answer(Schemas.ref('Field'))
  @ApiOperation({ operationId: 'get_database_table_field', summary: 'One field.' })
  get(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number): Promise<FieldJson> {
    return this.fields.get(user, fieldId);
  }

  @Patch(':fieldId')
  @RequestBody((app) => fieldBodySchema(app.get(FieldTypeRegistry), { partial: true }))
  @Answer(Schemas.ref('Field'))
  @ApiOperation({ operationId: 'update_database_table_field', summary: 'Updates a field, converting its cells when the type changes.' })
  update(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number, @Body() body: Record<string, unknown>): Promise<FieldJson> {
    return this.fields.update(user, fieldId, body);
  }

  @Delete(':fieldId')
  @Answer({ type: 'object', properties: { related_fields: Schemas.list('Field') } })
  @ApiOperation({ operationId: 'delete_database_table_field', summary: 'Moves a field to the trash; answers `related_fields`.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number): Promise<{ related_fields: FieldJson[] }> {
    return { related_fields: await this.fields.delete(user, fieldId) };
  }
}
