import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A call a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A real HTTP receiver on loopback for webhook tests: it records every request and answers
 * with `respond` (200 `{}` unless told otherwise).
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: (call: Received, res: ServerResponse) => void = (_call, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{}');
  };
  private server!: Server;
  private waiters: { count: number; resolve: () => void }[] = [];

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: kept as text.
        }
        const call = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        this.received.push(call);
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
        this.respond(call, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Resolves once `count` calls in all were received (fails after `ms`). */
  until(count: number, ms = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver: ${this.received.length} of ${count} calls after ${ms} ms`)), ms);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  clear(): void {
    this.received.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
