import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DataSource } from 'typeorm';
import { signUp, SignedUp, startApp, startTwoInstances, TEST_DB, TestApp } from './support/app';
import { addMember } from './support/fixtures';
import { connect, WsClient } from './support/ws';

type Transport = 'sse' | 'streamable';

/**
 * Baserow's MCP server: endpoints (`/api/mcp/`), the SSE transport (`/mcp/<key>/sse`) and the
 * streamable HTTP one (`/mcp/<key>/`), driven by the official SDK client against the app on a port.
 */
describe(`MCP (${TEST_DB})`, () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  let workspaceId: number;
  let databaseId: number;
  let tableId: number;
  let nameField: number;
  let otherWorkspaceTable: number;
  const clients: Client[] = [];
  const sockets: WsClient[] = [];

  const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
  const createEndpoint = async (name = 'Claude', workspace = workspaceId, token = ada.token) => {
    const res = await api('POST', '/api/mcp/endpoints/', { name, workspace_id: workspace }, token);
    expect(res.status).toBe(200);
    return res.body;
  };
  const open = async (key: string, kind: Transport): Promise<Client> => {
    const client = new Client({ name: 'rowspace-test', version: '1.0.0' });
    const transport = kind === 'sse' ? new SSEClientTransport(new URL(`${t.url}/mcp/${key}/sse`)) : new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/${key}/`));
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const textOf = (result: any): string => result.content[0].text;

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    ada = await signUp(t, 'Ada');
    bob = await signUp(t, 'Bob');
    workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
    const [database] = (await api('GET', `/api/applications/workspace/${workspaceId}/`)).body;
    databaseId = database.id;
    tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Tasks' })).body.id;
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    nameField = fields.find((f: any) => f.primary).id;
    await api('PATCH', `/api/database/fields/${nameField}/`, { name: 'Name' });
    const bobWorkspace = (await api('GET', '/api/workspaces/', undefined, bob.token)).body[0].id;
    const [bobDatabase] = (await api('GET', `/api/applications/workspace/${bobWorkspace}/`, undefined, bob.token)).body;
    otherWorkspaceTable = bobDatabase.tables[0].id;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(() => t?.close());

  describe('endpoints', () => {
    it('creates, lists, gets, renames and deletes an endpoint; the key is shown, never stored', async () => {
      const endpoint = await createEndpoint('Claude');
      expect(endpoint).toEqual({
        id: expect.any(Number),
        name: 'Claude',
        key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        workspace_id: workspaceId,
        workspace_name: "Ada's workspace",
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect((await api('GET', `/api/mcp/endpoint/${endpoint.id}/`)).body).toEqual(endpoint);
      expect((await api('GET', '/api/mcp/endpoints/')).body).toContainEqual(endpoint);
      const stored = JSON.stringify(await t.app.get(DataSource).query('SELECT * FROM core_mcpendpoint'));
      expect(stored).not.toContain(endpoint.key);

      const renamed = await api('PATCH', `/api/mcp/endpoint/${endpoint.id}/`, { name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...endpoint, name: 'Renamed' });
      expect((await api('DELETE', `/api/mcp/endpoint/${endpoint.id}/`)).status).toBe(204);
      expect((await api('GET', `/api/mcp/endpoint/${endpoint.id}/`)).body.error).toBe('ERROR_MCP_ENDPOINT_DOES_NOT_EXIST');
    });

    it("answers Baserow's errors: validation, unknown workspace, non-member, another user's endpoint", async () => {
      expect((await t.request('GET', '/api/mcp/endpoints/')).status).toBe(401);
      const empty = await api('POST', '/api/mcp/endpoints/', {});
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
      expect(empty.body.detail.name[0].code).toBe('required');
      expect(empty.body.detail.workspace_id[0].code).toBe('required');
      const unknown = await api('POST', '/api/mcp/endpoints/', { name: 'X', workspace_id: 999999 });
      expect([unknown.status, unknown.body.error]).toEqual([404, 'ERROR_GROUP_DOES_NOT_EXIST']);
      const bobWorkspace = (await api('GET', '/api/workspaces/', undefined, bob.token)).body[0].id;
      const notMember = await api('POST', '/api/mcp/endpoints/', { name: 'X', workspace_id: bobWorkspace });
      expect([notMember.status, notMember.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);

      // Only the owner sees or changes an endpoint: to anyone else it does not exist.
      const bobs = await createEndpoint('Bob', bobWorkspace, bob.token);
      for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine' }], ['DELETE']] as const) {
        const res = await api(method, `/api/mcp/endpoint/${bobs.id}/`, body);
        expect([res.status, res.body.error]).toEqual([404, 'ERROR_MCP_ENDPOINT_DOES_NOT_EXIST']);
      }
      expect((await api('GET', '/api/mcp/endpoints/')).body.map((e: any) => e.id)).not.toContain(bobs.id);
      const blank = await api('PATCH', `/api/mcp/endpoint/${bobs.id}/`, { name: '' }, bob.token);
      expect([blank.status, blank.body.detail.name[0].code]).toEqual([400, 'blank']);
    });

    it("refuses an owner who left the endpoint's workspace as Baserow does (GET/DELETE 401, PATCH 400)", async () => {
      const bobWorkspace = (await api('GET', '/api/workspaces/', undefined, bob.token)).body[0].id;
      await addMember(t, bob, ada, bobWorkspace);
      const endpoint = await createEndpoint('In Bob', bobWorkspace);
      const users = (await api('GET', `/api/workspaces/users/workspace/${bobWorkspace}/`, undefined, bob.token)).body;
      const adaMembership = users.find((u: any) => u.user_id === ada.id);
      expect((await api('DELETE', `/api/workspaces/users/${adaMembership.id}/`, undefined, bob.token)).status).toBe(204);
      expect((await api('GET', `/api/mcp/endpoint/${endpoint.id}/`)).body.error).toBe('PERMISSION_DENIED');
      const patch = await api('PATCH', `/api/mcp/endpoint/${endpoint.id}/`, { name: 'X' });
      expect([patch.status, patch.body.error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
      expect((await api('DELETE', `/api/mcp/endpoint/${endpoint.id}/`)).status).toBe(401);
      // Its key no longer opens anything.
      expect((await fetch(`${t.url}/mcp/${endpoint.key}/sse`)).status).toBe(401);
    });
  });

  describe.each(['sse', 'streamable'] as const)('over %s', (kind) => {
    it('lists the tools with input schemas generated from the fields', async () => {
      const endpoint = await createEndpoint();
      const client = await open(endpoint.key, kind);
      expect(client.getServerVersion()?.name).toBe('Baserow MCP');
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['list_tables', 'list_table_rows', `create_row_table_${tableId}`, `update_row_table_${tableId}`, 'delete_table_row']));
      expect(names).not.toContain(`create_row_table_${otherWorkspaceTable}`);
      const create = tools.find((tool) => tool.name === `create_row_table_${tableId}`)!;
      expect(create.description).toBe(`Create a new row/record in table with id ${tableId}, named "Tasks".`);
      expect(create.inputSchema).toEqual({
        type: 'object',
        properties: {
          row: {
            type: 'object',
            properties: {
              Name: { type: 'string', nullable: true },
              Notes: { type: 'string', nullable: true },
              Active: { type: 'boolean', default: false },
            },
          },
        },
        required: ['row'],
      });
      const update = tools.find((tool) => tool.name === `update_row_table_${tableId}`)!;
      expect(update.inputSchema.required).toEqual(['id', 'row']);
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
    });

    it('creates a row that reaches the table page as rows_created, and records its history', async () => {
      const endpoint = await createEndpoint();
      const client = await open(endpoint.key, kind);
      const socket = await connect(t, ada.token);
      sockets.push(socket);
      socket.send({ page: 'table', table_id: tableId });
      await socket.waitFor('page_add');

      const result = await client.callTool({ name: `create_row_table_${tableId}`, arguments: { row: { Name: `From ${kind}`, Active: true } } });
      expect(result.isError).toBeFalsy();
      const row = JSON.parse(textOf(result));
      expect(row).toMatchObject({ id: expect.any(Number), Name: `From ${kind}`, Active: true });
      const message = await socket.waitFor('rows_created');
      expect(message.table_id).toBe(tableId);
      expect(message.rows[0]).toMatchObject({ id: row.id, [`field_${nameField}`]: `From ${kind}` });

      const history = await api('GET', `/api/database/rows/table/${tableId}/${row.id}/history/`);
      expect(history.body.results[0]).toMatchObject({ action_type: 'create_row', user: { id: ada.id } });
    });

    it('lists tables, lists rows with search and filters, updates and deletes rows', async () => {
      const endpoint = await createEndpoint();
      const client = await open(endpoint.key, kind);
      const tables = JSON.parse(textOf(await client.callTool({ name: 'list_tables', arguments: {} })));
      expect(tables).toContainEqual({ id: tableId, name: 'Tasks', order: expect.any(Number), database_id: databaseId });
      expect(tables.map((x: any) => x.id)).not.toContain(otherWorkspaceTable);

      for (const name of [`Car ${kind}`, `Boat ${kind}`]) {
        await api('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: name, Active: name.startsWith('Boat') });
      }
      const searched = JSON.parse(textOf(await client.callTool({ name: 'list_table_rows', arguments: { table_id: tableId, search: `boat ${kind}` } })));
      expect(searched.results.map((r: any) => r.Name)).toEqual([`Boat ${kind}`]);
      expect(Object.keys(searched)).toEqual(['count', 'next', 'previous', 'results']);
      const filtered = JSON.parse(
        textOf(
          await client.callTool({
            name: 'list_table_rows',
            arguments: { table_id: tableId, filters: { filter_type: 'AND', filters: [{ field: 'Name', type: 'equal', value: `Car ${kind}` }], groups: [] } },
          }),
        ),
      );
      expect(filtered.results.map((r: any) => r.Name)).toEqual([`Car ${kind}`]);
      const paged = JSON.parse(textOf(await client.callTool({ name: 'list_table_rows', arguments: { table_id: tableId, page: 1, size: 1 } })));
      expect(paged.results).toHaveLength(1);
      expect(paged.next).toContain(`/api/database/rows/table/${tableId}/`);

      const car = filtered.results[0];
      const updated = JSON.parse(textOf(await client.callTool({ name: `update_row_table_${tableId}`, arguments: { id: car.id, row: { Notes: 'fast' } } })));
      expect(updated).toMatchObject({ id: car.id, Name: `Car ${kind}`, Notes: 'fast' });
      expect(textOf(await client.callTool({ name: 'delete_table_row', arguments: { table_id: tableId, id: car.id } }))).toBe('successfully deleted');
      const gone = await api('GET', `/api/database/rows/table/${tableId}/${car.id}/`);
      expect(gone.body.error).toBe('ERROR_ROW_DOES_NOT_EXIST');
    });

    it("answers bad input with the tool's error, never a server error, and shows nothing of other workspaces", async () => {
      const endpoint = await createEndpoint();
      const client = await open(endpoint.key, kind);
      // Another workspace's table: as Baserow, whichever tool.
      for (const call of [
        { name: 'list_table_rows', arguments: { table_id: otherWorkspaceTable } },
        { name: `create_row_table_${otherWorkspaceTable}`, arguments: { row: { Name: 'x' } } },
        { name: `update_row_table_${otherWorkspaceTable}`, arguments: { id: 1, row: { Name: 'x' } } },
        { name: 'delete_table_row', arguments: { table_id: otherWorkspaceTable, id: 1 } },
      ]) {
        const before = (await api('GET', `/api/database/rows/table/${otherWorkspaceTable}/`, undefined, bob.token)).body;
        expect(textOf(await client.callTool(call))).toBe('Table not in endpoint workspace.');
        expect((await api('GET', `/api/database/rows/table/${otherWorkspaceTable}/`, undefined, bob.token)).body).toEqual(before);
      }

      // Wrong types: an MCP tool error.
      for (const args of [{ table_id: 'abc' }, {}, { table_id: tableId, page: 'x' }, { table_id: 1.5 }]) {
        const result = await client.callTool({ name: 'list_table_rows', arguments: args as Record<string, unknown> });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^Input validation error/);
      }
      const noRow = await client.callTool({ name: `create_row_table_${tableId}`, arguments: { row: 'nope' } });
      expect([noRow.isError, textOf(noRow)]).toEqual([true, expect.stringMatching(/^Input validation error/)]);
      // A cell of the wrong type: the REST route's validation error, as Baserow's tool answers it.
      const badCell = await client.callTool({ name: `create_row_table_${tableId}`, arguments: { row: { Active: 'maybe' } } });
      expect(JSON.parse(textOf(badCell))).toMatchObject({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { Active: [expect.objectContaining({ code: 'invalid' })] } });
      const missingRow = await client.callTool({ name: `update_row_table_${tableId}`, arguments: { id: 2147483648, row: {} } });
      expect(JSON.parse(textOf(missingRow)).error).toBe('ERROR_ROW_DOES_NOT_EXIST');
      expect(textOf(await client.callTool({ name: 'drop_everything', arguments: {} }))).toBe("Tool 'drop_everything' not found.");
    });

    it('stops working at once when the endpoint is deleted, and refuses unknown keys', async () => {
      const endpoint = await createEndpoint();
      const client = await open(endpoint.key, kind);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect((await api('DELETE', `/api/mcp/endpoint/${endpoint.id}/`)).status).toBe(204);
      if (kind === 'sse') {
        // The open stream stays, but answers as Baserow's: no tools, and calls find no endpoint.
        expect((await client.listTools()).tools).toEqual([]);
        expect(textOf(await client.callTool({ name: 'list_tables', arguments: {} }))).toBe('Endpoint not found.');
      } else {
        // Every streamable request is authenticated by its URL's key: 401 from now on.
        await expect(client.listTools()).rejects.toThrow(/Endpoint not found/);
      }
      await expect(open(endpoint.key, kind)).rejects.toThrow();
      await expect(open('x'.repeat(32), kind)).rejects.toThrow();
    });
  });

  it('refuses the key of a deactivated user with 401, and an open session gets nothing', async () => {
    const carol = await signUp(t, 'Carol');
    const carolWorkspace = (await api('GET', '/api/workspaces/', undefined, carol.token)).body[0].id;
    const endpoint = await createEndpoint('Carol', carolWorkspace, carol.token);
    const client = await open(endpoint.key, 'sse');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // The first user signed up is staff.
    expect((await api('PATCH', `/api/admin/users/${carol.id}/`, { is_active: false })).status).toBe(200);
    expect((await client.listTools()).tools).toEqual([]);
    expect(textOf(await client.callTool({ name: 'list_tables', arguments: {} }))).toBe('Endpoint not found.');
    const sse = await fetch(`${t.url}/mcp/${endpoint.key}/sse`);
    expect([sse.status, await sse.text()]).toEqual([401, 'Endpoint not found.']);
    const post = await fetch(`${t.url}/mcp/${endpoint.key}/`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(post.status).toBe(401);
  });

  it("generates each writable field's cell schema as Baserow's serializer field renders, leaving read-only fields out", async () => {
    const table = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Typed' })).body.id;
    const field = async (body: Record<string, unknown>) => (await api('POST', `/api/database/fields/table/${table}/`, body)).body;
    await field({ name: 'Price', type: 'number', number_decimal_places: 2 });
    const status = await field({ name: 'Status', type: 'single_select', select_options: [{ value: 'Open', color: 'blue' }, { value: 'Done', color: 'green' }] });
    await field({ name: 'Stars', type: 'rating', max_value: 3 });
    await field({ name: 'Due', type: 'date', date_include_time: true });
    await field({ name: 'Made', type: 'created_on' });
    await field({ name: 'Twice', type: 'formula', formula: "concat(field('Name'), field('Name'))" });
    const endpoint = await createEndpoint();
    const client = await open(endpoint.key, 'streamable');
    const tool = (await client.listTools()).tools.find((x) => x.name === `create_row_table_${table}`)!;
    const properties = (tool.inputSchema.properties as any).row.properties;
    const [open_, done] = status.select_options;
    expect(properties.Price).toEqual({ type: 'string', format: 'decimal', pattern: '^-?\\d{0,50}(?:\\.\\d{0,2})?$', nullable: true });
    expect(properties.Status).toEqual({
      type: 'integer',
      nullable: true,
      description: `Accepts one of the following option ids as integer value (in format option_id=option_value): ${open_.id}="Open", ${done.id}="Done".`,
    });
    expect(properties.Stars).toEqual({ type: 'integer', maximum: 3, minimum: 0, default: 0 });
    expect(properties.Due).toEqual({ type: 'string', format: 'date-time', nullable: true });
    expect(Object.keys(properties)).not.toContain('Made');
    expect(Object.keys(properties)).not.toContain('Twice');
    // The schema's values are accepted as they are by the row service.
    const created = await client.callTool({ name: `create_row_table_${table}`, arguments: { row: { Price: '12.50', Status: done.id, Stars: 2, Due: '2025-01-02T03:04:00Z' } } });
    expect(JSON.parse(textOf(created))).toMatchObject({ Price: '12.50', Status: { id: done.id, value: 'Done' }, Stars: 2 });
  });

  it("acts with the owner's role: a VIEWER gets no write tools, and a write is refused as REST refuses it", async () => {
    const dave = await signUp(t, 'Dave');
    await addMember(t, ada, dave, workspaceId);
    const membership = (await api('GET', `/api/workspaces/users/workspace/${workspaceId}/`)).body.find((u: any) => u.user_id === dave.id);
    expect((await api('PATCH', `/api/workspaces/users/${membership.id}/`, { permissions: 'VIEWER' })).status).toBe(200);
    const endpoint = await createEndpoint('Viewer', workspaceId, dave.token);
    const client = await open(endpoint.key, 'streamable');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['list_tables', 'list_table_rows', 'delete_table_row']);
    const rows = JSON.parse(textOf(await client.callTool({ name: 'list_table_rows', arguments: { table_id: tableId } })));
    expect(rows.count).toBeGreaterThan(0);
    const before = (await api('GET', `/api/database/rows/table/${tableId}/`)).body;
    for (const call of [
      { name: `create_row_table_${tableId}`, arguments: { row: { Name: 'no' } } },
      { name: `update_row_table_${tableId}`, arguments: { id: rows.results[0].id, row: { Name: 'no' } } },
      { name: 'delete_table_row', arguments: { table_id: tableId, id: rows.results[0].id } },
    ]) {
      expect(JSON.parse(textOf(await client.callTool(call))).error).toBe('PERMISSION_DENIED');
    }
    expect((await api('GET', `/api/database/rows/table/${tableId}/`)).body).toEqual(before);
  });

  it('leaves the API routes, body parsers and unknown /mcp paths as they were', async () => {
    const res = await api('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'Plain REST' });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/mcp/messages/')).status).toBe(404);
    const noSession = await fetch(`${t.url}/mcp/messages/?sessionId=nope`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(noSession.status).toBe(404);
  });

  // Baserow's SSE messages go through its channel layer: any instance may be posted a session's message.
  (TEST_DB === 'postgres' && process.env.ROWSPACE_TEST_REDIS ? it : it.skip)('delivers a message posted to another instance to the SSE session through Redis', async () => {
    const pair = await startTwoInstances({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
    try {
      const user = await signUp(pair.a, 'Erin');
      const workspace = (await pair.a.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
      const endpoint = (await pair.a.request('POST', '/api/mcp/endpoints/', { token: user.token, body: { name: 'Two', workspace_id: workspace } })).body;
      const posted: string[] = [];
      // The stream is opened on A; every message is POSTed to B.
      const toB = (url: string | URL, init?: RequestInit) => {
        const target = init?.method === 'POST' ? String(url).replace(pair.a.url, pair.b.url) : String(url);
        if (init?.method === 'POST') posted.push(target);
        return fetch(target, init);
      };
      const client = new Client({ name: 'rowspace-test', version: '1.0.0' });
      await client.connect(new SSEClientTransport(new URL(`${pair.a.url}/mcp/${endpoint.key}/sse`), { fetch: toB }));
      try {
        const tables = JSON.parse(textOf(await client.callTool({ name: 'list_tables', arguments: {} })));
        expect(tables.map((x: any) => x.name)).toEqual(['Customers', 'Projects']);
        expect(posted.length).toBeGreaterThan(0);
        expect(posted.every((url) => url.startsWith(pair.b.url))).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      await pair.close();
    }
  });
});

