import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { AppConfig } from './core/config/config';
import { ApiExceptionFilter } from './core/errors/api-exception.filter';
import { parseQuery, rawBody, requestContext, urlConventions } from './core/http/http-conventions';
import { JsonReplyExpressAdapter } from './core/http/json-reply.adapter';
import { middlewareChain } from './core/http/middleware-chain';
import { RequestRateLimiter } from './core/http/rate-limit';
import { RouteTable } from './core/http/route-table';
import { cors, securityHeaders } from './core/http/security';
import { InFlight } from './core/lifecycle/in-flight';
import { httpLogger } from './core/logging/http-logger';
import { createLogger, LogOptions, PinoNestLogger } from './core/logging/logger';
import { ApiValidationPipe } from './core/validation/validation.pipe';
import { MediaRoute } from './files/media-route';
import { McpTransport } from './mcp/mcp-transport';
import { Metrics } from './monitoring/metrics';
import { OpenApiService } from './openapi/openapi.service';
import { RealtimeWsAdapter } from './realtime/realtime-ws.adapter';

/**
 * Builds the whole app (used by main.ts, the tests and the benchmarks); call listen() on it.
 * Signals are main.ts's business (graceful shutdown), not Nest's shutdown hooks.
 */
export async function createApp(config: AppConfig, options: { log?: LogOptions } = {}): Promise<NestExpressApplication> {
  const logger = createLogger(config, options.log);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new JsonReplyExpressAdapter(), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  const routes = app.get(RouteTable);
  app.disable('x-powered-by');
  // req.ip comes from X-Forwarded-For only through the proxies the operator named.
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.set('query parser', parseQuery);
  // CORS first (a preflight is answered there), then in-flight tracking (draining answers 503),
  // then logs and metrics, so that every other answer (404s, 413s and 429s included) is logged and counted.
  app.use(
    middlewareChain(
      cors(config),
      app.get(InFlight).middleware(),
      httpLogger(logger, routes),
      app.get(Metrics).middleware,
      securityHeaders(),
      app.get(RequestRateLimiter).middleware(),
      // The MCP server's transports (`/mcp/<key>/sse`, `/mcp/messages/`, `/mcp/<key>/`): they read their own bodies.
      app.get(McpTransport).handler(),
      // Stored files at MEDIA_URL's path (disk storage), before the API's URL conventions.
      app.get(MediaRoute).handler(),
      urlConventions(routes),
      rawBody(config.requestBodyLimitBytes, routes),
      requestContext,
      // The route's handler, found in the route table's index; anything else goes on to Express's router.
      routes.dispatch(),
    ),
  );
  app.useGlobalFilters(new ApiExceptionFilter(logger, routes));
  app.useGlobalPipes(new ApiValidationPipe());
  app.useWebSocketAdapter(new RealtimeWsAdapter(app, config.wsMaxFrameBytes));
  await app.init();
  app.get(OpenApiService).serve(app);
  return app;
}
