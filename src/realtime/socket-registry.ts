import { Injectable } from '@nestjs/common';
import { WebSocket } from 'ws';
import { Connection, SocketCounters, Subscription } from './connection';
import { Delivery } from './delivery';

const FORCE_DISCONNECT = JSON.stringify({ type: 'force_disconnect' });

/**
 * This instance's sockets, indexed by user and by page group, so a message costs in
 * proportion to its audience. `deliver` is the only place a broadcast reaches sockets.
 */
@Injectable()
export class SocketRegistry {
  /** Every open socket, authenticated or not (pings go to all of them). */
  readonly connections = new Set<Connection>();
  /** Shared by this instance's connections. */
  readonly counters: SocketCounters = { messagesSent: 0 };
  private readonly byUser = new Map<number, Set<Connection>>();
  private readonly byGroup = new Map<string, Set<Connection>>();
  /** Checks a socket's page again (the gateway's page types); set when the gateway starts. */
  recheck: ((connection: Connection, subscription: Subscription) => void) | null = null;

  track(connection: Connection): void {
    this.connections.add(connection);
  }

  /** After authentication: the socket starts receiving its user's messages. */
  authenticated(connection: Connection): void {
    if (connection.userId === null) return;
    addTo(this.byUser, connection.userId, connection);
  }

  /** The socket is gone: it leaves every index, silently. */
  remove(connection: Connection): void {
    connection.closed = true;
    this.connections.delete(connection);
    if (connection.userId !== null) removeFrom(this.byUser, connection.userId, connection);
    for (const subscription of connection.pages.values()) removeFrom(this.byGroup, subscription.group, connection);
    connection.pages.clear();
  }

  /** Closes every socket with `code` and answers once their closing handshakes ended (or after `waitMs`). */
  async closeAll(code: number, reason: string, waitMs = 5000): Promise<void> {
    const closing = [...this.connections].map((connection) => {
      this.remove(connection);
      const socket = connection.socket;
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.close(code, reason);
      return closed;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closing), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  subscribe(connection: Connection, subscription: Subscription): void {
    connection.pages.set(subscription.key, subscription);
    addTo(this.byGroup, subscription.group, connection);
  }

  /** Removes the page if the socket has it; the group is left once no other page of the socket uses it. */
  unsubscribe(connection: Connection, key: string): void {
    const subscription = connection.pages.get(key);
    if (!subscription) return;
    connection.pages.delete(key);
    for (const other of connection.pages.values()) if (other.group === subscription.group) return;
    removeFrom(this.byGroup, subscription.group, connection);
  }

  /** Whether a socket of this instance has a page of the group. */
  hasGroup(group: string): boolean {
    return !!this.byGroup.get(group)?.size;
  }

  socketsOfUser(userId: number): ReadonlySet<Connection> {
    return this.byUser.get(userId) ?? EMPTY;
  }

  deliver(delivery: Delivery): void {
    switch (delivery.kind) {
      case 'users': {
        const data = Buffer.from(delivery.message);
        for (const userId of new Set(delivery.userIds)) this.sendTo(this.byUser.get(userId), data, delivery.exclude);
        return;
      }
      case 'individual':
        for (const [userId, message] of Object.entries(delivery.messages)) {
          this.sendTo(this.byUser.get(Number(userId)), Buffer.from(message), delivery.exclude);
        }
        return;
      case 'page': {
        const data = Buffer.from(delivery.message);
        const excluded = new Set(delivery.excludeUserIds ?? []);
        for (const connection of this.byGroup.get(delivery.group) ?? EMPTY) {
          if (connection.userId !== null && excluded.has(connection.userId)) continue;
          if (delivery.exclude === null || connection.webSocketId !== delivery.exclude) connection.send(data);
        }
        return;
      }
      case 'all': {
        const data = Buffer.from(delivery.message);
        for (const connection of this.connections) {
          if (connection.authenticated && (delivery.exclude === null || connection.webSocketId !== delivery.exclude)) connection.send(data);
        }
        return;
      }
      case 'discard_pages': {
        const groups = new Set(delivery.permissionGroups);
        for (const userId of new Set(delivery.userIds)) {
          for (const connection of [...this.socketsOfUser(userId)]) {
            for (const subscription of [...connection.pages.values()]) {
              if (subscription.permissionGroup === null || !groups.has(subscription.permissionGroup)) continue;
              this.unsubscribe(connection, subscription.key);
              connection.sendJson({ type: 'page_discard', page: subscription.page, parameters: subscription.parameters });
            }
          }
        }
        return;
      }
      case 'recheck_pages':
        for (const connection of [...(this.byGroup.get(delivery.group) ?? EMPTY)]) {
          for (const subscription of [...connection.pages.values()]) if (subscription.group === delivery.group) this.recheck?.(connection, subscription);
        }
        return;
      case 'force_disconnect':
        for (const connection of [...this.socketsOfUser(delivery.userId)]) {
          if (delivery.exclude !== null && connection.webSocketId === delivery.exclude) continue;
          connection.send(FORCE_DISCONNECT);
          this.remove(connection);
          connection.socket.close(1000);
        }
        return;
    }
  }

  private sendTo(connections: Set<Connection> | undefined, data: Buffer, exclude: string | null): void {
    if (!connections) return;
    for (const connection of connections) {
      if (exclude === null || connection.webSocketId !== exclude) connection.send(data);
    }
  }
}

const EMPTY: ReadonlySet<Connection> = new Set();

function addTo<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(connection);
}

function removeFrom<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(connection);
  if (set.size === 0) index.delete(key);
}
