// The TypeORM data source for the CLI (`npm run migration:run`); the app builds the same one at start-up.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig, loadDotEnv } from './src/core/config/config';
import { dataSourceOptions } from './src/core/database/data-source';

loadDotEnv();
export default new DataSource(dataSourceOptions(loadConfig()));
