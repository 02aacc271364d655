import { Injectable } from '@nestjs/common';
import { ApplicationEntity } from '../applications/application.entity';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableEntity } from '../database/table.entity';
import { UserEntity } from '../users/user.entity';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { McpEndpointEntity } from './mcp-endpoint.entity';

/** An endpoint with its workspace's name, as the endpoint JSON shows it. */
export interface McpEndpointRow {
  endpoint: McpEndpointEntity;
  workspaceName: string;
}

/** What a request to `/mcp/<key>/…` reads, in one query: the endpoint, its owner and whether the owner is still a member. */
export interface McpEndpointLookup {
  endpoint: McpEndpointEntity;
  user: UserEntity;
  isMember: boolean;
}

@Injectable()
export class McpEndpointRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get endpoints() {
    return this.db.manager.getRepository(McpEndpointEntity);
  }

  private withWorkspace() {
    return this.endpoints
      .createQueryBuilder('e')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = e.workspace_id AND w.trashed = :f', { f: false })
      .addSelect('w.name', 'workspace_name');
  }

  private async rows(query: ReturnType<McpEndpointRepository['withWorkspace']>): Promise<McpEndpointRow[]> {
    const { entities, raw } = await query.getRawAndEntities();
    return entities.map((endpoint, i) => ({ endpoint, workspaceName: String(raw[i].workspace_name) }));
  }

  /** The user's endpoints in live workspaces, by id (Baserow lists them whatever the user's membership). */
  ofUser(userId: number): Promise<McpEndpointRow[]> {
    return this.rows(this.withWorkspace().where('e.user_id = :userId', { userId }).orderBy('e.id', 'ASC'));
  }

  /** An endpoint of the user in a live workspace (any other's is as good as missing). */
  async findOwned(id: number, userId: number): Promise<McpEndpointRow | null> {
    return (await this.rows(this.withWorkspace().where('e.id = :id AND e.user_id = :userId', { id, userId })))[0] ?? null;
  }

  create(values: Partial<McpEndpointEntity>): Promise<McpEndpointEntity> {
    return this.endpoints.save(this.endpoints.create(values));
  }

  async rename(id: number, name: string): Promise<void> {
    await this.endpoints.update({ id }, { name });
  }

  async delete(id: number): Promise<void> {
    await this.endpoints.delete({ id });
  }

  /** The endpoint of a key (by its hash) in a live workspace, with its owner and the owner's membership. */
  async lookup(keyHash: string): Promise<McpEndpointLookup | null> {
    const { entities, raw } = await this.db.manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(McpEndpointEntity, 'e', 'e.user_id = u.id')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = e.workspace_id AND w.trashed = :f', { f: false })
      .leftJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = e.workspace_id AND wu.user_id = e.user_id')
      .addSelect('e.id', 'endpoint_id')
      .addSelect('e.name', 'endpoint_name')
      .addSelect('e.workspace_id', 'endpoint_workspace_id')
      .addSelect('wu.id', 'membership_id')
      .where('e.key_hash = :keyHash', { keyHash })
      .getRawAndEntities();
    const user = entities[0];
    if (!user) return null;
    const row = raw[0];
    const endpoint = Object.assign(new McpEndpointEntity(), { id: Number(row.endpoint_id), name: String(row.endpoint_name), workspaceId: Number(row.endpoint_workspace_id), userId: user.id, keyHash });
    return { endpoint, user, isMember: row.membership_id != null };
  }

  /** The live tables of the workspace's live databases, by order then id (Baserow's `get_all_tables` before its permission filter). */
  tablesOfWorkspace(workspaceId: number): Promise<TableEntity[]> {
    return this.tablesIn(workspaceId).orderBy('t.order', 'ASC').addOrderBy('t.id', 'ASC').getMany();
  }

  /** Whether the table is a live table of the workspace (Baserow's `table_in_workspace_of_endpoint`). */
  async tableInWorkspace(tableId: number, workspaceId: number): Promise<boolean> {
    return (await this.tablesIn(workspaceId).andWhere('t.id = :tableId', { tableId }).getCount()) > 0;
  }

  private tablesIn(workspaceId: number) {
    return this.db.manager
      .getRepository(TableEntity)
      .createQueryBuilder('t')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id AND a.trashed = :f', { f: false })
      .where('a.workspace_id = :workspaceId AND t.trashed = :f', { workspaceId });
  }
}
