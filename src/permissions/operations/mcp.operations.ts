import { operations } from '../operation-type';

/** Operations on MCP endpoints (Baserow's `core/mcp/operations.py`). */
export const McpOperations = operations({
  createEndpoint: { name: 'workspace.create_mcp_endpoint', context: 'workspace' },
  readEndpoint: { name: 'workspace.mcp_endpoint.read', context: 'mcp_endpoint' },
  updateEndpoint: { name: 'workspace.mcp_endpoint.update', context: 'mcp_endpoint' },
  deleteEndpoint: { name: 'workspace.mcp_endpoint.delete', context: 'mcp_endpoint' },
});
