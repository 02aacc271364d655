import { ApplicationOperations as A, McpOperations as M, TableOperations as T, TeamOperations as TM, ViewOperations as V, WorkspaceOperations as W } from './operations';
import type { OperationType } from './operation-type';

/** Baserow enterprise's default role uids, from the most to the least capable. */
export const ROLE_UIDS = ['ADMIN', 'BUILDER', 'EDITOR', 'COMMENTER', 'VIEWER', 'NO_ACCESS', 'NO_ROLE_LOW_PRIORITY'] as const;
export type RoleUid = (typeof ROLE_UIDS)[number];

export function isRoleUid(value: unknown): value is RoleUid {
  return typeof value === 'string' && (ROLE_UIDS as readonly string[]).includes(value);
}

/**
 * The role a `workspace_user.permissions` value means: Baserow stores the workspace-level role
 * there, with the historical "MEMBER" standing for BUILDER.
 */
export function roleOfMembership(permissions: string): RoleUid {
  if (permissions === 'MEMBER') return 'BUILDER';
  return isRoleUid(permissions) ? permissions : 'NO_ACCESS';
}

const ops = (...list: OperationType[]) => list.map((op) => op.name);

/** Managing teams: enterprise-only, and only ADMIN's default role allows it. */
const TEAM_ADMIN = [TM.create, TM.update, TM.delete, TM.restore, TM.createSubject, TM.deleteSubject];

// Baserow's default_roles.py, restricted to the operations Rowspace has; each role adds to the one below it.
const VIEWER = ops(
  W.read, W.listApplications, A.listTables, A.read, T.read, T.listRows, T.readRow, V.read, T.readField, V.listSorts,
  V.readFieldOptions, V.readDecoration, V.listDecorations, V.listFilters, V.list, T.listFields, V.listAggregations,
  V.readAggregation, T.readAdjacentRow, T.listRowNames, V.readFilter, T.listenToAll, V.readOrder, V.readSort,
  V.listGroupBys, V.readGroupBy, V.readFilterGroup, T.runExport, TM.read, TM.list,
  M.readEndpoint, M.createEndpoint, M.updateEndpoint, M.deleteEndpoint,
);
const COMMENTER = [...VIEWER, ...ops(T.createComment, T.deleteComment, T.listComments, T.restoreComment, T.updateComment, T.readRowHistory)];
const EDITOR = [...COMMENTER, ...ops(T.createRow, T.updateRow, T.deleteRow, T.moveRow, T.importRows, W.listWorkspaceUsers, T.restoreRow, TM.listSubjects, TM.readSubject)];
const BUILDER = [
  ...EDITOR,
  ...ops(
    A.createTable, T.update, T.delete, T.restore, V.create, T.createField, V.updateDecoration, T.testTriggerWebhook, T.listWebhooks,
    T.duplicateField, V.createDecoration, T.deleteField, T.restoreField, T.updateField, T.typeFormula, V.update, V.delete, V.restore,
    V.duplicate, T.updateWebhook, V.createFilter, V.createFilterGroup, V.updateFilterGroup, V.deleteFilterGroup, V.updateFilter,
    V.deleteFilter, V.deleteDecoration, T.createWebhook, T.deleteWebhook, T.readWebhook, V.order, V.updateFieldOptions,
    W.createApplication, V.deleteSort, V.updateSlug, V.createPublic, V.updatePublic, A.delete, A.restore, A.readTrash, A.duplicate,
    A.update, V.updateSort, T.duplicate, V.createSort, V.createGroupBy, V.updateGroupBy, V.deleteGroupBy, W.readTrash, W.createToken,
    W.readToken, W.updateToken, W.useToken, A.orderTables, W.orderApplications, T.updateFieldPermissions, T.readFieldPermissions,
  ),
];
const ADMIN = [
  ...BUILDER,
  ...ops(
    W.update, W.delete, W.readInvitation, W.assignRole, W.readRole, W.deleteWorkspaceUser, W.deleteInvitation, W.updateWorkspaceUser,
    W.createInvitation, W.listInvitations, W.updateInvitation, W.restore, A.emptyTrash, W.emptyTrash, T.readRole, T.updateRole,
    A.readRole, A.updateRole, A.createSnapshot, A.restoreSnapshot, A.listSnapshots, A.deleteSnapshot, W.listAuditLogEntries, ...TEAM_ADMIN,
  ),
];

/**
 * The lowest role that may create and use personal views (Baserow's
 * BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED, `viewer` by default; validated at start-up by the
 * configuration). Read here because the default roles are fixed when the module loads, as Baserow's are.
 */
export function personalViewLowestRole(env: NodeJS.ProcessEnv = process.env): RoleUid {
  const value = (env.BASEROW_PERSONAL_VIEW_LOWEST_ROLE_ALLOWED ?? 'viewer').trim().toUpperCase();
  return isRoleUid(value) ? value : 'VIEWER';
}

/** Each role from ADMIN down to `lowest` gets the operation (as each role adds to the one below it in Baserow). */
function withPersonalViews(roles: Record<RoleUid, string[]>, lowest: RoleUid): Record<RoleUid, string[]> {
  const until = lowest === 'NO_ROLE_LOW_PRIORITY' ? ROLE_UIDS.indexOf('NO_ACCESS') : ROLE_UIDS.indexOf(lowest);
  for (const uid of ROLE_UIDS.slice(0, until + 1)) roles[uid].push(V.createAndUsePersonalView.name);
  if (lowest === 'NO_ROLE_LOW_PRIORITY') roles.NO_ROLE_LOW_PRIORITY.push(V.createAndUsePersonalView.name);
  return roles;
}

const DEFAULT_ROLES = withPersonalViews(
  { ADMIN: [...ADMIN], BUILDER: [...BUILDER], EDITOR: [...EDITOR], COMMENTER: [...COMMENTER], VIEWER: [...VIEWER], NO_ACCESS: [], NO_ROLE_LOW_PRIORITY: [] },
  personalViewLowestRole(),
);

/** The operations each default role allows. */
export const ROLE_OPERATIONS: Readonly<Record<RoleUid, ReadonlySet<string>>> = {
  ADMIN: new Set(DEFAULT_ROLES.ADMIN),
  BUILDER: new Set(DEFAULT_ROLES.BUILDER),
  EDITOR: new Set(DEFAULT_ROLES.EDITOR),
  COMMENTER: new Set(DEFAULT_ROLES.COMMENTER),
  VIEWER: new Set(DEFAULT_ROLES.VIEWER),
  NO_ACCESS: new Set(DEFAULT_ROLES.NO_ACCESS),
  NO_ROLE_LOW_PRIORITY: new Set(DEFAULT_ROLES.NO_ROLE_LOW_PRIORITY),
};

/**
 * What only a workspace ADMIN may do in Baserow's `basic` permission manager, which answers a
 * MEMBER's attempt with ERROR_USER_INVALID_GROUP_PERMISSIONS (the role manager's refusal of
 * any other operation is PERMISSION_DENIED).
 */
export const ADMIN_ONLY_OPERATIONS = ops(
  W.listInvitations, W.createInvitation, W.readInvitation, W.updateInvitation, W.deleteInvitation, W.listWorkspaceUsers,
  W.update, W.delete, W.updateWorkspaceUser, W.deleteWorkspaceUser,
);

/**
 * The role API's, team management's and the audit log's operations: enterprise-only, so Baserow's `basic` manager never
 * answered them. A MEMBER (BUILDER) is refused them as BUILDER's default role is (PERMISSION_DENIED).
 */
export const ROLE_ADMIN_OPERATIONS = ops(W.assignRole, W.readRole, W.listAuditLogEntries, A.readRole, A.updateRole, T.readRole, T.updateRole, ...TEAM_ADMIN);
