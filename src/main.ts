// First: modules loaded from here on are compiled from the on-disk cache where Node has one.
import './core/lifecycle/compile-cache';
import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { unusedSettingsWarning } from './core/config/baserow-names';
import { ConfigError, loadConfig, loadDotEnv } from './core/config/config';
import { shutDownGracefully } from './core/lifecycle/graceful-shutdown';
import { exitOnSignals } from './core/lifecycle/signals';

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
  const logger = new Logger('Rowspace');
  const unused = unusedSettingsWarning(config.unusedSettings);
  if (unused) logger.warn(unused);
  exitOnSignals((signal) => {
    logger.log(`${signal} received: finishing in-flight requests and jobs, then stopping.`);
    return shutDownGracefully(app, config, logger);
  });
  await app.listen(config.port);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const database = config.databaseUrl ? 'PostgreSQL' : `SQLite (${config.sqlitePath})`;
  logger.log(`Serving on http://localhost:${port} with ${database}${config.redisUrl ? ' and Redis' : ''}; API docs at /api/redoc/`);
  // Started as a child process (tests, benchmarks): tell the parent where to connect (PORT=0 picks a free port).
  process.send?.({ url: `http://127.0.0.1:${port}` });
}

void main();
