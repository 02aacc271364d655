import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser, Public } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Answer } from '../openapi/decorators';
import { Schemas, SchemaObject } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import type { ApplicationJson } from '../applications/application.serializer';
import { TemplateJson, TemplatesService } from './templates.service';

const TEMPLATE: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    slug: { type: 'string' },
    icon: { type: 'string' },
    keywords: { type: 'string', description: 'Comma-separated keywords.' },
    workspace_id: { type: 'integer', nullable: true },
    is_default: { type: 'boolean' },
    open_application: { type: 'integer', nullable: true },
  },
  required: ['id', 'name', 'slug', 'icon', 'keywords', 'workspace_id', 'is_default', 'open_application'],
};

const CATEGORIES: SchemaObject = {
  type: 'array',
  items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, templates: { type: 'array', items: TEMPLATE } }, required: ['id', 'name', 'templates'] },
};

@ApiTags('Templates')
@Authentication('JWT')
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @Public()
  @Answer(CATEGORIES)
  @ApiOperation({ operationId: 'list_templates', summary: 'The template categories with their templates.' })
  list(): ReturnType<TemplatesService['list']> {
    return this.templates.list();
  }

  @Post('install/:workspaceId/:templateId')
  @HttpCode(200)
  @Answer(Schemas.list('Application'))
  @ApiOperation({ operationId: 'install_template', summary: "Installs a template's applications into a workspace." })
  install(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @IdParam('templateId') templateId: number): Promise<ApplicationJson[]> {
    return this.templates.install(user, workspaceId, templateId);
  }

  @Post('install/:workspaceId/:templateId/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'install_template_async', summary: "Installs a template's applications in an `install_template` job." })
  installAsync(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @IdParam('templateId') templateId: number): Promise<Record<string, unknown>> {
    return this.templates.installAsync(user, workspaceId, templateId);
  }

  @Get(':slug')
  @Public()
  @Answer(TEMPLATE)
  @ApiOperation({ operationId: 'get_template', summary: 'One template by its slug.' })
  get(@Param('slug') slug: string): Promise<TemplateJson> {
    return this.templates.get(slug);
  }
}
