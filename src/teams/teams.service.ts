import { Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { UnitOfWork } from '../core/database/unit-of-work';
import { Errors } from '../core/errors/api-error';
import { parseSortParameter } from '../core/http/sorts';
import { OperationType, PermissionService, TeamOperations as TM } from '../permissions';
import { SUBJECT_TYPES } from '../permissions/role-assignment.entity';
import { RoleAssignmentRepository } from '../permissions/role-assignment.repository';
import { isRoleUid } from '../permissions/roles';
import { TrashService } from '../trash/trash.service';
import type { UserEntity } from '../users/user.entity';
import { TeamEntity, TeamSubjectEntity } from './team.entity';
import { TeamRepository, TeamRow } from './team.repository';
import { serializeTeam, serializeTeamSubject, TeamJson, TeamSubjectJson } from './team.serializer';
import { TEAM_SUBJECT_TYPES, TeamSubjectInput } from './teams.dto';
import { TeamErrors } from './teams.errors';

/** A team as the create and update routes take it, its subjects checked by the DTO. */
export interface TeamInput {
  name: string;
  /** Absent: NO_ACCESS (Baserow's default); null: no role. */
  default_role?: string | null;
  subjects: TeamSubjectInput[];
}

const SORTS = ['name', 'default_role', 'subject_sample'] as const;

/**
 * Teams of a workspace and their subjects (Baserow enterprise's TeamHandler). Only admins manage
 * them; a team's role on its workspace (`default_role`) is its workspace-scope role assignment.
 * Changes of a team's role or members tell the affected users' sockets `permissions_updated`.
 */
@Injectable()
export class TeamsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: TeamRepository,
    private readonly roles: RoleAssignmentRepository,
    private readonly permissions: PermissionService,
    private readonly trash: TrashService,
    private readonly actions: ActionLog,
  ) {}

  async list(user: UserEntity, workspaceId: number, search: string | null | undefined, sorts: string | null | undefined): Promise<TeamJson[]> {
    const keys = sorts ? parseSortParameter(sorts, SORTS) : [];
    if (!(await this.repo.workspaceExists(workspaceId))) throw Errors.workspaceDoesNotExist();
    await this.permissions.require(user.id, TM.list, { workspaceId });
    let rows = await this.repo.listed(workspaceId);
    if (search) rows = rows.filter((row) => row.team.name.toLowerCase().includes(search.toLowerCase()));
    return sortRows(rows, keys).map(serializeTeam);
  }

  async create(user: UserEntity, workspaceId: number, input: TeamInput): Promise<TeamJson> {
    const role = defaultRoleOf(input);
    return this.db.run(async () => {
      if (!(await this.repo.workspaceExists(workspaceId))) throw Errors.workspaceDoesNotExist();
      await this.permissions.require(user.id, TM.create, { workspaceId });
      if (await this.repo.nameTaken(workspaceId, input.name)) throw TeamErrors.nameNotUnique();
      const team = await this.repo.create(workspaceId, input.name);
      await this.addSubjectsTo(team, input.subjects, new Set());
      await this.setRole(team, role);
      this.db.record('permissions.updated', { workspaceId, userIds: [], teamIds: [team.id] });
      this.record('create_team', team, { name: input.name, subjects: input.subjects });
      return serializeTeam(await this.repo.row(team));
    });
  }

  async get(user: UserEntity, teamId: number): Promise<TeamJson> {
    const team = await this.team(user, teamId, TM.read);
    return serializeTeam(await this.repo.row(team));
  }

  /** PUT: the name, the subjects (those not named leave) and the role are replaced. */
  async update(user: UserEntity, teamId: number, input: TeamInput): Promise<TeamJson> {
    const role = defaultRoleOf(input);
    return this.db.run(async () => {
      const team = await this.team(user, teamId, TM.update);
      const originalRole = (await this.roles.find(SUBJECT_TYPES.team, team.id, 'workspace', team.workspaceId))?.role ?? null;
      if (await this.repo.nameTaken(team.workspaceId, input.name, team.id)) throw TeamErrors.nameNotUnique();
      await this.repo.rename(team.id, input.name);
      const existing = await this.repo.memberSubjects([team.id]);
      const wanted = new Set(input.subjects.map((s) => `${s.subject_type}:${s.subject_id}`));
      const have = new Set(existing.map((s) => `${s.subjectType}:${s.subjectId}`));
      await this.addSubjectsTo(team, input.subjects, have);
      const leaving = existing.filter((s) => !wanted.has(`${s.subjectType}:${s.subjectId}`));
      await this.repo.removeSubjects(leaving.map((s) => s.id));
      await this.setRole(team, role);
      this.db.record('permissions.updated', { workspaceId: team.workspaceId, userIds: leaving.map((s) => s.subjectId), teamIds: [team.id] });
      // The subjects before too (Baserow keeps only the new ones): an undo gives the team back its members.
      const originalSubjects = existing.map((s) => ({ subject_id: s.subjectId, subject_type: s.subjectType }));
      this.record('update_team', team, { original_name: team.name, name: input.name, subjects: input.subjects, original_subjects: originalSubjects, original_default_role_uid: originalRole, default_role_uid: role });
      return serializeTeam(await this.repo.row((await this.repo.find(team.id))!));
    });
  }

  /** Moves the team (its subjects and roles with it) to the trash. */
  async delete(user: UserEntity, teamId: number): Promise<void> {
    await this.db.run(async () => {
      const team = await this.team(user, teamId, TM.delete);
      const userIds = await this.repo.userIdsOf([team.id]);
      await this.trash.trashItem(TeamEntity, user, { type: 'team', itemId: team.id, workspaceId: team.workspaceId, applicationId: null, name: team.name, parentName: null });
      this.db.record('permissions.updated', { workspaceId: team.workspaceId, userIds, teamIds: [] });
      this.record('delete_team', team, { team_name: team.name });
    });
  }

  async listSubjects(user: UserEntity, teamId: number): Promise<TeamSubjectJson[]> {
    const team = await this.team(user, teamId, TM.listSubjects);
    return (await this.repo.memberSubjects([team.id])).map(serializeTeamSubject);
  }

  /** Adds a member of the team's workspace, by id or e-mail; one already in the team is answered as it is. */
  async addSubject(user: UserEntity, teamId: number, input: TeamSubjectInput): Promise<TeamSubjectJson> {
    return this.db.run(async () => {
      const team = await this.team(user, teamId, TM.createSubject);
      const lookup = input.subject_user_email ? { email: input.subject_user_email } : { id: input.subject_id };
      const subject = await this.addSubjectTo(team, lookup, input.subject_type);
      this.db.record('permissions.updated', { workspaceId: team.workspaceId, userIds: [subject.subjectId], teamIds: [] });
      this.record('create_team_subject', team, { team_name: team.name, subject_id: subject.id, subject_lookup: input.subject_user_email ? { email: input.subject_user_email } : { pk: input.subject_id }, subject_subject_type_natural_key: subject.subjectType });
      return serializeTeamSubject(subject);
    });
  }

  async getSubject(user: UserEntity, teamId: number, subjectId: number): Promise<TeamSubjectJson> {
    const { subject } = await this.subjectOf(user, teamId, subjectId, TM.readSubject);
    return serializeTeamSubject(subject);
  }

  async deleteSubject(user: UserEntity, teamId: number, subjectId: number): Promise<void> {
    await this.db.run(async () => {
      const { team, subject } = await this.subjectOf(user, teamId, subjectId, TM.deleteSubject);
      await this.repo.removeSubjects([subject.id]);
      this.db.record('permissions.updated', { workspaceId: team.workspaceId, userIds: [subject.subjectId], teamIds: [] });
      this.record('delete_team_subject', team, { team_name: team.name, subject_id: subject.id, subject_subject_id: subject.subjectId, subject_subject_type_natural_key: subject.subjectType });
    });
  }

  // ------------------------------------------------------------------ helpers

  /** The live team, when the user may do `operation` on it (a stranger is told they are not in its workspace, as Baserow does). */
  private async team(user: UserEntity, teamId: number, operation: OperationType): Promise<TeamEntity> {
    const team = await this.repo.find(teamId);
    if (!team) throw TeamErrors.teamDoesNotExist();
    await this.permissions.require(user.id, operation, { workspaceId: team.workspaceId });
    return team;
  }

  /** Baserow looks the subject up before checking the permission. */
  private async subjectOf(user: UserEntity, teamId: number, subjectId: number, operation: OperationType): Promise<{ team: TeamEntity; subject: TeamSubjectEntity }> {
    const team = await this.repo.find(teamId);
    if (!team) throw TeamErrors.teamDoesNotExist();
    const subject = await this.repo.subject(team.id, subjectId);
    if (!subject) throw TeamErrors.subjectDoesNotExist();
    await this.permissions.require(user.id, operation, { workspaceId: team.workspaceId });
    return { team, subject };
  }

  /** A team action for the audit log, with Baserow's params (teams are not undoable here). */
  private record(type: string, team: TeamEntity, params: Record<string, unknown>): void {
    this.actions.record(type, { team_id: team.id, ...params }, { scope: ActionScopes.teams(team.workspaceId), workspaceId: team.workspaceId });
  }

  /**
   * The subjects of a create or update (those in `have` are there already), checked as
   * `addSubjectTo` checks one, the first failing one answering, and added in a few statements.
   */
  private async addSubjectsTo(team: TeamEntity, subjects: TeamSubjectInput[], have: Set<string>): Promise<void> {
    const wanted = subjects.filter((s) => !have.has(`${s.subject_type}:${s.subject_id}`));
    const { users, members } = await this.repo.usersAndMembers(team.workspaceId, wanted.map((s) => s.subject_id).filter((id): id is number => id !== null));
    const added = new Set<number>();
    for (const subject of wanted) {
      if (!TEAM_SUBJECT_TYPES.includes(subject.subject_type)) throw TeamErrors.subjectTypeUnsupported();
      if (subject.subject_id === null || !users.has(subject.subject_id)) throw TeamErrors.subjectDoesNotExist();
      if (!members.has(subject.subject_id)) throw TeamErrors.subjectNotInWorkspace();
      added.add(subject.subject_id);
    }
    await this.repo.addSubjects(team.id, SUBJECT_TYPES.user, [...added]);
  }

  /** Baserow's create_subject: a supported type, an existing user, a member of the team's workspace. */
  private async addSubjectTo(team: TeamEntity, lookup: { id: number | null } | { email: string }, subjectType: string): Promise<TeamSubjectEntity> {
    if (!TEAM_SUBJECT_TYPES.includes(subjectType)) throw TeamErrors.subjectTypeUnsupported();
    const found = 'id' in lookup ? (lookup.id === null ? null : await this.repo.user({ id: lookup.id })) : await this.repo.user(lookup);
    if (!found) throw TeamErrors.subjectDoesNotExist();
    if (!(await this.repo.isMember(team.workspaceId, found.id))) throw TeamErrors.subjectNotInWorkspace();
    return (await this.repo.findSubject(team.id, subjectType, found.id)) ?? (await this.repo.addSubject(team.id, subjectType, found.id));
  }

  /** The team's role on its workspace: a workspace-scope role assignment, removed for null. */
  private async setRole(team: TeamEntity, role: string | null): Promise<void> {
    const subject = { subjectType: SUBJECT_TYPES.team, subjectId: team.id, scopeType: 'workspace' as const, scopeId: team.workspaceId };
    if (role === null) await this.roles.remove(subject.subjectType, subject.subjectId, subject.scopeType, subject.scopeId);
    else await this.roles.save({ workspaceId: team.workspaceId, ...subject, role });
  }
}

/** The role a create or update asks for (checked before anything else, as Baserow's serializer does). */
function defaultRoleOf(input: TeamInput): string | null {
  if (input.default_role === undefined) return 'NO_ACCESS';
  if (input.default_role !== null && !isRoleUid(input.default_role)) throw TeamErrors.roleDoesNotExist();
  return input.default_role;
}

/** Baserow's sorts; without them, id order. `subject_sample` sorts by the subject count. */
function sortRows(rows: TeamRow[], keys: { key: (typeof SORTS)[number]; descending: boolean }[]): TeamRow[] {
  if (!keys.length) return rows;
  const value = (row: TeamRow, key: (typeof SORTS)[number]): string | number => {
    if (key === 'name') return row.team.name.toLowerCase();
    if (key === 'default_role') return row.defaultRole ?? '';
    return row.subjectCount;
  };
  return [...rows].sort((a, b) => {
    for (const { key, descending } of keys) {
      const x = value(a, key);
      const y = value(b, key);
      if (x !== y) return (x < y) === descending ? 1 : -1;
    }
    return a.team.id - b.team.id;
  });
}
