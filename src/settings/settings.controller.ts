import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import { Public } from '../auth/decorators';
import { SettingsService } from './settings.service';

@ApiTags('Settings')
@Controller()
@Public()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('api/settings')
  @ApiOperation({ operationId: 'get_settings', summary: 'Instance settings the login and sign-up pages read.' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  async get(): Promise<Record<string, unknown>> {
    return this.settings.publicSettings();
  }

  @Get('api/auth-provider/login-options')
  @Answer(Schemas.object)
  @ApiOperation({ operationId: 'get_auth_provider_login_options', summary: 'Sign-in methods: the password form.' })
  loginOptions(): Record<string, unknown> {
    return { password: { type: 'password' } };
  }
}
