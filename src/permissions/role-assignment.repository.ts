import { Inject, Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { ApplicationEntity } from '../applications/application.entity';
import type { Dialect } from '../core/database/dialect';
import { idList, Sql } from '../core/database/sql';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableEntity } from '../database/table.entity';
import { UserEntity } from '../users/user.entity';
import { WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { RoleAssignmentEntity, ScopeType, SUBJECT_TYPES, SubjectType } from './role-assignment.entity';

/** An assignment a subject holds, with the database of a table scope (the precedence needs it). */
export interface HeldAssignment {
  subjectType: SubjectType;
  subjectId: number;
  scopeType: ScopeType;
  scopeId: number;
  role: string;
  /** The database of a `database_table` scope (null for other scopes). */
  databaseId: number | null;
}

export interface SubjectUser {
  id: number;
  email: string;
  firstName: string;
}

/** The role assignments table, and the lookups the role API checks subjects and scopes with. */
@Injectable()
export class RoleAssignmentRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get assignments() {
    return this.db.manager.getRepository(RoleAssignmentEntity);
  }

  /** What the user, and the teams given, hold in the workspace (their scopes' live objects only). */
  async heldBy(workspaceId: number, userId: number, teamIds: readonly number[]): Promise<HeldAssignment[]> {
    const rows = await this.assignments
      .createQueryBuilder('ra')
      .leftJoin(TableEntity, 't', "ra.scope_type = 'database_table' AND t.id = ra.scope_id")
      .select(['ra.subject_type AS subject_type', 'ra.subject_id AS subject_id', 'ra.scope_type AS scope_type', 'ra.scope_id AS scope_id', 'ra.role AS role', 't.database_id AS database_id'])
      .where('ra.workspace_id = :workspaceId', { workspaceId })
      .andWhere(
        new Brackets((w) => {
          w.where('(ra.subject_type = :user AND ra.subject_id = :userId)', { user: SUBJECT_TYPES.user, userId });
          if (teamIds.length) w.orWhere('(ra.subject_type = :team AND ra.subject_id IN (:...teamIds))', { team: SUBJECT_TYPES.team, teamIds });
        }),
      )
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      subjectType: r.subject_type as SubjectType,
      subjectId: Number(r.subject_id),
      scopeType: r.scope_type as ScopeType,
      scopeId: Number(r.scope_id),
      role: String(r.role),
      databaseId: r.database_id == null ? null : Number(r.database_id),
    }));
  }

  /** Every assignment of the workspace's live scopes (subject, role): what members' highest roles are read from. */
  async ofWorkspace(workspaceId: number): Promise<{ subjectType: SubjectType; subjectId: number; role: string }[]> {
    const rows = await this.assignments.find({ where: { workspaceId }, select: { subjectType: true, subjectId: true, role: true } });
    return rows.map((r) => ({ subjectType: r.subjectType, subjectId: r.subjectId, role: r.role }));
  }

  /** Every assignment row of the workspace (not the members' workspace roles, which are `workspaceLevel`), by `assignmentKey`. */
  async scopedOfWorkspace(workspaceId: number): Promise<Map<string, RoleAssignmentEntity>> {
    const sql = this.sql();
    const rows: RawAssignment[] = await this.db.manager.query(`SELECT ${ASSIGNMENT_COLUMNS} FROM "enterprise_roleassignment" WHERE "workspace_id" = ${sql.param(workspaceId)}`, sql.params);
    return new Map(rows.map((row) => [assignmentKey(fromRaw(row)), fromRaw(row)]));
  }

  private sql(): Sql {
    return new Sql(this.dialect);
  }

  /** The assignments on one scope of the workspace, in id order. */
  atScope(workspaceId: number, scopeType: ScopeType, scopeId: number): Promise<RoleAssignmentEntity[]> {
    return this.assignments.find({ where: { workspaceId, scopeType, scopeId }, order: { id: 'ASC' } });
  }

  find(subjectType: SubjectType, subjectId: number, scopeType: ScopeType, scopeId: number): Promise<RoleAssignmentEntity | null> {
    return this.assignments.findOneBy({ subjectType, subjectId, scopeType, scopeId });
  }

  async save(values: Omit<RoleAssignmentEntity, 'id'>): Promise<RoleAssignmentEntity> {
    const existing = await this.find(values.subjectType, values.subjectId, values.scopeType, values.scopeId);
    if (existing) {
      if (existing.role !== values.role) await this.assignments.update({ id: existing.id }, { role: values.role });
      return { ...existing, role: values.role };
    }
    return this.assignments.save(this.assignments.create(values));
  }

  /**
   * A batch of assignments on databases and tables (or teams' on the workspace), each with the row
   * it replaces: removed (role null), changed or added in a handful of plain statements (no entity
   * per row), so that a batch of thousands holds the writer for milliseconds. Answers the rows the
   * batch leaves, by `assignmentKey`.
   */
  async applyScoped(workspaceId: number, items: ScopedChange[]): Promise<Map<string, RoleAssignmentEntity>> {
    const kept = new Map<string, RoleAssignmentEntity>();
    const removed: number[] = [];
    const changed = new Map<string, number[]>();
    const added: ScopedChange[] = [];
    for (const item of items) {
      if (item.role === null) {
        if (item.existing) removed.push(item.existing.id);
      } else if (!item.existing) {
        added.push(item);
      } else {
        if (item.existing.role !== item.role) {
          const ids = changed.get(item.role) ?? [];
          changed.set(item.role, ids);
          ids.push(item.existing.id);
        }
        kept.set(assignmentKey(item), { ...item.existing, role: item.role });
      }
    }
    if (removed.length) {
      const sql = this.sql();
      await this.db.manager.query(`DELETE FROM "enterprise_roleassignment" WHERE "id" IN ${idList(sql, removed)}`, sql.params);
    }
    for (const [role, ids] of changed) {
      const sql = this.sql();
      await this.db.manager.query(`UPDATE "enterprise_roleassignment" SET "role" = ${sql.param(role)} WHERE "id" IN ${idList(sql, ids)}`, sql.params);
    }
    for (let i = 0; i < added.length; i += ROWS_PER_INSERT) {
      const sql = this.sql();
      const tuples = added.slice(i, i + ROWS_PER_INSERT).map((item) => sql.list([workspaceId, item.subjectType, item.subjectId, item.scopeType, item.scopeId, item.role]));
      const rows: RawAssignment[] = await this.db.manager.query(
        `INSERT INTO "enterprise_roleassignment" ("workspace_id", "subject_type", "subject_id", "scope_type", "scope_id", "role") VALUES ${tuples.join(', ')} RETURNING ${ASSIGNMENT_COLUMNS}`,
        sql.params,
      );
      for (const row of rows) {
        const saved = fromRaw(row);
        kept.set(assignmentKey(saved), saved);
      }
    }
    return kept;
  }

  async remove(subjectType: SubjectType, subjectId: number, scopeType: ScopeType, scopeId: number): Promise<void> {
    await this.assignments.delete({ subjectType, subjectId, scopeType, scopeId });
  }

  /** A member leaves: their assignments in the workspace go (Baserow's cascade on WorkspaceUser). */
  async removeOfUser(workspaceId: number, userId: number): Promise<void> {
    await this.assignments.delete({ workspaceId, subjectType: SUBJECT_TYPES.user, subjectId: userId });
  }

  /** A team deleted for good: its assignments go (Baserow's GenericRelation cascade). */
  async removeOfTeam(teamId: number): Promise<void> {
    await this.assignments.delete({ subjectType: SUBJECT_TYPES.team, subjectId: teamId });
  }

  /** The workspace (and database) of each live database/table among `ids` (absent: no such live object). */
  async scopeOwners(scopeType: Exclude<ScopeType, 'workspace'>, ids: readonly number[]): Promise<Map<number, { workspaceId: number; databaseId: number }>> {
    if (!ids.length) return new Map();
    const manager = this.db.manager;
    const rows =
      scopeType === 'application'
        ? await manager
            .getRepository(ApplicationEntity)
            .createQueryBuilder('a')
            .select(['a.id AS id', 'a.workspace_id AS workspace_id', 'a.id AS database_id'])
            .where('a.id IN (:...ids) AND a.trashed = :f', { ids: [...ids], f: false })
            .getRawMany<Record<string, unknown>>()
        : await manager
            .getRepository(TableEntity)
            .createQueryBuilder('t')
            .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id')
            .select(['t.id AS id', 'a.workspace_id AS workspace_id', 't.database_id AS database_id'])
            .where('t.id IN (:...ids) AND t.trashed = :f AND a.trashed = :f', { ids: [...ids], f: false })
            .getRawMany<Record<string, unknown>>();
    return new Map(rows.map((r) => [Number(r.id), { workspaceId: Number(r.workspace_id), databaseId: Number(r.database_id) }]));
  }

  /** Which of the users are active members of the workspace (Baserow's `are_in_workspace`). */
  async activeMembers(workspaceId: number, userIds: readonly number[]): Promise<Set<number>> {
    if (!userIds.length) return new Set();
    const rows = await this.db.manager
      .getRepository(WorkspaceUserEntity)
      .createQueryBuilder('wu')
      .innerJoin(UserEntity, 'u', 'u.id = wu.user_id')
      .select('wu.user_id', 'user_id')
      .where('wu.workspace_id = :workspaceId AND wu.user_id IN (:...userIds)', { workspaceId, userIds: [...userIds] })
      .andWhere('u.is_active = :t AND u.deletion_scheduled_at IS NULL', { t: true })
      .getRawMany<{ user_id: number }>();
    return new Set(rows.map((r) => Number(r.user_id)));
  }

  /** The subject users of assignments, as Baserow's SubjectUserSerializer shows them. */
  async users(ids: readonly number[]): Promise<Map<number, SubjectUser>> {
    if (!ids.length) return new Map();
    const rows = await this.db.manager.getRepository(UserEntity).createQueryBuilder('u').where('u.id IN (:...ids)', { ids: [...new Set(ids)] }).getMany();
    return new Map(rows.map((u) => [u.id, { id: u.id, email: u.email, firstName: u.firstName }]));
  }

  /** Each member's `workspace_user.permissions`, with the user (the workspace-level assignments). */
  async workspaceLevel(workspaceId: number): Promise<{ userId: number; permissions: string }[]> {
    const rows = await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { workspaceId }, order: { id: 'ASC' } });
    return rows.map((r) => ({ userId: r.userId, permissions: r.permissions }));
  }
}

/** One change of a batch: the role wanted (null: removed) and the row it replaces. */
export interface ScopedChange {
  subjectType: SubjectType;
  subjectId: number;
  scopeType: ScopeType;
  scopeId: number;
  role: string | null;
  existing: RoleAssignmentEntity | null;
}

/** An assignment's identity in a workspace: subject and scope. */
export function assignmentKey(item: { subjectType: string; subjectId: number; scopeType: string; scopeId: number }): string {
  return `${item.subjectType}:${item.subjectId}@${item.scopeType}:${item.scopeId}`;
}

/** Rows per INSERT: six bound values each, well within both drivers' limits. */
const ROWS_PER_INSERT = 1000;
const ASSIGNMENT_COLUMNS = '"id", "workspace_id", "subject_type", "subject_id", "scope_type", "scope_id", "role"';

interface RawAssignment {
  id: number | string;
  workspace_id: number | string;
  subject_type: string;
  subject_id: number | string;
  scope_type: string;
  scope_id: number | string;
  role: string;
}

function fromRaw(row: RawAssignment): RoleAssignmentEntity {
  return {
    id: Number(row.id),
    workspaceId: Number(row.workspace_id),
    subjectType: row.subject_type as SubjectType,
    subjectId: Number(row.subject_id),
    scopeType: row.scope_type as ScopeType,
    scopeId: Number(row.scope_id),
    role: row.role,
  };
}
