import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { dialectFor } from './dialect';
import { DIALECT } from './tokens';
import { UnitOfWork } from './unit-of-work';

/** The TypeORM data source (migrated at start-up), the SQL dialect and the unit of work. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const dataSource = new DataSource(dataSourceOptions(config));
        await dataSource.initialize();
        await dialectFor(dataSource.options.type).exclusively(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
        return dataSource;
      },
    },
    { provide: DIALECT, inject: [DataSource], useFactory: (ds: DataSource) => dialectFor(ds.options.type) },
    UnitOfWork,
  ],
  exports: [DataSource, DIALECT, UnitOfWork],
})
export class DataSourceModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
