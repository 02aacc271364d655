import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { RoleAssignmentEntity, SUBJECT_TYPES } from '../permissions/role-assignment.entity';
import { UserEntity } from '../users/user.entity';
import { normalizeEmail } from '../users/user.serializer';
import { WorkspaceEntity, WorkspaceUserEntity } from '../workspaces/workspace.entity';
import { TeamEntity, TeamSubjectEntity } from './team.entity';

/** A team as Baserow's `get_teams_sample_queryset` annotates it. */
export interface TeamRow {
  team: TeamEntity;
  /** The team's role on its workspace (a workspace-scope assignment), or null. */
  defaultRole: string | null;
  subjectCount: number;
  /** The most recent subjects first, at most SAMPLE_SIZE. */
  sample: { teamSubjectId: number; subjectId: number; subjectType: string; label: string | null }[];
}

/** Baserow's subject sample size. */
const SAMPLE_SIZE = 10;

/**
 * The teams and team subjects tables. A team's subjects count only while they are members of
 * the team's workspace (a user deleted for good leaves nothing behind that shows).
 */
@Injectable()
export class TeamRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get teams() {
    return this.db.manager.getRepository(TeamEntity);
  }

  private get subjects() {
    return this.db.manager.getRepository(TeamSubjectEntity);
  }

  /** A live team of a live workspace. */
  find(id: number): Promise<TeamEntity | null> {
    return this.teams
      .createQueryBuilder('t')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = t.workspace_id AND w.trashed = :f')
      .where('t.id = :id AND t.trashed = :f', { id, f: false })
      .getOne();
  }

  /** Whether the workspace exists and is not trashed. */
  async workspaceExists(id: number): Promise<boolean> {
    return (await this.db.manager.getRepository(WorkspaceEntity).countBy({ id, trashed: false })) > 0;
  }

  /** A team, trashed or not. */
  findAny(id: number): Promise<TeamEntity | null> {
    return this.teams.findOneBy({ id });
  }

  /** Whether the workspace has a team (trashed ones included) of this name, other than `exceptId`. */
  async nameTaken(workspaceId: number, name: string, exceptId?: number): Promise<boolean> {
    const found = await this.teams.findOne({ select: { id: true }, where: { workspaceId, name } });
    return found !== null && found.id !== exceptId;
  }

  async create(workspaceId: number, name: string): Promise<TeamEntity> {
    const now = new Date();
    return this.teams.save(this.teams.create({ workspaceId, name, trashed: false, createdOn: now, updatedOn: now }));
  }

  async rename(id: number, name: string): Promise<void> {
    await this.teams.update({ id }, { name, updatedOn: new Date() });
  }

  /** Deletes a team for good, its subjects with it (the foreign key cascades). */
  async delete(id: number): Promise<void> {
    await this.subjects.delete({ teamId: id });
    await this.teams.delete({ id });
  }

  /** The live teams of a workspace, in id order, annotated as Baserow lists them. */
  async listed(workspaceId: number): Promise<TeamRow[]> {
    return this.annotate(await this.teams.find({ where: { workspaceId, trashed: false }, order: { id: 'ASC' } }));
  }

  async row(team: TeamEntity): Promise<TeamRow> {
    return (await this.annotate([team]))[0];
  }

  private async annotate(teams: TeamEntity[]): Promise<TeamRow[]> {
    if (!teams.length) return [];
    const ids = teams.map((t) => t.id);
    const roles = await this.db.manager.getRepository(RoleAssignmentEntity).find({
      where: { subjectType: SUBJECT_TYPES.team, subjectId: In(ids), scopeType: 'workspace' },
    });
    const subjects = await this.memberSubjects(ids);
    const labels = await this.firstNames(subjects.map((s) => s.subjectId));
    return teams.map((team) => {
      const own = subjects.filter((s) => s.teamId === team.id);
      return {
        team,
        defaultRole: roles.find((r) => r.subjectId === team.id && r.scopeId === team.workspaceId)?.role ?? null,
        subjectCount: own.length,
        sample: own
          .sort((a, b) => (a.createdOn < b.createdOn ? 1 : a.createdOn > b.createdOn ? -1 : b.id - a.id))
          .slice(0, SAMPLE_SIZE)
          .map((s) => ({ teamSubjectId: s.id, subjectId: s.subjectId, subjectType: s.subjectType, label: labels.get(s.subjectId) ?? null })),
      };
    });
  }

  private async firstNames(userIds: number[]): Promise<Map<number, string>> {
    if (!userIds.length) return new Map();
    const users = await this.db.manager.getRepository(UserEntity).find({ select: { id: true, firstName: true }, where: { id: In([...new Set(userIds)]) } });
    return new Map(users.map((u) => [u.id, u.firstName]));
  }

  /** The subjects of the teams that are members of the team's workspace, in id order. */
  memberSubjects(teamIds: readonly number[]): Promise<TeamSubjectEntity[]> {
    if (!teamIds.length) return Promise.resolve([]);
    return this.subjects
      .createQueryBuilder('s')
      .innerJoin(TeamEntity, 't', 't.id = s.team_id')
      .innerJoin(WorkspaceUserEntity, 'wu', 'wu.workspace_id = t.workspace_id AND wu.user_id = s.subject_id')
      .where('s.team_id IN (:...teamIds) AND s.subject_type = :user', { teamIds: [...teamIds], user: SUBJECT_TYPES.user })
      .orderBy('s.id', 'ASC')
      .getMany();
  }

  /** One subject of the team (a member of its workspace). */
  async subject(teamId: number, id: number): Promise<TeamSubjectEntity | null> {
    return (await this.memberSubjects([teamId])).find((s) => s.id === id) ?? null;
  }

  /** The team's subject for a user, if any. */
  findSubject(teamId: number, subjectType: string, subjectId: number): Promise<TeamSubjectEntity | null> {
    return this.subjects.findOneBy({ teamId, subjectType, subjectId });
  }

  async addSubject(teamId: number, subjectType: string, subjectId: number): Promise<TeamSubjectEntity> {
    const now = new Date();
    return this.subjects.save(this.subjects.create({ teamId, subjectType, subjectId, createdOn: now, updatedOn: now }));
  }

  /** Adds the users to the team in a few statements, whatever their number (new subjects only). */
  async addSubjects(teamId: number, subjectType: string, subjectIds: readonly number[]): Promise<void> {
    if (!subjectIds.length) return;
    const now = new Date();
    const rows = subjectIds.map((subjectId) => ({ teamId, subjectType, subjectId, createdOn: now, updatedOn: now }));
    for (let i = 0; i < rows.length; i += SUBJECTS_PER_INSERT) await this.subjects.insert(rows.slice(i, i + SUBJECTS_PER_INSERT));
  }

  /** Of the ids, the users that exist and those that are members of the workspace (one query each). */
  async usersAndMembers(workspaceId: number, ids: readonly number[]): Promise<{ users: Set<number>; members: Set<number> }> {
    if (!ids.length) return { users: new Set(), members: new Set() };
    const unique = [...new Set(ids)];
    const users = await this.db.manager.getRepository(UserEntity).find({ select: { id: true }, where: { id: In(unique) } });
    const members = await this.db.manager.getRepository(WorkspaceUserEntity).find({ select: { userId: true }, where: { workspaceId, userId: In(unique) } });
    return { users: new Set(users.map((u) => u.id)), members: new Set(members.map((m) => m.userId)) };
  }

  async removeSubjects(ids: readonly number[]): Promise<void> {
    if (ids.length) await this.subjects.delete({ id: In([...ids]) });
  }

  /** The user's subjects in the workspace's teams (trashed teams included). */
  async subjectsOfUser(workspaceId: number, userId: number): Promise<TeamSubjectEntity[]> {
    return this.subjects
      .createQueryBuilder('s')
      .innerJoin(TeamEntity, 't', 't.id = s.team_id')
      .where('t.workspace_id = :workspaceId AND s.subject_type = :user AND s.subject_id = :userId', { workspaceId, user: SUBJECT_TYPES.user, userId })
      .getMany();
  }

  /** The live teams of the workspace the user is a subject of. */
  async teamIdsOf(userId: number, workspaceId: number): Promise<number[]> {
    const rows = await this.subjects
      .createQueryBuilder('s')
      .innerJoin(TeamEntity, 't', 't.id = s.team_id')
      .select('s.team_id', 'team_id')
      .where('t.workspace_id = :workspaceId AND t.trashed = :f AND s.subject_type = :user AND s.subject_id = :userId', { workspaceId, f: false, user: SUBJECT_TYPES.user, userId })
      .orderBy('s.team_id', 'ASC')
      .getRawMany<{ team_id: number }>();
    return rows.map((r) => Number(r.team_id));
  }

  /** Which of the ids are live teams of the workspace. */
  async liveTeamIds(workspaceId: number, teamIds: readonly number[]): Promise<Set<number>> {
    if (!teamIds.length) return new Set();
    const rows = await this.teams.find({ select: { id: true }, where: { id: In([...teamIds]), workspaceId, trashed: false } });
    return new Set(rows.map((r) => r.id));
  }

  /** The workspace's live teams (id and name). */
  async liveTeamsOfWorkspace(workspaceId: number): Promise<{ id: number; name: string }[]> {
    return this.teams.find({ select: { id: true, name: true }, where: { workspaceId, trashed: false }, order: { id: 'ASC' } });
  }

  /** The ids of the workspace's live teams. */
  async liveTeamIdsOfWorkspace(workspaceId: number): Promise<number[]> {
    return (await this.teams.find({ select: { id: true }, where: { workspaceId, trashed: false } })).map((t) => t.id);
  }

  /** The users among the teams' subjects who are members of the teams' workspace. */
  async userIdsOf(teamIds: readonly number[]): Promise<number[]> {
    return [...new Set((await this.memberSubjects(teamIds)).map((s) => s.subjectId))];
  }

  /** The user with this id or e-mail address, if any. */
  async user(lookup: { id: number } | { email: string }): Promise<UserEntity | null> {
    const where = 'id' in lookup ? { id: lookup.id } : { email: normalizeEmail(lookup.email) };
    return this.db.manager.getRepository(UserEntity).findOneBy(where);
  }

  /** Whether the user is a member of the workspace. */
  async isMember(workspaceId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.getRepository(WorkspaceUserEntity).countBy({ workspaceId, userId })) > 0;
  }
}

/** Subjects per INSERT statement (five values each). */
const SUBJECTS_PER_INSERT = 500;
