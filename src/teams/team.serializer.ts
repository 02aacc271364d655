import { ApiProperty } from '@nestjs/swagger';
import { toApiDateTime } from '../core/database/columns';
import type { TeamSubjectEntity } from './team.entity';
import type { TeamRow } from './team.repository';

export class TeamSampleSubjectJson {
  @ApiProperty({ description: "The subject's unique identifier." }) subject_id: number;
  @ApiProperty({ enum: ['auth.User'], description: 'The type of subject who belongs to the team.' }) subject_type: string;
  @ApiProperty({ nullable: true, type: 'string', description: "The subject's label. Defaults to a user's first name." }) subject_label: string | null;
  @ApiProperty({ description: 'The team subject unique identifier.' }) team_subject_id: number;
}

/** Baserow's TeamResponseSerializer. */
export class TeamJson {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The workspace the team belongs to.' }) workspace: number;
  @ApiProperty({ format: 'date-time' }) created_on: string;
  @ApiProperty({ format: 'date-time' }) updated_on: string;
  @ApiProperty({ nullable: true, type: 'string', description: 'The uid of the role this team has in its workspace.' }) default_role: string | null;
  @ApiProperty({ description: 'The amount of subjects (e.g. users) that are currently assigned to this team.' }) subject_count: number;
  @ApiProperty({ type: [TeamSampleSubjectJson], description: 'A sample, by default 10, of the most recent subjects to join this team.' })
  subject_sample: TeamSampleSubjectJson[];
}

/** Baserow's TeamSubjectResponseSerializer. */
export class TeamSubjectJson {
  @ApiProperty() id: number;
  @ApiProperty() subject_id: number;
  @ApiProperty({ enum: ['auth.User'] }) subject_type: string;
  @ApiProperty({ description: 'The team the subject belongs to.' }) team: number;
}

export function serializeTeam(row: TeamRow): TeamJson {
  const { team } = row;
  return {
    id: team.id,
    name: team.name,
    workspace: team.workspaceId,
    created_on: toApiDateTime(team.createdOn)!,
    updated_on: toApiDateTime(team.updatedOn)!,
    default_role: row.defaultRole,
    subject_count: row.subjectCount,
    subject_sample: row.sample.map((s) => ({ subject_id: s.subjectId, subject_type: s.subjectType, subject_label: s.label, team_subject_id: s.teamSubjectId })),
  };
}

export function serializeTeamSubject(subject: TeamSubjectEntity): TeamSubjectJson {
  return { id: subject.id, subject_id: subject.subjectId, subject_type: subject.subjectType, team: subject.teamId };
}
