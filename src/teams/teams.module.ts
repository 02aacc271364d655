import { Global, Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ActionTypeRegistry } from '../actions/action-type';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { TeamSubjects } from '../permissions/team-subjects';
import { TEAM_ENTITIES } from './team.entity';
import { TeamRepository } from './team.repository';
import { TeamSubjectsFromTeams } from './team-subjects.from-teams';
import { TEAM_ACTION_TYPES } from './teams.action-types';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

/**
 * Teams (`/api/teams/`), Baserow enterprise's. Global because it provides `TeamSubjects`, the
 * seam through which the permission check, the role API, the workspaces module and the realtime
 * listener read teams, without the permissions module knowing the teams tables. Registers the
 * undoable team actions.
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: TEAM_ENTITIES })],
  controllers: [TeamsController],
  providers: [TeamRepository, TeamsService, ...TEAM_ACTION_TYPES, { provide: TeamSubjects, useClass: TeamSubjectsFromTeams }],
  exports: [TeamRepository, TeamSubjects],
})
export class TeamsModule implements OnModuleInit {
  constructor(
    private readonly registry: ActionTypeRegistry,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const type of TEAM_ACTION_TYPES) this.registry.register(this.moduleRef.get(type));
  }
}
