export { ApplicationOperations, McpOperations, OPERATIONS, TableOperations, TeamOperations, ViewOperations, WorkspaceOperations } from './operations';
export type { OperationType } from './operation-type';
export { PermissionService } from './permission.service';
export type { PermissionScope, RoleReader } from './permission.service';
