import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import FindMyWay from 'find-my-way';
import { INT32_MAX } from '../validation/ids';
import { STREAMED_BODY } from './streamed-body';
import { NO_TRAILING_SLASH } from './no-trailing-slash';

export interface Route {
  method: string;
  /** Express-style path as declared, e.g. `/api/workspaces/:workspaceId/`. */
  path: string;
  /** Whether the URL must end with `/` (every API path, except file-like ones such as `schema.json`). */
  trailingSlash: boolean;
  /** The controller class and its handler method, for metadata (authentication, OpenAPI). */
  controller: Function;
  handler: Function;
  /** The handler streams the body itself (`@StreamedBody()`): the app does not read it first. */
  streamsBody: boolean;
}

/** A route handler as Nest gave it to the HTTP adapter (`get(path, handler)`, ...), in registration order. */
export interface RegisteredRoute {
  /** `GET`, `POST`, ..., or `ALL`. */
  method: string;
  /** The path as Express got it (no trailing slash: `/api/workspaces/:workspaceId`). */
  path: string;
  handler: RequestHandler;
}

/** Path parameters named `id` or `…Id` are database ids: digits only, like Baserow's URL patterns. */
export function isIdParam(name: string): boolean {
  return name === 'id' || /Id$/.test(name);
}

/**
 * A regex source for the digit strings of at most as many digits as `max` (leading zeros
 * included) whose value is at most `max`: `\d{1,n-1}`, then the n-digit strings not above it,
 * compared digit by digit.
 */
export function digitsAtMost(max: number): string {
  const digits = String(max);
  const n = digits.length;
  const parts = n > 1 ? [`\\d{1,${n - 1}}`] : [];
  for (let i = 0; i < n; i++) {
    const digit = Number(digits[i]);
    const rest = n - i - 1;
    if (digit > 0) parts.push(`${digits.slice(0, i)}[0-${digit - 1}]${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  parts.push(digits);
  return parts.join('|');
}

/**
 * What a path segment may be for a parameter. An id (`id`, `…Id`): at most 10 digits, at most
 * INT32_MAX (a larger id names no row: 404 URL_NOT_FOUND). Any other parameter: anything but
 * an empty segment, and a digit string only when its value is at most INT32_MAX.
 */
const ID_SEGMENT = digitsAtMost(INT32_MAX);
const PARAM_SEGMENT = `(?!\\d+$)[^/]+|0*(?:${ID_SEGMENT})`;
const ID_RE = new RegExp(`^(?:${ID_SEGMENT})$`);
const PARAM_RE = new RegExp(`^(?:${PARAM_SEGMENT})$`);
/** The path shapes routes are made of: static segments and whole-segment `:name` parameters. */
const STATIC_TEXT = /^[\w.~-]+$/;
const PARAM_NAME = /^[A-Za-z_]\w*$/;

interface Segment {
  text: string;
  /** The parameter's name, or null for a static segment. */
  param: string | null;
  id: boolean;
  /** A file-like parameter's static ending (`:icalSlug.ics`: `.ics`); its parameter is a slug (`[-\w]+`). */
  suffix?: string;
}

/** A slug followed by a file ending (`{ical_slug}.ics`, Baserow's `[-\w]+` slugs). */
const SUFFIXED_PARAM = /^:([A-Za-z_]\w*)((?:\.[\w~-]+)+)$/;
const SLUG_SEGMENT = '[-\\w]+';

/** Whether a path segment (a static text) can be this parameter segment. */
function acceptsText(segment: Segment, text: string): boolean {
  if (segment.suffix !== undefined) return text.endsWith(segment.suffix) && /^[-\w]+$/.test(text.slice(0, -segment.suffix.length));
  return (segment.id ? ID_RE : PARAM_RE).test(text);
}

/**
 * One route, compiled. Its URL (the exact form) is `/` + its segments + `/` for a trailing-slash
 * route; `loose` is how Express's router matches its registered path (case-insensitive, any
 * non-empty text for a parameter, trailing slash optional).
 */
interface Entry {
  route: Route;
  /** Declaration order (the controllers', as the app discovers them). */
  index: number;
  segments: Segment[];
  loose: RegExp;
  /** Routes of the same method that may match one of this route's URLs too (either order). */
  overlaps: Entry[];
  /** The Express handler Nest registered for this route; null when the adapter did not record it. */
  handle: RequestHandler | null;
  /** Its place among Express's routes (-1: unknown). */
  expressIndex: number;
  /** Routes before it in Express's order that Express may match for one of its URLs. */
  shadows: Entry[];
}

function compile(joined: string): { segments: Segment[]; trailingSlash: boolean } {
  const segments = joined
    .split('/')
    .filter(Boolean)
    .map((text): Segment => {
      if (!text.startsWith(':')) {
        if (!STATIC_TEXT.test(text)) throw new Error(`Unsupported route path ${joined}: segment "${text}"`);
        return { text, param: null, id: false };
      }
      const suffixed = SUFFIXED_PARAM.exec(text);
      if (suffixed) return { text, param: suffixed[1], id: false, suffix: suffixed[2] };
      const name = text.slice(1);
      if (!PARAM_NAME.test(name)) throw new Error(`Unsupported route path ${joined}: parameter "${text}"`);
      return { text, param: name, id: isIdParam(name) };
    });
  return { segments, trailingSlash: !segments[segments.length - 1]?.text.includes('.') };
}

/** The find-my-way pattern of a route: each parameter with its regex. */
function indexPattern(segments: readonly Segment[], trailingSlash: boolean): string {
  const parts = segments.map((s) =>
    s.param === null ? s.text : s.suffix !== undefined ? `:${s.param}(${SLUG_SEGMENT})${s.suffix}` : `:${s.param}(${s.id ? ID_SEGMENT : PARAM_SEGMENT})`,
  );
  return segments.length === 0 ? '/' : `/${parts.join('/')}${trailingSlash ? '/' : ''}`;
}

/** Express's matcher of the path Nest registers (path-to-regexp, as Express's router calls it). */
function looseRegex(segments: readonly Segment[]): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${segments.map((s) => `/${s.param === null ? escape(s.text) : `[^/]+${escape(s.suffix ?? '')}`}`).join('')}/?$`, 'i');
}

/** Whether the path (in the index's form, see `indexKey`) is one of the route's URLs. */
function matchesExactly(entry: Entry, key: string): boolean {
  const { segments, route } = entry;
  const parts = key.split('/');
  // `/a/b/` splits into ['', 'a', 'b', ''], `/a/b.json` into ['', 'a', 'b.json'].
  if (parts.length !== segments.length + (route.trailingSlash && segments.length > 0 ? 2 : 1)) return false;
  if (route.trailingSlash && segments.length > 0 && parts[parts.length - 1] !== '') return false;
  return segments.every((s, i) => (s.param === null ? parts[i + 1] === s.text : acceptsText(s, parts[i + 1])));
}

/**
 * Whether some URL of route `a` may also be matched by route `b`: exactly (`b` as the index
 * matches, both of one method and slash form) or as Express's router matches `b` (loose). A
 * quick test on the segments, true whenever it cannot rule it out.
 */
function mayMeet(a: Entry, b: Entry, bLoose: boolean): boolean {
  if (a.segments.length !== b.segments.length) return false;
  if (!bLoose && a.route.trailingSlash !== b.route.trailingSlash) return false;
  return a.segments.every((r, i) => {
    const s = b.segments[i];
    if (r.param === null && s.param === null) return bLoose ? r.text.toLowerCase() === s.text.toLowerCase() : r.text === s.text;
    if (r.param === null) return bLoose || acceptsText(s, r.text);
    if (s.param === null) return acceptsText(r, s.text);
    // A file-like parameter meets a plain one; two of them only with the same ending.
    return r.suffix === undefined || s.suffix === undefined || r.suffix === s.suffix || bLoose;
  });
}

/** Whether some request method is served by routes of both methods. */
function sharesMethods(a: string, b: string): boolean {
  return a === b || a === 'ALL' || b === 'ALL' || (a === 'HEAD' && b === 'GET') || (a === 'GET' && b === 'HEAD');
}

/** Whether Express's route for `method` serves a request with `requestMethod` (HEAD follows GET). */
function handles(method: string, requestMethod: string): boolean {
  return method === requestMethod || method === 'ALL' || (requestMethod === 'HEAD' && method === 'GET');
}

/** The routes of one method, indexed by their exact form. */
class MethodIndex {
  // The parameters' regexes are this module's own (digit ranges and `[^/]+`, linear): find-my-way's
  // check of each one for catastrophic backtracking (safe-regex2) would only add to every start.
  private readonly tree = FindMyWay({ maxParamLength: Number.MAX_SAFE_INTEGER, querystringParser: () => null, allowUnsafeRegex: true });
  private readonly patterns = new Set<string>();
  /** Routes find-my-way cannot hold next to another (same pattern but for the parameters' kinds): tried one by one. */
  readonly unindexed: Entry[] = [];
  readonly entries: Entry[] = [];

  add(entry: Entry): void {
    this.entries.push(entry);
    // find-my-way tells patterns apart by their static parts only (not by their parameters' names or regexes).
    const shape = `${entry.segments.map((s) => (s.param === null ? s.text : `:${s.suffix ?? ''}`)).join('/')} ${entry.route.trailingSlash}`;
    if (this.patterns.has(shape)) {
      this.unindexed.push(entry);
      return;
    }
    this.patterns.add(shape);
    this.tree.on('GET', indexPattern(entry.segments, entry.route.trailingSlash), () => undefined, entry);
  }

  /** The first route (declaration order) whose exact form matches the key, and its raw parameters when find-my-way found that route. */
  first(key: string): { entry: Entry; params: Record<string, string> | null } | null {
    const found = this.tree.find('GET', key);
    let entry = found ? (found.store as Entry) : null;
    let params = found ? (found.params as Record<string, string>) : null;
    if (entry && entry.overlaps.length === 0 && this.unindexed.length === 0) return { entry, params };
    for (const other of entry ? [...entry.overlaps, ...this.unindexed] : this.unindexed) {
      if ((entry === null || other.index < entry.index) && matchesExactly(other, key)) {
        entry = other;
        params = null;
      }
    }
    return entry ? { entry, params } : null;
  }

  /** Every route whose exact form matches the key, in declaration order. */
  all(key: string): Entry[] {
    const found = this.tree.find('GET', key);
    const matching: Entry[] = found ? [found.store as Entry] : [];
    for (const other of found ? [...(found.store as Entry).overlaps, ...this.unindexed] : this.unindexed) {
      if (!matching.includes(other) && matchesExactly(other, key)) matching.push(other);
    }
    return matching.sort((a, b) => a.index - b.index);
  }
}

/**
 * The path as the index looks it up, or null when no route can match it. Every route segment
 * is non-empty; `%` and `#` are left as they are in a path (find-my-way would decode escapes
 * and cut at `#`): they become a character no static segment or id has.
 */
function indexKey(path: string): string | null {
  if (path.charCodeAt(0) !== 47 || path.includes('//')) return null;
  return path.includes('%') || path.includes('#') ? path.replace(/[%#]/g, '\u0001') : path;
}

/** The exact forms a URL may be a route's: `/a/b/` a trailing-slash route's; `/a/b` a file-like route's, or a trailing-slash route's without its slash. */
function exactKeys(key: string): string[] {
  return key.endsWith('/') ? [key] : [`${key}/`, key];
}

/** Where a request keeps the route `routeFor` found for it (the URL conventions, then `dispatch`). */
const FOUND = Symbol('route');
interface Found {
  method: string;
  path: string;
  entry: Entry | null;
  /** The route's parameters as Express decodes them (no escape in the path), when find-my-way found that route (not another one it had to prefer). */
  params: Record<string, string> | null;
}
/** The methods of the routes that may serve a request, by its method. */
const CANDIDATES: Record<string, readonly string[]> = {
  GET: ['GET', 'ALL'],
  HEAD: ['HEAD', 'ALL', 'GET'],
  POST: ['POST', 'ALL'],
  PUT: ['PUT', 'ALL'],
  PATCH: ['PATCH', 'ALL'],
  DELETE: ['DELETE', 'ALL'],
};

/**
 * Every HTTP route of the app, read from the controllers once the app has started, and indexed
 * (find-my-way's radix tree, one per method). The HTTP conventions use it to answer 404/405 the
 * way Baserow does, logs and metrics to name a request's route, the OpenAPI test to check that
 * every route is documented, and `dispatch` to run a request's handler without Express's router
 * trying each route in turn.
 */
@Injectable()
export class RouteTable implements OnApplicationBootstrap {
  private routes: Route[] = [];
  private indexes = new Map<string, MethodIndex>();
  /** The methods having a route that streams its body. */
  private streaming = new Set<string>();
  private readonly templates = new WeakMap<object, string | null>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const entries: Entry[] = [];
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
            const compiled = compile(joined);
            const { segments } = compiled;
            const trailingSlash = compiled.trailingSlash && this.reflector.get<boolean | undefined>(NO_TRAILING_SLASH, handler) !== true;
            const streamsBody = this.reflector.get<boolean | undefined>(STREAMED_BODY, handler) === true;
            const route = { method: RequestMethod[method], path: trailingSlash ? `${joined}/` : joined, trailingSlash, controller: metatype, handler, streamsBody };
            entries.push({ route, index: entries.length, segments, loose: looseRegex(segments), overlaps: [], handle: null, expressIndex: -1, shadows: [] });
          }
        }
      }
    }
    this.index(entries, (this.adapterHost.httpAdapter as { registeredRoutes?: readonly RegisteredRoute[] } | undefined)?.registeredRoutes ?? []);
  }

  private index(entries: Entry[], registered: readonly RegisteredRoute[]): void {
    const handlers = new Map<string, { handle: RequestHandler; expressIndex: number }>();
    registered.forEach(({ method, path, handler }, expressIndex) => {
      const key = `${method} ${path}`;
      if (!handlers.has(key)) handlers.set(key, { handle: handler, expressIndex });
    });
    const indexes = new Map<string, MethodIndex>();
    for (const entry of entries) {
      const { method, path, trailingSlash } = entry.route;
      const handler = handlers.get(`${method} ${trailingSlash && path !== '/' ? path.slice(0, -1) : path}`);
      // A route Nest registered some other way (or twice) is left to Express's router.
      if (handler) ({ handle: entry.handle, expressIndex: entry.expressIndex } = handler);
      if (!indexes.has(method)) indexes.set(method, new MethodIndex());
      indexes.get(method)!.add(entry);
    }
    for (const entry of entries) {
      entry.overlaps = indexes.get(entry.route.method)!.entries.filter((other) => other !== entry && mayMeet(entry, other, false));
      entry.shadows = entries.filter(
        (other) => other !== entry && other.expressIndex < entry.expressIndex && sharesMethods(entry.route.method, other.route.method) && mayMeet(entry, other, true),
      );
    }
    // Every route Express has must be one of these for the index to stand in for Express's router.
    if (handlers.size !== registered.length || entries.filter((e) => e.handle !== null).length !== handlers.size) {
      for (const entry of entries) entry.handle = null;
    }
    // Not find-my-way's compile(): generating a tree's matcher cost about 3 % of a start for well under a microsecond a lookup.
    this.routes = entries.map((entry) => entry.route);
    this.indexes = indexes;
    this.streaming = new Set(entries.filter((e) => e.route.streamsBody).map((e) => e.route.method));
  }

  all(): readonly Route[] {
    return this.routes;
  }

  /** Whether the request is for a route that streams its body itself (`@StreamedBody()`); only those routes are tried. */
  streamsBody(method: string, path: string): boolean {
    if (!this.streaming.has(method)) return false;
    return this.lenient(method, path).some((entry) => entry.route.streamsBody);
  }

  /** The routes whose path matches (any method), and whether the URL lacks a required trailing slash. */
  match(path: string): { routes: Route[]; slashMissing: boolean } {
    const found: Entry[] = [];
    for (const method of this.indexes.keys()) found.push(...this.lenient(method, path));
    const routes = found.sort((a, b) => a.index - b.index).map((entry) => entry.route);
    return { routes, slashMissing: routes.length > 0 && routes.every((route) => route.trailingSlash) && !path.endsWith('/') };
  }

  /**
   * Whether a route serves the request's method at its path as given (a trailing-slash route
   * with its slash): then the URL conventions have nothing to answer.
   */
  serves(req: Request): boolean {
    return this.routeFor(req).entry !== null;
  }

  /**
   * The declared path of the route a request is for (`/api/workspaces/:workspaceId/`), as logs
   * and metrics name it instead of the URL with its ids; null for a URL no route has.
   */
  templateOf(req: { method: string; originalUrl: string }): string | null {
    if (this.templates.has(req)) return this.templates.get(req)!;
    const url = req.originalUrl;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = this.firstLenient(method, path) ?? this.firstLenient('ALL', path) ?? this.match(path).routes[0];
    const template = route?.path ?? null;
    this.templates.set(req, template);
    return template;
  }

  /**
   * The app's last middleware: runs the handler of the route the request is for, as Express's
   * router would have (same route, `req.params` as it decodes them), without it trying each
   * route in turn. A request it cannot tell is left to Express's router: a route Express
   * would match before (another route's parameter taking this URL's static segment), an
   * escape in the path (Express decodes the parameters, and answers a malformed one), a
   * route Nest did not register through the adapter.
   */
  dispatch(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const target = this.handlerFor(req);
      if (target === null) return next();
      req.params = target.params;
      // As Express's router calls a route's handler.
      try {
        const result = target.handle(req, res, next) as unknown;
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(undefined, (error: unknown) => next(error || new Error('Rejected promise')));
        }
      } catch (error) {
        next(error);
      }
    };
  }

  /** The Express handler `dispatch` runs for the request and its `req.params`; null: left to Express's router. */
  handlerFor(req: Pick<Request, 'method' | 'path'>): { handle: RequestHandler; params: Record<string, string> } | null {
    const { entry, params } = this.routeFor(req);
    if (entry === null || params === null || entry.handle === null) return null;
    const path = req.path;
    for (const shadow of entry.shadows) {
      if (handles(shadow.route.method, req.method) && shadow.loose.test(path)) return null;
    }
    return { handle: entry.handle, params };
  }

  /** The route serving the request (its method, HEAD following GET, or an ALL route) at its exact form; kept on the request. */
  private routeFor(req: Pick<Request, 'method' | 'path'>): Found {
    const method = req.method;
    const path = req.path;
    const known = (req as unknown as { [FOUND]?: Found })[FOUND];
    if (known !== undefined && known.method === method && known.path === path) return known;
    const key = indexKey(path);
    let best: { entry: Entry; params: Record<string, string> | null } | null = null;
    if (key !== null) {
      for (const candidate of CANDIDATES[method] ?? [method, 'ALL']) {
        const found = this.indexes.get(candidate)?.first(key) ?? null;
        if (found && (best === null || found.entry.index < best.entry.index)) best = found;
      }
    }
    // Parameters read from a path with `%` or `#` would not be Express's (`indexKey`).
    const result: Found = { method, path, entry: best?.entry ?? null, params: key === path ? (best?.params ?? null) : null };
    (req as unknown as { [FOUND]?: Found })[FOUND] = result;
    return result;
  }

  /** The routes of one method a URL is for, a trailing-slash route matching without its slash too. */
  private lenient(method: string, path: string): Entry[] {
    const index = this.indexes.get(method);
    const key = indexKey(path);
    if (!index || key === null) return [];
    return exactKeys(key).flatMap((k) => index.all(k));
  }

  /** The first route (declaration order) of `lenient`. */
  private firstLenient(method: string, path: string): Route | null {
    const index = this.indexes.get(method);
    const key = indexKey(path);
    if (!index || key === null) return null;
    let best: Entry | null = null;
    for (const k of exactKeys(key)) {
      const found = index.first(k);
      if (found && (best === null || found.entry.index < best.index)) best = found.entry;
    }
    return best?.route ?? null;
  }
}
