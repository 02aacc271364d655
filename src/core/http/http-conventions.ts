import { parse as parseQueryString, ParsedUrlQuery } from 'node:querystring';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { RequestContext } from '../context/request-context';
import { ApiError, PlainHttpError } from '../errors/api-error';
import { answerAfterBody } from './drain-body';
import { queryFlag } from '../validation/field';
import { RouteTable } from './route-table';

/**
 * URL rules of the API, before anything else runs: unknown paths are 404 `URL_NOT_FOUND`,
 * a missing trailing slash is 404 `URL_TRAILING_SLASH_MISSING` (never a redirect), and a
 * known path with another method is 405.
 */
export function urlConventions(routes: RouteTable): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    // A NUL (`%00`) in a path parameter can name nothing (and PostgreSQL refuses it in text).
    // Decoding changes nothing in a path without `%`.
    const namesNul = (path.includes('%') ? safeDecode(path) : path).includes('\0');
    // The common case: a route serves this method at this very URL.
    if (!namesNul && routes.serves(req)) return next();
    const { routes: matched, slashMissing } = routes.match(path);
    if (matched.length === 0 || namesNul) {
      return answerAfterBody(req, res, () => res.status(404).json({ error: 'URL_NOT_FOUND', detail: `URL ${path} not found.` }));
    }
    if (slashMissing) {
      const detail = `A valid URL must end with a trailing slash. Please, redirect requests to ${path}/`;
      return answerAfterBody(req, res, () => res.status(404).json({ error: 'URL_TRAILING_SLASH_MISSING', detail }));
    }
    const methods = new Set(matched.map((route) => route.method));
    if (methods.has('GET')) methods.add('HEAD');
    if (!methods.has(req.method) && !methods.has('ALL')) {
      res.set('Allow', [...methods, 'OPTIONS'].join(', '));
      return answerAfterBody(req, res, () => res.status(405).json({ detail: `Method "${req.method}" not allowed.` }));
    }
    next();
  };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The query string parser of the app (Express's `simple` one) with NUL characters removed from
 * names and values: search terms and filter values then mean the same on both databases
 * (PostgreSQL refuses NUL in text, SQLite would compare with it), as Baserow's filter values do.
 */
export function parseQuery(text: string | null): ParsedUrlQuery {
  if (!text) return {};
  const query = parseQueryString(text);
  if (!text.includes('%00') && !text.includes('\0')) return query;
  const clean = (value: string): string => value.split('\0').join('');
  const result: ParsedUrlQuery = {};
  for (const [key, value] of Object.entries(query)) {
    result[clean(key)] = Array.isArray(value) ? value.map(clean) : value === undefined ? value : clean(value);
  }
  return result;
}

/**
 * Reads request bodies as raw bytes, up to `limitBytes`; they are checked and parsed after
 * authentication (JsonBodyGuard), so that a 401 comes before a 415 or a JSON error, as in
 * Baserow. A larger body is a 413 in the error envelope.
 */
export function rawBody(limitBytes: number, routes: RouteTable): RequestHandler {
  const read = express.raw({ type: () => true, limit: limitBytes });
  return (req, res, next) => {
    // No body to read (neither Content-Length nor Transfer-Encoding: a GET, a DELETE...): what
    // body-parser then does without reading anything, at less cost.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      const request: { body?: unknown } = req;
      if (!('body' in request)) request.body = undefined;
      return next();
    }
    // Uploads are streamed by their handler (`@StreamedBody()`), never buffered here.
    if (routes.streamsBody(req.method, req.path)) return next();
    read(req, res, (error?: unknown) => next(error === undefined ? undefined : bodyReadError(error, limitBytes)));
  };
}

function bodyReadError(error: unknown, limitBytes: number): unknown {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    const mb = Math.round((limitBytes / 1024 / 1024) * 100) / 100;
    return new ApiError('ERROR_REQUEST_BODY_TOO_LARGE', 413, `The request body is too large. Max ${mb}MB is allowed.`);
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new PlainHttpError(415, { detail: (error as Error).message });
  }
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'stream.encoding.set') {
    return new PlainHttpError(400, { detail: 'The request body could not be read.' });
  }
  return error;
}

/** Starts the request context (who is acting) once the body has been read. */
export const requestContext: RequestHandler = (req, _res, next) => {
  // Baserow's `send_webhook_events` of the row routes (any route may carry it: only row changes read it).
  const sendWebhookEvents = req.url.includes('send_webhook_events=') ? sendWebhookEventsParam(req.query.send_webhook_events) : undefined;
  const readOnly = req.method === 'GET' || req.method === 'HEAD';
  RequestContext.run({ userId: null, webSocketId: null, sendWebhookEvents, ipAddress: clientAddress(req.ip), readOnly }, next);
};

/** An address as Baserow's audit log shows it: an IPv4 client of a dual-stack socket without its `::ffff:` prefix. */
export function clientAddress(ip: string | undefined): string | null {
  if (!ip) return null;
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}

/** Absent or empty means true; otherwise Baserow's flag values (any case, trimmed): never a 400. */
export function sendWebhookEventsParam(value: unknown): boolean {
  const text = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof text !== 'string' || queryFlag(text.trim());
}
