import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { TeamJson, TeamSubjectJson } from './team.serializer';
import { checkTeamSubjects, TeamDto, TeamsQueryDto, TeamSubjectDto } from './teams.dto';
import { TeamsService } from './teams.service';

/** Baserow enterprise's teams API (`/api/teams/`): teams of a workspace and their subjects. */
@ApiTags('Teams')
@Authentication('JWT')
@Controller('api/teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get('workspace/:workspaceId')
  @ApiOperation({ operationId: 'workspace_list_teams', summary: 'Lists all teams in a given workspace (searchable by name, sortable).' })
  @ApiOkResponse({ type: [TeamJson] })
  list(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Query() query: TeamsQueryDto): Promise<TeamJson[]> {
    return this.teams.list(user, workspaceId, query.search, query.sorts);
  }

  @Post('workspace/:workspaceId')
  @HttpCode(200)
  @ApiOperation({ operationId: 'workspace_create_team', summary: 'Creates a new team, with its subjects and its role on the workspace.' })
  @ApiOkResponse({ type: TeamJson })
  create(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: TeamDto): Promise<TeamJson> {
    return this.teams.create(user, workspaceId, { ...body, subjects: checkTeamSubjects(body.subjects) });
  }

  @Get(':teamId')
  @ApiOperation({ operationId: 'get_team', summary: 'Returns the information related to the provided team id.' })
  @ApiOkResponse({ type: TeamJson })
  get(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number): Promise<TeamJson> {
    return this.teams.get(user, teamId);
  }

  @Put(':teamId')
  @ApiOperation({ operationId: 'update_team', summary: "Updates an existing team: its name, its subjects (those not named leave) and its role." })
  @ApiOkResponse({ type: TeamJson })
  update(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number, @Body() body: TeamDto): Promise<TeamJson> {
    return this.teams.update(user, teamId, { ...body, subjects: checkTeamSubjects(body.subjects) });
  }

  @Delete(':teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_team', summary: 'Moves a team (with its subjects and roles) to the trash, where it can be restored.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number): Promise<void> {
    await this.teams.delete(user, teamId);
  }

  @Get(':teamId/subjects')
  @ApiOperation({ operationId: 'list_team_subjects', summary: 'Lists all team subjects in a given team.' })
  @ApiOkResponse({ type: [TeamSubjectJson] })
  listSubjects(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number): Promise<TeamSubjectJson[]> {
    return this.teams.listSubjects(user, teamId);
  }

  @Post(':teamId/subjects')
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_subject', summary: 'Adds a member of the workspace to the team, by `subject_id` or `subject_user_email`.' })
  @ApiOkResponse({ type: TeamSubjectJson })
  createSubject(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number, @Body() body: TeamSubjectDto): Promise<TeamSubjectJson> {
    return this.teams.addSubject(user, teamId, body);
  }

  @Get(':teamId/subjects/:subjectId')
  @ApiOperation({ operationId: 'get_subject', summary: 'Returns the information related to the provided subject id.' })
  @ApiOkResponse({ type: TeamSubjectJson })
  getSubject(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number, @IdParam('subjectId') subjectId: number): Promise<TeamSubjectJson> {
    return this.teams.getSubject(user, teamId, subjectId);
  }

  @Delete(':teamId/subjects/:subjectId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_subject', summary: 'Removes a subject from the team.' })
  async deleteSubject(@CurrentUser() user: UserEntity, @IdParam('teamId') teamId: number, @IdParam('subjectId') subjectId: number): Promise<void> {
    await this.teams.deleteSubject(user, teamId, subjectId);
  }
}
