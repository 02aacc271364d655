import { Injectable } from '@nestjs/common';
import { ApplicationOperations as A, PermissionService } from '../../permissions';
import { TableEntity } from '../../database/table.entity';
import type { ActiveEndpoint } from '../mcp-endpoints.service';
import { McpEndpointRepository } from '../mcp-endpoint.repository';
import { McpTool, McpToolListing, McpToolResult, text } from '../mcp-tool';

/**
 * The tables an endpoint's owner may list in the endpoint's workspace (Baserow's
 * `get_all_tables`: the live tables, filtered by `database.list_tables` on each).
 */
@Injectable()
export class EndpointTables {
  constructor(
    private readonly repo: McpEndpointRepository,
    private readonly permissions: PermissionService,
  ) {}

  async visible(endpoint: ActiveEndpoint): Promise<TableEntity[]> {
    const workspaceId = endpoint.endpoint.workspaceId;
    const reader = await this.permissions.reader(endpoint.user.id, workspaceId);
    const tables = await this.repo.tablesOfWorkspace(workspaceId);
    return tables.filter((table) => reader.sees(A.listTables, { workspaceId, applicationId: table.databaseId, tableId: table.id }));
  }

  /** Whether the id names a live table of the endpoint's workspace (whatever the owner may do on it). */
  async inWorkspace(endpoint: ActiveEndpoint, tableId: number): Promise<boolean> {
    return Number.isSafeInteger(tableId) && tableId >= 1 && tableId <= 2_147_483_647 && this.repo.tableInWorkspace(tableId, endpoint.endpoint.workspaceId);
  }
}

/** `list_tables` (Baserow's `ListTablesMcpTool`): the tables as `TableWithoutDataSyncSerializer` shows them. */
@Injectable()
export class ListTablesTool implements McpTool {
  readonly type = 'list_tables';
  readonly name = 'list_tables';

  constructor(private readonly tables: EndpointTables) {}

  async list(): Promise<McpToolListing[]> {
    return [{ name: this.name, description: 'Lists all the tables.', inputSchema: { type: 'object', properties: {} } }];
  }

  async call(endpoint: ActiveEndpoint): Promise<McpToolResult> {
    const tables = await this.tables.visible(endpoint);
    return text(pythonJson(tables.map((t) => ({ id: t.id, name: t.name, order: t.order, database_id: t.databaseId }))));
  }
}

/** Flat objects as Python's `json.dumps` writes them (Baserow's tool answers `json.dumps(serializer.data)`). */
function pythonJson(items: Record<string, unknown>[]): string {
  return `[${items.map((item) => `{${Object.entries(item).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`).join(', ')}]`;
}
