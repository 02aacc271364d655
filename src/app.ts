import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { AppConfig } from './core/config/config';
import { ApiExceptionFilter } from './core/errors/api-exception.filter';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, parseQuery, rawBody, requestContext, urlConventions } from './core/http/http-conventions';
import { RouteTable } from './core/http/route-table';
import { httpLogger } from './core/logging/http-logger';
import { createLogger, LogOptions, PinoNestLogger } from './core/logging/logger';
import { ApiValidationPipe } from './core/validation/validation.pipe';
import { Metrics } from './monitoring/metrics';
import { OpenApiService } from './openapi/openapi.service';
import { RealtimeWsAdapter } from './realtime/realtime-ws.adapter';

/** Builds the whole app (used by main.ts, the tests and the benchmarks); call listen() on it. */
export async function createApp(config: AppConfig, options: { log?: LogOptions } = {}): Promise<NestExpressApplication> {
  const logger = createLogger(config, options.log);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  const routes = app.get(RouteTable);
  app.disable('x-powered-by');
  // req.ip comes from X-Forwarded-For only through the proxies the operator named.
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.set('query parser', parseQuery);
  app.enableCors({ origin: true, credentials: true, allowedHeaders: CORS_ALLOWED_HEADERS, exposedHeaders: CORS_EXPOSED_HEADERS, maxAge: 86400 });
  // Logs and metrics first, so that every answer (404s and 413s included) is counted.
  app.use(httpLogger(logger, routes), app.get(Metrics).middleware, urlConventions(routes), rawBody(config.requestBodyLimitBytes), requestContext);
  app.useGlobalFilters(new ApiExceptionFilter(logger, routes));
  app.useGlobalPipes(new ApiValidationPipe());
  app.enableShutdownHooks();
  app.useWebSocketAdapter(new RealtimeWsAdapter(app));
  await app.init();
  app.get(OpenApiService).build(app);
  return app;
}
