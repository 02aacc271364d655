import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { FieldPermissionsJson, UpdateFieldPermissionsDto } from './field-permissions.dto';
import { FieldPermissionsService } from './field-permissions.service';

/** Baserow enterprise's field permissions API (`/api/field-permissions/{field_id}/`). */
@ApiTags('Field permissions')
@Authentication('JWT')
@Controller('api/field-permissions')
export class FieldPermissionsController {
  constructor(private readonly service: FieldPermissionsService) {}

  @Get(':fieldId')
  @ApiOperation({ operationId: 'get_field_permissions', summary: 'Retrieve the permissions for writing field values and form visibility of a specific field.' })
  @ApiOkResponse({ type: FieldPermissionsJson })
  get(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number): Promise<FieldPermissionsJson> {
    return this.service.get(user, fieldId);
  }

  @Patch(':fieldId')
  @ApiOperation({
    operationId: 'update_field_permissions',
    summary: 'Update permissions for writing field values (the minimum role, or nobody) and whether forms may write the field anyway.',
  })
  @ApiOkResponse({ type: FieldPermissionsJson })
  update(@CurrentUser() user: UserEntity, @IdParam('fieldId') fieldId: number, @Body() body: UpdateFieldPermissionsDto): Promise<FieldPermissionsJson> {
    return this.service.update(user, fieldId, body.role, body.allow_in_forms);
  }
}
