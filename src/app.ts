import 'reflect-metadata';
import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { AppConfig } from './core/config/config';
import { ApiExceptionFilter } from './core/errors/api-exception.filter';
import { parseQuery, rawBody, requestContext, urlConventions } from './core/http/http-conventions';
import { RequestRateLimiter } from './core/http/rate-limit';
import { RouteTable } from './core/http/route-table';
import { corsOptions, securityHeaders } from './core/http/security';
import { InFlight } from './core/lifecycle/in-flight';
import { ApiValidationPipe } from './core/validation/validation.pipe';
import { OpenApiService } from './openapi/openapi.service';
import { RealtimeWsAdapter } from './realtime/realtime-ws.adapter';

/**
 * Builds the whole app (used by main.ts, the tests and the benchmarks); call listen() on it.
 * Signals are main.ts's business (graceful shutdown), not Nest's shutdown hooks.
 */
export async function createApp(config: AppConfig, options: { logger?: LogLevel[] | false } = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: options.logger ?? ['log', 'warn', 'error'],
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQuery);
  app.enableCors(corsOptions(config));
  app.use(
    app.get(InFlight).middleware(),
    securityHeaders(),
    app.get(RequestRateLimiter).middleware(),
    urlConventions(app.get(RouteTable)),
    rawBody(config.requestBodyLimitBytes),
    requestContext,
  );
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new ApiValidationPipe());
  app.useWebSocketAdapter(new RealtimeWsAdapter(app, config.wsMaxFrameBytes));
  await app.init();
  app.get(OpenApiService).build(app);
  return app;
}
