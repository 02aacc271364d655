import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { StreamedBody } from '../core/http/streamed-body';
import { Answer, RequestBody } from '../openapi/decorators';
import type { UserEntity } from '../users/user.entity';
import { readFilePart } from './multipart';
import { UploadViaUrlDto } from './user-files.dto';
import { UserFileJson, UserFilesService } from './user-files.service';

const THUMBNAIL = {
  type: 'object',
  properties: { url: { type: 'string', format: 'uri' }, width: { type: 'integer', nullable: true }, height: { type: 'integer', nullable: true } },
  required: ['url', 'width', 'height'],
};

export const USER_FILE_SCHEMA = {
  type: 'object',
  properties: {
    size: { type: 'integer' },
    mime_type: { type: 'string' },
    is_image: { type: 'boolean' },
    image_width: { type: 'integer', nullable: true },
    image_height: { type: 'integer', nullable: true },
    uploaded_at: { type: 'string', format: 'date-time' },
    url: { type: 'string', format: 'uri' },
    thumbnails: { type: 'object', nullable: true, additionalProperties: THUMBNAIL, description: '`tiny`, `small` and `card_cover` of images; null for other files.' },
    name: { type: 'string', description: '`<32 random characters>_<sha256>.<extension>`: what file cells name.' },
    original_name: { type: 'string' },
  },
  required: ['size', 'mime_type', 'is_image', 'image_width', 'image_height', 'uploaded_at', 'url', 'thumbnails', 'name', 'original_name'],
};

@ApiTags('User files')
@Authentication('JWT', 'Token')
@Controller('api/user-files')
export class UserFilesController {
  constructor(
    private readonly files: UserFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('upload-file')
  @HttpCode(200)
  @StreamedBody()
  @RequestBody(
    { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
    { contentType: 'multipart/form-data' },
  )
  @Answer(USER_FILE_SCHEMA)
  @ApiOperation({ operationId: 'upload_file', summary: 'Uploads a file by sending its contents in the `file` part of a multipart body.' })
  async uploadFile(@CurrentUser() user: UserEntity, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserFileJson> {
    const { name, file, type } = await readFilePart(req, res, { limitBytes: this.config.fileUploadSizeLimitBytes, tmpDir: this.config.uploadTmpDir });
    return this.files.upload(user, name, file, type);
  }

  @Post('upload-via-url')
  @HttpCode(200)
  @Answer(USER_FILE_SCHEMA)
  @ApiOperation({ operationId: 'upload_via_url', summary: 'Uploads a file by downloading it from a public http(s) URL.' })
  uploadViaUrl(@CurrentUser() user: UserEntity, @Body() body: UploadViaUrlDto): Promise<UserFileJson> {
    return this.files.uploadViaUrl(user, body.url);
  }
}
