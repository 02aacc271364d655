import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, RequestHandler, Response } from 'express';
import type { RegisteredRoute } from './route-table';

/** Statuses Express answers without a body (or with headers of its own): left to Express. */
const BODILESS = new Set([204, 205, 304]);

/**
 * Nest's Express adapter with a shorter path for the common answer, a handler's plain JSON
 * object: serialized once and sent as a string with the very headers Express's `res.json`
 * sets (`Content-Type: application/json; charset=utf-8`, `Content-Length`), without its
 * content-type parsing and charset rewriting. Anything else (streams, buffers, errors, HEAD,
 * conditional requests, bodiless statuses, a Content-Type or validators the handler set) is
 * answered by Express as before. The app sets none of Express's `json replacer`, `json spaces`
 * or `json escape`, and no ETag (`etag` is off).
 *
 * It also records the route handlers Nest registers, for RouteTable.dispatch.
 */
export class JsonReplyExpressAdapter extends ExpressAdapter {
  /** The route handlers Nest registered, in order: the route table runs them without Express's router (RouteTable.dispatch). */
  readonly registeredRoutes: RegisteredRoute[] = [];

  override get(...args: unknown[]): unknown {
    return this.route('GET', args, super.get);
  }
  override post(...args: unknown[]): unknown {
    return this.route('POST', args, super.post);
  }
  override put(...args: unknown[]): unknown {
    return this.route('PUT', args, super.put);
  }
  override patch(...args: unknown[]): unknown {
    return this.route('PATCH', args, super.patch);
  }
  override delete(...args: unknown[]): unknown {
    return this.route('DELETE', args, super.delete);
  }
  override head(...args: unknown[]): unknown {
    return this.route('HEAD', args, super.head);
  }
  override options(...args: unknown[]): unknown {
    return this.route('OPTIONS', args, super.options);
  }
  override all(...args: unknown[]): unknown {
    return this.route('ALL', args, super.all);
  }

  private route(method: string, args: unknown[], register: Function): unknown {
    const [path, handler] = args;
    if (args.length === 2 && typeof path === 'string' && typeof handler === 'function') this.registeredRoutes.push({ method, path, handler: handler as RequestHandler });
    return register.apply(this, args);
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!this.plainJson(response, body, statusCode)) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    const text = JSON.stringify(body);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(text));
    return response.end(text, 'utf8');
  }

  private plainJson(response: Response, body: unknown, statusCode?: number): boolean {
    if (typeof body !== 'object' || body === null) return false;
    if (body instanceof StreamableFile || body instanceof Error || ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return false;
    if (BODILESS.has(statusCode ?? response.statusCode)) return false;
    const req = response.req as Request | undefined;
    if (!req || req.method === 'HEAD') return false;
    const headers = req.headers;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    return !response.hasHeader('Content-Type') && !response.hasHeader('ETag') && !response.hasHeader('Last-Modified');
  }
}
