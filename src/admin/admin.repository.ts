import { Inject, Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { ApplicationEntity } from '../applications/application.entity';
import { Dialect, escapeLike } from '../core/database/dialect';
import { quote } from '../core/database/sql';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { rowsTable } from '../database/fields/field-type';
import { CountCache } from '../database/rows/count-cache';
import { liveRow } from '../database/rows/table-schema.repository';
import { TableEntity } from '../database/table.entity';
import { notTemplateWorkspace } from '../templates/template-workspaces';
import { UserEntity } from '../users/user.entity';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import type { ListingSort } from './listing';

export const USER_SORTS = ['id', 'is_active', 'name', 'username', 'date_joined', 'last_login'] as const;
export type UserSort = (typeof USER_SORTS)[number];
const USER_COLUMNS: Record<UserSort, string> = {
  id: 'u.id',
  is_active: 'u.is_active',
  name: 'u.first_name',
  username: 'u.email',
  date_joined: 'u.date_joined',
  last_login: 'u.last_login',
};

export const WORKSPACE_SORTS = ['id', 'name', 'application_count', 'created_on', 'row_count', 'storage_usage'] as const;
export type WorkspaceSort = (typeof WORKSPACE_SORTS)[number];

export interface MembershipOfUser {
  userId: number;
  workspaceId: number;
  name: string;
  permissions: string;
}

export interface MemberOfWorkspace {
  workspaceId: number;
  userId: number;
  email: string;
  permissions: string;
}

export interface WorkspaceRow {
  id: number;
  name: string;
  createdOn: Date;
  applicationCount: number;
}

/** The instance-wide queries of the admin pages (every tenant's data: callers are staff). */
@Injectable()
export class AdminRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly counts: CountCache,
  ) {}

  /** `LOWER(x) LIKE %term%` over the expressions (Django's `icontains`, one of them matching). */
  private search<T extends object>(query: SelectQueryBuilder<T>, expressions: string[], term: string | undefined): SelectQueryBuilder<T> {
    if (!term) return query;
    const condition = expressions.map((expression) => this.dialect.ilike(expression, ':search')).join(' OR ');
    return query.andWhere(`(${condition})`, { search: `%${escapeLike(term)}%` });
  }

  /**
   * PostgreSQL's null placement on both databases (Django on PostgreSQL: nulls last ascending,
   * first descending), then the id so pages never overlap.
   */
  private order<T extends object>(query: SelectQueryBuilder<T>, columns: { expression: string; descending: boolean; nullable: boolean }[], idColumn: string): SelectQueryBuilder<T> {
    for (const { expression, descending, nullable } of columns) {
      if (nullable) query.addOrderBy(`CASE WHEN ${expression} IS NULL THEN 1 ELSE 0 END`, descending ? 'DESC' : 'ASC');
      query.addOrderBy(expression, descending ? 'DESC' : 'ASC');
    }
    if (!columns.some((c) => c.expression === idColumn)) query.addOrderBy(idColumn, 'ASC');
    return query;
  }

  async users(search: string | undefined, sorts: ListingSort<UserSort>[], limit: number, offset: number): Promise<{ count: number; users: UserEntity[] }> {
    const base = () => this.search(this.db.manager.getRepository(UserEntity).createQueryBuilder('u'), ['CAST(u.id AS TEXT)', 'u.email', 'u.first_name'], search);
    const count = await base().getCount();
    const query = this.order(
      base(),
      sorts.map((s) => ({ expression: USER_COLUMNS[s.key], descending: s.descending, nullable: s.key === 'last_login' })),
      'u.id',
    );
    return { count, users: await query.limit(limit).offset(offset).getMany() };
  }

  /** The live workspaces the users are members of, in each user's order. */
  async membershipsOfUsers(userIds: number[]): Promise<MembershipOfUser[]> {
    if (!userIds.length) return [];
    const rows = await this.db.manager
      .getRepository(WorkspaceUserEntity)
      .createQueryBuilder('wu')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = wu.workspace_id AND w.trashed = :trashed', { trashed: false })
      .select(['wu.user_id AS "userId"', 'w.id AS "workspaceId"', 'w.name AS "name"', 'wu.permissions AS "permissions"'])
      .where('wu.user_id IN (:...userIds)', { userIds })
      .orderBy('wu.order', 'ASC')
      .addOrderBy('wu.id', 'ASC')
      .getRawMany<MembershipOfUser>();
    return rows.map((row) => ({ ...row, userId: Number(row.userId), workspaceId: Number(row.workspaceId) }));
  }

  private workspaceQuery(search: string | undefined): SelectQueryBuilder<WorkspaceEntity> {
    const query = this.db.manager
      .getRepository(WorkspaceEntity)
      .createQueryBuilder('w')
      .where('w.trashed = :trashed', { trashed: false })
      .andWhere(notTemplateWorkspace('w'));
    return this.search(query, ['CAST(w.id AS TEXT)', 'w.name'], search);
  }

  private applicationCount(): string {
    return '(SELECT COUNT(*) FROM "application" a WHERE a.workspace_id = w.id AND a.trashed = FALSE)';
  }

  /** A page of live workspaces sorted in SQL (`row_count` is sorted by the caller, on every match: `limit` null), and how many match. */
  async workspaces(search: string | undefined, sorts: ListingSort<WorkspaceSort>[], limit: number | null, offset: number): Promise<{ count: number; workspaces: WorkspaceRow[] }> {
    const count = await this.workspaceQuery(search).getCount();
    const expressions: Partial<Record<WorkspaceSort, string>> = {
      id: 'w.id',
      name: 'w.name',
      created_on: 'w.created_on',
      application_count: '"application_count"',
    };
    const query = this.order(
      this.workspaceQuery(search).select(['w.id AS "id"', 'w.name AS "name"', 'w.created_on AS "createdOn"']).addSelect(this.applicationCount(), 'application_count'),
      // `storage_usage` is not measured here (Baserow's daily usage job): every workspace ties on it.
      sorts.filter((s) => expressions[s.key]).map((s) => ({ expression: expressions[s.key]!, descending: s.descending, nullable: false })),
      'w.id',
    );
    if (limit !== null) query.limit(limit).offset(offset);
    const rows = await query.getRawMany<{ id: number | string; name: string; createdOn: string; application_count: number | string }>();
    return {
      count,
      workspaces: rows.map((row) => ({ id: Number(row.id), name: row.name, createdOn: new Date(row.createdOn), applicationCount: Number(row.application_count) })),
    };
  }

  async membersOfWorkspaces(workspaceIds: number[]): Promise<MemberOfWorkspace[]> {
    if (!workspaceIds.length) return [];
    const rows = await this.db.manager
      .getRepository(WorkspaceUserEntity)
      .createQueryBuilder('wu')
      .innerJoin(UserEntity, 'u', 'u.id = wu.user_id')
      .select(['wu.workspace_id AS "workspaceId"', 'u.id AS "userId"', 'u.email AS "email"', 'wu.permissions AS "permissions"'])
      .where('wu.workspace_id IN (:...workspaceIds)', { workspaceIds })
      .orderBy('wu.id', 'ASC')
      .getRawMany<MemberOfWorkspace>();
    return rows.map((row) => ({ ...row, workspaceId: Number(row.workspaceId), userId: Number(row.userId) }));
  }

  /** Live rows of the live tables of the workspaces' live databases, by workspace (0 for none). */
  async rowCounts(workspaceIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(workspaceIds.map((id) => [id, 0]));
    if (!workspaceIds.length) return counts;
    const tables = await this.db.manager
      .getRepository(TableEntity)
      .createQueryBuilder('t')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id AND a.trashed = :trashed', { trashed: false })
      .select(['t.id AS "tableId"', 'a.workspace_id AS "workspaceId"'])
      .where('t.trashed = :trashed AND a.workspace_id IN (:...workspaceIds)', { trashed: false, workspaceIds })
      .getRawMany<{ tableId: number | string; workspaceId: number | string }>();
    for (const table of tables) {
      // Through the count cache: a table whose rows did not change since is not counted again.
      const tableId = Number(table.tableId);
      const sql = `SELECT COUNT(*) AS "n" FROM ${quote(rowsTable(tableId))} WHERE ${liveRow()}`;
      const n = await this.counts.remember(tableId, sql, [], async () => Number((await this.db.manager.query(sql))[0].n));
      counts.set(Number(table.workspaceId), (counts.get(Number(table.workspaceId)) ?? 0) + n);
    }
    return counts;
  }

  /** Locks the workspace's row until the transaction ends (concurrent deletes of it wait, then find nothing). */
  async lockWorkspace(id: number): Promise<void> {
    await this.db.manager.query(`SELECT id FROM "workspace" WHERE id = ${this.dialect.placeholder(1)}${this.dialect.forUpdate}`, [id]);
  }

  // Dashboard.

  async activeUserCount(): Promise<number> {
    return this.db.manager.getRepository(UserEntity).countBy({ isActive: true });
  }

  /** Live workspaces but the templates' previews (Baserow's `template__isnull=True`). */
  async liveWorkspaceCount(): Promise<number> {
    return this.db.manager.getRepository(WorkspaceEntity).createQueryBuilder('w').where('w.trashed = :trashed', { trashed: false }).andWhere(notTemplateWorkspace('w')).getCount();
  }

  /** Whether the workspace is a template's preview. */
  async isTemplateWorkspace(id: number): Promise<boolean> {
    return (await this.db.manager.createQueryBuilder().select('ct.id', 'id').from('core_template', 'ct').where('ct.workspace_id = :id', { id }).getRawOne()) !== undefined;
  }

  async liveApplicationCount(): Promise<number> {
    return this.db.manager
      .getRepository(ApplicationEntity)
      .createQueryBuilder('a')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = a.workspace_id AND w.trashed = :trashed', { trashed: false })
      .where('a.trashed = :trashed', { trashed: false })
      .andWhere(notTemplateWorkspace('w'))
      .getCount();
  }

  /** How many users' `date_joined` or `last_login` is in (start, end]. */
  async countUsersBetween(column: 'date_joined' | 'last_login', start: Date, end: Date): Promise<number> {
    return this.db.manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where(`u.${column} > :start AND u.${column} <= :end`, { start: start.toISOString(), end: end.toISOString() })
      .getCount();
  }

  /** The `date_joined` or `last_login` instants in (start, end]. */
  async instantsBetween(column: 'date_joined' | 'last_login', start: Date, end: Date): Promise<Date[]> {
    const rows = await this.db.manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select(`u.${column}`, 'at')
      .where(`u.${column} > :start AND u.${column} <= :end`, { start: start.toISOString(), end: end.toISOString() })
      .getRawMany<{ at: string }>();
    return rows.map((row) => new Date(row.at));
  }
}
