import { Body, Controller, Delete, Get, HttpCode, Patch, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { requestUrl } from '../database/rows/rows.controller';
import { Answer, RequestBody } from '../openapi/decorators';
import type { UserEntity } from '../users/user.entity';
import { EmptyTrashQuery, TrashContentsQuery } from './trash.dto';
import { TrashPage, TrashService, TrashStructureJson } from './trash.service';

const ENTRY = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    user_who_trashed: { type: 'string', nullable: true, description: 'First name of who trashed it.' },
    trash_item_type: { type: 'string' },
    trash_item_id: { type: 'integer' },
    parent_trash_item_id: { type: 'integer', nullable: true, description: 'The table of a row (or of a batch of rows).' },
    trashed_at: { type: 'string', format: 'date-time' },
    application: { type: 'integer', nullable: true },
    workspace: { type: 'integer' },
    name: { type: 'string' },
    names: { type: 'array', items: { type: 'string' }, nullable: true },
    parent_name: { type: 'string', nullable: true },
  },
};

const STRUCTURE = {
  type: 'object',
  properties: {
    workspaces: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          trashed: { type: 'boolean' },
          name: { type: 'string' },
          applications: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, trashed: { type: 'boolean' }, type: { type: 'string' } } } },
        },
      },
    },
  },
};

@ApiTags('Trash')
@Authentication('JWT')
@Controller('api/trash')
export class TrashController {
  constructor(private readonly trash: TrashService) {}

  @Get()
  @Answer(STRUCTURE)
  @ApiOperation({ operationId: 'get_trash_structure', summary: 'The workspaces and applications whose trash the user may inspect, trashed ones flagged.' })
  structure(@CurrentUser() user: UserEntity): Promise<TrashStructureJson> {
    return this.trash.structure(user);
  }

  @Get('workspace/:workspaceId')
  @Answer({ type: 'object', properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: ENTRY } } })
  @ApiOperation({ operationId: 'get_contents', summary: "A page of a workspace's trash (optionally one application's), newest first." })
  contents(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Query() query: TrashContentsQuery, @Req() req: Request): Promise<TrashPage> {
    return this.trash.contents(user, workspaceId, query.application_id ?? null, query.page ?? 1, query.size ?? 100, requestUrl(req));
  }

  @Delete('workspace/:workspaceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'empty_contents', summary: "Deletes for good everything in a workspace's trash (or one application's), the workspace and application too when trashed." })
  async empty(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Query() query: EmptyTrashQuery): Promise<void> {
    await this.trash.empty(user, workspaceId, query.application_id ?? null);
  }

  @Patch('restore')
  @HttpCode(204)
  @RequestBody({
    type: 'object',
    required: ['trash_item_type', 'trash_item_id'],
    properties: {
      trash_item_type: { type: 'string', example: 'row', description: '`workspace`, `application`, `table`, `field`, `view`, `row`, `rows` or `row_comment`.' },
      trash_item_id: { type: 'integer' },
      parent_trash_item_id: { type: 'integer', nullable: true, description: 'The table id, for `row` and `rows` (and only for them).' },
    },
  })
  @ApiOperation({ operationId: 'restore', summary: 'Restores a trashed item exactly as it was.' })
  async restore(@CurrentUser() user: UserEntity, @Body() body: unknown): Promise<void> {
    await this.trash.restore(user, body);
  }
}
