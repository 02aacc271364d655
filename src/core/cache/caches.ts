import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RedisService } from '../redis/redis.service';

type Key = string | number;

/**
 * A bounded in-process cache whose entries are never served stale: each value is stored with
 * the version it was read at, and a reader presents the current version (read from the
 * database in a query the request makes anyway, so a change committed on any instance is seen
 * at once). Invalidation only frees what can no longer be asked for.
 */
export class VersionedCache<K extends Key, V> {
  private readonly entries = new Map<K, { version: number; value: V }>();

  constructor(
    readonly name: string,
    private readonly max: number,
  ) {}

  get(key: K, version: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-inserted: the map's order is the recency order the bound evicts by.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, version: number, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** Drops entries on this instance only (see `Caches.invalidate` for every instance). */
  drop(keys: readonly Key[]): void {
    for (const key of keys) this.entries.delete(key as K);
  }

  /** Whether an entry is kept for the key (whatever its version). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

interface Invalidation {
  from: string;
  cache: string;
  keys: Key[];
}

/**
 * The one cache helper: named versioned caches, and their invalidation on this instance and,
 * with REDIS_URL, on every other instance through one pub/sub channel. Writers call
 * `invalidate` after their transaction commits.
 */
@Injectable()
export class Caches implements OnModuleInit {
  private readonly logger = new Logger(Caches.name);
  private readonly instanceId = randomUUID();
  private readonly caches = new Map<string, VersionedCache<Key, unknown>>();
  private readonly channel: string;
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = `${config.redisChannelPrefix}:cache-invalidation`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis.enabled) return;
    this.subscriber = this.redis.connect();
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** The cache of that name (one per purpose, e.g. `token-permissions`), created on first use. */
  versioned<K extends Key, V>(name: string, max = 10_000): VersionedCache<K, V> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new VersionedCache<Key, unknown>(name, max);
      this.caches.set(name, cache);
    }
    return cache as unknown as VersionedCache<K, V>;
  }

  /** Drops keys of a cache here and on every other instance. */
  async invalidate(name: string, keys: readonly Key[]): Promise<void> {
    if (!keys.length) return;
    this.caches.get(name)?.drop(keys);
    if (!this.redis.enabled) return;
    const message: Invalidation = { from: this.instanceId, cache: name, keys: [...keys] };
    try {
      await this.redis.client.publish(this.channel, JSON.stringify(message));
    } catch (error) {
      // Entries are checked against their version anyway: a lost message only keeps memory longer.
      this.logger.warn(`Publishing a cache invalidation failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private receive(text: string): void {
    try {
      const message = JSON.parse(text) as Invalidation;
      if (message.from !== this.instanceId && Array.isArray(message.keys)) this.caches.get(message.cache)?.drop(message.keys);
    } catch {
      // Not ours to read.
    }
  }
}
