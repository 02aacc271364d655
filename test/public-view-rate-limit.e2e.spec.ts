import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf } from './support/fixtures';
import { connect, WsClient, wsUrl } from './support/ws';

/**
 * Anonymous traffic of shared views has its own budget per client address
 * (RATE_LIMIT_ANONYMOUS_REQUESTS_PER_IP): REST requests without credentials on shared view
 * routes, anonymous sockets and the pages they add. Members are not counted there.
 */
const THROTTLED = /^Request was throttled\. Expected available in \d+ seconds?\.$/;

function expectThrottled(res: { status: number; body: any; headers: Headers }): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'ERROR_TOO_MANY_REQUESTS', detail: expect.stringMatching(THROTTLED) });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/** A table with a link field, its grid shared publicly: the slug and the link field. */
async function sharedView(t: TestApp, owner: SignedUp): Promise<{ slug: string; linkId: number; viewId: number }> {
  const auth = { token: owner.token };
  const database = await databaseOf(t, owner);
  const table = (await t.request('POST', `/api/database/tables/database/${database}/`, { ...auth, body: { name: 'Shared' } })).body;
  const other = (await t.request('POST', `/api/database/tables/database/${database}/`, { ...auth, body: { name: 'Other' } })).body;
  const link = (await t.request('POST', `/api/database/fields/table/${table.id}/`, { ...auth, body: { name: 'Link', type: 'link_row', link_row_table_id: other.id } })).body;
  const view = (await t.request('GET', `/api/database/views/table/${table.id}/`, auth)).body[0];
  const shared = await t.request('PATCH', `/api/database/views/${view.id}/`, { ...auth, body: { public: true } });
  expect(shared.status).toBe(200);
  return { slug: shared.body.slug, linkId: link.id, viewId: view.id };
}

describe('anonymous requests on shared views', () => {
  let t: TestApp;
  let owner: SignedUp;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_ANONYMOUS_REQUESTS_PER_IP: '4', RATE_LIMIT_REQUESTS_PER_IP: '0', RATE_LIMIT_REQUESTS_PER_USER: '0' });
    owner = await signUp(t, 'Owner');
  });
  afterAll(() => t.close());

  it('answers 429 to the 5th anonymous request of an address, and members go on', async () => {
    const { slug, linkId } = await sharedView(t, owner);
    const routes = [
      `/api/database/views/grid/${slug}/public/rows/`,
      `/api/database/views/${slug}/public/info/`,
      `/api/database/views/grid/${slug}/public/aggregations/`,
      `/api/database/views/${slug}/link-row-field-lookup/${linkId}/`,
    ];
    for (const route of routes) expect((await t.request('GET', route)).status).toBe(200);
    // Routes outside shared views are not counted here.
    expect((await t.request('GET', '/api/settings/')).status).toBe(200);
    for (const route of routes) expectThrottled(await t.request('GET', route));
    expectThrottled(await t.request('POST', `/api/database/views/${slug}/public/auth/`, { body: { password: 'x' } }));
    // A member of the workspace, from the same address, on the same routes and their own.
    for (const route of [...routes, ...routes]) expect((await t.request('GET', route, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', '/api/workspaces/', { token: owner.token })).status).toBe(200);
    // An anonymous socket of the spent address is closed with 1013; a member's is not.
    const anonymous = new WsClient(wsUrl(t, 'anonymous'));
    expect((await anonymous.closed).code).toBe(1013);
    const member = await connect(t, owner.token);
    expect(member.authentication?.success).toBe(true);
    member.send({ page: 'view', slug });
    expect((await member.waitFor('page_add')).parameters.slug).toBe(slug);
    member.close();
  });
});

describe('anonymous sockets', () => {
  let t: TestApp;
  let owner: SignedUp;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_ANONYMOUS_REQUESTS_PER_IP: '3', RATE_LIMIT_REQUESTS_PER_IP: '0', RATE_LIMIT_REQUESTS_PER_USER: '0' });
    owner = await signUp(t, 'Owner');
  });
  afterAll(() => t.close());

  it('count their connection and each page they add against the address', async () => {
    const { slug } = await sharedView(t, owner);
    const socket = await connect(t, 'anonymous');
    expect(socket.authentication?.success).toBe(true);
    socket.send({ page: 'view', slug });
    expect((await socket.waitFor('page_add')).parameters.slug).toBe(slug);
    socket.send({ page: 'view', slug, token: 'other' });
    await socket.waitFor('page_add');
    socket.send({ page: 'view', slug });
    expect((await socket.closed).code).toBe(1013);
    // The address's REST budget is the same one.
    expectThrottled(await t.request('GET', `/api/database/views/grid/${slug}/public/rows/`));
  });
});
