import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { RequestContext } from '../context/request-context';
import { RouteTable } from './route-table';

/** Baserow's extra request headers, allowed by CORS beside the usual ones. */
export const CORS_ALLOWED_HEADERS = [
  'accept',
  'accept-encoding',
  'authorization',
  'content-type',
  'dnt',
  'origin',
  'user-agent',
  'x-csrftoken',
  'x-requested-with',
  'websocketid',
  'baserow-view-authorization',
  'clientsessionid',
  'clientundoredoactiongroupid',
  'usersourceauthorization',
];

/**
 * URL rules of the API, before anything else runs: unknown paths are 404 `URL_NOT_FOUND`,
 * a missing trailing slash is 404 `URL_TRAILING_SLASH_MISSING` (never a redirect), and a
 * known path with another method is 405.
 */
export function urlConventions(routes: RouteTable): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    const { routes: matched, slashMissing } = routes.match(path);
    if (matched.length === 0) {
      res.status(404).json({ error: 'URL_NOT_FOUND', detail: `URL ${path} not found.` });
      return;
    }
    if (slashMissing) {
      res.status(404).json({
        error: 'URL_TRAILING_SLASH_MISSING',
        detail: `A valid URL must end with a trailing slash. Please, redirect requests to ${path}/`,
      });
      return;
    }
    const methods = new Set(matched.map((route) => route.method));
    if (methods.has('GET')) methods.add('HEAD');
    if (!methods.has(req.method) && !methods.has('ALL')) {
      res.set('Allow', [...methods, 'OPTIONS'].join(', '));
      res.status(405).json({ detail: `Method "${req.method}" not allowed.` });
      return;
    }
    next();
  };
}

/**
 * Reads request bodies as raw bytes; they are checked and parsed after authentication
 * (JsonBodyGuard), so that a 401 comes before a 415 or a JSON error, as in Baserow.
 */
export const rawBody: RequestHandler = express.raw({ type: () => true, limit: '20mb' });

/** Starts the request context (who is acting) once the body has been read. */
export const requestContext: RequestHandler = (_req, _res, next) => {
  RequestContext.run({ userId: null, webSocketId: null }, next);
};
