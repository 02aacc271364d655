/**
 * What the realtime module sends, as plain data: the same object is delivered to this
 * instance's sockets and, with Redis, published to every other instance. Messages are
 * encoded once (`message` is the JSON text), not once per socket.
 */
export type Delivery =
  /** USERS(ids): every socket of the listed users (never anonymous sockets). */
  | { kind: 'users'; userIds: number[]; message: string; exclude: string | null }
  /** INDIVIDUAL: each listed user's sockets get that user's own message. */
  | { kind: 'individual'; messages: Record<string, string>; exclude: string | null }
  /** PAGE(group): every socket subscribed to a page of that group. */
  | { kind: 'page'; group: string; message: string; exclude: string | null; excludeUserIds?: number[] }
  /** ALL: every authenticated socket, anonymous ones included. */
  | { kind: 'all'; message: string; exclude: string | null }
  /** Access revoked: these users' pages under these permission groups are discarded (`page_discard` each). */
  | { kind: 'discard_pages'; userIds: number[]; permissionGroups: string[] }
  /** Access may have changed: every page of that group is checked again, and the ones that fail are discarded (`page_discard`). */
  | { kind: 'recheck_pages'; group: string }
  /** Password changed: the user's sockets but `exclude` get `force_disconnect` and are closed. */
  | { kind: 'force_disconnect'; userId: number; exclude: string | null };

/** A server → client message: `type` first, then the payload keys. */
export interface ServerMessage {
  type: string;
  [key: string]: unknown;
}

export function encode(message: ServerMessage): string {
  return JSON.stringify(message);
}
