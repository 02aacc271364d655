import { All, Controller, Get, INestApplication, Module, Post } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, RequestHandler } from 'express';
import { JsonReplyExpressAdapter } from '../src/core/http/json-reply.adapter';
import { middlewareChain } from '../src/core/http/middleware-chain';
import { digitsAtMost, isIdParam, Route, RouteTable } from '../src/core/http/route-table';
import { INT32_MAX } from '../src/core/validation/ids';
import { startApp, TestApp } from './support/app';

/**
 * The route table's index against what it replaces: the regex scan it used to be (the
 * reference below, as it was) for the URL conventions, logs and uploads, and Express's own
 * router for which handler runs.
 */

/** The route table as it matched before its index: one regex per route, tried in turn. */
function referenceTable(routes: readonly Route[]) {
  const compiled = routes.map((route) => {
    const segments = route.path.split('/').filter(Boolean);
    const pattern = segments
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        // A file-like parameter (`:icalSlug.ics`): a slug (Baserow's `[-\w]+`) and the ending.
        const suffixed = /^:\w+((?:\.[\w~-]+)+)$/.exec(segment);
        if (suffixed) return `([-\\w]+)${suffixed[1].replace(/\./g, '\\.')}`;
        return isIdParam(segment.slice(1)) ? '(\\d{1,10})' : '([^/]+)';
      })
      .join('/');
    return { route, regex: new RegExp(`^/${pattern}$`) };
  });
  const matches = new Map<string, { routes: Route[]; slashMissing: boolean }>();
  const match = (path: string) => {
    if (!matches.has(path)) matches.set(path, scan(path));
    return matches.get(path)!;
  };
  const scan = (path: string) => {
    const trimmed = path.endsWith('/') && path !== '/' ? path.slice(0, -1) : path;
    const found = compiled
      .filter(({ route, regex }) => {
        const m = regex.exec(route.trailingSlash ? trimmed : path);
        return m !== null && !m.slice(1).some((value) => /^\d+$/.test(value) && Number(value) > INT32_MAX);
      })
      .map(({ route }) => route);
    return { routes: found, slashMissing: found.length > 0 && found.every((route) => route.trailingSlash) && !path.endsWith('/') };
  };
  return {
    match,
    streamsBody(method: string, path: string): boolean {
      const trimmed = path.endsWith('/') && path !== '/' ? path.slice(0, -1) : path;
      return compiled.some(({ route, regex }) => route.streamsBody && route.method === method && regex.test(route.trailingSlash ? trimmed : path));
    },
    templateOf(req: { method: string; originalUrl: string }): string | null {
      const { routes: found } = match(req.originalUrl.split('?')[0]);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      return (found.find((r) => r.method === method) ?? found.find((r) => r.method === 'ALL') ?? found[0])?.path ?? null;
    },
  };
}

interface ExpressLayer {
  route?: { path: string; _handlesMethod(method: string): boolean; stack: { handle: RequestHandler }[] };
  match(path: string): unknown;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The routes of an app's Express router, in order. */
function expressLayers(app: INestApplication): ExpressLayer[] {
  return (app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } }).router.stack;
}

/** The handler Express's router runs for the request: the first route layer that matches it and handles its method. */
function expressHandler(layers: ExpressLayer[], method: string, path: string): RequestHandler | null | 'error' {
  for (const layer of layers) {
    if (!layer.route) continue;
    let matched: unknown;
    try {
      matched = layer.match(path);
    } catch {
      return 'error';
    }
    if (matched && layer.route._handlesMethod(method)) return layer.route.stack[0].handle;
  }
  return null;
}

/** URLs around every route: its own, with other routes' static segments and edge values for its parameters, with and without slashes. */
function samplePaths(routes: readonly Route[]): string[] {
  const split = (route: Route) => route.path.split('/').filter(Boolean);
  // The static segments other routes of as many segments have at a position.
  const staticsAt = (length: number, i: number) =>
    new Set(routes.map(split).flatMap((segments) => (segments.length === length && !segments[i].startsWith(':') ? [segments[i], segments[i].toUpperCase()] : [])));
  const values = ['1', '42', '0', '2147483647', '2147483648', '0000000001', '00000000001', '99999999999', 'abc', 'a.b', '%41', '%E0%A4%A', 'a%00b', 'x#y'];
  const paths = new Set<string>(['/', '//', '/api/', '/api', '/API/settings/', '/api//settings/', 'http://localhost/api/settings/']);
  for (const route of routes) {
    const segments = split(route);
    const choices = segments.map((s, i) => (s.startsWith(':') ? [...values, ...staticsAt(segments.length, i)] : [s, s.toUpperCase()]));
    // Each segment varied on its own, the others at a plain value.
    const plain = segments.map((s) => (s.startsWith(':') ? '7' : s));
    for (let i = 0; i < segments.length; i++) {
      for (const choice of choices[i]) {
        const parts = [...plain];
        parts[i] = choice;
        const path = `/${parts.join('/')}`;
        paths.add(path);
        paths.add(`${path}/`);
        paths.add(`${path}//`);
      }
    }
    // Every parameter taking a static segment of another route at once.
    const words = new Set(segments.flatMap((_, i) => [...staticsAt(segments.length, i)]));
    for (const word of words) paths.add(`/${segments.map((s) => (s.startsWith(':') ? word : s)).join('/')}/`);
  }
  return [...paths];
}

/** The route table's answers that differ from the regex scan's, for every sample URL and method. */
function differencesFromScan(table: RouteTable, paths: string[]): string[] {
  const routes = table.all();
  const reference = referenceTable(routes);
  const show = ({ routes: found, slashMissing }: { routes: Route[]; slashMissing: boolean }) => `${found.map((r) => routes.indexOf(r)).join(',')} ${slashMissing}`;
  const differences: string[] = [];
  const compare = (what: string, actual: unknown, expected: unknown) => {
    if (actual !== expected) differences.push(`${what}: ${String(actual)} instead of ${String(expected)}`);
  };
  for (const path of paths) {
    compare(`match ${path}`, show(table.match(path)), show(reference.match(path)));
    for (const method of METHODS) {
      // Asked of a URL some route has (the URL conventions answer the others first); the scan skipped the id bounds there.
      if (reference.match(path).routes.length > 0) compare(`streamsBody ${method} ${path}`, table.streamsBody(method, path), reference.streamsBody(method, path));
      for (const url of [path, `${path}?a=1/b`]) {
        compare(`templateOf ${method} ${url}`, table.templateOf({ method, originalUrl: url }), reference.templateOf({ method, originalUrl: url }));
      }
    }
  }
  return differences;
}

/**
 * For every sample URL and method that passes the URL conventions: the handler `dispatch`
 * runs is the one Express's router runs, with the same `req.params`, or it leaves the request
 * to Express's router (returned: how many of each).
 */
function dispatchAgainstExpress(table: RouteTable, layers: ExpressLayer[], paths: string[]): { dispatched: number; left: string[]; differences: string[] } {
  const reference = referenceTable(table.all());
  const result = { dispatched: 0, left: [] as string[], differences: [] as string[] };
  for (const path of paths) {
    for (const method of METHODS) {
      const target = table.handlerFor({ method, path } as Request);
      // What passes the URL conventions (a route of the method at this very URL) is all it sees.
      const { routes: matched, slashMissing } = reference.match(path);
      const served = !slashMissing && matched.some((r) => r.method === method || r.method === 'ALL' || (method === 'HEAD' && r.method === 'GET'));
      if (target === null) {
        // (A path with `%` or `#` is always left to Express: it decodes the parameters; `#` never reaches it.)
        if (served && !path.includes('%') && !path.includes('#')) result.left.push(`${method} ${path}`);
        continue;
      }
      if (!served) result.differences.push(`${method} ${path}: dispatched, but the URL conventions answer it`);
      result.dispatched += 1;
      if (target.handle !== expressHandler(layers, method, path)) result.differences.push(`${method} ${path}: another handler than Express's`);
      const layer = layers.find((l) => l.route?.stack[0].handle === target.handle)!;
      const expected = (layer.match(path) as { params: Record<string, string> }).params;
      if (JSON.stringify({ ...target.params }) !== JSON.stringify({ ...expected })) {
        result.differences.push(`${method} ${path}: params ${JSON.stringify({ ...target.params })} instead of ${JSON.stringify({ ...expected })}`);
      }
    }
  }
  return result;
}

describe('route table index', () => {
  let t: TestApp;
  let table: RouteTable;
  let layers: ExpressLayer[];
  beforeAll(async () => {
    t = await startApp();
    table = t.app.get(RouteTable);
    layers = expressLayers(t.app);
  });
  afterAll(() => t.close());

  it('records every route Nest gave Express, in Express order', () => {
    const registered = (t.app.getHttpAdapter() as JsonReplyExpressAdapter).registeredRoutes;
    const expressRoutes = layers.filter((layer) => layer.route).map((layer) => layer.route!);
    expect(expressRoutes.map((route) => route.stack[0].handle)).toEqual(registered.map((r) => r.handler));
    expect(registered.length).toBe(table.all().length);
  });

  it('matches URLs, trailing slashes, uploads and templates exactly as the regex scan did', () => {
    const paths = samplePaths(table.all());
    expect(paths.length).toBeGreaterThan(10000);
    expect(differencesFromScan(table, paths)).toEqual([]);
  });

  it("runs the handler Express's router would run, with its params", () => {
    const { dispatched, left, differences } = dispatchAgainstExpress(table, layers, samplePaths(table.all()));
    expect(differences).toEqual([]);
    expect(dispatched).toBeGreaterThan(1000);
    // No route of the app is taken before its own by another one in Express's order.
    expect(left).toEqual([]);
  });

  it("dispatches every route's own URL (ids and parameters plain)", () => {
    for (const route of table.all()) {
      const path = route.path.replace(/:\w+/g, '7');
      const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      for (const method of methods) {
        const target = table.handlerFor({ method, path } as Request);
        expect([method, path, target !== null && target.handle === expressHandler(layers, method, path)]).toEqual([method, path, true]);
      }
    }
  });

  it('bounds ids at INT32_MAX digit by digit', () => {
    const re = new RegExp(`^(?:${digitsAtMost(INT32_MAX)})$`);
    const values = ['0', '1', '999999999', '1000000000', '1999999999', '2000000000', '2147483647', '2147483646', '2147483639', '0000000000', '0999999999'];
    for (const value of values) expect([value, re.test(value)]).toEqual([value, true]);
    for (const value of ['2147483648', '2147483650', '2147483700', '2200000000', '3000000000', '9999999999', '00000000000', '12345678901', '', 'a', '1a']) {
      expect([value, re.test(value)]).toEqual([value, false]);
    }
    const small = new RegExp(`^(?:${digitsAtMost(305)})$`);
    for (let n = 0; n < 1000; n++) expect([n, small.test(String(n))]).toEqual([n, n <= 305]);
    expect(small.test('099')).toBe(true);
    expect(small.test('0999')).toBe(false);
  });
});

/** Routes that take each other's URLs, in an order where Express's router picks another route than the index would. */
@Controller('t')
class OverlappingController {
  @Get(':slug/x')
  slug(): string {
    return 'slug';
  }
  /** `/t/a/x/` is this route's, but Express's router runs `slug` for it (first in order). */
  @Get('a/x')
  a(): string {
    return 'a';
  }
  @Get(':itemId/y')
  item(): string {
    return 'item';
  }
  /** Same pattern as the one above but for its parameter's kind: find-my-way holds one of them. */
  @Get(':name/y')
  name(): string {
    return 'name';
  }
  @Get('b/:bId')
  b(): string {
    return 'b';
  }
  @All('b/:word')
  any(): string {
    return 'any';
  }
  @Post(':slug/x')
  post(): string {
    return 'post';
  }
  @Get('files/:fileId/data.json')
  file(): string {
    return 'file';
  }
  @Get('files/:fileId/:part')
  part(): string {
    return 'part';
  }
}

@Module({ imports: [DiscoveryModule], controllers: [OverlappingController], providers: [RouteTable] })
class OverlappingModule {}

describe('route table index, routes taking each other\'s URLs', () => {
  let app: NestExpressApplication;
  let table: RouteTable;
  let url: string;
  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(OverlappingModule, new JsonReplyExpressAdapter(), { logger: false });
    table = app.get(RouteTable);
    app.use(middlewareChain(table.dispatch()));
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  it('answers as the regex scan did, and dispatches as Express does or leaves it to Express', () => {
    const paths = samplePaths(table.all());
    expect(differencesFromScan(table, paths)).toEqual([]);
    const { dispatched, left, differences } = dispatchAgainstExpress(table, expressLayers(app), paths);
    expect(differences).toEqual([]);
    expect(dispatched).toBeGreaterThan(100);
    // Express's router takes `/t/B/x/` for `b/:word` (it ignores case), `/t/b/abc/` for `b/:bId` (it ignores ids).
    expect(left).toEqual(expect.arrayContaining(['GET /t/a/x/', 'HEAD /t/a/x/', 'GET /t/abc/y/', 'GET /t/b/abc/', 'POST /t/B/x/']));
  });

  it('names the first declared route, and runs the one Express runs', async () => {
    const cases: [string, string, string, string][] = [
      // [method, URL, route template, what runs]
      ['GET', '/t/a/x/', '/t/:slug/x/', 'slug'],
      ['GET', '/t/q/x/', '/t/:slug/x/', 'slug'],
      ['POST', '/t/a/x/', '/t/:slug/x/', 'post'],
      ['GET', '/t/5/y/', '/t/:itemId/y/', 'item'],
      // Express's router does not know ids: `:itemId` takes `abc` before `:name`.
      ['GET', '/t/abc/y/', '/t/:name/y/', 'item'],
      ['GET', '/t/b/5/', '/t/b/:bId/', 'b'],
      // Nor here: `:bId` (GET, first) takes `c` in Express's router.
      ['GET', '/t/b/c/', '/t/b/:word/', 'b'],
      ['POST', '/t/b/c/', '/t/b/:word/', 'any'],
      ['POST', '/t/B/x/', '/t/:slug/x/', 'any'],
      ['DELETE', '/t/b/5/', '/t/b/:word/', 'any'],
      ['GET', '/t/files/5/data.json', '/t/files/:fileId/data.json', 'file'],
      ['GET', '/t/files/5/data.json/', '/t/files/:fileId/:part/', 'file'],
      ['GET', '/t/files/5/other/', '/t/files/:fileId/:part/', 'part'],
    ];
    for (const [method, path, template, ran] of cases) {
      expect([method, path, table.templateOf({ method, originalUrl: path })]).toEqual([method, path, template]);
      const res = await fetch(url + path, { method });
      expect([method, path, await res.text()]).toEqual([method, path, ran]);
    }
  });
});
