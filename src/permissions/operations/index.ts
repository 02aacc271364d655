import type { OperationType } from '../operation-type';
import { ApplicationOperations } from './application.operations';
import { McpOperations } from './mcp.operations';
import { TableOperations } from './table.operations';
import { TeamOperations } from './team.operations';
import { ViewOperations } from './view.operations';
import { WorkspaceOperations } from './workspace.operations';

export { ApplicationOperations, McpOperations, TableOperations, TeamOperations, ViewOperations, WorkspaceOperations };

/** Every operation Rowspace checks, by name (the registry roles and the permission check read). */
export const OPERATIONS: ReadonlyMap<string, OperationType> = new Map(
  [WorkspaceOperations, ApplicationOperations, TableOperations, ViewOperations, TeamOperations, McpOperations].flatMap((family) => Object.values(family)).map((op) => [op.name, op]),
);
