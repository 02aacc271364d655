import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { TeamSubjects } from '../permissions/team-subjects';
import { TeamRepository } from './team.repository';

/**
 * Teams as subjects of roles, read from the teams tables. The teams a user is in feed every
 * permission check, so they are cached by metadata version like the role data: any write to a
 * team, its subjects or a membership bumps the version, and a warm check sends no query.
 */
@Injectable()
export class TeamSubjectsFromTeams extends TeamSubjects {
  private readonly memberships: MetadataCache<string, number[]>;

  constructor(
    caches: Caches,
    private readonly repo: TeamRepository,
  ) {
    super();
    this.memberships = caches.metadata<string, number[]>('team-memberships');
  }

  teamIdsOf(userId: number, workspaceId: number): Promise<number[]> {
    return this.memberships.get(`${workspaceId}:${userId}`, () => this.repo.teamIdsOf(userId, workspaceId));
  }

  teamsOfWorkspace(workspaceId: number, teamIds: readonly number[]): Promise<Set<number>> {
    return this.repo.liveTeamIds(workspaceId, teamIds);
  }

  async usersByTeam(workspaceId: number): Promise<Map<number, number[]>> {
    const byTeam = new Map<number, number[]>();
    for (const subject of await this.repo.memberSubjects(await this.repo.liveTeamIdsOfWorkspace(workspaceId))) {
      byTeam.set(subject.teamId, [...(byTeam.get(subject.teamId) ?? []), subject.subjectId]);
    }
    return byTeam;
  }

  async teamsOfMembers(workspaceId: number): Promise<Map<number, { id: number; name: string }[]>> {
    const teams = new Map((await this.repo.liveTeamsOfWorkspace(workspaceId)).map((team) => [team.id, team.name]));
    const byUser = new Map<number, { id: number; name: string }[]>();
    const subjects = (await this.repo.memberSubjects([...teams.keys()])).sort((a, b) => a.teamId - b.teamId);
    for (const subject of subjects) {
      const ofUser = byUser.get(subject.subjectId) ?? [];
      byUser.set(subject.subjectId, ofUser);
      ofUser.push({ id: subject.teamId, name: teams.get(subject.teamId)! });
    }
    return byUser;
  }

  userIdsOf(teamIds: readonly number[]): Promise<number[]> {
    return this.repo.userIdsOf(teamIds);
  }

  async leaveTeams(workspaceId: number, userId: number): Promise<void> {
    await this.repo.removeSubjects((await this.repo.subjectsOfUser(workspaceId, userId)).map((s) => s.id));
  }
}
