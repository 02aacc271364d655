import { operations } from '../operation-type';

/** Operations on a workspace's teams and their subjects (Baserow enterprise's `teams/operations.py`). */
export const TeamOperations = operations({
  list: { name: 'enterprise.teams.list_teams', context: 'workspace' },
  create: { name: 'enterprise.teams.create_team', context: 'workspace' },
  read: { name: 'enterprise.teams.team.read', context: 'team' },
  update: { name: 'enterprise.teams.team.update', context: 'team' },
  delete: { name: 'enterprise.teams.team.delete', context: 'team' },
  restore: { name: 'enterprise.teams.team.restore', context: 'team' },
  listSubjects: { name: 'enterprise.teams.list_subjects', context: 'team' },
  createSubject: { name: 'enterprise.teams.create_subject', context: 'team' },
  readSubject: { name: 'enterprise.teams.read_subject', context: 'team_subject' },
  deleteSubject: { name: 'enterprise.teams.delete_subject', context: 'team_subject' },
});
