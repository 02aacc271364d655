import { Module, OnModuleInit } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { DatabaseModule } from '../database/database.module';
import { TokensModule } from '../tokens/tokens.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { McpEndpointEntity } from './mcp-endpoint.entity';
import { McpEndpointRepository } from './mcp-endpoint.repository';
import { McpEndpointsController } from './mcp-endpoints.controller';
import { McpEndpointsService } from './mcp-endpoints.service';
import { McpServerFactory } from './mcp-server';
import { McpToolRegistry } from './mcp-tool';
import { McpTransport } from './mcp-transport';
import { CreateRowTool, DeleteRowTool, ListRowsTool, RowToolSupport, UpdateRowTool } from './tools/rows.tools';
import { EndpointTables, ListTablesTool } from './tools/tables.tools';

/**
 * Baserow's MCP server: endpoints (`/api/mcp/`), the tools, and the transports at `/mcp/<key>/…`
 * (`McpTransport`, mounted on the app's Express server by `createApp`).
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [McpEndpointEntity] }), WorkspacesModule, TokensModule, DatabaseModule],
  controllers: [McpEndpointsController],
  providers: [
    McpEndpointRepository,
    McpEndpointsService,
    McpToolRegistry,
    McpServerFactory,
    McpTransport,
    EndpointTables,
    RowToolSupport,
    ListTablesTool,
    ListRowsTool,
    CreateRowTool,
    UpdateRowTool,
    DeleteRowTool,
  ],
  exports: [McpToolRegistry, McpTransport],
})
export class McpModule implements OnModuleInit {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly listTables: ListTablesTool,
    private readonly listRows: ListRowsTool,
    private readonly createRow: CreateRowTool,
    private readonly updateRow: UpdateRowTool,
    private readonly deleteRow: DeleteRowTool,
  ) {}

  onModuleInit(): void {
    // Baserow's registration order (`database/apps.py`): tools are listed in it.
    for (const tool of [this.listTables, this.listRows, this.createRow, this.updateRow, this.deleteRow]) this.registry.register(tool);
  }
}
