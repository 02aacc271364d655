import { Injectable } from '@nestjs/common';
import type { RequestHandler } from 'express';

/**
 * What this instance is busy with: HTTP requests being answered and background jobs running.
 * Graceful shutdown sets `draining` (new requests are refused) and waits for `idle()`.
 */
@Injectable()
export class InFlight {
  private drainingNow = false;
  private drainListeners: (() => void)[] = [];
  private count = 0;

  get draining(): boolean {
    return this.drainingNow;
  }

  /** Set by graceful shutdown; tells the long-lived streams (MCP's SSE) to end, as they would never finish on their own. */
  set draining(value: boolean) {
    const started = value && !this.drainingNow;
    this.drainingNow = value;
    if (started) for (const listener of this.drainListeners) listener();
  }

  /** Called once draining starts. */
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Counts one piece of work until the returned function is called (once). */
  begin(): () => void {
    this.count += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count -= 1;
      if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
    };
  }

  /** Counts `work` until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    const end = this.begin();
    return work.finally(end);
  }

  /** Resolves once nothing is in flight. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * The first middleware: a request counts until its response is finished (or its connection
   * dropped). While draining, requests still arriving on kept-alive connections get a 503 that
   * closes the connection, so clients retry on another instance.
   */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      if (this.draining) {
        res.set('Connection', 'close').status(503).json({ error: 'ERROR_SERVICE_UNAVAILABLE', detail: 'The server is shutting down, please retry.' });
        return;
      }
      res.on('close', this.begin());
      next();
    };
  }
}
