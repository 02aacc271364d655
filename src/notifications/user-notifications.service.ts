import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceOperations as W } from '../permissions';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { limitOffsetLinks } from '../core/http/pagination';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { NotificationJson } from './notification.serializer';
import { NotificationsService } from './notifications.service';

/** The notification endpoints' rules: the caller must be a member of the path's workspace (404 / 400 otherwise). */
@Injectable()
export class UserNotificationsService {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly notifications: NotificationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(userId: number, workspaceId: number, query: { limit?: number | null; offset?: number }, url: URL) {
    await this.workspaces.require(workspaceId, userId, W.listNotifications);
    const max = this.config.rowPageSizeLimit;
    const limit = Math.min(query.limit ?? max, max);
    const offset = query.offset ?? 0;
    const { count, results } = await this.notifications.list(userId, workspaceId, limit, offset);
    return { count, ...limitOffsetLinks(url, limit, offset, count), results };
  }

  async markRead(userId: number, workspaceId: number, notificationId: number, read: boolean): Promise<NotificationJson> {
    await this.workspaces.require(workspaceId, userId, W.markNotificationAsRead);
    return this.notifications.markRead(userId, workspaceId, notificationId, read);
  }

  async markAllRead(userId: number, workspaceId: number): Promise<void> {
    await this.workspaces.require(workspaceId, userId, W.markNotificationAsRead);
    await this.notifications.markAllRead(userId, workspaceId);
  }

  async clear(userId: number, workspaceId: number): Promise<void> {
    await this.workspaces.require(workspaceId, userId, W.clearNotifications);
    await this.notifications.clear(userId, workspaceId);
  }
}
