import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApplicationsModule } from './applications/applications.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './core/config/config';
import { CoreModule } from './core/core.module';
import { collectOwnedSchema, OwnedSchemaModule } from './core/database/owned-schema';
import { loadExtraModules } from './core/extensions/extra-modules';
import { JsonBodyGuard } from './core/http/json-body.guard';
import { RequestRateLimiter } from './core/http/rate-limit';
import { FilesModule } from './files/files.module';
import { DatabaseModule } from './database/database.module';
import { RowCommentsModule } from './database/row-comments/row-comments.module';
import { JobsModule } from './jobs/jobs.module';
import { LicensesModule } from './licenses/licenses.module';
import { MonitoringModule } from './monitoring/monitoring.module';
import { NotificationsApiModule } from './notifications/notifications-api.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OpenApiModule } from './openapi/openapi.module';
import { RealtimeModule } from './realtime/realtime.module';
import { SettingsModule } from './settings/settings.module';
import { TrashModule } from './trash/trash.module';
import { TrashTypesModule } from './trash/types/trash-types.module';
import { UsersModule } from './users/users.module';
import { PublicViewsModule } from './views/public/public-views.module';
import { ViewsModule } from './views/views.module';
import { FormulaModule } from './database/formula/formula.module';
import { ExportModule } from './database/export/export.module';
import { WorkspacesModule } from './workspaces/workspaces.module';
import { PermissionsModule } from './permissions/permissions.module';
import { RolesModule } from './permissions/roles.module';
import { TeamsModule } from './teams/teams.module';
import { FieldPermissionsModule } from './field-permissions/field-permissions.module';
import { MIGRATIONS } from './migrations';
import { TemplatesModule } from './templates/templates.module';
import { ImportExportModule } from './import-export/import-export.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { McpModule } from './mcp/mcp.module';
import { SnapshotsModule } from './snapshots/snapshots.module';
import { AuditModule } from './audit/audit.module';
import { ActionsModule } from './actions/actions.module';
import { ActionTypesModule } from './actions/types/action-types.module';
import { AdminModule } from './admin/admin.module';
import { SsoModule } from './sso/sso.module';

/**
 * The modules the app is built from. Each declares the entities it owns; the metadata schema's
 * history (src/migrations/) is the app's, declared here.
 */
function appModules(config: AppConfig): (Type<unknown> | DynamicModule)[] {
  return [
    OwnedSchemaModule.forFeature({ migrations: MIGRATIONS }),
    ActionsModule,
    PermissionsModule,
    TeamsModule,
    FieldPermissionsModule,
    FilesModule,
    SettingsModule,
    TrashModule,
    UsersModule,
    AuthModule,
    LicensesModule,
    WorkspacesModule,
    ApplicationsModule,
    DatabaseModule,
    RowCommentsModule,
    JobsModule,
    NotificationsModule,
    NotificationsApiModule,
    OpenApiModule,
    RealtimeModule,
    FormulaModule,
    ViewsModule,
    PublicViewsModule,
    TemplatesModule,
    ImportExportModule,
    ExportModule,
    TrashTypesModule,
    WebhooksModule,
    SnapshotsModule,
    RolesModule,
    ActionTypesModule,
    AdminModule,
    SsoModule,
    AuditModule,
    McpModule,
    MonitoringModule.forRoot(config),
    // Self-hosters' modules (EXTRA_MODULES), after the core so they can import its modules.
    ...loadExtraModules(config.extraModules),
  ];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const modules = appModules(config);
    return {
      module: AppModule,
      // The data source gets the entities and migrations these modules declare.
      imports: [CoreModule.forRoot(config, collectOwnedSchema(modules)), ...modules],
      // Authentication runs first, then the user's request limit, then the body is checked (401 before 415, as in Baserow).
      providers: [
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useExisting: RequestRateLimiter },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
      ],
    };
  }
}
