import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { VersionChange, WriteVersions } from '../database/write-versions';
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

  clear(): void {
    this.entries.clear();
  }

  /** Whether an entry is kept for the key (whatever its version). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A cache of metadata (users, table access, fields…) read from the database: an entry is kept
 * under the metadata version current when its read began, so a write committed since (on any
 * instance: see `WriteVersions`) is never hidden by it, and nothing is kept that a read could
 * only see through an uncommitted write.
 */
export class MetadataCache<K extends Key, V> {
  constructor(
    private readonly cache: VersionedCache<K, V>,
    private readonly versions: WriteVersions,
    private readonly db: UnitOfWork,
  ) {}

  async get(key: K, read: () => Promise<V>): Promise<V> {
    const version = this.versions.metadataFor(this.db.manager);
    if (version === null) return read();
    const hit = this.cache.get(key, version);
    if (hit !== undefined) return hit;
    const value = await read();
    this.cache.set(key, version, value);
    return value;
  }
}

/** What instances tell each other: dropped keys of a cache, or a change of versions. */
type Message = { from: string } & ({ cache: string; keys: Key[] } | { change: VersionChange });

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
  private readonly metadataCaches = new Set<string>();
  private readonly channel: string;
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: RedisService,
    private readonly versions: WriteVersions,
    private readonly db: UnitOfWork,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = `${config.redisChannelPrefix}:cache-invalidation`;
  }

  async onModuleInit(): Promise<void> {
    this.versions.onChange((change, local) => {
      // Whatever metadata caches hold is of an older version now: free it at once.
      if (change.kind === 'metadata') for (const name of this.metadataCaches) this.caches.get(name)?.clear();
      if (local) return this.publish({ from: this.instanceId, change });
    });
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

  /** A cache of metadata of that name, kept under the metadata version (see `MetadataCache`). */
  metadata<K extends Key, V>(name: string, max = 10_000): MetadataCache<K, V> {
    this.metadataCaches.add(name);
    return new MetadataCache(this.versioned<K, V>(name, max), this.versions, this.db);
  }

  /** Drops keys of a cache here and on every other instance. */
  async invalidate(name: string, keys: readonly Key[]): Promise<void> {
    if (!keys.length) return;
    this.caches.get(name)?.drop(keys);
    await this.publish({ from: this.instanceId, cache: name, keys: [...keys] });
  }

  private async publish(message: Message): Promise<void> {
    if (!this.redis.enabled) return;
    try {
      await this.redis.client.publish(this.channel, JSON.stringify(message));
    } catch (error) {
      // Another instance then serves what it cached until its next own change of that kind.
      this.logger.warn(`Publishing a cache invalidation failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private receive(text: string): void {
    try {
      const message = JSON.parse(text) as Message;
      if (message.from === this.instanceId) return;
      if ('change' in message) this.versions.apply(message.change);
      else if (Array.isArray(message.keys)) this.caches.get(message.cache)?.drop(message.keys);
    } catch {
      // Not ours to read.
    }
  }
}
