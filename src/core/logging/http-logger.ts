import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RouteTable } from '../http/route-table';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming request id is kept only when it is a short, plain token (it is echoed and logged). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The id of a request: the client's `X-Request-Id` when sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One log line per request, written when the response ends: method, route template (never
 * the URL, whose query may hold tokens), status, duration, request id and the user id once
 * authentication knew it. No headers, bodies or parameters. The request id is sent back in
 * `X-Request-Id`. 5xx lines are warnings: the error itself is logged once by the exception filter.
 */
export function httpLogger(logger: Logger, routes: RouteTable): RequestHandler {
  const line = (req: IncomingMessage, res: ServerResponse, values: { responseTime: number }) => ({
    method: req.method,
    route: routes.templateOf(req as Request),
    status: res.statusCode,
    durationMs: values.responseTime,
    userId: (req as Request & { user?: { id: number } }).user?.id ?? null,
  });
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Only the request id is bound to the request's logger; the line itself is built below.
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'warn' : 'info'),
    customSuccessObject: (req, res, values) => line(req, res, values),
    customErrorObject: (req, res, _error, values) => line(req, res, values),
    customSuccessMessage: (req, res, responseTime) => `${req.method} ${routes.templateOf(req as Request) ?? '(unknown URL)'} ${res.statusCode} ${responseTime}ms`,
    customErrorMessage: (req, res) => `${req.method} ${routes.templateOf(req as Request) ?? '(unknown URL)'} ${res.statusCode}`,
  });
}
