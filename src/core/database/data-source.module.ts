import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { Dialect, dialectFor } from './dialect';
import { OwnedSchema } from './owned-schema';
import { SqliteConnection } from './sqlite-connection';
import { SqliteReadPool } from './sqlite-read-pool';
import { LongWrite } from './long-write';
import { DIALECT } from './tokens';
import { UnitOfWork } from './unit-of-work';
import { WriteVersions } from './write-versions';

const OWNED_SCHEMA = Symbol('OWNED_SCHEMA');

/**
 * The TypeORM data source (migrated at start-up), the SQL dialect, the unit of work and the
 * versions caches are keyed by. Its entities and migrations are those the app's modules declare.
 */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG, WriteVersions, OWNED_SCHEMA],
      useFactory: async (config: AppConfig, versions: WriteVersions, schema: OwnedSchema) => {
        const dataSource = new DataSource(dataSourceOptions(config, schema));
        await dataSource.initialize();
        await dialectFor(dataSource.options.type).exclusively(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
        versions.install(dataSource);
        return dataSource;
      },
    },
    {
      provide: DIALECT,
      inject: [DataSource, APP_CONFIG, WriteVersions, OWNED_SCHEMA],
      useFactory: (dataSource: DataSource, config: AppConfig, versions: WriteVersions, schema: OwnedSchema) => {
        if (dataSource.options.type === 'postgres') return dialectFor('postgres');
        // SQLite: the one connection taken in turns, and read workers (started on first use).
        const pool = config.sqliteReadWorkers > 0 ? new SqliteReadPool(config.sqlitePath, config.sqliteReadWorkers, schema.sqliteFunctions) : null;
        return dialectFor(dataSource.options.type, new SqliteConnection(dataSource, pool, (sql) => versions.observe(sql)));
      },
    },
    UnitOfWork,
    LongWrite,
    WriteVersions,
  ],
  exports: [DataSource, DIALECT, UnitOfWork, LongWrite, WriteVersions],
})
export class DataSourceModule implements OnApplicationShutdown {
  static forRoot(schema: OwnedSchema): DynamicModule {
    return { module: DataSourceModule, providers: [{ provide: OWNED_SCHEMA, useValue: schema }] };
  }

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.dialect.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
