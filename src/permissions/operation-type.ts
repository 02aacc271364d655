/**
 * What an operation applies to (Baserow's `context_scope_name`): the kind of object a check names.
 * Each kind sits at one level of the scope chain roles are assigned on (see `scopeLevel`).
 */
export type OperationContext =
  | 'workspace'
  | 'invitation'
  | 'workspace_user'
  | 'token'
  | 'application'
  | 'snapshot'
  | 'database_table'
  | 'field'
  | 'row'
  | 'view'
  | 'view_filter'
  | 'view_sort'
  | 'view_group_by'
  | 'view_decoration'
  | 'webhook'
  | 'row_comment'
  | 'team'
  | 'team_subject'
  | 'mcp_endpoint';

/** One operation Rowspace checks, by Baserow's operation type name. */
export interface OperationType {
  name: string;
  context: OperationContext;
  /**
   * Allowed to every member whatever their role (Baserow's `member` permission manager:
   * notifications), or needing only membership (leaving a workspace).
   */
  memberOnly?: boolean;
}

/** The level of the scope chain (workspace ⊃ database ⊃ table) an operation's object lives at. */
export type ScopeLevel = 'workspace' | 'application' | 'table';

const LEVELS: Record<OperationContext, ScopeLevel> = {
  workspace: 'workspace',
  invitation: 'workspace',
  workspace_user: 'workspace',
  token: 'workspace',
  application: 'application',
  snapshot: 'application',
  database_table: 'table',
  field: 'table',
  row: 'table',
  view: 'table',
  view_filter: 'table',
  view_sort: 'table',
  view_group_by: 'table',
  view_decoration: 'table',
  webhook: 'table',
  row_comment: 'table',
  team: 'workspace',
  team_subject: 'workspace',
  mcp_endpoint: 'workspace',
};

export function scopeLevel(context: OperationContext): ScopeLevel {
  return LEVELS[context];
}

/** Declares a family of operations (one file per family under `operations/`). */
export function operations<const T extends Record<string, OperationType>>(family: T): T {
  return family;
}
