import { ConfigError, loadConfig } from '../src/core/config/config';
import { startApp, TestApp } from './support/app';

const PREFLIGHT = (origin: string) => ({
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': 'PATCH',
    'Access-Control-Request-Headers': 'authorization,content-type,websocketid,clientsessionid',
  },
});

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(() => t.close());

  it('answers API responses with helmet headers and without x-powered-by', async () => {
    const res = await t.request('GET', '/api/settings/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The web client on another origin must be able to read the API.
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('keeps the error envelope and the headers on errors', async () => {
    const res = await t.request('GET', '/api/nothing-here/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'URL_NOT_FOUND', detail: 'URL /api/nothing-here/ not found.' });
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets the Redoc page load what it loads: its same-origin script, its inline styles, its worker and the schema', async () => {
    const page = await t.request('GET', '/api/redoc/');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(name + ' '))!;
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/api/redoc/redoc.standalone.js']);
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(page.text).toContain('<style>');
    expect(directive('style-src')).toContain("'unsafe-inline'");
    expect(directive('worker-src')).toContain('blob:');
    expect(directive('connect-src')).toBe("connect-src 'self'");
    expect(page.text).toContain('spec-url="/api/schema.json"');
    const bundle = await t.request('GET', scripts[0]);
    expect(bundle.status).toBe(200);
    expect((await t.request('GET', '/api/schema.json')).status).toBe(200);
  });

  it('reflects any origin with credentials and Baserow\'s headers by default', async () => {
    const res = await t.request('OPTIONS', '/api/database/rows/table/1/', PREFLIGHT('https://baserow.example.com'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://baserow.example.com');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = res.headers.get('access-control-allow-headers')!.split(',');
    for (const header of ['authorization', 'content-type', 'websocketid', 'clientsessionid', 'clientundoredoactiongroupid']) {
      expect(allowed).toContain(header);
    }
    const get = await t.request('GET', '/api/settings/', { headers: { Origin: 'https://other.example.org' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('https://other.example.org');
  });
});

describe('CORS_ALLOWED_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ CORS_ALLOWED_ORIGINS: 'https://baserow.example.com, http://localhost:3000' })));
  afterAll(() => t.close());

  it('allows the listed origins', async () => {
    for (const origin of ['https://baserow.example.com', 'http://localhost:3000']) {
      const res = await t.request('OPTIONS', '/api/user/token-auth/', PREFLIGHT(origin));
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    }
  });

  it('gives other origins no CORS grant, on preflights and on requests', async () => {
    for (const origin of ['https://evil.example.com', 'http://localhost:3001', 'https://baserow.example.com.evil.example']) {
      const preflight = await t.request('OPTIONS', '/api/user/token-auth/', PREFLIGHT(origin));
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const get = await t.request('GET', '/api/settings/', { headers: { Origin: origin } });
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('CORS_ALLOWED_ORIGINS validation', () => {
  it('refuses a value that is not a list of origins at start-up', () => {
    const env = { SECRET_KEY: 'test-secret-key-that-is-long-enough' };
    for (const value of ['https://baserow.example.com/path', 'not an origin', 'https://a.example.com,']) {
      expect(() => loadConfig({ ...env, CORS_ALLOWED_ORIGINS: value })).toThrow(ConfigError);
    }
    expect(loadConfig({ ...env, CORS_ALLOWED_ORIGINS: '*' }).corsAllowedOrigins).toBeNull();
  });
});
