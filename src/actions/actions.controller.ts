import { Body, Controller, Patch } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { Answer, RequestBody } from '../openapi/decorators';
import type { UserEntity } from '../users/user.entity';
import { ActionsService, UndoRedoJson } from './actions.service';

const scopeId = (what: string) => ({ type: 'integer', minimum: 0, nullable: true, description: `Include the actions of this ${what} id.` });

const UNDO_REDO_BODY = {
  type: 'object',
  required: ['scopes'],
  properties: {
    scopes: {
      type: 'object',
      additionalProperties: false,
      description:
        'The scopes whose actions may be undone or redone: the newest action of the client session in any of them is picked. `{}`: every action of the session. Falsy values are ignored.',
      properties: {
        root: { type: 'boolean', nullable: true, description: 'Include the actions of the root scope (workspaces).' },
        workspace: scopeId('workspace'),
        application: scopeId('application'),
        table: scopeId('table'),
        view: scopeId('view'),
        workflow: scopeId('workflow'),
      },
    },
  },
};

const UNDO_REDO_ANSWER = {
  type: 'object',
  required: ['actions', 'result_code'],
  properties: {
    actions: {
      type: 'array',
      description: 'The actions undone or redone (or skipped): an undo lists them newest first, a redo oldest first.',
      items: { type: 'object', properties: { action_type: { type: 'string', nullable: true }, action_scope: { type: 'string', nullable: true } } },
    },
    result_code: {
      type: 'string',
      enum: ['SUCCESS', 'NOTHING_TO_DO', 'SKIPPED_DUE_TO_ERROR'],
      description: '`NOTHING_TO_DO` when there was no action, `SKIPPED_DUE_TO_ERROR` when it could not be undone or redone (it is passed over).',
    },
  },
};

const SESSION_HEADER = {
  name: 'ClientSessionId',
  required: true,
  description: 'The client session whose actions are undone or redone (1 to 256 letters, digits or `-`); without it: `ERROR_CLIENT_SESSION_ID_HEADER_NOT_SET`.',
  schema: { type: 'string', pattern: '^[0-9a-zA-Z-]{1,256}$' },
};

/** `PATCH /api/user/undo/` and `/redo/` (Baserow's UndoView and RedoView). */
@ApiTags('User')
@Authentication('JWT')
@Controller('api/user')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Patch('undo')
  @ApiHeader(SESSION_HEADER)
  @RequestBody(UNDO_REDO_BODY)
  @Answer(UNDO_REDO_ANSWER)
  @ApiOperation({ operationId: 'undo', summary: "Undoes the newest action of the client session in the given scopes (with the rest of its action group)." })
  undo(@CurrentUser() user: UserEntity, @Body() body: unknown): Promise<UndoRedoJson> {
    return this.actions.undo(user, body);
  }

  @Patch('redo')
  @ApiHeader(SESSION_HEADER)
  @RequestBody(UNDO_REDO_BODY)
  @Answer(UNDO_REDO_ANSWER)
  @ApiOperation({ operationId: 'redo', summary: 'Redoes the most recently undone action of the client session in the given scopes, unless something was done since.' })
  redo(@CurrentUser() user: UserEntity, @Body() body: unknown): Promise<UndoRedoJson> {
    return this.actions.redo(user, body);
  }
}
