import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { RequestContext } from '../core/context/request-context';
import { McpEndpointsService } from './mcp-endpoints.service';
import { McpInputError, McpToolListing, McpToolRegistry, McpToolResult, restErrorText, text } from './mcp-tool';

/**
 * Builds the MCP server one connection talks to (Baserow's `BaserowMCPServer`), bound to the
 * key in its URL. The key is looked up again at every `tools/list` and `tools/call`: a deleted
 * endpoint, a deactivated owner or a left workspace stops working at once, on an open session
 * too. Tool calls run as the endpoint's owner, through the same services (and permission
 * checks, events, history, webhooks and action records) as REST.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('MCP');

  constructor(
    private readonly endpoints: McpEndpointsService,
    private readonly tools: McpToolRegistry,
  ) {}

  create(key: string, ipAddress: string | null): Server {
    const server = new Server(
      { name: 'Baserow MCP', version: '1.35.3' },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions: 'Handles all the actions, operations, mutations, and tools related to Baserow.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.listTools(key) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ ...(await this.callTool(key, request.params.name, request.params.arguments ?? {}, ipAddress)) }));
    // Baserow has no resources, prompts or resource templates: empty lists.
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
    return server;
  }

  /** Every tool the owner may use now; none for a key that no longer works (the only answer `tools/list` can give). */
  private async listTools(key: string): Promise<McpToolListing[]> {
    const endpoint = await this.endpoints.active(key);
    if (!endpoint) return [];
    const listed: McpToolListing[] = [];
    for (const tool of this.tools.all()) {
      try {
        listed.push(...(await tool.list(endpoint)));
      } catch (error) {
        // One tool failing to list (a table being changed) leaves the others usable, as Baserow's.
        this.logger.error(`Listing the MCP tool ${tool.type} failed: ${String(error)}`);
      }
    }
    return listed;
  }

  private async callTool(key: string, name: string, args: Record<string, unknown>, ipAddress: string | null): Promise<McpToolResult> {
    const endpoint = await this.endpoints.active(key);
    if (!endpoint) return text('Endpoint not found.');
    const matched = this.tools.match(name);
    if (!matched) return text(`Tool '${name}' not found.`);
    const actor = { userId: endpoint.user.id, webSocketId: null, sendWebhookEvents: true, clientSessionId: null, actionGroupId: null, ipAddress };
    try {
      return await RequestContext.run(actor, () => matched.tool.call(endpoint, matched.params, args));
    } catch (error) {
      if (error instanceof McpInputError) return { ...text(error.message), isError: true };
      const rest = restErrorText(error);
      if (rest) return rest;
      this.logger.error(`The MCP tool ${matched.tool.type} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { ...text('An unexpected error occurred.'), isError: true };
    }
  }
}
