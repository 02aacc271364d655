import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { RequestContext } from '../core/context/request-context';
import { ApiError, Errors } from '../core/errors/api-error';
import { DatabaseErrors } from '../database/database.errors';
import type { OperationType } from './operation-type';
import { PermissionRepository } from './permission.repository';
import { ADMIN_ONLY_OPERATIONS, ROLE_ADMIN_OPERATIONS, ROLE_OPERATIONS, roleOfMembership } from './roles';

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

const BASIC_ADMIN_ONLY = new Set(ADMIN_ONLY_OPERATIONS);
const ROLE_ADMIN_ONLY = new Set(ROLE_ADMIN_OPERATIONS);

/**
 * The one permission check: whether a user (or a database token acting for its owner) may do a
 * named operation on an object. Every route, socket page subscription and token request asks it.
 * The member's role comes from a metadata cache, so a warm request sends no query for it.
 */
@Injectable()
export class PermissionService {
  private readonly memberRoles: MetadataCache<string, string | null>;

  constructor(
    caches: Caches,
    private readonly repo: PermissionRepository,
  ) {
    this.memberRoles = caches.metadata<string, string | null>('member-roles');
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

  /** Baserow's error for the refusal, or null when allowed (for callers that answer a refusal their own way). */
  async refusal(userId: number, operation: OperationType, scope: PermissionScope): Promise<ApiError | null> {
    const stored = await this.memberRole(scope.workspaceId, userId);
    // A database token: only on the tables its grant names for the route's operation, and only while its owner is a member.
    const grant = RequestContext.tableGrant();
    if (grant && scope.tableId != null && (stored === null || !grant.allows({ id: scope.tableId, databaseId: scope.applicationId ?? 0 }, scope.workspaceId))) {
      return DatabaseErrors.noPermissionToTable();
    }
    if (stored === null) return Errors.userNotInWorkspace();
    if (operation.memberOnly) return null;
    // The historical ADMIN/MEMBER values keep Baserow's `basic` manager: an admin may do
    // everything, a member everything but the admin-only operations.
    if (stored === 'ADMIN') return null;
    if (stored === 'MEMBER') {
      if (BASIC_ADMIN_ONLY.has(operation.name)) return Errors.invalidWorkspacePermissions(operation.name);
      return ROLE_ADMIN_ONLY.has(operation.name) ? Errors.permissionDenied() : null;
    }
    return ROLE_OPERATIONS[roleOfMembership(stored)].has(operation.name) ? null : Errors.permissionDenied();
  }
}
