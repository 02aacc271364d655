import { Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { UnitOfWork } from '../core/database/unit-of-work';
import { Errors } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';
import type { WorkspaceRole } from '../workspaces/workspace.entity';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspacesService } from '../workspaces/workspaces.service';
import type { OperationType } from './operation-type';
import { ApplicationOperations as A, TableOperations as T, WorkspaceOperations as W } from './operations';
import { PermissionScope, PermissionService } from './permission.service';
import { ScopeType, SUBJECT_TYPES, SubjectType } from './role-assignment.entity';
import { assignmentKey, RoleAssignmentRepository } from './role-assignment.repository';
import { RoleAssignmentJson, serializeAssignments } from './role-assignment.serializer';
import { isRoleUid, RoleUid } from './roles';
import { RoleErrors } from './roles.errors';
import { TeamSubjects } from './team-subjects';

/** One item of a role API request, as validated by the controller's DTO. */
export interface RoleAssignmentInput {
  subject_id: number;
  subject_type: string;
  scope_id: number;
  scope_type: string;
  role: string | null;
}

/** A checked item: its subject, scope and role resolved. */
interface Resolved {
  subjectType: SubjectType;
  subjectId: number;
  scopeType: ScopeType;
  scopeId: number;
  scope: PermissionScope;
  role: RoleUid | null;
}

/** Baserow's scope type names; `database` is read as the database application it names. */
const SCOPE_TYPES: Record<string, ScopeType> = { workspace: 'workspace', application: 'application', database: 'application', database_table: 'database_table' };

/** The operations reading and changing roles on each scope type (Baserow's ROLE_ASSIGNABLE_OBJECT_MAP). */
const ROLE_OPERATIONS_OF: Record<ScopeType, { read: OperationType; update: OperationType }> = {
  workspace: { read: W.readRole, update: W.assignRole },
  application: { read: A.readRole, update: A.updateRole },
  database_table: { read: T.readRole, update: T.updateRole },
};

/**
 * The role API: roles given to users and teams on a workspace, a database or a table. A user's
 * workspace-level role is their `workspace_user.permissions` (BUILDER stored as MEMBER); every
 * other assignment is a row of `enterprise_roleassignment`.
 */
@Injectable()
export class RoleAssignmentsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: RoleAssignmentRepository,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly permissions: PermissionService,
    private readonly teams: TeamSubjects,
    private readonly actions: ActionLog,
  ) {}

  /** The assignments on one scope of the workspace (on the workspace: every member's role, and the teams'). */
  async list(user: UserEntity, workspaceId: number, scopeTypeName: string, scopeId: number): Promise<RoleAssignmentJson[]> {
    await this.requireWorkspace(workspaceId, user.id);
    const scopeType = this.scopeType(scopeTypeName);
    const scope = (await this.resolveScopes(workspaceId, [{ scopeType, scopeId }])).get(`${scopeType}:${scopeId}`)!;
    await this.permissions.require(user.id, ROLE_OPERATIONS_OF[scopeType].read, scope);
    // On the workspace Baserow lists the members' roles (team roles there are not listed).
    const rows =
      scopeType === 'workspace'
        ? (await this.repo.workspaceLevel(workspaceId)).map((m) => ({ id: null, subjectType: SUBJECT_TYPES.user, subjectId: m.userId, scopeType, scopeId, role: m.permissions }))
        : await this.repo.atScope(workspaceId, scopeType, scopeId);
    return serializeAssignments(rows, await this.repo.users(rows.filter((r) => r.subjectType === SUBJECT_TYPES.user).map((r) => r.subjectId)));
  }

  /** Assigns (or with a null role removes) each item's role, all or nothing; answers each item's assignment, null when removed. */
  async assign(user: UserEntity, workspaceId: number, items: RoleAssignmentInput[], options: { batch: boolean }): Promise<(RoleAssignmentJson | null)[]> {
    return this.db.run(async () => {
      await this.requireWorkspace(workspaceId, user.id);
      if (options.batch) this.refuseDuplicates(items);
      const resolved = await this.resolve(workspaceId, items);
      for (const item of uniqueScopes(resolved)) await this.permissions.require(user.id, ROLE_OPERATIONS_OF[item.scopeType].update, item.scope);
      const memberRoles = await this.memberRoles(workspaceId, resolved);
      const held = await this.repo.scopedOfWorkspace(workspaceId);
      const previous = (item: Resolved) => (isMemberRole(item) ? memberRoles.get(item.subjectId) : held.get(assignmentKey(item))?.role) ?? null;
      const assignments = resolved.map((item) => [item.subjectType, item.subjectId, previous(item), item.role, item.scopeType, item.scopeId]);
      // A member's workspace role is their membership (one per member, with the last-admin rule);
      // every other assignment is written in a few statements whatever the batch's size.
      for (const item of resolved.filter(isMemberRole)) {
        const stored: WorkspaceRole = item.role === null ? 'NO_ACCESS' : item.role === 'BUILDER' ? 'MEMBER' : item.role;
        await this.workspaces.setMemberRole(workspaceId, item.subjectId, stored, RoleErrors.lastAdmin);
      }
      const scoped = resolved.filter((item) => !isMemberRole(item));
      const saved = await this.repo.applyScoped(
        workspaceId,
        scoped.map((item) => ({ ...item, existing: held.get(assignmentKey(item)) ?? null })),
      );
      const users = await this.repo.users(resolved.filter((item) => item.role !== null && item.subjectType === SUBJECT_TYPES.user).map((item) => item.subjectId));
      const results = resolved.map((item) => {
        if (item.role === null) return null;
        const row = isMemberRole(item) ? { id: null, subjectType: item.subjectType, subjectId: item.subjectId, scopeType: item.scopeType, scopeId: item.scopeId, role: item.role } : saved.get(assignmentKey(item))!;
        return serializeAssignments([row], users)[0];
      });
      const changedUsers = resolved.filter((item) => item.subjectType === SUBJECT_TYPES.user).map((item) => item.subjectId);
      const changedTeams = resolved.filter((item) => item.subjectType === SUBJECT_TYPES.team).map((item) => item.subjectId);
      this.db.record('permissions.updated', { workspaceId, userIds: [...new Set(changedUsers)], teamIds: [...new Set(changedTeams)] });
      // Baserow's BatchAssignRoleActionType params: one (subject type, subject, role before, role, scope type, scope) per item.
      this.actions.record('batch_assign_role', { workspace_id: workspaceId, assignments }, { scope: ActionScopes.workspace(workspaceId), workspaceId });
      return results;
    });
  }

  /** The workspace roles of the members the items give one (as role uids: MEMBER is BUILDER). */
  private async memberRoles(workspaceId: number, items: Resolved[]): Promise<Map<number, string>> {
    if (!items.some(isMemberRole)) return new Map();
    return new Map((await this.repo.workspaceLevel(workspaceId)).map((member) => [member.userId, member.permissions === 'MEMBER' ? 'BUILDER' : member.permissions]));
  }

  /** 404 for a workspace that does not exist, ERROR_USER_NOT_IN_GROUP for a caller who is not its member. */
  private async requireWorkspace(workspaceId: number, userId: number): Promise<void> {
    if (!(await this.workspaceRepo.findWorkspace(workspaceId))) throw Errors.workspaceDoesNotExist();
    if ((await this.permissions.memberRole(workspaceId, userId)) === null) throw Errors.userNotInWorkspace();
  }

  /** Baserow answers the indexes of the items that repeat an earlier item's subject and scope. */
  private refuseDuplicates(items: RoleAssignmentInput[]): void {
    const seen = new Map<string, number>();
    // In the order they are found, each once (a Set: a batch of thousands stays linear).
    const indexes = new Set<number>();
    items.forEach((item, index) => {
      const key = `${item.subject_type}:${item.subject_id}:${item.scope_type}:${item.scope_id}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else indexes.add(first);
    });
    if (indexes.size) throw RoleErrors.duplicates([...indexes]);
  }

  private scopeType(name: string): ScopeType {
    const type = SCOPE_TYPES[name];
    if (!type) throw RoleErrors.scopeTypeDoesNotExist();
    return type;
  }

  /** Each item's types and role known, its subject a member (or team) of the workspace, its scope an object of it. */
  private async resolve(workspaceId: number, items: RoleAssignmentInput[]): Promise<Resolved[]> {
    const typed = items.map((item) => {
      const subjectType = Object.values(SUBJECT_TYPES).find((t) => t === item.subject_type);
      if (!subjectType) throw RoleErrors.subjectTypeDoesNotExist();
      const scopeType = this.scopeType(item.scope_type);
      if (item.role !== null && !isRoleUid(item.role)) throw RoleErrors.roleDoesNotExist();
      return { subjectType, subjectId: item.subject_id, scopeType, scopeId: item.scope_id, role: item.role as RoleUid | null };
    });
    // Each id once: a batch names the same subjects and scopes many times.
    const userIds = [...new Set(typed.filter((t) => t.subjectType === SUBJECT_TYPES.user).map((t) => t.subjectId))];
    const teamIds = [...new Set(typed.filter((t) => t.subjectType === SUBJECT_TYPES.team).map((t) => t.subjectId))];
    const members = await this.repo.activeMembers(workspaceId, userIds);
    const teams = await this.teams.teamsOfWorkspace(workspaceId, teamIds);
    if (userIds.some((id) => !members.has(id)) || teamIds.some((id) => !teams.has(id))) throw RoleErrors.subjectDoesNotExist();
    const scopes = await this.resolveScopes(workspaceId, typed);
    return typed.map((t) => ({ ...t, scope: scopes.get(`${t.scopeType}:${t.scopeId}`)! }));
  }

  /** The permission scope of each named scope; ERROR_SCOPE_DOES_NOT_EXIST for one that is not a live object of the workspace. */
  private async resolveScopes(workspaceId: number, named: { scopeType: ScopeType; scopeId: number }[]): Promise<Map<string, PermissionScope>> {
    const found = new Map<string, PermissionScope>();
    for (const type of ['application', 'database_table'] as const) {
      const owners = await this.repo.scopeOwners(type, [...new Set(named.filter((n) => n.scopeType === type).map((n) => n.scopeId))]);
      for (const [id, owner] of owners) {
        if (owner.workspaceId !== workspaceId) continue;
        found.set(`${type}:${id}`, type === 'application' ? { workspaceId, applicationId: id } : { workspaceId, applicationId: owner.databaseId, tableId: id });
      }
    }
    for (const n of named) {
      if (n.scopeType === 'workspace' && n.scopeId === workspaceId) found.set(`workspace:${workspaceId}`, { workspaceId });
      if (!found.has(`${n.scopeType}:${n.scopeId}`)) throw RoleErrors.scopeDoesNotExist();
    }
    return found;
  }
}

function uniqueScopes(items: Resolved[]): Resolved[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.scopeType}:${item.scopeId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A user's role on the workspace itself: their membership, not an assignment row. */
function isMemberRole(item: { scopeType: ScopeType; subjectType: SubjectType }): boolean {
  return item.scopeType === 'workspace' && item.subjectType === SUBJECT_TYPES.user;
}
