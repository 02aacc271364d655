import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestApp } from './app';

/** A loopback identity provider run in a child process (oidc-idp.mjs, saml-idp.mjs). */
export interface ChildIdp {
  info: Record<string, any>;
  close(): Promise<void>;
}

/** Starts `test/support/<script>` with its options; resolves with the JSON line it prints once listening. */
export function startChildIdp(script: string, options: unknown): Promise<ChildIdp> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, script), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${stderr}`)));
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      const info = JSON.parse(stdout.split('\n')[0]);
      child.removeAllListeners('exit');
      resolve({
        info,
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
  });
}

export interface BrowserResponse {
  url: string;
  status: number;
  location: string | null;
  text: string;
}

/**
 * The browser of a sign-in: one cookie jar, redirects followed by hand so that a test sees (and
 * may change) each hop. The app's public URL (PUBLIC_URL of startApp, http://localhost:8000) is
 * mapped to where the test app listens.
 */
export class Browser {
  private readonly cookies = new Map<string, Map<string, string>>();

  constructor(private readonly t: TestApp) {}

  private real(url: string): URL {
    return new URL(url.replace(/^http:\/\/localhost:8000/, this.t.url));
  }

  async request(method: string, url: string, form?: Record<string, string>): Promise<BrowserResponse> {
    const target = this.real(url);
    const jar = this.cookies.get(target.host) ?? new Map<string, string>();
    this.cookies.set(target.host, jar);
    const headers: Record<string, string> = {};
    if (jar.size) headers.Cookie = [...jar].map(([key, value]) => `${key}=${value}`).join('; ');
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(target, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [key, ...value] = pair.trim().split('=');
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired) jar.delete(key);
      else jar.set(key, value.join('='));
    }
    const location = res.headers.get('location');
    return { url: target.toString(), status: res.status, location: location ? new URL(location, target).toString() : null, text: await res.text() };
  }

  /** Follows redirects from `url` (GET) until an answer that is not one, or a Location that `stop` accepts (returned unfollowed). */
  async follow(url: string, stop: (location: string) => boolean = () => false): Promise<BrowserResponse> {
    let res = await this.request('GET', url);
    for (let hops = 0; res.location && !stop(res.location) && hops < 20; hops++) res = await this.request('GET', res.location);
    return res;
  }

  forget(host: string): void {
    this.cookies.delete(this.real(host).host);
  }
}
