import { ApiError } from '../core/errors/api-error';

/** The errors of MCP endpoints, with Baserow's codes, statuses and details (`api/mcp/errors.py`). */
export const McpErrors = {
  endpointDoesNotExist: () => new ApiError('ERROR_MCP_ENDPOINT_DOES_NOT_EXIST', 404, 'The requested MCP endpoint does not exist.'),
  endpointDoesNotBelongToUser: () => new ApiError('ERROR_MCP_ENDPOINT_DOES_NOT_BELONG_TO_USER', 400, 'The requested MCP endpoint does not belong to this user.'),
};
