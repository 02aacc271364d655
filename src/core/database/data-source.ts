import { DataSourceOptions } from 'typeorm';
import { ApplicationEntity } from '../../applications/application.entity';
import { BlacklistedTokenEntity } from '../../auth/blacklisted-token.entity';
import { TableEntity } from '../../database/table.entity';
import { JobEntity } from '../../jobs/job.entity';
import { SettingsEntity } from '../../settings/settings.entity';
import { UserEntity } from '../../users/user.entity';
import { WorkspaceEntity, WorkspaceInvitationEntity, WorkspaceUserEntity } from '../../workspaces/workspace.entity';
import { AppConfig, ensureParentDir } from '../config/config';
import { InitialSchema1732000000000 } from './migrations/1732000000000-InitialSchema';

/** Every metadata entity; a module that adds one lists it here. */
export const ENTITIES = [
  UserEntity,
  BlacklistedTokenEntity,
  WorkspaceEntity,
  WorkspaceUserEntity,
  WorkspaceInvitationEntity,
  ApplicationEntity,
  TableEntity,
  JobEntity,
  SettingsEntity,
];

/** Migrations in the order they run; they use TypeORM's schema API so one tree serves both databases. */
export const MIGRATIONS = [InitialSchema1732000000000];

/** The options shared by the app and the migrations CLI (ormconfig.ts). `synchronize` is never on. */
export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'sqlitePath'>): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, synchronize: false, migrationsRun: false, logging: false } as const;
  if (config.databaseUrl) {
    return { ...common, type: 'postgres', url: config.databaseUrl, extra: { max: 20 } };
  }
  ensureParentDir(config.sqlitePath);
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.sqlitePath,
    // WAL lets readers work while a write is in progress; NORMAL sync is safe with WAL.
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
    },
  };
}
