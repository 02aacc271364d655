import { createServer, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets/gateway-metadata-explorer';
import type { Observable } from 'rxjs';
import type { WebSocketServer } from 'ws';

/**
 * Nest's `ws` adapter with Baserow's routing: a gateway path (`/ws/core/`) accepts every
 * path that starts with it (`/ws/core/anything`), and `/ws/core` without the slash is
 * refused, like the Channels route. Frames are read by the gateway itself (the protocol
 * has no `{event, data}` envelope), so Nest's message dispatch is not bound. Frames larger
 * than WS_MAX_FRAME_BYTES close the socket with 1009 (message too big).
 */
export class RealtimeWsAdapter extends WsAdapter {
  constructor(
    appOrHttpServer: ConstructorParameters<typeof WsAdapter>[0],
    /** Largest frame read; `ws` closes the socket with 1009 on a larger one. */
    private readonly maxFrameBytes: number,
  ) {
    super(appOrHttpServer);
  }

  override create(port: number, options: Record<string, unknown> & { namespace?: string; server?: unknown } = {}): WebSocketServer {
    return super.create(port, { ...options, maxPayload: this.maxFrameBytes }) as WebSocketServer;
  }

  protected override ensureHttpServerExists(port: number, httpServer: Server = createServer()): Server | undefined {
    if (this.httpServersRegistry.has(port)) return undefined;
    this.httpServersRegistry.set(port, httpServer);
    httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.route(port, request, socket, head));
    return httpServer;
  }

  /** Socket errors (a too large frame, a broken client) are the gateway's to log, at debug level. */
  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('error', (error) => this.logger.error(error));
    return server;
  }

  override bindMessageHandlers(_client: unknown, _handlers: MessageMappingProperties[], _transform: (data: unknown) => Observable<unknown>): void {
    // The gateway listens to `message` itself.
  }

  private route(port: number, request: IncomingMessage, socket: Duplex, head: Buffer): void {
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'ws://localhost/').pathname;
    } catch {
      socket.destroy();
      return;
    }
    const servers = (this.wsServersRegistry.get(port) ?? []) as (WebSocketServer & { path: string })[];
    const server = servers.find((candidate) => pathname.startsWith(candidate.path.replace(/\/+$/, '') + '/'));
    if (!server) {
      socket.destroy();
      return;
    }
    server.handleUpgrade(request, socket, head, (ws) => server.emit('connection', ws, request));
  }
}
