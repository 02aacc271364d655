import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './core/config/config';

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  let app;
  try {
    config = loadConfig();
    // Extension modules (EXTRA_MODULES) are loaded here; a bad one is a configuration error too.
    app = await createApp(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  await app.listen(config.port);
  const database = config.databaseUrl ? 'PostgreSQL' : `SQLite (${config.sqlitePath})`;
  new Logger('Rowspace').log(
    `Serving on http://localhost:${config.port} with ${database}${config.redisUrl ? ' and Redis' : ''}; API docs at /api/redoc/`,
  );
}

void main();
