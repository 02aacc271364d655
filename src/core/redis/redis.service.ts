import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';
import { lazy } from '../lazy';

/** The client library, loaded only where `REDIS_URL` is set (it is a good part of a start-up's time otherwise). */
const ioredis = lazy(() => (require('ioredis') as { default: typeof Redis }).default);

/**
 * Redis connections when `REDIS_URL` is set (several instances share login limits and
 * real-time broadcasts through it); `enabled` is false otherwise and callers stay in-process.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly clients: Redis[] = [];
  private commandClient: Redis | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.redisUrl !== null;
  }

  /** The shared connection for ordinary commands. */
  get client(): Redis {
    if (!this.commandClient) this.commandClient = this.connect();
    return this.commandClient;
  }

  /** A new connection (a subscriber needs its own). */
  connect(): Redis {
    if (!this.config.redisUrl) throw new Error('REDIS_URL is not set.');
    const RedisClient = ioredis();
    const client = new RedisClient(this.config.redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
    this.clients.push(client);
    return client;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.quit().catch(() => client.disconnect())));
  }
}
