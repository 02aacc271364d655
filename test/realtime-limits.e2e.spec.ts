import { signUp, startApp, TestApp } from './support/app';
import { connect, expectNone, WsClient, wsUrl } from './support/ws';

const open: WsClient[] = [];
async function socket(t: TestApp, token: string): Promise<WsClient> {
  const client = await connect(t, token);
  open.push(client);
  return client;
}
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

describe('WebSocket limits', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ WS_MAX_FRAME_BYTES: '2048', WS_MAX_PAGES_PER_SOCKET: '2', WS_MAX_CONNECTIONS_PER_USER: '2' })));
  afterAll(() => t.close());

  async function tables(token: string, count: number): Promise<number[]> {
    const apps = (await t.request('GET', '/api/applications/', { token })).body;
    const database = apps.find((a: { type: string }) => a.type === 'database');
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.request('POST', `/api/database/tables/database/${database.id}/`, { token, body: { name: `Table ${i}` } });
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    return ids;
  }

  it('closes a socket that sends a frame larger than WS_MAX_FRAME_BYTES with 1009, and reads frames up to it', async () => {
    const user = await signUp(t);
    const [table] = await tables(user.token, 1);
    const client = await socket(t, user.token);
    // A frame of exactly the limit is read (and its page added).
    const frame = JSON.stringify({ page: 'table', table_id: table, padding: '' });
    client.send(JSON.stringify({ page: 'table', table_id: table, padding: 'x'.repeat(2048 - frame.length) }));
    expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: table } });
    client.send(JSON.stringify({ page: 'table', table_id: table, padding: 'x'.repeat(4096) }));
    expect((await client.closed).code).toBe(1009);
  });

  it('refuses pages beyond WS_MAX_PAGES_PER_SOCKET as a refused page (no answer), and accepts again once one is removed', async () => {
    const user = await signUp(t);
    const [a, b, c] = await tables(user.token, 3);
    const client = await socket(t, user.token);
    for (const table of [a, b]) {
      client.send({ page: 'table', table_id: table });
      expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: table } });
    }
    client.send({ page: 'table', table_id: c });
    await expectNone(client);
    // A page already followed is not a new one.
    client.send({ page: 'table', table_id: a });
    expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: a } });
    // The refused page receives nothing.
    await t.request('POST', `/api/database/rows/table/${c}/`, { token: user.token, body: {} });
    await expectNone(client);
    client.send({ remove_page: 'table', table_id: a });
    expect(await client.waitFor('page_discard')).toEqual({ type: 'page_discard', page: 'table', parameters: { table_id: a } });
    client.send({ page: 'table', table_id: c });
    expect(await client.waitFor('page_add')).toEqual({ type: 'page_add', page: 'table', parameters: { table_id: c } });
    await t.request('POST', `/api/database/rows/table/${c}/`, { token: user.token, body: {} });
    expect((await client.waitFor('rows_created')).table_id).toBe(c);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });

  it('closes a user\'s socket beyond WS_MAX_CONNECTIONS_PER_USER with 1013 before authenticating it; other users are not affected', async () => {
    const alice = await signUp(t, 'Alice');
    const bob = await signUp(t, 'Bob');
    const first = await socket(t, alice.token);
    await socket(t, alice.token);
    const third = new WsClient(wsUrl(t, alice.token));
    open.push(third);
    const closed = await third.closed;
    expect(closed.code).toBe(1013);
    expect(third.received).toEqual([]);
    const bobs = await socket(t, bob.token);
    expect(bobs.authentication!.success).toBe(true);
    // A closed socket frees its place.
    first.close();
    await first.closed;
    const again = await socket(t, alice.token);
    expect(again.authentication!.success).toBe(true);
  });
});
