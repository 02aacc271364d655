import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Field } from '../core/validation/field';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { McpEndpointJson, McpEndpointsService } from './mcp-endpoints.service';

const ENDPOINT = Schemas.ref('McpEndpoint');

export class CreateMcpEndpointDto {
  @Field({ kind: 'string', max: 100 })
  name: string;

  @Field({ kind: 'int', description: 'The id of a workspace of the caller.', example: 1 })
  workspace_id: number;
}

export class UpdateMcpEndpointDto {
  @Field({ kind: 'string', max: 100 })
  name: string;
}

/**
 * MCP endpoints (Baserow's `api/mcp/`): treat the key like a password, it may change data. The
 * MCP server itself is served at `/mcp/<key>/…` (see `McpTransport`).
 */
@ApiTags('MCP endpoints')
@Authentication('JWT')
@Controller('api/mcp')
export class McpEndpointsController {
  constructor(private readonly endpoints: McpEndpointsService) {}

  @Get('endpoints')
  @Answer(Schemas.list('McpEndpoint'))
  @ApiOperation({ operationId: 'list_mcp_endpoints', summary: "The caller's MCP endpoints, in every workspace." })
  list(@CurrentUser() user: UserEntity): Promise<McpEndpointJson[]> {
    return this.endpoints.list(user);
  }

  @Post('endpoints')
  @HttpCode(200)
  @Answer(ENDPOINT)
  @ApiOperation({ operationId: 'create_mcp_endpoint', summary: 'Creates an MCP endpoint for a workspace of the caller.' })
  create(@CurrentUser() user: UserEntity, @Body() body: CreateMcpEndpointDto): Promise<McpEndpointJson> {
    return this.endpoints.create(user, body.name, body.workspace_id);
  }

  @Get('endpoint/:endpointId')
  @Answer(ENDPOINT)
  @ApiOperation({ operationId: 'get_mcp_endpoint', summary: "One of the caller's MCP endpoints." })
  get(@CurrentUser() user: UserEntity, @IdParam('endpointId') id: number): Promise<McpEndpointJson> {
    return this.endpoints.get(user, id);
  }

  @Patch('endpoint/:endpointId')
  @Answer(ENDPOINT)
  @ApiOperation({ operationId: 'update_mcp_endpoint', summary: "Renames one of the caller's MCP endpoints." })
  update(@CurrentUser() user: UserEntity, @IdParam('endpointId') id: number, @Body() body: UpdateMcpEndpointDto): Promise<McpEndpointJson> {
    return this.endpoints.rename(user, id, body.name);
  }

  @Delete('endpoint/:endpointId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_mcp_endpoint', summary: "Deletes one of the caller's MCP endpoints (its key stops working at once)." })
  async delete(@CurrentUser() user: UserEntity, @IdParam('endpointId') id: number): Promise<void> {
    await this.endpoints.delete(user, id);
  }
}
