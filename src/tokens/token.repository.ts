import { Injectable } from '@nestjs/common';
import { ApplicationEntity } from '../applications/application.entity';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableEntity } from '../database/table.entity';
import { UserEntity } from '../users/user.entity';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { DatabaseTokenEntity, DatabaseTokenPermissionEntity, TokenOperation } from './token.entity';

/** What authenticating a key reads, in one query: the owner, the token's version and whether the owner is still a member. */
export interface TokenLookup {
  user: UserEntity;
  tokenId: number;
  workspaceId: number;
  version: number;
  isMember: boolean;
}

export interface PermissionRow {
  type: TokenOperation;
  databaseId: number | null;
  tableId: number | null;
}

/** A live table (in a live database) with the workspace it belongs to. */
export interface TablePlace {
  id: number;
  databaseId: number;
  workspaceId: number;
}

@Injectable()
export class TokenRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get tokens() {
    return this.db.manager.getRepository(DatabaseTokenEntity);
  }

  private get permissions() {
    return this.db.manager.getRepository(DatabaseTokenPermissionEntity);
  }

  /** The token of a key (by its hash) in a live workspace, with its owner: one query per token request, as a JWT request reads its user. */
  async lookup(keyHash: string): Promise<TokenLookup | null> {
    const raw = await this.db.manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(DatabaseTokenEntity, 't', 't.user_id = u.id')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = t.workspace_id AND w.trashed = :f', { f: false })
      .leftJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = t.workspace_id AND wu.user_id = t.user_id')
      .addSelect('t.id', 'token_id')
      .addSelect('t.workspace_id', 'token_workspace_id')
      .addSelect('t.version', 'token_version')
      .addSelect('wu.id', 'membership_id')
      .where('t.key_hash = :keyHash', { keyHash })
      .getRawAndEntities();
    const user = raw.entities[0];
    if (!user) return null;
    const row = raw.raw[0];
    return { user, tokenId: Number(row.token_id), workspaceId: Number(row.token_workspace_id), version: Number(row.token_version), isMember: row.membership_id != null };
  }

  create(values: Partial<DatabaseTokenEntity>): Promise<DatabaseTokenEntity> {
    return this.tokens.save(this.tokens.create(values));
  }

  /** A token of the user (any other's is as good as missing). */
  findOwned(id: number, userId: number): Promise<DatabaseTokenEntity | null> {
    return this.tokens.findOneBy({ id, userId });
  }

  /** The user's tokens in the live workspaces they are a member of, by id. */
  ofMember(userId: number): Promise<DatabaseTokenEntity[]> {
    return this.tokens
      .createQueryBuilder('t')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = t.workspace_id AND w.trashed = :f', { f: false })
      .innerJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = t.workspace_id AND wu.user_id = t.user_id')
      .where('t.user_id = :userId', { userId })
      .orderBy('t.id', 'ASC')
      .getMany();
  }

  async update(id: number, values: Partial<DatabaseTokenEntity>): Promise<void> {
    await this.tokens.update({ id }, values);
  }

  async delete(id: number): Promise<void> {
    await this.tokens.delete({ id });
  }

  /**
   * The grants of tokens, by id. Grants on trashed databases or tables are shown to nobody
   * (they come back with a restore) but stay in what authentication keeps, which a restore
   * does not invalidate.
   */
  async permissionsOf(tokenIds: number[], options: { withTrashed?: boolean } = {}): Promise<Map<number, PermissionRow[]>> {
    const byToken = new Map<number, PermissionRow[]>(tokenIds.map((id) => [id, []]));
    if (!tokenIds.length) return byToken;
    const query = this.permissions.createQueryBuilder('p').where('p.token_id IN (:...tokenIds)', { tokenIds });
    if (!options.withTrashed) {
      query
        .leftJoin(ApplicationEntity, 'a', 'a.id = p.database_id')
        .leftJoin(TableEntity, 't', 't.id = p.table_id')
        .andWhere('(a.id IS NULL OR a.trashed = :f) AND (t.id IS NULL OR t.trashed = :f)', { f: false });
    }
    const rows = await query.orderBy('p.id', 'ASC').getMany();
    for (const row of rows) byToken.get(row.tokenId)?.push({ type: row.type, databaseId: row.databaseId, tableId: row.tableId });
    return byToken;
  }

  /**
   * Replaces a token's grants and bumps its version, in the caller's transaction. The bump
   * comes first: it locks the token's row, so concurrent replacements run one after the other.
   */
  async replacePermissions(tokenId: number, rows: PermissionRow[]): Promise<void> {
    await this.tokens
      .createQueryBuilder()
      .update(DatabaseTokenEntity)
      .set({ version: () => 'version + 1' })
      .where('id = :tokenId', { tokenId })
      .execute();
    await this.permissions.delete({ tokenId });
    if (rows.length) await this.permissions.insert(rows.map((row) => ({ ...row, tokenId })));
  }

  /** Live tables (in live databases) among `ids`, with their workspace. */
  async tablePlaces(ids: number[]): Promise<TablePlace[]> {
    if (!ids.length) return [];
    const rows = await this.db.manager
      .getRepository(TableEntity)
      .createQueryBuilder('t')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id AND a.trashed = :f', { f: false })
      .select('t.id', 'id')
      .addSelect('t.database_id', 'database_id')
      .addSelect('a.workspace_id', 'workspace_id')
      .where('t.id IN (:...ids) AND t.trashed = :f', { ids, f: false })
      .getRawMany();
    return rows.map((row) => ({ id: Number(row.id), databaseId: Number(row.database_id), workspaceId: Number(row.workspace_id) }));
  }

  /** Live database applications among `ids`, with their workspace. */
  async databaseWorkspaces(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.manager
      .getRepository(ApplicationEntity)
      .createQueryBuilder('a')
      .where('a.id IN (:...ids) AND a.trashed = :f AND a.type = :type', { ids, f: false, type: 'database' })
      .getMany();
    return new Map(rows.map((a) => [a.id, a.workspaceId]));
  }

  /** The live tables of a workspace's live databases, by order then id. */
  tablesOfWorkspace(workspaceId: number): Promise<TableEntity[]> {
    return this.db.manager
      .getRepository(TableEntity)
      .createQueryBuilder('t')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id AND a.trashed = :f', { f: false })
      .where('a.workspace_id = :workspaceId AND t.trashed = :f', { workspaceId })
      .orderBy('t.order', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }
}
