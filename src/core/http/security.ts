import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/config';

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

/** Response headers a browser client may read beside the usual ones. */
export const CORS_EXPOSED_HEADERS = ['x-request-id'];

/**
 * Response headers for a JSON API (helmet). The only HTML served is the Redoc page
 * (/api/redoc/): it loads its script from this instance, injects inline styles, runs its
 * search in a worker made from a blob, and shows images (logos) from anywhere.
 */
export function securityHeaders(): RequestHandler {
  const { set, removed } = fixedHeadersOf(helmetMiddleware());
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

function helmetMiddleware(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'font-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'none'"],
      },
    },
    // The web client runs on another origin and reads the API with credentials.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    // HSTS belongs to the TLS-terminating proxy, which knows whether HTTPS is used.
    strictTransportSecurity: false,
    xPoweredBy: true,
  });
}

/**
 * The headers helmet sets, worked out once: with these options none of them depends on the
 * request, so each response gets the same list instead of helmet's dozen middlewares rebuilding it.
 */
function fixedHeadersOf(middleware: RequestHandler): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const res = {
    setHeader(name: string, value: unknown) {
      set.set(name, String(value));
      return res;
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  let called = false;
  middleware({ method: 'GET', headers: {} } as never, res as never, (error?: unknown) => {
    if (error) throw error;
    called = true;
  });
  if (!called) throw new Error('helmet did not finish synchronously');
  return { set: [...set], removed };
}

/**
 * CORS as Baserow's web client needs it (another origin, credentials, Baserow's headers):
 * any origin is reflected unless CORS_ALLOWED_ORIGINS lists the allowed ones. The headers are
 * those the `cors` package sets with these options, in its order, worked out once rather than
 * through its option callbacks on every request: a preflight (OPTIONS) is answered 204 here,
 * and a request from an origin not allowed gets no CORS header at all.
 */
export function cors(config: AppConfig): RequestHandler {
  const allowed = config.corsAllowedOrigins ? new Set(config.corsAllowedOrigins) : null;
  const allowedHeaders = CORS_ALLOWED_HEADERS.join(',');
  const exposedHeaders = CORS_EXPOSED_HEADERS.join(',');
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allowed && (origin === undefined || !allowed.has(origin))) return next();
    if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
    // What `vary` makes of a response without a Vary header yet (always so here), without parsing it.
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Origin');
    else res.vary('Origin');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', exposedHeaders);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', CORS_PREFLIGHT_METHODS);
    res.setHeader('Access-Control-Allow-Headers', allowedHeaders);
    res.setHeader('Access-Control-Max-Age', CORS_MAX_AGE_SECONDS);
    res.setHeader('Access-Control-Expose-Headers', exposedHeaders);
    res.statusCode = 204;
    // Safari waits for a body after a 204 without it.
    res.setHeader('Content-Length', '0');
    res.end();
  };
}

/** The methods a preflight allows (the `cors` package's default list). */
const CORS_PREFLIGHT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
/** How long a browser may keep a preflight's answer: a day. */
const CORS_MAX_AGE_SECONDS = '86400';
