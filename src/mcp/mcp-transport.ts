import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type Redis from 'ioredis';
import getRawBody from 'raw-body';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { clientAddress } from '../core/http/http-conventions';
import { InFlight } from '../core/lifecycle/in-flight';
import { RedisService } from '../core/redis/redis.service';
import { McpEndpointsService } from './mcp-endpoints.service';
import { McpServerFactory } from './mcp-server';

const SSE_PATH = /^\/mcp\/([^/]+)\/sse\/?$/;
const MESSAGES_PATH = /^\/mcp\/messages\/?$/;
const STREAMABLE_PATH = /^\/mcp\/([^/]+)\/?$/;
/** Where the SSE transport tells clients to POST their messages (Baserow's `messages_path`). */
const MESSAGES_ENDPOINT = '/mcp/messages/';
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

interface SseSession {
  transport: SSEServerTransport;
  server: Server;
}

/**
 * The MCP server's HTTP transports, on the app's Express server beside the API:
 * - SSE, as Baserow 1.35.3 serves it: `GET /mcp/<key>/sse` opens the stream, whose `endpoint`
 *   event names `/mcp/messages/?sessionId=…` where the client POSTs its messages (202).
 * - Streamable HTTP (which Baserow 1.35.3 does not have) at `/mcp/<key>/`: stateless, one server
 *   per POST, so any instance answers any request.
 * A key that does not work is answered 401 `Endpoint not found.` before any stream opens.
 */
@Injectable()
export class McpTransport implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('MCP');
  private readonly sessions = new Map<string, SseSession>();
  private subscriber: Redis | null = null;
  /** Messages for an SSE session held by another instance go through Redis (Baserow uses its channel layer). */
  private readonly channelPrefix: string;

  constructor(
    private readonly endpoints: McpEndpointsService,
    private readonly servers: McpServerFactory,
    private readonly inFlight: InFlight,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channelPrefix = `${config.redisChannelPrefix}:mcp:sse:`;
  }

  onModuleInit(): void {
    // Draining (graceful shutdown) ends the streams: they would hold the instance up to its deadline.
    this.inFlight.onDrain(() => void this.closeAll());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  /** The middleware: answers `/mcp/…` and passes everything else on. */
  handler(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const path = req.path;
      if (!path.startsWith('/mcp/')) return next();
      let match: RegExpExecArray | null;
      if ((match = SSE_PATH.exec(path)) && req.method === 'GET') return void this.openSse(match[1], req, res).catch(next);
      if (MESSAGES_PATH.test(path) && req.method === 'POST') return void this.track(res, this.postMessage(req, res)).catch(next);
      if ((match = STREAMABLE_PATH.exec(path)) && !MESSAGES_PATH.test(path)) return void this.track(res, this.streamable(match[1], req, res)).catch(next);
      next();
    };
  }

  /** Counts a short request in flight (the SSE stream is not: draining ends it instead). */
  private async track(res: Response, work: Promise<void>): Promise<void> {
    if (this.inFlight.draining) {
      res.set('Connection', 'close').status(503).json({ error: 'ERROR_SERVICE_UNAVAILABLE', detail: 'The server is shutting down, please retry.' });
      return;
    }
    const end = this.inFlight.begin();
    res.on('close', end);
    await work;
  }

  private async openSse(key: string, req: Request, res: Response): Promise<void> {
    if (this.inFlight.draining) {
      res.set('Connection', 'close').status(503).json({ error: 'ERROR_SERVICE_UNAVAILABLE', detail: 'The server is shutting down, please retry.' });
      return;
    }
    if (!(await this.endpoints.active(key))) {
      res.status(401).type('text/plain').send('Endpoint not found.');
      return;
    }
    await this.ensureSubscribed();
    const transport = new SSEServerTransport(MESSAGES_ENDPOINT, res);
    const server = this.servers.create(key, clientAddress(req.ip));
    const id = transport.sessionId;
    this.sessions.set(id, { transport, server });
    transport.onclose = () => {
      this.sessions.delete(id);
    };
    // Proxies must not buffer the stream.
    res.setHeader('X-Accel-Buffering', 'no');
    await server.connect(transport);
  }

  /** A message of an SSE session (`?sessionId=`, or Baserow's `?session_id=`). */
  private async postMessage(req: Request, res: Response): Promise<void> {
    const raw = req.query.sessionId ?? req.query.session_id;
    const sessionId = typeof raw === 'string' ? raw : null;
    if (!sessionId) {
      res.status(400).type('text/plain').send('session_id is required');
      return;
    }
    const local = this.sessions.get(sessionId);
    if (local) {
      await local.transport.handlePostMessage(req, res);
      return;
    }
    if (!this.redis.enabled) {
      res.status(404).type('text/plain').send('Could not find session');
      return;
    }
    // Held by another instance (or by none any more, which Baserow answers 202 too).
    let message: unknown;
    try {
      message = JSON.parse(await getRawBody(req, { limit: MAX_MESSAGE_BYTES, encoding: 'utf-8' }));
    } catch {
      res.status(400).type('text/plain').send('Could not parse message');
      return;
    }
    await this.redis.client.publish(this.channelPrefix + sessionId, JSON.stringify(message));
    res.status(202).type('text/plain').send('Accepted');
  }

  /** Streamable HTTP, stateless: each POST gets a server and a transport of its own. */
  private async streamable(key: string, req: Request, res: Response): Promise<void> {
    if (req.method !== 'POST') {
      res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
      return;
    }
    if (!(await this.endpoints.active(key))) {
      res.status(401).type('text/plain').send('Endpoint not found.');
      return;
    }
    const server = this.servers.create(key, clientAddress(req.ip));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  /** With Redis, this instance receives the messages other instances were posted for its sessions. */
  private async ensureSubscribed(): Promise<void> {
    if (!this.redis.enabled || this.subscriber) return;
    const subscriber = this.redis.connect();
    this.subscriber = subscriber;
    subscriber.on('pmessage', (_pattern: string, channel: string, payload: string) => {
      const session = this.sessions.get(channel.slice(this.channelPrefix.length));
      if (!session) return;
      try {
        void session.transport.handleMessage(JSON.parse(payload)).catch((error: unknown) => this.logger.warn(`An MCP message was refused: ${String(error)}`));
      } catch (error) {
        this.logger.warn(`An MCP message was refused: ${String(error)}`);
      }
    });
    await subscriber.psubscribe(`${this.channelPrefix}*`);
  }

  private async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.server.close().catch(() => undefined)));
  }
}
