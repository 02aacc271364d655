import { checkItems, Field, FieldSpec } from '../core/validation/field';
import { SUBJECT_TYPES } from '../permissions/role-assignment.entity';

/** What may be a team's subject (Baserow's SUPPORTED_SUBJECT_TYPES): users. */
export const TEAM_SUBJECT_TYPES: readonly string[] = [SUBJECT_TYPES.user];

/** Baserow's TeamSubjectSerializer, field by field (the id or the e-mail is looked up by the service). */
export const TEAM_SUBJECT_FIELDS = {
  subject_id: { kind: 'int', min: 1, required: false, nullable: true, default: null, description: "The subject's unique identifier." },
  subject_user_email: { kind: 'email', required: false, nullable: true, default: null, description: "The user subject's email address." },
  subject_type: { kind: 'choice', choices: TEAM_SUBJECT_TYPES, description: 'The type of subject that is being invited.' },
} as const satisfies Record<string, FieldSpec>;

/** A subject as a request names it. */
export interface TeamSubjectInput {
  subject_id: number | null;
  subject_user_email: string | null;
  subject_type: string;
}

export class TeamSubjectDto implements TeamSubjectInput {
  @Field(TEAM_SUBJECT_FIELDS.subject_id) subject_id: number | null;
  @Field(TEAM_SUBJECT_FIELDS.subject_user_email) subject_user_email: string | null;
  @Field(TEAM_SUBJECT_FIELDS.subject_type) subject_type: string;
}

/** Baserow's TeamSerializer (create and update: PUT replaces the subjects and the role). */
export class TeamDto {
  @Field({ kind: 'string', max: 160, description: 'A human friendly name for this team.' })
  name: string;

  @Field({
    kind: 'string',
    required: false,
    nullable: true,
    description: "The uid of the role the team gets on its workspace; omitted: NO_ACCESS; null: no role.",
  })
  default_role?: string | null;

  @Field({ kind: 'list', of: { kind: 'object' }, required: false, default: [], description: 'The subjects (`subject_id`, `subject_type`) the team has after this request.' })
  subjects: Record<string, unknown>[];
}

/** The list's query (Baserow's GetTeamsViewParamsSerializer). */
export class TeamsQueryDto {
  @Field({ kind: 'int', required: false, description: 'Accepted and ignored, as Baserow does (the list is not paginated).' })
  page?: number;

  @Field({ kind: 'string', required: false, nullable: true, description: 'Search for teams by their name.' })
  search?: string | null;

  @Field({ kind: 'string', required: false, nullable: true, description: 'Sort teams by `name`, `default_role` or `subject_sample` (their subject count): `+attr` / `-attr`, comma-separated.' })
  sorts?: string | null;
}

/** The team's `subjects` items checked as the subject route's body is, errors under `subjects.<index>`. */
export function checkTeamSubjects(items: Record<string, unknown>[]): TeamSubjectInput[] {
  return checkItems<TeamSubjectInput>(TEAM_SUBJECT_FIELDS, items, 'subjects');
}
