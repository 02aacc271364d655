import { Module, OnModuleInit } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { DatabaseModule } from '../database/database.module';
import { Broadcaster } from './broadcaster';
import { DatabaseRealtimeListener } from './database.listener';
import { FieldPermissionsListener } from './field-permissions.listener';
import { PageTypeRegistry } from './pages/page-type';
import { RowPageType } from './pages/row.page';
import { TablePageType } from './pages/table.page';
import { ViewPageType } from './pages/view.page';
import { NotificationsListener } from './notifications.listener';
import { PublicViewsListener } from './public-views.listener';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeListener } from './realtime.listener';
import { RealtimeRepository } from './realtime.repository';
import { RowCommentsListener } from './row-comments.listener';
import { RowHistoryListener } from './row-history.listener';
import { SocketAuthenticator } from './socket-authenticator';
import { SocketRegistry } from './socket-registry';
import { ViewsListener } from './views.listener';

/**
 * Real time: the `/ws/core/` gateway, page subscriptions, and the listener that turns
 * committed domain events into messages. Other modules add page types through
 * PageTypeRegistry and send through Broadcaster; nothing else knows about sockets.
 */
@Module({
  imports: [AuthModule, UsersModule, WorkspacesModule, ApplicationsModule, DatabaseModule],
  providers: [
    RealtimeGateway,
    SocketRegistry,
    SocketAuthenticator,
    Broadcaster,
    RealtimeListener,
    ViewsListener,
    DatabaseRealtimeListener,
    RowCommentsListener,
    RowHistoryListener,
    FieldPermissionsListener,
    NotificationsListener,
    RealtimeRepository,
    PageTypeRegistry,
    TablePageType,
    RowPageType,
    ViewPageType,
    PublicViewsListener,
  ],
  exports: [PageTypeRegistry, Broadcaster, RealtimeRepository, SocketRegistry],
})
export class RealtimeModule implements OnModuleInit {
  constructor(
    private readonly pages: PageTypeRegistry,
    private readonly table: TablePageType,
    private readonly row: RowPageType,
    private readonly view: ViewPageType,
  ) {}

  onModuleInit(): void {
    this.pages.register(this.table);
    this.pages.register(this.row);
    this.pages.register(this.view);
  }
}
