/**
 * Teams as subjects of roles: the seam the permission check, the role API and the realtime
 * listener read teams through. The teams module provides its implementation for this token
 * (src/teams/team-subjects.from-teams.ts); the permissions module knows no team table.
 */
export abstract class TeamSubjects {
  /** The live teams of the workspace the user is a subject of. */
  abstract teamIdsOf(userId: number, workspaceId: number): Promise<number[]>;

  /** Which of the team ids are live teams of the workspace. */
  abstract teamsOfWorkspace(workspaceId: number, teamIds: readonly number[]): Promise<Set<number>>;

  /** The users (members of the workspace) of each live team of the workspace. */
  abstract usersByTeam(workspaceId: number): Promise<Map<number, number[]>>;

  /** Each member's live teams in the workspace, `{id, name}` in team id order (Baserow's `teams` member data). */
  abstract teamsOfMembers(workspaceId: number): Promise<Map<number, { id: number; name: string }[]>>;

  /** The users the teams include (who `permissions_updated` goes to when a team's role changes). */
  abstract userIdsOf(teamIds: readonly number[]): Promise<number[]>;

  /** A member leaves the workspace: they leave its teams (call inside the removal's unit of work). */
  abstract leaveTeams(workspaceId: number, userId: number): Promise<void>;
}
