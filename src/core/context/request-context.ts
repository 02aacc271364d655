import { AsyncLocalStorage } from 'node:async_hooks';

/** Who caused the work being done: the user and the socket named by the `WebSocketId` header. */
export interface Actor {
  userId: number | null;
  webSocketId: string | null;
}

const storage = new AsyncLocalStorage<Actor>();

export const RequestContext = {
  /** Runs `fn` with a fresh actor; the auth guard fills it in. */
  run<T>(actor: Actor, fn: () => T): T {
    return storage.run(actor, fn);
  },
  current(): Actor {
    return storage.getStore() ?? { userId: null, webSocketId: null };
  },
  /** Called by authentication: events caused from here on carry this user and socket id. */
  setActor(userId: number | null, webSocketId: string | null): void {
    const store = storage.getStore();
    if (store) {
      store.userId = userId;
      store.webSocketId = webSocketId;
    }
  },
};
