import { AsyncSlot } from './async-frame';

/**
 * What a database token lets the request do on a table, for the operation its route declares
 * (rows read, create...). Table access checks consult it: a request without one is a user's.
 */
export interface TableGrant {
  allows(table: { id: number; databaseId: number }, workspaceId: number): boolean;
}

/** Who caused the work being done: the user and the socket named by the `WebSocketId` header. */
export interface Actor {
  userId: number | null;
  webSocketId: string | null;
  /** Set when a database token authenticated the request (the user is the token's owner). */
  tableGrant?: TableGrant;
  /**
   * True for an HTTP request that only reads (GET, HEAD): the one kind of request a template's
   * preview may be reached by (a write route that checks a read operation on its way, a form
   * submission or an export, is not one). Unset in jobs and socket work.
   */
  readOnly?: boolean;
  /**
   * False when the row changes made must not call webhooks: the request said
   * `?send_webhook_events=false`, or the work is a background job (an import), as in Baserow.
   */
  sendWebhookEvents?: boolean;
  /** The `ClientSessionId` header of a JWT request: the undo stack its actions join (null: none). */
  clientSessionId?: string | null;
  /** The `ClientUndoRedoActionGroupId` header of a JWT request: actions undone together (null: none). */
  actionGroupId?: string | null;
  /** The client's address (Express's `req.ip` under `trust proxy`, IPv4 without `::ffff:`), for the audit log. */
  ipAddress?: string | null;
}

const actorSlot = new AsyncSlot<Actor>('actor');

export const RequestContext = {
  /** Runs `fn` with a fresh actor; the auth guard fills it in. */
  run<T>(actor: Actor, fn: () => T): T {
    return actorSlot.run(actor, fn);
  },
  current(): Actor {
    return actorSlot.get() ?? { userId: null, webSocketId: null };
  },
  /** The database token's grant of this request, if a token authenticated it. */
  tableGrant(): TableGrant | undefined {
    return actorSlot.get()?.tableGrant;
  },
  setTableGrant(grant: TableGrant | undefined): void {
    const store = actorSlot.get();
    if (store) store.tableGrant = grant;
  },
  /** Called by JWT authentication: the undo session and action group the request's actions are recorded with. */
  setUndoSession(clientSessionId: string | null, actionGroupId: string | null): void {
    const store = actorSlot.get();
    if (store) {
      store.clientSessionId = clientSessionId;
      store.actionGroupId = actionGroupId;
    }
  },
  /** Called by authentication: events caused from here on carry this user and socket id. */
  setActor(userId: number | null, webSocketId: string | null): void {
    const store = actorSlot.get();
    if (store) {
      store.userId = userId;
      store.webSocketId = webSocketId;
    }
  },
};
