import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/decorators';
import { Answer } from '../openapi/decorators';
import type { UserEntity } from '../users/user.entity';
import { LicenseJson, LicensesService } from './licenses.service';

const dateTime = (nullable: boolean) => ({ type: 'string', format: 'date-time', nullable });
const count = (nullable: boolean) => ({ type: 'integer', nullable });

const LICENSE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    license_id: { type: 'string', description: 'Unique identifier of the license.' },
    is_active: { type: 'boolean' },
    last_check: dateTime(true),
    valid_from: dateTime(true),
    valid_through: dateTime(false),
    free_users_count: count(false),
    seats_taken: count(false),
    seats: count(false),
    application_users_taken: count(true),
    application_users: count(true),
    product_code: { type: 'string', description: 'The license type whose features it unlocks (`premium`).' },
    issued_on: dateTime(true),
    issued_to_email: { type: 'string' },
    issued_to_name: { type: 'string' },
  },
  required: [
    'id', 'license_id', 'is_active', 'last_check', 'valid_from', 'valid_through', 'free_users_count', 'seats_taken', 'seats',
    'application_users_taken', 'application_users', 'product_code', 'issued_on', 'issued_to_email', 'issued_to_name',
  ],
};

@ApiTags('Admin')
@Controller('api/licenses')
export class LicensesController {
  constructor(private readonly licenses: LicensesService) {}

  @Get()
  @Answer({ type: 'array', items: LICENSE_SCHEMA })
  @ApiOperation({
    operationId: 'admin_licenses',
    summary: "Lists the instance's licenses (staff only): the built-in ones of the license types whose features this server serves to everyone.",
  })
  list(@CurrentUser() user: UserEntity): Promise<LicenseJson[]> {
    return this.licenses.list(user);
  }
}
