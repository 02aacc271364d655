import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import { Authentication, Public } from '../auth/decorators';
import { StaffOnly } from '../auth/staff.guard';
import { UpdateSettingsDto } from './settings.dto';
import { EMAIL_VERIFICATION_OPTIONS } from './settings.entity';
import { SettingsJson, SettingsService } from './settings.service';

const SETTINGS_SCHEMA = {
  type: 'object',
  description: "Baserow's SettingsSerializer.",
  properties: {
    allow_new_signups: { type: 'boolean' },
    allow_signups_via_workspace_invitations: { type: 'boolean' },
    allow_reset_password: { type: 'boolean' },
    allow_global_workspace_creation: { type: 'boolean' },
    account_deletion_grace_delay: { type: 'integer' },
    show_admin_signup_page: { type: 'boolean' },
    track_workspace_usage: { type: 'boolean' },
    show_baserow_help_request: { type: 'boolean' },
    co_branding_logo: { type: 'object', nullable: true, additionalProperties: true },
    email_verification: { type: 'string', enum: [...EMAIL_VERIFICATION_OPTIONS] },
    verify_import_signature: { type: 'boolean' },
  },
};

@ApiTags('Settings')
@Controller()
@Public()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('api/settings')
  @Answer({ ...SETTINGS_SCHEMA, properties: { ...SETTINGS_SCHEMA.properties, instance_wide_licenses: Schemas.object } })
  @ApiOperation({ operationId: 'get_settings', summary: 'Instance settings the login and sign-up pages read.' })
  async get(): Promise<Record<string, unknown>> {
    return this.settings.publicSettings();
  }

  @Patch('api/settings/update')
  @Authentication('JWT')
  @StaffOnly()
  @Answer(SETTINGS_SCHEMA)
  @ApiOperation({ operationId: 'update_settings', summary: 'Updates the given instance settings (staff only); answers them all.' })
  update(@Body() body: UpdateSettingsDto): Promise<SettingsJson> {
    return this.settings.update(body);
  }

  @Get('api/settings/instance-id')
  @Authentication('JWT')
  @StaffOnly()
  @Answer({ type: 'object', properties: { instance_id: { type: 'string' } }, required: ['instance_id'] })
  @ApiOperation({ operationId: 'get_instance_id', summary: "The instance's id (staff only)." })
  instanceId(): Promise<{ instance_id: string }> {
    return this.settings.instanceId();
  }
}
