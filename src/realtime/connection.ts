import { Logger } from '@nestjs/common';
import { WebSocket } from 'ws';

/** One page a socket is subscribed to, identified by its type and declared parameters. */
export interface Subscription {
  /** Identity of the subscription: page type + parameters (Baserow compares the parameter dicts). */
  key: string;
  page: string;
  parameters: Record<string, unknown>;
  /** The group its events are sent to, e.g. `table-5`. */
  group: string;
  /** The group access revocations are sent to, e.g. `permissions-table-5`. */
  permissionGroup: string | null;
}

const logger = new Logger('RealtimeConnection');

/** What this instance's sockets did, for the metrics. */
export interface SocketCounters {
  messagesSent: number;
}

/**
 * One socket of `/ws/core/`: who it is, which pages it follows, and the queue that makes
 * frames arriving before authentication finishes wait for it and run in arrival order.
 */
export class Connection {
  /** Null until authenticated, and for anonymous sockets. */
  userId: number | null = null;
  authenticated = false;
  /** Cleared at each ping, set by the pong; a socket still unset at the next ping is dropped. */
  alive = true;
  closed = false;
  /** The client's address (behind trusted proxies, the one they forwarded). */
  clientAddress = 'unknown';
  readonly pages = new Map<string, Subscription>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: WebSocket,
    /** The id sent in `authentication`; null when no token was given. */
    readonly webSocketId: string | null,
    private readonly counters: SocketCounters,
  ) {}

  /** Runs `work` after everything queued before it. */
  enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error) => {
      logger.error('Handling a socket frame failed', error instanceof Error ? error.stack : String(error));
    });
  }

  /** Sends an already-encoded JSON message as a text frame (shared buffers are not copied per socket). */
  send(data: Buffer | string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(data, { binary: false });
    this.counters.messagesSent += 1;
  }

  sendJson(message: unknown): void {
    this.send(JSON.stringify(message));
  }
}
