import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { RequestContext } from '../core/context/request-context';
import { ApiError, Errors } from '../core/errors/api-error';
import { DatabaseErrors } from '../database/database.errors';
import { FieldWriteRules } from './field-write-rules';
import type { OperationType } from './operation-type';
import { TableOperations, WorkspaceOperations } from './operations';
import { PermissionRepository } from './permission.repository';
import { OperationPolicy, permissionsObject, policyCandidates } from './permissions-object';
import { ActorRoles, actorRoles, computedGrants, fieldWriteAllowed, Grant, highestRole, refusalOf } from './precedence';
import { SUBJECT_TYPES } from './role-assignment.entity';
import type { RoleUid } from './roles';
import { RoleAssignmentRepository } from './role-assignment.repository';
import { TeamSubjects } from './team-subjects';
import { TEMPLATE_READS } from './template-reads';

/**
 * An object's place in the scope chain roles are assigned on: its workspace, and its database
 * and table when it lives in one. Loaders resolve an object to it (answering 404 when it is gone)
 * from the metadata caches they already read it through.
 */
export interface PermissionScope {
  workspaceId: number;
  applicationId?: number | null;
  tableId?: number | null;
}

/** The actor's roles in one workspace, loaded once, asked synchronously (filtering a list). */
export interface RoleReader {
  can(operation: OperationType, scope: PermissionScope): boolean;
  /** Whether a list naming the object by `operation` shows it (the scope's deepest object is the context). */
  sees(operation: OperationType, scope: PermissionScope): boolean;
}

/**
 * The one permission check: whether a user (or a database token acting for its owner) may do a
 * named operation on an object. Every route, socket page subscription and token request asks it.
 * The member's role and the role assignments they and their teams hold come from metadata
 * caches, so a warm request sends no query for them.
 */
@Injectable()
export class PermissionService {
  private readonly memberRoles: MetadataCache<string, string | null>;
  private readonly actors: MetadataCache<string, ActorRoles | null>;
  private readonly templates: MetadataCache<string, number[]>;

  constructor(
    caches: Caches,
    private readonly repo: PermissionRepository,
    private readonly assignments: RoleAssignmentRepository,
    private readonly teams: TeamSubjects,
    private readonly fieldRules: FieldWriteRules,
  ) {
    this.memberRoles = caches.metadata<string, string | null>('member-roles');
    this.actors = caches.metadata<string, ActorRoles | null>('actor-roles');
    this.templates = caches.metadata<string, number[]>('template-workspaces');
  }

  /** The ids of the templates' preview workspaces (Baserow's `workspace_template_ids`), cached by metadata version. */
  templateWorkspaceIds(): Promise<number[]> {
    return this.templates.get('all', () => this.repo.templateWorkspaceIds());
  }

  /**
   * Whether a non-member reads the workspace as a template's preview (Baserow's
   * `allow_if_template` manager; the one place previews are let in): the workspace is a
   * template's, the request is a user's (not a database token's) and only reads (GET: no write
   * route, job or socket page goes through here). Which operations it allows is TEMPLATE_READS.
   */
  private async readsTemplate(workspaceId: number): Promise<boolean> {
    const actor = RequestContext.current();
    if (actor.readOnly !== true || actor.tableGrant) return false;
    return (await this.templateWorkspaceIds()).includes(workspaceId);
  }

  /** Throws Baserow's error when the user may not do `operation` on the object in `scope`. */
  async require(userId: number, operation: OperationType, scope: PermissionScope): Promise<void> {
    const refusal = await this.refusal(userId, operation, scope);
    if (refusal) throw refusal;
  }

  async can(userId: number, operation: OperationType, scope: PermissionScope): Promise<boolean> {
    return (await this.refusal(userId, operation, scope)) === null;
  }

  /** The user's `workspace_user.permissions` in the workspace (null: not a member), cached by metadata version. */
  memberRole(workspaceId: number, userId: number): Promise<string | null> {
    return this.memberRoles.get(`${workspaceId}:${userId}`, () => this.repo.memberRole(workspaceId, userId));
  }

  /** The member's roles by scope (null: not a member), cached by metadata version. */
  roles(workspaceId: number, userId: number): Promise<ActorRoles | null> {
    return this.actors.get(`${workspaceId}:${userId}`, async () => {
      const stored = await this.memberRole(workspaceId, userId);
      if (stored === null) return null;
      const teamIds = await this.teams.teamIdsOf(userId, workspaceId);
      return actorRoles(stored, await this.assignments.heldBy(workspaceId, userId, teamIds));
    });
  }

  /** The roles that decide an operation on the object (Baserow's computed roles); null: not a member. */
  async grants(userId: number, operation: OperationType, scope: PermissionScope): Promise<Grant[] | null> {
    const roles = await this.roles(scope.workspaceId, userId);
    return roles && computedGrants(roles, operation, scope);
  }

  /** The actor's roles in the workspace loaded once, for filtering lists (a non-member may do nothing). */
  async reader(userId: number, workspaceId: number): Promise<RoleReader> {
    const roles = await this.roles(workspaceId, userId);
    const template = roles === null && (await this.readsTemplate(workspaceId));
    const allowed = (operation: OperationType, scope: PermissionScope, onObject: boolean) =>
      roles === null
        ? template && TEMPLATE_READS.has(operation.name)
        : operation.memberOnly === true || refusalOf(computedGrants(roles, operation, scope, onObject), operation) === null;
    return { can: (operation, scope) => allowed(operation, scope, false), sees: (operation, scope) => allowed(operation, scope, true) };
  }

  /**
   * Refuses a copy of whole databases (a duplicate, a snapshot, a workspace export) to someone who
   * may not read every one of their tables: the copy would show them what a table role hides.
   * Baserow checks the database only; here a table's NO_ACCESS holds for its copies too.
   */
  async requireWholeDatabases(userId: number, workspaceId: number, databaseIds: readonly number[]): Promise<void> {
    for (const table of await this.repo.tablesOf(databaseIds)) {
      await this.require(userId, TableOperations.read, { workspaceId, applicationId: table.databaseId, tableId: table.id });
    }
  }

  /** The workspace's tables the user may not read (a table role of NO_ACCESS, or none on a NO_ACCESS database). */
  async unreadableTables(userId: number, workspaceId: number): Promise<number[]> {
    return (await this.tablesRefused([userId], workspaceId, TableOperations.read)).get(userId)!;
  }

  /**
   * For each user, the workspace's tables they may not listen to (whose pages they must no longer
   * have): all of them for a non-member. The tables are read once for all the users.
   */
  unlistenableTables(userIds: readonly number[], workspaceId: number): Promise<Map<number, number[]>> {
    return this.tablesRefused(userIds, workspaceId, TableOperations.listenToAll);
  }

  /** For each user, the workspace's tables on which `operation` is refused to them. */
  private async tablesRefused(userIds: readonly number[], workspaceId: number, operation: OperationType): Promise<Map<number, number[]>> {
    const tables = await this.repo.tablesOfWorkspace(workspaceId);
    const refused = new Map<number, number[]>();
    for (const userId of userIds) {
      const reader = await this.reader(userId, workspaceId);
      refused.set(userId, tables.filter((t) => !reader.can(operation, { workspaceId, applicationId: t.databaseId, tableId: t.id })).map((t) => t.id));
    }
    return refused;
  }

  /** Those of the users who may see the object in a list (the audience of a workspace-wide broadcast about it). */
  async audience(userIds: readonly number[], operation: OperationType, scope: PermissionScope): Promise<number[]> {
    const seen: number[] = [];
    for (const userId of userIds) if ((await this.reader(userId, scope.workspaceId)).sees(operation, scope)) seen.push(userId);
    return seen;
  }

  /**
   * Each member's highest role in the workspace on anything, their teams' included (Baserow's
   * `highest_role_uid`), from their workspace-level role (`permissions`) and the assignments.
   */
  async highestRoles(workspaceId: number, members: { userId: number; permissions: string }[]): Promise<Map<number, RoleUid | null>> {
    const held = new Map<number, string[]>(members.map((m) => [m.userId, [m.permissions]]));
    const assignments = await this.assignments.ofWorkspace(workspaceId);
    const teamUsers = assignments.some((a) => a.subjectType === SUBJECT_TYPES.team) ? await this.teams.usersByTeam(workspaceId) : new Map<number, number[]>();
    for (const a of assignments) {
      const userIds = a.subjectType === SUBJECT_TYPES.user ? [a.subjectId] : (teamUsers.get(a.subjectId) ?? []);
      for (const id of userIds) held.get(id)?.push(a.role);
    }
    return new Map([...held].map(([id, uids]) => [id, highestRole(uids)]));
  }

  /**
   * Baserow enterprise's `role` permission manager object for the member, or null when only the
   * historical ADMIN/MEMBER role is in play (no other role, no assignment): the `basic` manager's
   * object then says it all, and answers for operations Rowspace does not check as Baserow's
   * client expects.
   */
  async permissionsObject(userId: number, workspaceId: number): Promise<Record<string, OperationPolicy> | null> {
    const roles = await this.roles(workspaceId, userId);
    if (!roles) return null;
    const basicOnly = roles.workspace.every((g) => g === 'BASIC_ADMIN' || g === 'BASIC_MEMBER') && !roles.applications.length && !roles.tables.length;
    if (basicOnly) return null;
    const candidates = policyCandidates(roles);
    const tables = new Map(roles.tables.map((t) => [t.id, { id: t.id, databaseId: t.databaseId }]));
    for (const t of await this.repo.tablesOf(candidates.databasesToExpand)) tables.set(t.id, t);
    const tableIds = [...tables.keys()];
    const below = new Map<string, { id: number; tableId: number }[]>();
    for (const context of ['field', 'view', 'view_filter', 'view_sort', 'view_group_by', 'view_decoration']) below.set(context, await this.repo.objectsIn(context, tableIds));
    const snapshots = await this.repo.snapshotsOf(candidates.applicationIds);
    return permissionsObject(roles, workspaceId, { applicationIds: candidates.applicationIds, snapshots, tables: [...tables.values()], below: (context) => below.get(context) ?? [] });
  }

  /**
   * Throws Baserow's error when a field of `fieldIds` may not have its cells written by the user
   * (Baserow enterprise's `database.table.field.write_values`): its rule asks for a role above the
   * user's effective role on the table, or nobody may write it. `scope` is the fields' table.
   */
  async requireFieldWrites(userId: number, scope: PermissionScope, fieldIds: readonly number[]): Promise<void> {
    if ((await this.unwritableFields(userId, scope, fieldIds)).length) throw Errors.permissionDenied();
  }

  /** Those of the fields whose cells the user may not write (see `requireFieldWrites`). */
  async unwritableFields(userId: number, scope: PermissionScope, fieldIds: readonly number[]): Promise<number[]> {
    if (!fieldIds.length || scope.tableId == null) return [];
    const rules = await this.fieldRules.ofTable(scope.tableId);
    const ruled = fieldIds.filter((id) => rules.has(id));
    if (!ruled.length) return [];
    const roles = await this.roles(scope.workspaceId, userId);
    if (!roles) throw Errors.userNotInWorkspace();
    const grants = computedGrants(roles, TableOperations.updateRow, scope);
    return ruled.filter((id) => !fieldWriteAllowed(rules.get(id)!.role, grants));
  }

  /**
   * Baserow enterprise's `write_field_values` permission manager object: the fields (of the
   * tables the member may read) whose cells they may not write, and those forms may not write;
   * null when the workspace has no field rule (nothing to say: every field is writable).
   */
  async fieldWritePolicy(userId: number, workspaceId: number): Promise<Record<string, OperationPolicy> | null> {
    const rules = await this.fieldRules.ofWorkspace(workspaceId);
    const roles = rules.length ? await this.roles(workspaceId, userId) : null;
    if (!roles) return null;
    const write: number[] = [];
    const submit: number[] = [];
    for (const rule of rules) {
      const scope = { workspaceId, applicationId: rule.databaseId, tableId: rule.tableId };
      if (refusalOf(computedGrants(roles, TableOperations.read, scope), TableOperations.read)) continue;
      if (!rule.allowInForms) submit.push(rule.fieldId);
      if (!fieldWriteAllowed(rule.role, computedGrants(roles, TableOperations.updateRow, scope))) write.push(rule.fieldId);
    }
    return {
      'database.table.field.write_values': { default: true, exceptions: write },
      'database.table.field.submit_anonymous_values': { default: true, exceptions: submit },
    };
  }

  /** Baserow's error for the refusal, or null when allowed (for callers that answer a refusal their own way). */
  async refusal(userId: number, operation: OperationType, scope: PermissionScope): Promise<ApiError | null> {
    const roles = await this.roles(scope.workspaceId, userId);
    // A database token: only on the tables its grant names for the route's operation, only while its owner is a member,
    // and only while the owner's role lets them use tokens (Baserow's TokenHandler.has_table_permission: workspace.token.use first).
    const grant = RequestContext.tableGrant();
    if (
      grant &&
      scope.tableId != null &&
      (roles === null ||
        !grant.allows({ id: scope.tableId, databaseId: scope.applicationId ?? 0 }, scope.workspaceId) ||
        refusalOf(computedGrants(roles, WorkspaceOperations.useToken, { workspaceId: scope.workspaceId }), WorkspaceOperations.useToken) !== null)
    ) {
      return DatabaseErrors.noPermissionToTable();
    }
    if (roles === null) return TEMPLATE_READS.has(operation.name) && (await this.readsTemplate(scope.workspaceId)) ? null : Errors.userNotInWorkspace();
    if (operation.memberOnly) return null;
    return refusalOf(computedGrants(roles, operation, scope), operation);
  }
}
