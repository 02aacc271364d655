import { Injectable } from '@nestjs/common';
import { ApiError, PlainHttpError } from '../core/errors/api-error';
import { TypeRegistry } from '../core/registry/type-registry';
import type { ActiveEndpoint } from './mcp-endpoints.service';

/** A tool as `tools/list` answers it (the SDK's `Tool`, the keys Baserow fills in). */
export interface McpToolListing {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
}

/** What a tool call answers: its text contents, and whether the call failed as an MCP tool error. */
export interface McpToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** A refusal of the arguments before anything runs: answered as an MCP tool error (`isError`). */
export class McpInputError extends Error {}

/**
 * One tool of the MCP server (Baserow's `MCPTool`): its name may hold parameters (`{id}`), so
 * one tool type lists a tool per table (`create_row_table_{id}`) and routes their calls. One
 * implementation per family under `tools/`, registered by the MCP module; an extension module
 * adds a tool by registering its own.
 */
export interface McpTool {
  readonly type: string;
  /** The name pattern: `{param}` matches one path-free segment. */
  readonly name: string;
  /** The tools the endpoint's owner may use now (asked at every `tools/list`). */
  list(endpoint: ActiveEndpoint): Promise<McpToolListing[]>;
  call(endpoint: ActiveEndpoint, params: Record<string, string>, args: Record<string, unknown>): Promise<McpToolResult>;
}

export const text = (value: string): McpToolResult => ({ content: [{ type: 'text', text: value }] });

/**
 * A REST error as the REST route would have answered it, in a tool's text (Baserow's tools
 * run the REST view and answer its body, errors included). Anything else is not shown: it is
 * logged by the caller and answered as a generic tool error.
 */
export function restErrorText(error: unknown): McpToolResult | null {
  if (error instanceof ApiError) return text(JSON.stringify({ error: error.code, detail: error.detail }));
  if (error instanceof PlainHttpError) return text(JSON.stringify(error.body));
  return null;
}

/** A parameterized tool name to a matcher (Baserow's `NameRoute`). */
function nameMatcher(pattern: string): (name: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (name) => {
    const match = regex.exec(name);
    return match ? Object.fromEntries(names.map((n, i) => [n, match[i + 1]])) : null;
  };
}

@Injectable()
export class McpToolRegistry extends TypeRegistry<McpTool> {
  protected readonly kind = 'MCP tool';

  /** The tool a called name routes to, with its name parameters (Baserow's `match_by_name`). */
  match(name: string): { tool: McpTool; params: Record<string, string> } | null {
    for (const tool of this.all()) {
      const params = nameMatcher(tool.name)(name);
      if (params) return { tool, params };
    }
    return null;
  }
}

/** Checks a tool's arguments against the primitive types its input schema declares (the `row` object is the row service's to check). */
export function checkArguments(args: Record<string, unknown>, spec: Record<string, 'integer' | 'string' | 'object'>, required: string[]): void {
  for (const key of required) {
    if (args[key] === undefined) throw new McpInputError(`Input validation error: '${key}' is a required property`);
  }
  for (const [key, type] of Object.entries(spec)) {
    const value = args[key];
    if (value === undefined) continue;
    const ok =
      type === 'integer' ? typeof value === 'number' && Number.isSafeInteger(value) : type === 'string' ? typeof value === 'string' : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!ok) throw new McpInputError(`Input validation error: ${JSON.stringify(value)} is not of type '${type}' (${key})`);
  }
}
