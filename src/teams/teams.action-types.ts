import { Injectable } from '@nestjs/common';
import type { ActionContext, ActionType } from '../actions/action-type';
import { trashableActionTypes } from '../actions/types/trashable';
import { TrashService } from '../trash/trash.service';
import type { TeamSubjectInput } from './teams.dto';
import { TeamsService } from './teams.service';

/**
 * The team actions (Baserow enterprise's `teams/actions.py`), undone and redone through the
 * teams service in the `teams_in_workspace` scope: a created or deleted team goes to and comes
 * back from the trash; an update is made again with the other side's name, role and subjects; a
 * subject is removed or added again (a new subject id, kept in the params for the next turn).
 */
interface TeamParams {
  team_id: number;
}

function teamTypes(teams: TeamsService, trash: TrashService) {
  return trashableActionTypes<TeamParams>({ trashType: 'team', itemId: (p) => p.team_id, trash: (user, p) => teams.delete(user, p.team_id), trashService: trash });
}

@Injectable()
export class CreateTeamActionType implements ActionType<TeamParams> {
  readonly type = 'create_team';
  readonly undo;
  readonly redo;
  constructor(teams: TeamsService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = teamTypes(teams, trash).appeared);
  }
}

@Injectable()
export class DeleteTeamActionType implements ActionType<TeamParams> {
  readonly type = 'delete_team';
  readonly undo;
  readonly redo;
  constructor(teams: TeamsService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = teamTypes(teams, trash).disappeared);
  }
}

interface UpdateTeamParams extends TeamParams {
  original_name: string;
  name: string;
  subjects: TeamSubjectInput[];
  original_subjects: TeamSubjectInput[];
  original_default_role_uid: string | null;
  default_role_uid: string | null;
}

@Injectable()
export class UpdateTeamActionType implements ActionType<UpdateTeamParams> {
  readonly type = 'update_team';
  constructor(private readonly teams: TeamsService) {}

  async undo(params: UpdateTeamParams, { user }: ActionContext): Promise<void> {
    await this.teams.update(user, params.team_id, { name: params.original_name, default_role: params.original_default_role_uid, subjects: params.original_subjects.map(subjectInput) });
  }

  async redo(params: UpdateTeamParams, { user }: ActionContext): Promise<void> {
    await this.teams.update(user, params.team_id, { name: params.name, default_role: params.default_role_uid, subjects: params.subjects.map(subjectInput) });
  }
}

interface SubjectParams extends TeamParams {
  /** The team subject's id (a new one each time it is added again). */
  subject_id: number;
  /** The user: `{pk}` or `{email}` as it was added (create), or its id (delete). */
  subject_lookup?: { pk?: number | null; email?: string };
  subject_subject_id?: number;
  subject_subject_type_natural_key: string;
}

/** Adds the subject again; answers the params with its new id. */
async function addAgain(teams: TeamsService, params: SubjectParams, user: ActionContext['user']): Promise<SubjectParams> {
  const lookup = params.subject_lookup;
  const input: TeamSubjectInput = lookup?.email
    ? { subject_id: null, subject_user_email: lookup.email, subject_type: params.subject_subject_type_natural_key }
    : { subject_id: params.subject_subject_id ?? lookup?.pk ?? null, subject_user_email: null, subject_type: params.subject_subject_type_natural_key };
  const added = await teams.addSubject(user, params.team_id, input);
  return { ...params, subject_id: added.id };
}

@Injectable()
export class CreateTeamSubjectActionType implements ActionType<SubjectParams> {
  readonly type = 'create_team_subject';
  constructor(private readonly teams: TeamsService) {}

  async undo(params: SubjectParams, { user }: ActionContext): Promise<void> {
    await this.teams.deleteSubject(user, params.team_id, params.subject_id);
  }

  redo(params: SubjectParams, { user }: ActionContext): Promise<SubjectParams> {
    return addAgain(this.teams, params, user);
  }
}

@Injectable()
export class DeleteTeamSubjectActionType implements ActionType<SubjectParams> {
  readonly type = 'delete_team_subject';
  constructor(private readonly teams: TeamsService) {}

  undo(params: SubjectParams, { user }: ActionContext): Promise<SubjectParams> {
    return addAgain(this.teams, params, user);
  }

  async redo(params: SubjectParams, { user }: ActionContext): Promise<void> {
    await this.teams.deleteSubject(user, params.team_id, params.subject_id);
  }
}

function subjectInput(subject: { subject_id: number | null; subject_type: string }): TeamSubjectInput {
  return { subject_id: subject.subject_id, subject_user_email: null, subject_type: subject.subject_type };
}

export const TEAM_ACTION_TYPES = [CreateTeamActionType, DeleteTeamActionType, UpdateTeamActionType, CreateTeamSubjectActionType, DeleteTeamSubjectActionType];
