import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/** A team of a workspace (Baserow enterprise's `Team`). See the migration Teams. */
@Entity('enterprise_team')
export class TeamEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ type: 'varchar', length: 160 })
  name: string;

  /** Deleted teams go to the trash; while trashed they (and their subjects) behave as not existing. */
  @Column({ type: 'boolean', default: false })
  trashed: boolean;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}

/** One subject of a team (Baserow's `TeamSubject`): a user, by Baserow's subject type name. */
@Entity('enterprise_teamsubject')
export class TeamSubjectEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'team_id', type: 'integer' })
  teamId: number;

  @Column({ name: 'subject_type', type: 'varchar', length: 32 })
  subjectType: string;

  @Column({ name: 'subject_id', type: 'integer' })
  subjectId: number;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}

export const TEAM_ENTITIES = [TeamEntity, TeamSubjectEntity];
