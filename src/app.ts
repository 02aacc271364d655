import 'reflect-metadata';
import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { AppConfig } from './core/config/config';
import { ApiExceptionFilter } from './core/errors/api-exception.filter';
import { CORS_ALLOWED_HEADERS, parseQuery, rawBody, requestContext, urlConventions } from './core/http/http-conventions';
import { RouteTable } from './core/http/route-table';
import { ApiValidationPipe } from './core/validation/validation.pipe';
import { OpenApiService } from './openapi/openapi.service';
import { RealtimeWsAdapter } from './realtime/realtime-ws.adapter';

/** Builds the whole app (used by main.ts, the tests and the benchmarks); call listen() on it. */
export async function createApp(config: AppConfig, options: { logger?: LogLevel[] | false } = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: options.logger ?? ['log', 'warn', 'error'],
  });
  app.disable('x-powered-by');
  // req.ip comes from X-Forwarded-For only through the proxies the operator named.
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.set('query parser', parseQuery);
  app.enableCors({ origin: true, credentials: true, allowedHeaders: CORS_ALLOWED_HEADERS, maxAge: 86400 });
  app.use(urlConventions(app.get(RouteTable)), rawBody(config.requestBodyLimitBytes), requestContext);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new ApiValidationPipe());
  app.enableShutdownHooks();
  app.useWebSocketAdapter(new RealtimeWsAdapter(app));
  await app.init();
  app.get(OpenApiService).build(app);
  return app;
}
