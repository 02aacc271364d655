import { Global, Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { TeamSubjects } from '../permissions/team-subjects';
import { TEAM_ENTITIES } from './team.entity';
import { TeamRepository } from './team.repository';
import { TeamSubjectsFromTeams } from './team-subjects.from-teams';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

/**
 * Teams (`/api/teams/`), Baserow enterprise's. Global because it provides `TeamSubjects`, the
 * seam through which the permission check, the role API, the workspaces module and the realtime
 * listener read teams, without the permissions module knowing the teams tables.
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: TEAM_ENTITIES })],
  controllers: [TeamsController],
  providers: [TeamRepository, TeamsService, { provide: TeamSubjects, useClass: TeamSubjectsFromTeams }],
  exports: [TeamRepository, TeamSubjects],
})
export class TeamsModule {}
