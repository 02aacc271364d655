import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
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
 * any origin is reflected unless CORS_ALLOWED_ORIGINS lists the allowed ones.
 */
export function corsOptions(config: AppConfig): CorsOptions {
  const allowed = config.corsAllowedOrigins ? new Set(config.corsAllowedOrigins) : null;
  return {
    origin: allowed ? (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)) : true,
    credentials: true,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 86400,
  };
}
