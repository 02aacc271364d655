import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsModule } from './notifications.module';
import { UserNotificationsService } from './user-notifications.service';

/** The `/api/notifications/` endpoints (they check workspace membership, hence apart from NotificationsModule). */
@Module({
  imports: [NotificationsModule, WorkspacesModule],
  controllers: [NotificationsController],
  providers: [UserNotificationsService],
})
export class NotificationsApiModule {}
