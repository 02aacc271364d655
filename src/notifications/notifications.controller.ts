import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { requestUrl } from '../core/http/pagination';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { ListNotificationsQuery, UpdateNotificationDto } from './notifications.dto';
import { NotificationJson, NotificationPageJson } from './notification.serializer';
import { UserNotificationsService } from './user-notifications.service';

@ApiTags('Notifications')
@Authentication('JWT')
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: UserNotificationsService) {}

  @Get(':workspaceId')
  @ApiOperation({ operationId: 'list_workspace_notifications', summary: "The user's notifications of the workspace and user-level ones, newest first (limit/offset)." })
  @ApiOkResponse({ type: NotificationPageJson })
  list(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Query() query: ListNotificationsQuery, @Req() req: Request): Promise<NotificationPageJson> {
    return this.notifications.list(user.id, workspaceId, query, requestUrl(req));
  }

  @Delete(':workspaceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'clear_workspace_notifications', summary: "Clears the user's notifications of the workspace and user-level ones." })
  async clear(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number): Promise<void> {
    await this.notifications.clear(user.id, workspaceId);
  }

  @Post(':workspaceId/mark-all-as-read')
  @HttpCode(204)
  @ApiOperation({ operationId: 'mark_all_workspace_notifications_as_read', summary: "Marks the user's notifications of the workspace and user-level ones as read." })
  async markAllRead(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number): Promise<void> {
    await this.notifications.markAllRead(user.id, workspaceId);
  }

  @Patch(':workspaceId/:notificationId')
  @ApiOperation({ operationId: 'mark_notification_as_read', summary: 'Marks one notification of the user as read or unread.' })
  @ApiOkResponse({ type: NotificationJson })
  update(
    @CurrentUser() user: UserEntity,
    @IdParam('workspaceId') workspaceId: number,
    @IdParam('notificationId') notificationId: number,
    @Body() body: UpdateNotificationDto,
  ): Promise<NotificationJson> {
    return this.notifications.markRead(user.id, workspaceId, notificationId, body.read);
  }
}
