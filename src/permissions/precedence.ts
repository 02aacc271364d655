import { Errors, ApiError } from '../core/errors/api-error';
import type { FieldWriteRole } from './field-write-rules';
import type { OperationType, ScopeLevel } from './operation-type';
import { scopeLevel } from './operation-type';
import type { PermissionScope } from './permission.service';
import { SUBJECT_TYPES } from './role-assignment.entity';
import type { HeldAssignment } from './role-assignment.repository';
import { ADMIN_ONLY_OPERATIONS, isRoleUid, ROLE_ADMIN_OPERATIONS, ROLE_OPERATIONS, ROLE_UIDS, roleOfMembership, RoleUid } from './roles';

/**
 * What a role grants on one scope: an enterprise role by its uid, or the historical workspace
 * roles kept as they always behaved (Baserow's `basic` manager): `workspace_user.permissions`
 * ADMIN may do everything, MEMBER (BUILDER) everything but the admin-only operations.
 */
export type Grant = RoleUid | 'BASIC_ADMIN' | 'BASIC_MEMBER';

/** The roles an actor holds in one workspace, by scope (the input of Baserow's precedence). */
export interface ActorRoles {
  workspace: Grant[];
  applications: { id: number; roles: RoleUid[] }[];
  tables: { id: number; databaseId: number; roles: RoleUid[] }[];
}

const BASIC_ADMIN_ONLY = new Set(ADMIN_ONLY_OPERATIONS);
const ROLE_ADMIN_ONLY = new Set(ROLE_ADMIN_OPERATIONS);

/**
 * The roles per scope from the member's `workspace_user.permissions` and the assignments the user
 * and their teams hold, as Baserow's handler combines them: on each scope the user's own
 * assignment wins over their teams' (whose roles add up); NO_ROLE_LOW_PRIORITY assignments are
 * ignored, and on the workspace it means "the teams' role, or no access".
 */
export function actorRoles(stored: string, held: readonly HeldAssignment[]): ActorRoles {
  const byScope = new Map<string, { user: RoleUid[]; team: RoleUid[]; databaseId: number | null }>();
  for (const a of held) {
    if (!isRoleUid(a.role) || a.role === 'NO_ROLE_LOW_PRIORITY') continue;
    const key = `${a.scopeType}:${a.scopeId}`;
    let entry = byScope.get(key);
    if (!entry) byScope.set(key, (entry = { user: [], team: [], databaseId: a.databaseId }));
    const list = a.subjectType === SUBJECT_TYPES.user ? entry.user : entry.team;
    if (!list.includes(a.role)) list.push(a.role);
  }
  const rolesOf = (entry: { user: RoleUid[]; team: RoleUid[] }) => (entry.user.length ? entry.user : entry.team);
  const result: ActorRoles = { workspace: [], applications: [], tables: [] };
  for (const [key, entry] of byScope) {
    const [type, id] = key.split(':');
    if (type === 'application') result.applications.push({ id: Number(id), roles: rolesOf(entry) });
    else if (type === 'database_table' && entry.databaseId !== null) result.tables.push({ id: Number(id), databaseId: entry.databaseId, roles: rolesOf(entry) });
  }
  if (stored === 'ADMIN') result.workspace = ['BASIC_ADMIN'];
  else if (stored === 'MEMBER') result.workspace = ['BASIC_MEMBER'];
  else if (stored === 'NO_ROLE_LOW_PRIORITY') {
    // Only this workspace's assignments are held: a workspace-scope one is on it.
    const onWorkspace = [...byScope.entries()].find(([key]) => key.startsWith('workspace:'))?.[1].team ?? [];
    result.workspace = onWorkspace.length ? onWorkspace : ['NO_ACCESS'];
  } else result.workspace = [roleOfMembership(stored)];
  return result;
}

/** The object an operation is checked on: the deepest of the scope's objects at or above the operation's level. */
function contextOf(operation: OperationType, scope: PermissionScope, onObject: boolean): { level: ScopeLevel; applicationId?: number; tableId?: number } {
  const level = onObject ? 'table' : scopeLevel(operation.context);
  if (level === 'table' && scope.tableId != null && scope.applicationId != null) return { level, applicationId: scope.applicationId, tableId: scope.tableId };
  if (level !== 'workspace' && scope.applicationId != null) return { level: 'application', applicationId: scope.applicationId };
  return { level: 'workspace' };
}

const grantsAccess = (roles: readonly RoleUid[]) => roles.some((r) => r !== 'NO_ACCESS');

/**
 * Baserow's precedence (RoleAssignmentHandler.get_computed_roles): the most specific scope that
 * includes the object decides (table over database over workspace); a role below the object (on
 * one of its tables, say) adds VIEWER, so what leads to it can be read. With `onObject`, the
 * deepest object of the scope is the context whatever the operation's level (Baserow's
 * `object_scope`, as lists are filtered: `workspace.list_applications` on each application).
 */
export function computedGrants(roles: ActorRoles, operation: OperationType, scope: PermissionScope, onObject = false): Grant[] {
  const ctx = contextOf(operation, scope, onObject);
  let grants: Grant[] = [...roles.workspace];
  for (const app of roles.applications) {
    if (ctx.level !== 'workspace' && app.id === ctx.applicationId) grants = [...app.roles];
    else if (ctx.level === 'workspace' && grantsAccess(app.roles)) grants.push('VIEWER');
  }
  for (const table of roles.tables) {
    if (ctx.level === 'table' && table.id === ctx.tableId) grants = [...table.roles];
    else if ((ctx.level === 'workspace' || (ctx.level === 'application' && table.databaseId === ctx.applicationId)) && grantsAccess(table.roles)) grants.push('VIEWER');
  }
  return grants;
}

function allows(grant: Grant, name: string): boolean {
  if (grant === 'BASIC_ADMIN') return true;
  if (grant === 'BASIC_MEMBER') return !BASIC_ADMIN_ONLY.has(name) && !ROLE_ADMIN_ONLY.has(name);
  return ROLE_OPERATIONS[grant].has(name);
}

/**
 * Null when a grant allows the operation; else the refusal: a MEMBER's attempt at an admin-only
 * operation answers ERROR_USER_INVALID_GROUP_PERMISSIONS as it always did, any other PERMISSION_DENIED.
 */
export function refusalOf(grants: readonly Grant[], operation: OperationType): ApiError | null {
  if (grants.some((g) => allows(g, operation.name))) return null;
  if (grants.includes('BASIC_MEMBER') && BASIC_ADMIN_ONLY.has(operation.name)) return Errors.invalidWorkspacePermissions(operation.name);
  return Errors.permissionDenied();
}

/** The highest of the roles (Baserow's `highest_role_uid`: the default roles' order, ADMIN first); null for none. */
export function highestRole(uids: Iterable<string>): RoleUid | null {
  let best: RoleUid | null = null;
  for (const uid of uids) {
    const role = roleOfMembership(uid);
    if (best === null || ROLE_UIDS.indexOf(role) < ROLE_UIDS.indexOf(best)) best = role;
  }
  return best;
}

/** The role a grant amounts to when ranked (the historical ADMIN is ADMIN, MEMBER is BUILDER). */
const rankOf = (grant: Grant): number => ROLE_UIDS.indexOf(grant === 'BASIC_ADMIN' ? 'ADMIN' : grant === 'BASIC_MEMBER' ? 'BUILDER' : grant);

/**
 * Whether the grants on a table let their holder write the cells of a field whose rule asks for
 * `role`: one of them at or above it (EDITOR, BUILDER, ADMIN); never for NOBODY or CUSTOM (whose
 * per-actor rules Baserow 1.35.3 does not implement).
 */
export function fieldWriteAllowed(role: FieldWriteRole, grants: readonly Grant[]): boolean {
  if (role === 'NOBODY' || role === 'CUSTOM') return false;
  const needed = ROLE_UIDS.indexOf(role);
  return grants.some((g) => rankOf(g) <= needed);
}
