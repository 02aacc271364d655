import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser, TokenOperations } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Field } from '../core/validation/field';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { TokenJson, TokensService } from './tokens.service';

const TOKEN = Schemas.ref('DatabaseToken');

export class CreateTokenDto {
  @Field({ kind: 'string', max: 100 })
  name: string;

  @Field({ kind: 'any', description: 'The id of a workspace of the caller.', example: 1 })
  workspace: unknown;
}

export class UpdateTokenDto {
  @Field({ kind: 'string', max: 100, required: false })
  name?: string;

  @Field({ kind: 'any', required: false, description: 'All four of `create`, `read`, `update`, `delete`: `true`, `false` or `[["database", id], ["table", id]]`.' })
  permissions?: unknown;

  @Field({ kind: 'bool', required: false, default: false, description: 'Whether a new key must be generated.' })
  rotate_key: boolean;
}

@ApiTags('Database tokens')
@Authentication('JWT')
@Controller('api/database/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @Answer(Schemas.list('DatabaseToken'))
  @ApiOperation({ operationId: 'list_database_tokens', summary: "The caller's database tokens, in every workspace they are a member of." })
  list(@CurrentUser() user: UserEntity): Promise<TokenJson[]> {
    return this.tokens.list(user);
  }

  @Post()
  @HttpCode(200)
  @Answer(TOKEN)
  @ApiOperation({ operationId: 'create_database_token', summary: 'Creates a database token for a workspace, with every permission.' })
  create(@CurrentUser() user: UserEntity, @Body() body: CreateTokenDto): Promise<TokenJson> {
    return this.tokens.create(user, body.name, body.workspace);
  }

  // Before `:tokenId` (whose pattern only takes digits anyway).
  @Get('check')
  @Authentication('Token')
  @TokenOperations()
  @Answer({ type: 'object', properties: { token: { type: 'string', enum: ['OK'] } }, required: ['token'] })
  @ApiOperation({ operationId: 'check_database_token', summary: 'Whether the `Authorization: Token <key>` is valid (403 when not).' })
  check(): { token: 'OK' } {
    return { token: 'OK' };
  }

  @Get(':tokenId')
  @Answer(TOKEN)
  @ApiOperation({ operationId: 'get_database_token', summary: "One of the caller's database tokens." })
  get(@CurrentUser() user: UserEntity, @IdParam('tokenId') tokenId: number): Promise<TokenJson> {
    return this.tokens.get(user, tokenId);
  }

  @Patch(':tokenId')
  @Answer(TOKEN)
  @ApiOperation({ operationId: 'update_database_token', summary: "Renames a token, changes its permissions or rotates its key." })
  update(@CurrentUser() user: UserEntity, @IdParam('tokenId') tokenId: number, @Body() body: UpdateTokenDto): Promise<TokenJson> {
    return this.tokens.update(user, tokenId, { name: body.name, permissions: body.permissions, rotate_key: body.rotate_key });
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_database_token', summary: 'Deletes a database token.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('tokenId') tokenId: number): Promise<void> {
    await this.tokens.delete(user, tokenId);
  }
}
