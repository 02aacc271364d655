import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { StreamedBody } from '../../core/http/streamed-body';
import { readFilePart } from '../../files/multipart';
import { USER_FILE_SCHEMA } from '../../files/user-files.controller';
import type { UserFileJson } from '../../files/user-files.service';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser, PublicViewToken } from '../../auth/decorators';
import { Answer, RequestBody } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import type { UserEntity } from '../../users/user.entity';
import { FormViewService, SubmittedJson } from './form-view.service';

@ApiTags('Database table form view')
// Members with a JWT, anyone when the form is public (with its password token when it has one).
@Authentication('JWT', 'PublicView')
@Controller('api/database/views/form')
export class FormViewController {
  constructor(
    private readonly forms: FormViewService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':slug/submit')
  @ApiParam({ name: 'slug', type: 'string', description: 'The slug of the form.' })
  @Answer({
    type: 'object',
    properties: {
      title: { type: 'string' },
      description: { type: 'string' },
      mode: { type: 'string' },
      cover_image: Schemas.object,
      logo_image: Schemas.object,
      submit_text: { type: 'string' },
      fields: { type: 'array', items: Schemas.object },
      show_logo: { type: 'boolean' },
      allow_public_export: { type: 'boolean' },
    },
  })
  @ApiOperation({
    operationId: 'get_meta_database_table_form_view',
    summary: 'The form as a visitor sees it: its texts and enabled fields with their conditions (members, or anyone when the form is public).',
  })
  meta(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string): Promise<Record<string, unknown>> {
    return this.forms.meta({ userId: user?.id ?? null, token }, slug);
  }

  @Post(':slug/submit')
  @HttpCode(200)
  @ApiParam({ name: 'slug', type: 'string', description: 'The slug of the form.' })
  @RequestBody({ type: 'object', description: '`{"field_<id>": value}` for the enabled fields of the form.', additionalProperties: true })
  @Answer({
    type: 'object',
    properties: { submit_action: { type: 'string' }, submit_action_message: { type: 'string' }, submit_action_redirect_url: { type: 'string' }, row_id: { type: 'integer' } },
  })
  @ApiOperation({
    operationId: 'submit_database_table_form_view',
    summary: 'Submits the form: creates a row from the enabled fields (required ones enforced, conditions honoured).',
  })
  submit(@CurrentUser() user: UserEntity | undefined, @PublicViewToken() token: string | null, @Param('slug') slug: string, @Body() body: unknown): Promise<SubmittedJson> {
    return this.forms.submit(user, token, slug, body);
  }

  @Post(':slug/upload-file')
  @HttpCode(200)
  @StreamedBody()
  @ApiParam({ name: 'slug', type: 'string', description: 'The slug of the form.' })
  @RequestBody({ type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } }, { contentType: 'multipart/form-data' })
  @Answer(USER_FILE_SCHEMA)
  @ApiOperation({
    operationId: 'upload_file_form_view',
    summary: "Uploads a file (the `file` part of a multipart body) for a file field of the form, by whoever may submit it; its `name` goes in the submission.",
  })
  uploadFile(
    @CurrentUser() user: UserEntity | undefined,
    @PublicViewToken() token: string | null,
    @Param('slug') slug: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserFileJson> {
    return this.forms.uploadFile(user, token, slug, () => readFilePart(req, res, { limitBytes: this.config.fileUploadSizeLimitBytes, tmpDir: this.config.uploadTmpDir }));
  }
}
