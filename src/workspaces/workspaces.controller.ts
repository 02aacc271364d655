import { WorkspaceOperations as W } from '../permissions';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Authentication, CurrentUser, Public } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { InvitationsService } from './invitations.service';
import { PermissionsService, PermissionEntry } from './permissions.service';
import {
  UserWorkspaceInvitationJson,
  WorkspaceInvitationJson,
  WorkspaceItemJson,
  WorkspaceJson,
  WorkspaceUserJson,
} from './workspace.serializer';
import {
  CreateInvitationDto,
  ListQueryDto,
  OrderWorkspacesDto,
  UpdateWorkspaceUserDto,
  WorkspaceNameDto,
} from './workspaces.dto';
import { WorkspacesService } from './workspaces.service';

@ApiTags('Workspaces')
@Authentication('JWT')
@Controller('api/workspaces')
export class WorkspacesController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly permissions: PermissionsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'list_workspaces', summary: "The user's workspaces, in the user's order." })
  @ApiOkResponse({ type: [WorkspaceItemJson] })
  list(@CurrentUser() user: UserEntity): Promise<WorkspaceItemJson[]> {
    return this.workspaces.listForUser(user.id);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_workspace', summary: 'Creates a workspace with the user as its admin.' })
  @ApiOkResponse({ type: WorkspaceItemJson })
  async create(@CurrentUser() user: UserEntity, @Body() body: WorkspaceNameDto): Promise<WorkspaceItemJson> {
    const workspace = await this.workspaces.create(user, body.name);
    return this.workspaces.item(workspace.id, user.id);
  }

  @Post('order')
  @HttpCode(204)
  @ApiOperation({ operationId: 'order_workspaces', summary: "Sets the user's order of their workspaces." })
  async order(@CurrentUser() user: UserEntity, @Body() body: OrderWorkspacesDto): Promise<void> {
    await this.workspaces.order(user, body.workspaces);
  }

  @Patch(':workspaceId')
  @ApiOperation({ operationId: 'update_workspace', summary: 'Renames a workspace (admins only).' })
  @ApiOkResponse({ type: WorkspaceJson })
  update(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number, @Body() body: WorkspaceNameDto): Promise<WorkspaceJson> {
    return this.workspaces.update(user, id, body.name);
  }

  @Delete(':workspaceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_workspace', summary: 'Moves a workspace to the trash (admins only).' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number): Promise<void> {
    await this.workspaces.delete(user, id);
  }

  @Post(':workspaceId/leave')
  @HttpCode(204)
  @ApiOperation({ operationId: 'leave_workspace', summary: 'The user leaves the workspace (not its last admin).' })
  async leave(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number): Promise<void> {
    await this.workspaces.leave(user, id);
  }

  @Get(':workspaceId/permissions')
  @Answer({ type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, permissions: {} } } })
  @ApiOperation({ operationId: 'workspace_permissions', summary: "The user's permissions in the workspace, per permission manager." })
  async workspacePermissions(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number): Promise<PermissionEntry[]> {
    const { membership } = await this.workspaces.requireMembership(id, user.id, W.membership);
    return this.permissions.forWorkspace(user, membership);
  }

  // Members

  @Get('users/workspace/:workspaceId')
  @ApiOperation({ operationId: 'list_workspace_users', summary: 'The members of a workspace (admins only).' })
  @ApiOkResponse({ type: [WorkspaceUserJson] })
  members(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number, @Query() query: ListQueryDto): Promise<WorkspaceUserJson[]> {
    return this.workspaces.listMembers(user, id, query.search, query.sorts);
  }

  @Patch('users/:workspaceUserId')
  @ApiOperation({ operationId: 'update_workspace_user', summary: "Changes a member's role (admins only)." })
  @ApiOkResponse({ type: WorkspaceUserJson })
  updateMember(@CurrentUser() user: UserEntity, @IdParam('workspaceUserId') id: number, @Body() body: UpdateWorkspaceUserDto): Promise<WorkspaceUserJson> {
    return this.workspaces.updateMember(user, id, body.permissions);
  }

  @Delete('users/:workspaceUserId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_workspace_user', summary: 'Removes a member (admins only; not oneself).' })
  async deleteMember(@CurrentUser() user: UserEntity, @IdParam('workspaceUserId') id: number): Promise<void> {
    await this.workspaces.deleteMember(user, id);
  }
}

@ApiTags('Workspace invitations')
@Authentication('JWT')
@Controller('api/workspaces/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get('workspace/:workspaceId')
  @ApiOperation({ operationId: 'list_workspace_invitations', summary: 'Pending invitations of a workspace (admins only).' })
  @ApiOkResponse({ type: [WorkspaceInvitationJson] })
  list(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number, @Query() query: ListQueryDto): Promise<WorkspaceInvitationJson[]> {
    return this.invitations.list(user, id, query.search, query.sorts);
  }

  @Post('workspace/:workspaceId')
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_workspace_invitation', summary: 'Invites an e-mail address to the workspace (admins only).' })
  @ApiOkResponse({ type: WorkspaceInvitationJson })
  create(@CurrentUser() user: UserEntity, @IdParam('workspaceId') id: number, @Body() body: CreateInvitationDto): Promise<WorkspaceInvitationJson> {
    return this.invitations.create(user, id, body);
  }

  @Get('token/:token')
  @Public()
  @ApiOperation({ operationId: 'get_workspace_invitation_by_token', summary: 'The invitation a signed token points at (no auth).' })
  @ApiOkResponse({ type: UserWorkspaceInvitationJson })
  byToken(@Param('token') token: string): Promise<UserWorkspaceInvitationJson> {
    return this.invitations.publicView(token);
  }

  @Get(':invitationId')
  @ApiOperation({ operationId: 'get_workspace_invitation', summary: 'One invitation (admins only).' })
  @ApiOkResponse({ type: WorkspaceInvitationJson })
  get(@CurrentUser() user: UserEntity, @IdParam('invitationId') id: number): Promise<WorkspaceInvitationJson> {
    return this.invitations.get(user, id);
  }

  @Patch(':invitationId')
  @ApiOperation({ operationId: 'update_workspace_invitation', summary: "Changes an invitation's role (admins only)." })
  @ApiOkResponse({ type: WorkspaceInvitationJson })
  update(@CurrentUser() user: UserEntity, @IdParam('invitationId') id: number, @Body() body: UpdateWorkspaceUserDto): Promise<WorkspaceInvitationJson> {
    return this.invitations.update(user, id, body.permissions);
  }

  @Delete(':invitationId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_workspace_invitation', summary: 'Withdraws an invitation (admins only).' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('invitationId') id: number): Promise<void> {
    await this.invitations.delete(user, id);
  }

  @Post(':invitationId/accept')
  @HttpCode(200)
  @ApiOperation({ operationId: 'accept_workspace_invitation', summary: 'Accepts an invitation addressed to the user.' })
  @ApiOkResponse({ type: WorkspaceItemJson })
  accept(@CurrentUser() user: UserEntity, @IdParam('invitationId') id: number): Promise<WorkspaceItemJson> {
    return this.invitations.accept(user, id);
  }

  @Post(':invitationId/reject')
  @HttpCode(204)
  @ApiOperation({ operationId: 'reject_workspace_invitation', summary: 'Rejects an invitation addressed to the user.' })
  async reject(@CurrentUser() user: UserEntity, @IdParam('invitationId') id: number): Promise<void> {
    await this.invitations.reject(user, id);
  }
}

@ApiTags('User')
@Authentication('JWT')
@Controller('api/user/dashboard')
export class DashboardController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @ApiOkResponse({ schema: { type: 'object', properties: { workspace_invitations: { type: 'array', items: { $ref: '#/components/schemas/UserWorkspaceInvitationJson' } } } } })
  @ApiOperation({ operationId: 'dashboard', summary: 'What the dashboard shows: pending invitations to the user.' })
  async dashboard(@CurrentUser() user: UserEntity): Promise<{ workspace_invitations: UserWorkspaceInvitationJson[] }> {
    return { workspace_invitations: await this.invitations.forUser(user) };
  }
}
