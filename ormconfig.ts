// The TypeORM data source for the CLI (`npm run migration:run`); the app builds the same one at start-up,
// with the entities and migrations its modules declare (extension modules of EXTRA_MODULES included).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppModule } from './src/app.module';
import { loadConfig, loadDotEnv } from './src/core/config/config';
import { dataSourceOptions } from './src/core/database/data-source';
import { collectOwnedSchema } from './src/core/database/owned-schema';

loadDotEnv();
const config = loadConfig();
export default new DataSource(dataSourceOptions(config, collectOwnedSchema([AppModule.forRoot(config)])));
