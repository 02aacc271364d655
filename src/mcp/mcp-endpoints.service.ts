import { Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, Errors } from '../core/errors/api-error';
import { McpOperations as M, OperationType, PermissionService } from '../permissions';
import { generateTokenKey, hashTokenKey, TokenKeyCipher } from '../tokens/token-keys';
import type { UserEntity } from '../users/user.entity';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { McpEndpointEntity } from './mcp-endpoint.entity';
import { McpEndpointLookup, McpEndpointRepository, McpEndpointRow } from './mcp-endpoint.repository';
import { McpErrors } from './mcp.errors';

/** Baserow's `MCPEndpointSerializer`. */
export interface McpEndpointJson {
  id: number;
  name: string;
  /** Null only when the instance secret changed since the key was made. */
  key: string | null;
  workspace_id: number;
  workspace_name: string;
  created: string | null;
}

/** The endpoint a live key names, acting as its owner: null when the key, owner or membership is gone. */
export type ActiveEndpoint = McpEndpointLookup;

/**
 * MCP endpoints (Baserow's `MCPEndpointHandler` and its actions): a user's keys to the MCP
 * server, each acting as that user in one workspace. Only the owner sees or changes one.
 */
@Injectable()
export class McpEndpointsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: McpEndpointRepository,
    private readonly permissions: PermissionService,
    private readonly workspaces: WorkspaceRepository,
    private readonly cipher: TokenKeyCipher,
    private readonly actions: ActionLog,
  ) {}

  list(user: UserEntity): Promise<McpEndpointJson[]> {
    return this.repo.ofUser(user.id).then((rows) => rows.map((row) => this.serialize(row)));
  }

  async create(user: UserEntity, name: string, workspaceId: number): Promise<McpEndpointJson> {
    const workspace = await this.workspaces.findWorkspace(workspaceId);
    if (!workspace || workspace.trashed) throw Errors.workspaceDoesNotExist();
    const endpoint = await this.db.run(async () => {
      await this.permissions.require(user.id, M.createEndpoint, { workspaceId });
      const key = generateTokenKey();
      const created = await this.repo.create({ name, workspaceId, userId: user.id, keyHash: hashTokenKey(key), keyEncrypted: this.cipher.encrypt(key), created: new Date() });
      this.record('create_mcp_endpoint', created, workspace.name);
      return created;
    });
    return this.serialize({ endpoint, workspaceName: workspace.name });
  }

  /** GET: a non-member owner is refused as Baserow's unmapped `UserNotInWorkspace` is (401 PERMISSION_DENIED). */
  async get(user: UserEntity, id: number): Promise<McpEndpointJson> {
    return this.serialize(await this.requireOwned(user, id, M.readEndpoint, true));
  }

  /** PATCH: Baserow maps `UserNotInWorkspace` here (400 ERROR_USER_NOT_IN_GROUP). */
  async rename(user: UserEntity, id: number, name: string): Promise<McpEndpointJson> {
    const row = await this.db.run(async () => {
      const row = await this.requireOwned(user, id, M.readEndpoint, false);
      await this.permissions.require(user.id, M.updateEndpoint, { workspaceId: row.endpoint.workspaceId });
      const before = row.endpoint.name;
      await this.repo.rename(id, name);
      row.endpoint.name = name;
      this.record('update_mcp_endpoint', row.endpoint, row.workspaceName, { original_endpoint_name: before });
      return row;
    });
    return this.serialize(row);
  }

  async delete(user: UserEntity, id: number): Promise<void> {
    await this.db.run(async () => {
      const row = await this.requireOwned(user, id, M.readEndpoint, true);
      await this.asPermissionDenied(this.permissions.require(user.id, M.deleteEndpoint, { workspaceId: row.endpoint.workspaceId }));
      await this.repo.delete(id);
      this.record('delete_mcp_endpoint', row.endpoint, row.workspaceName);
    });
  }

  /**
   * The endpoint of a key, checked at every MCP message (Baserow's `get_endpoint`): the owner
   * must still be active, not scheduled for deletion, and a member of the endpoint's workspace.
   */
  async active(key: string): Promise<ActiveEndpoint | null> {
    if (typeof key !== 'string' || key.length !== 32) return null;
    const found = await this.repo.lookup(hashTokenKey(key));
    if (!found || !found.isMember || !found.user.isActive || found.user.deletionScheduledAt) return null;
    return found;
  }

  private async requireOwned(user: UserEntity, id: number, operation: OperationType, deniedWhenNotMember: boolean): Promise<McpEndpointRow> {
    const row = await this.repo.findOwned(id, user.id);
    if (!row) throw McpErrors.endpointDoesNotExist();
    const check = this.permissions.require(user.id, operation, { workspaceId: row.endpoint.workspaceId });
    await (deniedWhenNotMember ? this.asPermissionDenied(check) : check);
    return row;
  }

  private async asPermissionDenied(check: Promise<void>): Promise<void> {
    try {
      await check;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERROR_USER_NOT_IN_GROUP') throw Errors.permissionDenied();
      throw error;
    }
  }

  /** Baserow's endpoint actions (not undoable), for the audit log; the key is left out: it is never kept in plain text. */
  private record(type: string, endpoint: McpEndpointEntity, workspaceName: string, extra: Record<string, unknown> = {}): void {
    const params = { endpoint_id: endpoint.id, endpoint_name: endpoint.name, workspace_id: endpoint.workspaceId, workspace_name: workspaceName, ...extra };
    this.actions.record(type, params, { scope: ActionScopes.workspace(endpoint.workspaceId), workspaceId: endpoint.workspaceId });
  }

  private serialize({ endpoint, workspaceName }: McpEndpointRow): McpEndpointJson {
    return {
      id: endpoint.id,
      name: endpoint.name,
      key: this.cipher.decrypt(endpoint.keyEncrypted),
      workspace_id: endpoint.workspaceId,
      workspace_name: workspaceName,
      created: toApiDateTime(endpoint.created),
    };
  }
}
