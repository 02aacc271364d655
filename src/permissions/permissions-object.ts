import type { ScopeLevel } from './operation-type';
import { scopeLevel } from './operation-type';
import { OPERATIONS } from './operations';
import type { PermissionScope } from './permission.service';
import { ActorRoles, computedGrants, refusalOf } from './precedence';

/** One operation in Baserow's `role` permission manager object: allowed by default, but not on (or only on) the exceptions' ids. */
export interface OperationPolicy {
  default: boolean;
  exceptions: number[];
}

/** What the object's exceptions are computed over: the databases and tables whose answer may differ from the workspace's. */
export interface PolicyObjects {
  applicationIds: number[];
  /** The snapshots of those applications (the `snapshot` context). */
  snapshots: { id: number; applicationId: number }[];
  tables: { id: number; databaseId: number }[];
  /** Objects below a table (fields, views, filters…) by context, with their table. */
  below(context: string): { id: number; tableId: number }[];
}

/** The contexts whose objects are tables (a row, a comment and a webhook are checked on their table). */
const ON_TABLE = new Set(['database_table', 'row', 'row_comment', 'webhook']);

/** The databases and tables where the actor's answer may differ from the workspace's: those with a role, and the tables of databases with one. */
export function policyCandidates(roles: ActorRoles): { applicationIds: number[]; tableIds: number[]; databasesToExpand: number[] } {
  const applicationIds = new Set<number>(roles.applications.map((a) => a.id));
  for (const t of roles.tables) applicationIds.add(t.databaseId);
  return { applicationIds: [...applicationIds], tableIds: roles.tables.map((t) => t.id), databasesToExpand: roles.applications.map((a) => a.id) };
}

/**
 * Baserow's `role` permission manager object: for every operation, whether the workspace's role
 * allows it and the ids of the objects (databases, tables, fields, views…) where the answer is
 * the other one, as the web client's RolePermissionManagerType reads it.
 */
export function permissionsObject(roles: ActorRoles, workspaceId: number, objects: PolicyObjects): Record<string, OperationPolicy> {
  const result: Record<string, OperationPolicy> = {};
  for (const operation of OPERATIONS.values()) {
    const level: ScopeLevel = scopeLevel(operation.context);
    const allowed = (scope: PermissionScope) => operation.memberOnly === true || refusalOf(computedGrants(roles, operation, scope), operation) === null;
    const byDefault = operation.memberOnly === true || refusalOf(roles.workspace, operation) === null;
    const exceptions: number[] = [];
    if (operation.context === 'workspace') {
      // A role below the workspace lets it be read (Baserow's inclusion of the parent).
      if (allowed({ workspaceId }) !== byDefault) exceptions.push(workspaceId);
    } else if (level === 'application' && operation.context === 'application') {
      for (const id of objects.applicationIds) if (allowed({ workspaceId, applicationId: id }) !== byDefault) exceptions.push(id);
    } else if (level === 'application' && operation.context === 'snapshot') {
      const differing = new Set(objects.applicationIds.filter((id) => allowed({ workspaceId, applicationId: id }) !== byDefault));
      exceptions.push(...objects.snapshots.filter((s) => differing.has(s.applicationId)).map((s) => s.id));
    } else if (level === 'table') {
      const differing = objects.tables.filter((t) => allowed({ workspaceId, applicationId: t.databaseId, tableId: t.id }) !== byDefault);
      if (ON_TABLE.has(operation.context)) exceptions.push(...differing.map((t) => t.id));
      else {
        const ids = new Set(differing.map((t) => t.id));
        exceptions.push(...objects.below(operation.context).filter((o) => ids.has(o.tableId)).map((o) => o.id));
      }
    }
    result[operation.name] = { default: byDefault, exceptions };
  }
  return result;
}
