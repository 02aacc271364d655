import { DataSourceOptions } from 'typeorm';
import { AppConfig, ensureParentDir } from '../config/config';
import { OwnedSchema } from './owned-schema';
import { installSqliteFunctions, SqliteFunctionTarget } from './sqlite-functions';

/**
 * The options shared by the app and the migrations CLI (ormconfig.ts), with the entities and
 * migrations the app's modules declare (`collectOwnedSchema`), and on SQLite the SQL functions they
 * declare. `synchronize` is never on.
 */
export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'sqlitePath'>, schema: OwnedSchema): DataSourceOptions {
  const common = { entities: schema.entities, migrations: schema.migrations, synchronize: false, migrationsRun: false, logging: false } as const;
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
    prepareDatabase: (db: { pragma(sql: string): unknown } & SqliteFunctionTarget) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      installSqliteFunctions(db, schema.sqliteFunctions);
    },
  };
}
