import type { Response, SignedUp, TestApp } from './app';
import { connect, WsClient } from './ws';

/** Helpers of the undo/redo suites: requests in a client session, undo and redo, table pages. */
export function undoClient(t: TestApp, user: () => SignedUp, session = 'session-a') {
  const headers = (extra: Record<string, string> = {}) => ({ ClientSessionId: session, ...extra });
  return {
    session,
    /** A request in the session (an action the session can undo). */
    api: (method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> =>
      t.request(method, path, { token: user().token, body, headers: headers(extra) }),
    /** A request outside any session (its actions are never undoable). */
    plain: (method: string, path: string, body?: unknown): Promise<Response> => t.request(method, path, { token: user().token, body }),
    undo: (scopes: Record<string, unknown> = {}, extra: Record<string, string> = {}) => t.request('PATCH', '/api/user/undo/', { token: user().token, body: { scopes }, headers: headers(extra) }),
    redo: (scopes: Record<string, unknown> = {}, extra: Record<string, string> = {}) => t.request('PATCH', '/api/user/redo/', { token: user().token, body: { scopes }, headers: headers(extra) }),
  };
}

/** The answer of an undo or redo that did these actions (`[type, scope]`). */
export function done(result: string, ...actions: [string, string][]) {
  return { actions: actions.map(([action_type, action_scope]) => ({ action_type, action_scope })), result_code: result };
}

/** A socket on a table's page. */
export async function onTablePage(t: TestApp, user: SignedUp, tableId: number, open: WsClient[]): Promise<WsClient> {
  const client = await connect(t, user.token);
  open.push(client);
  client.send({ page: 'table', table_id: tableId });
  await client.waitFor('page_add');
  return client;
}
