import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { FieldError, validationError } from '../core/errors/api-error';
import { INT32_MAX } from '../core/validation/ids';
import type { UserEntity } from '../users/user.entity';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { ApplicationOperations as A, OperationType, PermissionService, WorkspaceOperations as W } from '../permissions';
import { AuthenticatedToken } from './token-authenticator';
import { generateTokenKey, hashTokenKey, TokenKeyCipher } from './token-keys';
import { parsePermissions, PermissionsJson, permissionsJson } from './token-permissions';
import { DatabaseTokenEntity, TOKEN_OPERATIONS } from './token.entity';
import { PermissionRow, TokenRepository } from './token.repository';
import { TokenErrors } from './tokens.errors';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';

export interface TokenJson {
  id: number;
  name: string;
  workspace: number;
  /** Null only when the instance secret changed since the key was made (the key still works). */
  key: string | null;
  permissions: PermissionsJson;
}

export interface TableListItem {
  id: number;
  name: string;
  order: number;
  database_id: number;
}

/** The body of a token update, as its DTO has checked it (`permissions` still raw). */
export interface TokenUpdate {
  name?: string;
  permissions?: unknown;
  rotate_key: boolean;
}

/**
 * Database tokens: a user's keys to the row endpoints of one of their workspaces, with
 * create/read/update/delete permissions on the whole workspace, databases or tables.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: TokenRepository,
    private readonly permissions: PermissionService,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly cipher: TokenKeyCipher,
    private readonly actions: ActionLog,
  ) {}

  /** A token action (Baserow's `create_db_token`…): not undoable, for the audit log. */
  private recordAction(type: string, token: DatabaseTokenEntity, params: Record<string, unknown> = {}): void {
    this.actions.record(type, { tokenId: token.id, name: token.name, ...params }, { scope: ActionScopes.workspace(token.workspaceId), workspaceId: token.workspaceId });
  }

  async list(user: UserEntity): Promise<TokenJson[]> {
    return this.serialize(await this.repo.ofMember(user.id));
  }

  /** `workspace` is the raw body value: DRF's primary-key field rules and messages. */
  async create(user: UserEntity, name: string, workspace: unknown): Promise<TokenJson> {
    const workspaceId = primaryKey(workspace);
    if (typeof workspaceId !== 'number') throw validationError({ workspace: [workspaceId] });
    if (!(await this.workspaceRepo.findWorkspace(workspaceId))) {
      throw validationError({ workspace: [{ error: `Invalid pk "${pkText(workspace)}" - object does not exist.`, code: 'does_not_exist' }] });
    }
    const token = await this.db.run(async () => {
      await this.permissions.require(user.id, W.createToken, { workspaceId });
      const key = generateTokenKey();
      const created = await this.repo.create({ name, workspaceId, userId: user.id, keyHash: hashTokenKey(key), keyEncrypted: this.cipher.encrypt(key), version: 0, createdOn: new Date() });
      // A new token may do everything in its workspace.
      await this.repo.replacePermissions(created.id, TOKEN_OPERATIONS.map((type) => ({ type, databaseId: null, tableId: null })));
      this.recordAction('create_db_token', created);
      return created;
    });
    return (await this.serialize([token]))[0];
  }

  async get(user: UserEntity, tokenId: number): Promise<TokenJson> {
    return (await this.serialize([await this.require(user, tokenId, W.readToken)]))[0];
  }

  async update(user: UserEntity, tokenId: number, update: TokenUpdate): Promise<TokenJson> {
    const token = await this.db.run(async () => {
      const token = await this.require(user, tokenId, W.updateToken);
      // Validated before anything is written (Baserow's serializer runs first, then the handler).
      const rows = update.permissions === undefined ? null : await this.permissionRows(token, update.permissions);
      if (update.name !== undefined) {
        await this.repo.update(token.id, { name: update.name });
        const before = token.name;
        token.name = update.name;
        this.recordAction('update_db_token_name', token, { before });
      }
      if (rows) {
        await this.repo.replacePermissions(token.id, rows);
        this.recordAction('update_db_token_permissions', token);
      }
      if (update.rotate_key) {
        const key = generateTokenKey();
        token.keyHash = hashTokenKey(key);
        token.keyEncrypted = this.cipher.encrypt(key);
        await this.repo.update(token.id, { keyHash: token.keyHash, keyEncrypted: token.keyEncrypted });
        this.recordAction('rotate_db_token_key', token);
      }
      return token;
    });
    return (await this.serialize([token]))[0];
  }

  async delete(user: UserEntity, tokenId: number): Promise<void> {
    await this.db.run(async () => {
      const token = await this.require(user, tokenId, W.updateToken);
      await this.repo.delete(token.id);
      this.recordAction('delete_db_token_key', token);
    });
  }

  /** `GET /api/database/tables/all-tables/`: the tables the token has any permission on (Baserow ignores the operation). */
  async tables(token: AuthenticatedToken): Promise<TableListItem[]> {
    const tables = await this.repo.tablesOfWorkspace(token.workspaceId);
    // Never more than the owner's roles let them see.
    const reader = await this.permissions.reader(token.user.id, token.workspaceId);
    // An owner whose role no longer lets them use tokens (below BUILDER) has a token that opens nothing.
    if (!reader.can(W.useToken, { workspaceId: token.workspaceId })) return [];
    return tables
      .filter((table) => token.grants.allows(TOKEN_OPERATIONS, table, token.workspaceId))
      .filter((table) => reader.sees(A.listTables, { workspaceId: token.workspaceId, applicationId: table.databaseId, tableId: table.id }))
      .map((table) => ({ id: table.id, name: table.name, order: table.order, database_id: table.databaseId }));
  }

  /** The caller's own token, in a workspace they are still a member of (404 otherwise / 400). */
  private async require(user: UserEntity, tokenId: number, operation: OperationType): Promise<DatabaseTokenEntity> {
    const token = await this.repo.findOwned(tokenId, user.id);
    if (!token || !(await this.workspaceRepo.findWorkspace(token.workspaceId))) throw TokenErrors.tokenDoesNotExist();
    await this.permissions.require(user.id, operation, { workspaceId: token.workspaceId });
    return token;
  }

  /**
   * Baserow's `TokenPermissionsField` then its handler: the shape, then that every id names a
   * live database or table (body error), then that each belongs to the token's workspace.
   */
  private async permissionRows(token: DatabaseTokenEntity, raw: unknown): Promise<PermissionRow[]> {
    const parsed = parsePermissions(raw);
    if ('error' in parsed) throw validationError({ permissions: [parsed.error] });
    const refs = TOKEN_OPERATIONS.flatMap((type) => (Array.isArray(parsed.value[type]) ? (parsed.value[type] as [string, number][]) : []));
    const inRange = (id: number) => id >= 1 && id <= INT32_MAX;
    const tableIds = [...new Set(refs.filter(([kind, id]) => kind === 'table' && inRange(id)).map(([, id]) => id))];
    const databaseIds = [...new Set(refs.filter(([kind, id]) => kind === 'database' && inRange(id)).map(([, id]) => id))];
    const tables = new Map((await this.repo.tablePlaces(tableIds)).map((place) => [place.id, place]));
    const databases = await this.repo.databaseWorkspaces(databaseIds);
    for (const type of TOKEN_OPERATIONS) {
      const value = parsed.value[type];
      if (!Array.isArray(value)) continue;
      for (const [kind, id] of value) {
        const known = kind === 'database' ? databases.has(id) : tables.has(id);
        if (!known) throw validationError({ permissions: [{ error: `The ${kind} id ${id} is not valid.`, code: `invalid_${kind}_id` }] });
      }
    }
    const rows: PermissionRow[] = [];
    for (const type of TOKEN_OPERATIONS) {
      const value = parsed.value[type];
      if (value === true) rows.push({ type, databaseId: null, tableId: null });
      if (!Array.isArray(value)) continue;
      for (const [kind, id] of value) {
        if (kind === 'database') {
          if (databases.get(id) !== token.workspaceId) throw TokenErrors.databaseNotInWorkspace();
          rows.push({ type, databaseId: id, tableId: null });
        } else {
          if (tables.get(id)!.workspaceId !== token.workspaceId) throw TokenErrors.tableNotInWorkspace();
          rows.push({ type, databaseId: null, tableId: id });
        }
      }
    }
    // The same grant named twice is one grant.
    return rows.filter((row, index) => rows.findIndex((other) => other.type === row.type && other.databaseId === row.databaseId && other.tableId === row.tableId) === index);
  }

  private async serialize(tokens: DatabaseTokenEntity[]): Promise<TokenJson[]> {
    const permissions = await this.repo.permissionsOf(tokens.map((t) => t.id));
    return tokens.map((token) => ({
      id: token.id,
      name: token.name,
      workspace: token.workspaceId,
      key: this.cipher.decrypt(token.keyEncrypted),
      permissions: permissionsJson(permissions.get(token.id) ?? []),
    }));
  }
}

/** A primary key as DRF's `PrimaryKeyRelatedField` reads it: an integer, or a string of one; otherwise its error. */
function primaryKey(value: unknown): number | FieldError {
  const incorrect = (type: string): FieldError => ({ error: `Incorrect type. Expected pk value, received ${type}.`, code: 'incorrect_type' });
  if (typeof value === 'number') return Number.isInteger(value) ? (Math.abs(value) > INT32_MAX ? 0 : value) : incorrect('float');
  if (typeof value === 'string') return /^\s*[-+]?\d{1,10}\s*$/.test(value) && Math.abs(Number(value)) <= INT32_MAX ? Number(value) : /^\s*[-+]?\d+\s*$/.test(value) ? 0 : incorrect('str');
  if (typeof value === 'boolean') return incorrect('bool');
  if (Array.isArray(value)) return incorrect('list');
  return incorrect(value === null ? 'NoneType' : 'dict');
}

const pkText = (value: unknown): string => (typeof value === 'string' ? value : String(value));

