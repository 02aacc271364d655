import WebSocket from 'ws';
import type { TestApp } from './app';

export interface AuthenticationMessage {
  type: 'authentication';
  success: boolean;
  web_socket_id: string | null;
}

/** How long "nothing arrives" is awaited after the request that could have caused it. */
export const SETTLE_MS = 150;

/**
 * A real `ws` client of `/ws/core/` that keeps every message it receives in a queue:
 * `next`/`waitFor` take messages from it, `drain` answers what is left after a settle.
 */
export class WsClient {
  readonly ws: WebSocket;
  /** Every message ever received, in order. */
  readonly received: any[] = [];
  private readonly pending: any[] = [];
  private waiters: { match: (message: any) => boolean; resolve: (message: any) => void }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  authentication: AuthenticationMessage | null = null;

  constructor(url: string, options: { onOpen?: (ws: WebSocket) => void } = {}) {
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => {
        options.onOpen?.(this.ws);
        resolve();
      });
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      this.received.push(message);
      const index = this.waiters.findIndex((waiter) => waiter.match(message));
      if (index >= 0) {
        const [waiter] = this.waiters.splice(index, 1);
        waiter.resolve(message);
      } else {
        this.pending.push(message);
      }
    });
  }

  get webSocketId(): string {
    if (!this.authentication?.web_socket_id) throw new Error('The socket is not authenticated.');
    return this.authentication.web_socket_id;
  }

  /** Headers for a request whose broadcast must leave this socket out. */
  get origin(): Record<string, string> {
    return { WebSocketId: this.webSocketId };
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first queued (or next arriving) message that matches, taken off the queue. */
  waitFor(match: string | ((message: any) => boolean), timeoutMs = 3000): Promise<any> {
    const predicate = typeof match === 'string' ? (message: any) => message.type === match : match;
    const index = this.pending.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.pending.splice(index, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = {
        match: predicate,
        resolve: (message: any) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`No message matching ${typeof match === 'string' ? match : 'the predicate'} within ${timeoutMs} ms; pending: ${JSON.stringify(this.pending)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The next message, whatever it is. */
  next(timeoutMs = 3000): Promise<any> {
    return this.waitFor(() => true, timeoutMs);
  }

  /** Waits `ms`, then answers (and clears) the messages nobody took. */
  async drain(ms = SETTLE_MS): Promise<any[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.pending.splice(0);
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }
}

export function wsUrl(t: TestApp | string, token: string | null, path = '/ws/core/'): string {
  const base = (typeof t === 'string' ? t : t.url).replace(/^http/, 'ws');
  return token === null ? `${base}${path}` : `${base}${path}?jwt_token=${token}`;
}

/** Opens a socket and waits for its `authentication` message. */
export async function connect(t: TestApp | string, token: string | null, options: { onOpen?: (ws: WebSocket) => void; path?: string } = {}): Promise<WsClient> {
  const client = new WsClient(wsUrl(t, token, options.path), options);
  await client.opened;
  client.authentication = await client.waitFor('authentication');
  return client;
}

/** Asserts that none of the clients received anything within a short settle. */
export async function expectNone(...clients: WsClient[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  for (const client of clients) {
    const left = await client.drain(0);
    if (left.length) throw new Error(`Expected no message, got ${JSON.stringify(left)}`);
  }
}
