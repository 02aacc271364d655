import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { dialectFor } from './dialect';
import { DIALECT } from './tokens';
import { UnitOfWork } from './unit-of-work';
import { WriteVersions } from './write-versions';

/** The TypeORM data source (migrated at start-up), the SQL dialect, the unit of work and the versions caches are keyed by. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG, WriteVersions],
      useFactory: async (config: AppConfig, versions: WriteVersions) => {
        const dataSource = new DataSource(dataSourceOptions(config));
        await dataSource.initialize();
        await dialectFor(dataSource.options.type).exclusively(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
        versions.install(dataSource);
        return dataSource;
      },
    },
    { provide: DIALECT, inject: [DataSource], useFactory: (ds: DataSource) => dialectFor(ds.options.type) },
    UnitOfWork,
    WriteVersions,
  ],
  exports: [DataSource, DIALECT, UnitOfWork, WriteVersions],
})
export class DataSourceModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
