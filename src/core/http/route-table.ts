import { INT32_MAX } from '../validation/ids';
import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { STREAMED_BODY } from './streamed-body';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

/** How many paths' matches are remembered (oldest forgotten first). */
const MATCHES_KEPT = 1000;
/** Longer paths are matched each time (a path is kept as the key). */
const MATCHED_PATH_MAX = 200;

export interface Route {
  method: string;
  /** Express-style path as declared, e.g. `/api/workspaces/:workspaceId/`. */
  path: string;
  regex: RegExp;
  /** Whether the URL must end with `/` (every API path, except file-like ones such as `schema.json`). */
  trailingSlash: boolean;
  /** The controller class and its handler method, for metadata (authentication, OpenAPI). */
  controller: Function;
  handler: Function;
  /** The handler streams the body itself (`@StreamedBody()`): the app does not read it first. */
  streamsBody: boolean;
}


/** Path parameters named `id` or `…Id` are database ids: digits only, like Baserow's URL patterns. */
export function isIdParam(name: string): boolean {
  return name === 'id' || /Id$/.test(name);
}

function compile(path: string): { regex: RegExp; trailingSlash: boolean } {
  const segments = path.split('/').filter(Boolean);
  const trailingSlash = !segments[segments.length - 1]?.includes('.');
  const pattern = segments
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return isIdParam(segment.slice(1)) ? '(\\d{1,10})' : '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^/${pattern}$`), trailingSlash };
}

/**
 * Every HTTP route of the app, read from the controllers once the app has started. The HTTP
 * conventions use it to answer 404/405 the way Baserow does, and the OpenAPI test to check
 * that every route is documented.
 */
@Injectable()
export class RouteTable implements OnApplicationBootstrap {
  private routes: Route[] = [];
  private readonly templates = new WeakMap<object, string | null>();
  /** The last paths matched (a path's routes never change once the app has started). */
  private readonly matches = new Map<string, { routes: Route[]; slashMissing: boolean }>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const routes: Route[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prefixes = [this.reflector.get<string | string[]>(PATH_METADATA, metatype) ?? ''].flat();
      const prototype = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const method = this.reflector.get<RequestMethod>(METHOD_METADATA, handler);
        if (method === undefined) continue;
        const paths = [this.reflector.get<string | string[]>(PATH_METADATA, handler) ?? ''].flat();
        for (const prefix of prefixes) {
          for (const sub of paths) {
            const joined = '/' + [prefix, sub].map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
            const { regex, trailingSlash } = compile(joined);
            const streamsBody = this.reflector.get<boolean | undefined>(STREAMED_BODY, handler) === true;
            routes.push({ method: RequestMethod[method], path: trailingSlash ? `${joined}/` : joined, regex, trailingSlash, controller: metatype, handler, streamsBody });
          }
        }
      }
    }
    this.routes = routes;
    this.matches.clear();
  }

  /** Whether the request is for a route that streams its body itself (`@StreamedBody()`); only those routes are tried. */
  streamsBody(method: string, path: string): boolean {
    const trimmed = path.endsWith('/') && path !== '/' ? path.slice(0, -1) : path;
    return this.routes.some((route) => route.streamsBody && route.method === method && route.regex.test(route.trailingSlash ? trimmed : path));
  }

  all(): readonly Route[] {
    return this.routes;
  }

  /** The routes whose path matches (any method), and whether the URL lacks a required trailing slash. */
  match(path: string): { routes: Route[]; slashMissing: boolean } {
    // Every request is matched (URL conventions, then its log line's template): a client repeats
    // its paths, and each match tries every route's pattern.
    const known = this.matches.get(path);
    if (known) return known;
    const result = this.matchAll(path);
    if (path.length > MATCHED_PATH_MAX) return result;
    this.matches.set(path, result);
    if (this.matches.size > MATCHES_KEPT) this.matches.delete(this.matches.keys().next().value!);
    return result;
  }

  private matchAll(path: string): { routes: Route[]; slashMissing: boolean } {
    const trimmed = path.endsWith('/') && path !== '/' ? path.slice(0, -1) : path;
    const found = this.routes.filter((route) => {
      const match = route.regex.exec(route.trailingSlash ? trimmed : path);
      return match !== null && !match.slice(1).some((value) => /^\d+$/.test(value) && Number(value) > INT32_MAX);
    });
    return { routes: found, slashMissing: found.length > 0 && found.every((route) => route.trailingSlash) && !path.endsWith('/') };
  }

  /**
   * The declared path of the route a request is for (`/api/workspaces/:workspaceId/`), as logs
   * and metrics name it instead of the URL with its ids; null for a URL no route has.
   */
  templateOf(req: { method: string; originalUrl: string }): string | null {
    if (this.templates.has(req)) return this.templates.get(req)!;
    const { routes } = this.match(req.originalUrl.split('?')[0]);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = routes.find((r) => r.method === method) ?? routes.find((r) => r.method === 'ALL') ?? routes[0];
    const template = route?.path ?? null;
    this.templates.set(req, template);
    return template;
  }
}
