import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, Public } from '../auth/decorators';
import { StaffOnly } from '../auth/staff.guard';
import { IdParam } from '../core/http/params';
import { Answer, RequestBody } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { SchemaObject } from '../openapi/schemas';
import { AuthProvidersService } from './auth-providers.service';

const PROVIDER_SCHEMA: SchemaObject = {
  type: 'object',
  description: "Baserow's AuthProviderSerializer: `id`, `type`, `domain`, `enabled` and the type's fields (openid_connect: name, base_url, client_id, secret, use_id_token, email_attr_key, first_name_attr_key, last_name_attr_key; saml: metadata, is_verified, email_attr_key, first_name_attr_key, last_name_attr_key).",
  properties: { id: { type: 'integer' }, type: { type: 'string', enum: ['password', 'openid_connect', 'saml'] }, domain: { type: 'string', nullable: true }, enabled: { type: 'boolean' } },
  additionalProperties: true,
};
const PROVIDER_BODY: SchemaObject = {
  type: 'object',
  description: 'The type (on create), `domain` (required for saml), `enabled` and the type\'s fields (see the answer).',
  properties: { type: { type: 'string', enum: ['openid_connect', 'saml'] }, domain: { type: 'string', nullable: true }, enabled: { type: 'boolean' } },
  additionalProperties: true,
};

/** Baserow's `/api/admin/auth-provider/` (staff only) and `/api/auth-provider/login-options/`. */
@ApiTags('Auth')
@Controller()
export class AuthProvidersController {
  constructor(private readonly providers: AuthProvidersService) {}

  @Get('api/auth-provider/login-options')
  @Public()
  @Answer(Schemas.object)
  @ApiOperation({ operationId: 'list_auth_providers_login_options', summary: 'The sign-in methods, keyed by type: password, openid_connect (items with redirect_url), saml (domain_required, default_redirect_url).' })
  loginOptions(): Promise<Record<string, unknown>> {
    return this.providers.loginOptions();
  }

  @Get('api/admin/auth-provider')
  @Authentication('JWT')
  @StaffOnly()
  @Answer({ type: 'object', properties: { auth_provider_types: { type: 'array', items: Schemas.object } } })
  @ApiOperation({ operationId: 'list_auth_providers', summary: 'Every auth provider type with can_create_new, can_delete_existing and its providers.' })
  list(): Promise<{ auth_provider_types: Record<string, unknown>[] }> {
    return this.providers.list();
  }

  @Post('api/admin/auth-provider')
  @Authentication('JWT')
  @StaffOnly()
  @HttpCode(200)
  @RequestBody(PROVIDER_BODY)
  @Answer(PROVIDER_SCHEMA)
  @ApiOperation({ operationId: 'create_auth_provider', summary: 'Creates an auth provider (openid_connect reads its discovery document).' })
  create(@Body() body: unknown): Promise<Record<string, unknown>> {
    return this.providers.create(body);
  }

  @Get('api/admin/auth-provider/next-id')
  @Authentication('JWT')
  @StaffOnly()
  @Answer({ type: 'object', properties: { next_provider_id: { type: 'integer' } } })
  @ApiOperation({ operationId: 'get_next_auth_provider_id', summary: "The guessed id of the next provider (its callback URL before it exists)." })
  nextId(): Promise<{ next_provider_id: number }> {
    return this.providers.nextId();
  }

  @Get('api/admin/auth-provider/:authProviderId')
  @Authentication('JWT')
  @StaffOnly()
  @Answer(PROVIDER_SCHEMA)
  @ApiOperation({ operationId: 'get_auth_provider', summary: 'An auth provider.' })
  async get(@IdParam('authProviderId') id: number): Promise<Record<string, unknown>> {
    return this.providers.serialize(await this.providers.get(id));
  }

  @Patch('api/admin/auth-provider/:authProviderId')
  @Authentication('JWT')
  @StaffOnly()
  @RequestBody(PROVIDER_BODY)
  @Answer(PROVIDER_SCHEMA)
  @ApiOperation({ operationId: 'update_auth_provider', summary: 'Updates an auth provider; the last enabled one cannot be disabled.' })
  update(@IdParam('authProviderId') id: number, @Body() body: unknown): Promise<Record<string, unknown>> {
    return this.providers.update(id, body);
  }

  @Delete('api/admin/auth-provider/:authProviderId')
  @Authentication('JWT')
  @StaffOnly()
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_auth_provider', summary: 'Deletes an auth provider (not the password one, nor the last enabled one).' })
  async delete(@IdParam('authProviderId') id: number): Promise<void> {
    await this.providers.delete(id);
  }
}
