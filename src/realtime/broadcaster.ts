import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { RedisService } from '../core/redis/redis.service';
import { Delivery } from './delivery';
import { SocketRegistry } from './socket-registry';

interface Envelope {
  /** The instance that published it (it delivered to its own sockets already). */
  from: string;
  deliveries: Delivery[];
}

/**
 * Sends deliveries to every instance's sockets. This instance's sockets get them at once;
 * with REDIS_URL the same deliveries are published on one channel, and every other
 * instance delivers them to its own sockets. Without Redis, delivery stays in-process.
 */
@Injectable()
export class Broadcaster implements OnModuleInit {
  private readonly logger = new Logger(Broadcaster.name);
  private readonly instanceId = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | null = null;

  constructor(
    private readonly registry: SocketRegistry,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = `${config.redisChannelPrefix}:realtime`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis.enabled) return;
    this.subscriber = this.redis.connect();
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    // Subscribed before the app listens, so no broadcast of another instance is missed.
    await this.subscriber.subscribe(this.channel);
  }

  /**
   * Whether a page group may have a socket anywhere: with Redis, other instances' sockets are
   * not known here. Listeners skip building messages nobody would receive.
   */
  listened(group: string): boolean {
    return this.redis.enabled || this.registry.hasGroup(group);
  }

  async send(...deliveries: Delivery[]): Promise<void> {
    if (!deliveries.length) return;
    for (const delivery of deliveries) this.registry.deliver(delivery);
    if (!this.redis.enabled) return;
    const envelope: Envelope = { from: this.instanceId, deliveries };
    try {
      await this.redis.client.publish(this.channel, JSON.stringify(envelope));
    } catch (error) {
      this.logger.error('Publishing a real-time broadcast to Redis failed', error instanceof Error ? error.stack : String(error));
    }
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.instanceId || !Array.isArray(envelope.deliveries)) return;
    for (const delivery of envelope.deliveries) this.registry.deliver(delivery);
  }
}
