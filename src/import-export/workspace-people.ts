import type { WorkspaceRepository } from '../workspaces/workspace.repository';
import type { WorkspacePeople } from './baserow/baserow-cells';

/** The members of a workspace by id and e-mail (collaborators and user filters travel as e-mails). */
export async function workspacePeople(workspaces: WorkspaceRepository, workspaceId: number): Promise<WorkspacePeople> {
  const members = await workspaces.members([workspaceId]);
  const emails = new Map(members.map((m) => [m.user.id, m.user.email]));
  const ids = new Map(members.map((m) => [m.user.email.toLowerCase(), m.user.id]));
  return {
    emailOf: (userId) => emails.get(userId) ?? null,
    idOf: (email) => ids.get(email.toLowerCase()) ?? null,
  };
}
