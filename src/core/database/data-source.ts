import { installSqliteFunctions } from './sqlite-functions';
import { DataSourceOptions } from 'typeorm';
import { ApplicationEntity } from '../../applications/application.entity';
import { BlacklistedTokenEntity } from '../../auth/blacklisted-token.entity';
import { FieldEntity, SelectOptionEntity } from '../../database/fields/field.entity';
import { RowCommentEntity, RowCommentsNotificationModeEntity } from '../../database/row-comments/row-comment.entity';
import { TableEntity } from '../../database/table.entity';
import { JobEntity } from '../../jobs/job.entity';
import { DatabaseTokenEntity, DatabaseTokenPermissionEntity } from '../../tokens/token.entity';
import { SettingsEntity } from '../../settings/settings.entity';
import { TrashedRowsEntity, TrashEntryEntity } from '../../trash/trash-entry.entity';
import { UserEntity } from '../../users/user.entity';
import { ViewDecorationEntity } from '../../views/decorations/decoration.entity';
import { ViewEntity, ViewFieldOptionsEntity } from '../../views/view.entity';
import { ViewFilterEntity, ViewFilterGroupEntity } from '../../views/filters/view-filter.entity';
import { ViewGroupByEntity, ViewSortEntity } from '../../views/sorts/view-sort.entity';
import { WorkspaceEntity, WorkspaceInvitationEntity, WorkspaceUserEntity } from '../../workspaces/workspace.entity';
import { AppConfig, ensureParentDir } from '../config/config';
import { InitialSchema1732000000000 } from './migrations/1732000000000-InitialSchema';
import { DatabaseCore1733000000000 } from './migrations/1733000000000-DatabaseCore';
import { InstanceSecret1735100000000 } from './migrations/1735100000000-InstanceSecret';
import { DatabaseTokens1736100000000 } from './migrations/1736100000000-DatabaseTokens';
import { RowHistory1736200000000 } from './migrations/1736200000000-RowHistory';
import { RowComments1736300000000 } from './migrations/1736300000000-RowComments';
import { Trash1736400000000 } from './migrations/1736400000000-Trash';
import { ViewFilters1736500000000 } from './migrations/1736500000000-ViewFilters';
import { ViewDecorations1736600000000 } from './migrations/1736600000000-ViewDecorations';
import { FieldDependencies1736700000000 } from './migrations/1736700000000-FieldDependencies';
import { UserFiles1736800000000 } from './migrations/1736800000000-UserFiles';
import { SearchIndex1736900000000 } from './migrations/1736900000000-SearchIndex';
import { UserFileEntity } from '../../files/user-file.entity';
import { FieldDependencyEntity } from '../../database/formula/field-dependency.entity';

/** Every metadata entity; a module that adds one lists it here. */
export const ENTITIES = [
  UserEntity,
  BlacklistedTokenEntity,
  WorkspaceEntity,
  WorkspaceUserEntity,
  WorkspaceInvitationEntity,
  ApplicationEntity,
  TableEntity,
  FieldEntity,
  SelectOptionEntity,
  ViewEntity,
  ViewFieldOptionsEntity,
  ViewFilterEntity,
  ViewFilterGroupEntity,
  ViewSortEntity,
  ViewGroupByEntity,
  ViewDecorationEntity,
  FieldDependencyEntity,
  JobEntity,
  SettingsEntity,
  RowCommentEntity,
  RowCommentsNotificationModeEntity,
  DatabaseTokenEntity,
  DatabaseTokenPermissionEntity,
  TrashEntryEntity,
  TrashedRowsEntity,
  UserFileEntity,
];

/** Migrations in the order they run; they use TypeORM's schema API so one tree serves both databases. */
export const MIGRATIONS = [
  InitialSchema1732000000000,
  DatabaseCore1733000000000,
  InstanceSecret1735100000000,
  DatabaseTokens1736100000000,
  RowHistory1736200000000,
  RowComments1736300000000,
  Trash1736400000000,
  ViewFilters1736500000000,
  ViewDecorations1736600000000,
  FieldDependencies1736700000000,
  UserFiles1736800000000,
  SearchIndex1736900000000,
];

/** The options shared by the app and the migrations CLI (ormconfig.ts). `synchronize` is never on. */
export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'sqlitePath'>): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, synchronize: false, migrationsRun: false, logging: false } as const;
  if (config.databaseUrl) {
    // Dates and timestamps of user tables are read as text (in UTC) and formatted by their field type.
    // Required here, not at the top: on SQLite the PostgreSQL driver is never loaded.
    const { types: pgTypes } = require('pg') as typeof import('pg');
    for (const oid of [1082, 1114, 1184]) pgTypes.setTypeParser(oid, (value: string) => value);
    return { ...common, type: 'postgres', url: config.databaseUrl, extra: { max: 20, options: '-c TimeZone=UTC' } };
  }
  ensureParentDir(config.sqlitePath);
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.sqlitePath,
    // WAL lets readers work while a write is in progress; NORMAL sync is safe with WAL.
    prepareDatabase: (db: { pragma(sql: string): unknown } & Parameters<typeof installSqliteFunctions>[0]) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      installSqliteFunctions(db);
    },
  };
}
