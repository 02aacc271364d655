import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Answer, RequestBody } from '../../openapi/decorators';
import type { UserEntity } from '../../users/user.entity';
import { requestUrl } from '../rows/rows.controller';
import { ListRowCommentsQuery, RowCommentsNotificationModeDto } from './row-comments.dto';
import { RowCommentJson, RowCommentPage, RowCommentsService } from './row-comments.service';

const COMMENT = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    user_id: { type: 'integer', nullable: true },
    first_name: { type: 'string', nullable: true },
    table_id: { type: 'integer' },
    row_id: { type: 'integer' },
    message: { type: 'object', nullable: true, additionalProperties: true, description: 'A ProseMirror JSON document; null once trashed.' },
    created_on: { type: 'string', format: 'date-time' },
    updated_on: { type: 'string', format: 'date-time' },
    edited: { type: 'boolean' },
    trashed: { type: 'boolean' },
  },
  required: ['id', 'user_id', 'first_name', 'table_id', 'row_id', 'message', 'created_on', 'updated_on', 'edited', 'trashed'],
};

const MESSAGE_BODY = {
  type: 'object',
  required: ['message'],
  properties: {
    message: {
      type: 'object',
      additionalProperties: true,
      description: 'A ProseMirror JSON document: a `doc` of `paragraph`s with `text`, `hardBreak` and `mention` (`attrs`: `id` of a workspace member, `label`).',
      example: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Looks good' }] }] },
    },
  },
};

@ApiTags('Database table rows')
@Authentication('JWT')
@Controller('api/row_comments')
export class RowCommentsController {
  constructor(private readonly comments: RowCommentsService) {}

  @Get(':tableId/:rowId')
  @Answer({ type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: COMMENT } } })
  @ApiOperation({ operationId: 'get_row_comments', summary: "A row's comments, newest first (page/size or limit/offset); trashed ones without their message." })
  list(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Query() query: ListRowCommentsQuery, @Req() req: Request): Promise<RowCommentPage> {
    return this.comments.list(user, tableId, rowId, query, requestUrl(req));
  }

  @Post(':tableId/:rowId')
  @HttpCode(200)
  @RequestBody(MESSAGE_BODY)
  @Answer(COMMENT)
  @ApiOperation({ operationId: 'create_row_comment', summary: 'Comments on a row.' })
  create(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Body() body: unknown): Promise<RowCommentJson> {
    return this.comments.create(user, tableId, rowId, body);
  }

  @Patch(':tableId/comment/:commentId')
  @RequestBody(MESSAGE_BODY)
  @Answer(COMMENT)
  @ApiOperation({ operationId: 'update_row_comment', summary: "Changes the message of one's own comment." })
  update(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('commentId') commentId: number, @Body() body: unknown): Promise<RowCommentJson> {
    return this.comments.update(user, tableId, commentId, body);
  }

  @Delete(':tableId/comment/:commentId')
  @HttpCode(200)
  @Answer(COMMENT)
  @ApiOperation({ operationId: 'delete_row_comment', summary: "Moves one's own comment to the trash; answers it trashed." })
  delete(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('commentId') commentId: number): Promise<RowCommentJson> {
    return this.comments.delete(user, tableId, commentId);
  }

  @Put(':tableId/:rowId/notification-mode')
  @HttpCode(204)
  @ApiOperation({ operationId: 'update_row_comment_notification_mode', summary: "Which new comments on the row the user hears of: `all` or `mentions`." })
  async setNotificationMode(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @IdParam('rowId') rowId: number, @Body() body: RowCommentsNotificationModeDto): Promise<void> {
    await this.comments.setNotificationMode(user, tableId, rowId, body.mode);
  }
}
