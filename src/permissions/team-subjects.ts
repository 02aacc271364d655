import { Injectable } from '@nestjs/common';

/**
 * Teams as subjects of roles: the seam the teams module fills (it provides its own class for this
 * token). Until teams exist nobody is in a team and no team exists, so team subjects are refused
 * as unknown subjects, as Baserow refuses a team id it does not find.
 */
@Injectable()
export class TeamSubjects {
  /** The teams of the workspace the user is a subject of. */
  async teamIdsOf(_userId: number, _workspaceId: number): Promise<number[]> {
    return [];
  }

  /** Which of the team ids are live teams of the workspace. */
  async teamsOfWorkspace(_workspaceId: number, _teamIds: readonly number[]): Promise<Set<number>> {
    return new Set();
  }

  /** The users of each team of the workspace. */
  async usersByTeam(_workspaceId: number): Promise<Map<number, number[]>> {
    return new Map();
  }

  /** The users the teams include (who `permissions_updated` goes to when a team's role changes). */
  async userIdsOf(_teamIds: readonly number[]): Promise<number[]> {
    return [];
  }
}
