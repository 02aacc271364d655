import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { RoleAssignmentJson } from './role-assignment.serializer';
import { RoleAssignmentsService } from './role-assignments.service';
import { BatchRoleAssignmentsDto, checkAssignmentItems, CreateRoleAssignmentDto, RoleAssignmentsQueryDto } from './roles.dto';

@ApiTags('Role assignments')
@Authentication('JWT')
@Controller('api/role')
export class RolesController {
  constructor(private readonly roles: RoleAssignmentsService) {}

  @Get(':workspaceId')
  @ApiOperation({ operationId: 'list_role_assignments', summary: 'The role assignments on one scope of the workspace (admins only).' })
  @ApiOkResponse({ type: [RoleAssignmentJson] })
  list(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Query() query: RoleAssignmentsQueryDto): Promise<RoleAssignmentJson[]> {
    return this.roles.list(user, workspaceId, query.scope_type, query.scope_id);
  }

  @Post(':workspaceId')
  @HttpCode(200)
  @ApiOperation({ operationId: 'assign_role', summary: 'Assigns a role to a user or team on a scope of the workspace; a null role removes it (204).' })
  @ApiOkResponse({ type: RoleAssignmentJson })
  async assign(
    @CurrentUser() user: UserEntity,
    @IdParam('workspaceId') workspaceId: number,
    @Body() body: CreateRoleAssignmentDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RoleAssignmentJson | undefined> {
    const [assignment] = await this.roles.assign(user, workspaceId, [body], { batch: false });
    if (assignment) return assignment;
    res.status(204);
    return undefined;
  }

  @Post(':workspaceId/batch')
  @HttpCode(200)
  @ApiOperation({ operationId: 'batch_assign_role', summary: 'Assigns or removes several roles at once; each item answers its assignment or null.' })
  @ApiOkResponse({ schema: { type: 'array', items: { nullable: true, allOf: [{ $ref: '#/components/schemas/RoleAssignmentJson' }] } } })
  batch(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: BatchRoleAssignmentsDto): Promise<(RoleAssignmentJson | null)[]> {
    return this.roles.assign(user, workspaceId, checkAssignmentItems(body.items), { batch: true });
  }
}
