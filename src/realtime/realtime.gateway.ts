import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Logger, OnModuleDestroy } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { RawData, WebSocket } from 'ws';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { RequestRateLimiter, upgradeClientAddress } from '../core/http/rate-limit';
import { Connection, Subscription } from './connection';
import { PageTypeRegistry } from './pages/page-type';
import { SocketAuthenticator } from './socket-authenticator';
import { SocketRegistry } from './socket-registry';

/**
 * `/ws/core/?jwt_token=…`: the handshake (`authentication` first), page subscriptions
 * (`{"page": …}` / `{"remove_page": …}` with flat parameters) and protocol pings.
 * Frames that arrive while authentication runs wait for it, then run in order.
 */
@WebSocketGateway({ path: '/ws/core/' })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayInit, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeGateway.name);
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    private readonly registry: SocketRegistry,
    private readonly pages: PageTypeRegistry,
    private readonly authenticator: SocketAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limiter: RequestRateLimiter,
    private readonly http: HttpAdapterHost,
  ) {}

  afterInit(): void {
    this.registry.recheck = (connection, subscription) => connection.enqueue(() => this.recheckPage(connection, subscription));
    this.pinger = setInterval(() => this.ping(), this.config.wsPingIntervalSeconds * 1000);
    this.pinger.unref();
  }

  /** On shutdown every socket is closed with 1012 (service restart): Baserow's web client reconnects. */
  async onModuleDestroy(): Promise<void> {
    if (this.pinger) clearInterval(this.pinger);
    await this.registry.closeAll(1012, 'Service restart');
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const token = tokenOf(request);
    const connection = new Connection(socket, token ? randomUUID() : null, this.registry.counters);
    // The client address as Express reads it (its `trust proxy`): anonymous sockets are limited by it.
    const app = this.http.httpAdapter?.getInstance?.() as { get?(name: string): unknown } | undefined;
    connection.clientAddress = upgradeClientAddress(request, app?.get?.('trust proxy fn') as ((address: string, hop: number) => boolean) | undefined);
    this.registry.track(connection);
    // Listeners are attached synchronously, before any frame can be read.
    socket.on('message', (data: RawData, isBinary: boolean) => connection.enqueue(() => this.receive(connection, data, isBinary)));
    socket.on('pong', () => (connection.alive = true));
    socket.on('close', () => this.registry.remove(connection));
    socket.on('error', (error) => this.logger.debug(`Socket error: ${error.message}`));
    connection.enqueue(() => this.authenticate(connection, token));
  }

  private async authenticate(connection: Connection, token: string | null): Promise<void> {
    const identity = token ? await this.authenticator.authenticate(token) : null;
    if (connection.closed) return;
    if (identity && identity.userId === null && !(await this.limiter.allowsAnonymousSocket(connection.clientAddress))) {
      // 1013 "try again later": this address used its anonymous budget (RATE_LIMIT_ANONYMOUS_REQUESTS_PER_IP).
      this.registry.remove(connection);
      connection.socket.close(1013, 'Too many requests');
      return;
    }
    if (identity && identity.userId !== null && this.registry.socketsOfUser(identity.userId).size >= this.config.wsMaxConnectionsPerUser) {
      // 1013 "try again later": the user already has WS_MAX_CONNECTIONS_PER_USER sockets on this instance.
      this.registry.remove(connection);
      connection.socket.close(1013, 'Too many connections');
      return;
    }
    connection.sendJson({ type: 'authentication', success: identity !== null, web_socket_id: connection.webSocketId });
    if (!identity) {
      this.registry.remove(connection);
      connection.socket.close(1000);
      return;
    }
    connection.userId = identity.userId;
    connection.authenticated = true;
    this.registry.authenticated(connection);
  }

  private async receive(connection: Connection, data: RawData, isBinary: boolean): Promise<void> {
    if (!connection.authenticated || connection.closed || isBinary) return;
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return; // Not JSON: ignored, the socket stays open.
    }
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return;
    const fields = frame as Record<string, unknown>;
    if ('page' in fields) await this.addPage(connection, fields.page, fields);
    if ('remove_page' in fields) this.removePage(connection, fields.remove_page, fields);
  }

  /**
   * Success answers `page_add` (again on a duplicate); any failure answers nothing, and so
   * does a new page beyond WS_MAX_PAGES_PER_SOCKET.
   */
  private async addPage(connection: Connection, pageName: unknown, frame: Record<string, unknown>): Promise<void> {
    const type = this.pages.get(pageName);
    if (!type) return;
    const parameters = declaredParameters(type.parameters, frame);
    const key = subscriptionKey(type.type, parameters);
    if (connection.pages.size >= this.config.wsMaxPagesPerSocket && !connection.pages.has(key)) return;
    if (connection.userId === null && !(await this.limiter.allowsAnonymousSocket(connection.clientAddress))) {
      this.registry.remove(connection);
      connection.socket.close(1013, 'Too many requests');
      return;
    }
    const allowed = await type.canAdd({ userId: connection.userId, webSocketId: connection.webSocketId }, parameters);
    if (!allowed || connection.closed) return;
    this.registry.subscribe(connection, {
      key,
      page: type.type,
      parameters,
      group: type.group(parameters),
      permissionGroup: type.permissionGroup(parameters),
    });
    connection.sendJson({ type: 'page_add', page: type.type, parameters });
  }

  /** A page whose access may have changed (a shared view's link): discarded with `page_discard` when the socket may no longer follow it. */
  private async recheckPage(connection: Connection, subscription: Subscription): Promise<void> {
    const type = this.pages.get(subscription.page);
    if (!type || connection.closed || !connection.pages.has(subscription.key)) return;
    if (await type.canAdd({ userId: connection.userId, webSocketId: connection.webSocketId }, subscription.parameters)) return;
    this.registry.unsubscribe(connection, subscription.key);
    connection.sendJson({ type: 'page_discard', page: subscription.page, parameters: subscription.parameters });
  }

  /** A known page type is always answered with `page_discard`, subscribed or not. */
  private removePage(connection: Connection, pageName: unknown, frame: Record<string, unknown>): void {
    const type = this.pages.get(pageName);
    if (!type) return;
    const parameters = declaredParameters(type.parameters, frame);
    this.registry.unsubscribe(connection, subscriptionKey(type.type, parameters));
    connection.sendJson({ type: 'page_discard', page: type.type, parameters });
  }

  /** Drops sockets that did not answer the previous ping, pings the others. */
  private ping(): void {
    for (const connection of [...this.registry.connections]) {
      if (!connection.alive) {
        this.registry.remove(connection);
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      try {
        connection.socket.ping();
      } catch {
        // Closing already.
      }
    }
  }
}

function tokenOf(request: IncomingMessage): string | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost/').searchParams.get('jwt_token') || null;
  } catch {
    return null;
  }
}

/** Exactly the declared names, missing ones as null, values unchanged. */
function declaredParameters(names: readonly string[], frame: Record<string, unknown>): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  for (const name of names) parameters[name] = Object.prototype.hasOwnProperty.call(frame, name) ? frame[name] : null;
  return parameters;
}

function subscriptionKey(page: string, parameters: Record<string, unknown>): string {
  return JSON.stringify([page, parameters]);
}
