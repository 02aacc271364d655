import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
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
 * `X-Request-Id` (and kept as `req.id` for the exception filter's line). 5xx lines, and
 * responses that failed, are warnings: the error itself is logged once by the exception filter.
 *
 * The line is built only when the response ends, on one logger made once: no child logger or
 * serializers per request (the request id is the line's first key, where a child logger's
 * binding would put it). That logger writes as the app's does, to the same destination, but
 * without its redaction: the line's keys are the fixed ones above, whose values are numbers,
 * null and plain ASCII strings (methods, route templates, sane ids), which no redact path
 * (`password`, `*.token`...) reaches, and which pino writes byte for byte as the redactor would.
 */
export function httpLogger(logger: Logger, routes: RouteTable): RequestHandler {
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const id = requestIdOf(req);
    (req as Request & { id: string }).id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const start = Date.now();
    const done = (error?: Error): void => {
      res.removeListener('close', done);
      res.removeListener('finish', done);
      res.removeListener('error', done);
      writeLine(lines, routes, req, res, id, Date.now() - start, error !== undefined || res.statusCode >= 500);
    };
    res.on('close', done);
    res.on('finish', done);
    res.on('error', done);
    next();
  };
}

function writeLine(logger: Logger, routes: RouteTable, req: Request, res: ServerResponse, requestId: string, durationMs: number, failed: boolean): void {
  const level = failed ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const route = routes.templateOf(req);
  const line = {
    requestId,
    method: req.method,
    route,
    status: res.statusCode,
    durationMs,
    userId: (req as Request & { user?: { id: number } }).user?.id ?? null,
  };
  const named = `${req.method} ${route ?? '(unknown URL)'} ${res.statusCode}`;
  logger[level](line, failed ? named : `${named} ${durationMs}ms`);
}
