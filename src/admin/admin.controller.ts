import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import type { TokenAnswer } from '../auth/auth.service';
import { StaffOnly } from '../auth/staff.guard';
import { requestUrl } from '../core/http/pagination';
import { IdParam } from '../core/http/params';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { AdminDashboardJson, AdminDashboardService } from './admin-dashboard.service';
import { AdminCreateUserDto, AdminDashboardQuery, AdminListQuery, AdminUpdateUserDto } from './admin.dto';
import { DASHBOARD_SCHEMA, USER_ADMIN_PAGE_SCHEMA, USER_ADMIN_SCHEMA, WORKSPACE_ADMIN_PAGE_SCHEMA } from './admin.schemas';
import { AdminUsersService, UserAdminJson } from './admin-users.service';
import { AdminWorkspacesService, WorkspaceAdminJson } from './admin-workspaces.service';
import type { Page } from './listing';

/** Baserow's `/api/admin/`: staff only (DRF's IsAdminUser), every tenant's accounts and workspaces. */
@ApiTags('Admin')
@Authentication('JWT')
@StaffOnly()
@Controller('api/admin')
export class AdminController {
  constructor(
    private readonly dashboardService: AdminDashboardService,
    private readonly users: AdminUsersService,
    private readonly workspaces: AdminWorkspacesService,
  ) {}

  @Get('dashboard')
  @Answer(DASHBOARD_SCHEMA)
  @ApiOperation({ operationId: 'admin_dashboard', summary: 'New and active users over the last 24 hours, 7 and 30 days (and the periods before), per day over 30 days, and totals.' })
  dashboard(@Query() query: AdminDashboardQuery): Promise<AdminDashboardJson> {
    return this.dashboardService.dashboard(query.timezone);
  }

  @Get('users')
  @Answer(USER_ADMIN_PAGE_SCHEMA)
  @ApiOperation({ operationId: 'admin_list_users', summary: 'Every user with their workspaces; searched by id, e-mail or name; sorted by id, is_active, name, username, date_joined, last_login.' })
  listUsers(@Query() query: AdminListQuery, @Req() req: Request): Promise<Page<UserAdminJson>> {
    return this.users.list(query, requestUrl(req));
  }

  @Post('users')
  @HttpCode(200)
  @Answer(USER_ADMIN_SCHEMA)
  @ApiOperation({ operationId: 'admin_create_user', summary: 'Creates a user, even when sign-ups are off.' })
  createUser(@Body() body: AdminCreateUserDto, @Req() req: Request): Promise<UserAdminJson> {
    return this.users.create(req.body, body);
  }

  @Post('users/impersonate')
  @HttpCode(200)
  @ApiBody({ schema: { type: 'object', required: ['user'], properties: { user: { type: 'integer', description: 'The id of a user who is not staff.' } } } })
  @Answer(Schemas.ref('TokenAuth'))
  @ApiOperation({ operationId: 'admin_impersonate_user', summary: "Another user's token-auth answer (not a staff account's)." })
  impersonate(@CurrentUser() user: UserEntity, @Body() body: unknown): Promise<TokenAnswer> {
    return this.users.impersonate(user, body);
  }

  @Patch('users/:userId')
  @Answer(USER_ADMIN_SCHEMA)
  @ApiOperation({ operationId: 'admin_edit_user', summary: "Updates a user's name, e-mail, password, active and staff flags (not one's own active or staff flag)." })
  updateUser(@CurrentUser() user: UserEntity, @IdParam('userId') userId: number, @Body() body: AdminUpdateUserDto, @Req() req: Request): Promise<UserAdminJson> {
    return this.users.update(user, userId, req.body, body);
  }

  @Delete('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'admin_delete_user', summary: 'Deletes a user for good (not oneself).' })
  async deleteUser(@CurrentUser() user: UserEntity, @IdParam('userId') userId: number): Promise<void> {
    await this.users.delete(user, userId);
  }

  @Get('workspaces')
  @Answer(WORKSPACE_ADMIN_PAGE_SCHEMA)
  @ApiOperation({ operationId: 'admin_list_workspaces', summary: 'Every workspace with its members and application count; searched by id or name.' })
  listWorkspaces(@Query() query: AdminListQuery, @Req() req: Request): Promise<Page<WorkspaceAdminJson>> {
    return this.workspaces.list(query, requestUrl(req));
  }

  @Delete('workspaces/:workspaceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'admin_delete_workspace', summary: 'Deletes a workspace and its applications for good.' })
  async deleteWorkspace(@IdParam('workspaceId') workspaceId: number): Promise<void> {
    await this.workspaces.delete(workspaceId);
  }
}
