import { DataSource } from 'typeorm';
import { WebhookDeliverer } from '../src/webhooks/webhook-deliverer';
import { startApp, TEST_DB, TestApp } from './support/app';
import { createTenant, Tenant } from './support/fixtures';
import { Receiver } from './support/receiver';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Database webhooks (issue 22 items 1-3): Baserow's endpoints, keys and errors, every event
 * type's payload received by a real HTTP receiver on loopback, calls made only after commit,
 * retries and deactivation, the test call, and the address guard.
 */
describe(`database webhooks (${TEST_DB})`, () => {
  let t: TestApp;
  let ada: Tenant;
  let eve: Tenant;
  let receiver: Receiver;
  let tableId: number;
  let fields: any[];

  const jwt = (method: string, path: string, body?: unknown, token = ada.user.token) => t.request(method, path, { token, body });
  const createWebhook = async (body: Record<string, unknown>, table = tableId) => {
    const res = await jwt('POST', `/api/database/webhooks/table/${table}/`, { name: 'Hook', url: receiver.url(), ...body });
    expect(res.status).toBe(200);
    return res.body;
  };
  const idle = () => t.app.get(WebhookDeliverer).idle();
  const deleteAllWebhooks = async () => {
    for (const hook of (await jwt('GET', `/api/database/webhooks/table/${tableId}/`)).body) await jwt('DELETE', `/api/database/webhooks/${hook.id}/`);
  };

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await startApp({
      RATE_LIMIT_REQUESTS_PER_USER: '0',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
      BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true',
      BASEROW_WEBHOOKS_MAX_PER_TABLE: '3',
      BASEROW_WEBHOOKS_MAX_RETRIES_PER_CALL: '2',
      BASEROW_WEBHOOKS_MAX_CONSECUTIVE_TRIGGER_FAILURES: '2',
      BASEROW_WEBHOOKS_MAX_CALL_LOG_ENTRIES: '3',
      BATCH_ROWS_SIZE_LIMIT: '2',
      BASEROW_WEBHOOKS_BATCH_LIMIT: '2',
      WEBHOOKS_POLL_MS: '100',
    });
    ada = await createTenant(t, 'Ada');
    eve = await createTenant(t, 'Eve');
    tableId = Number(ada.ids.tableId);
    fields = (await jwt('GET', `/api/database/fields/table/${tableId}/`)).body;
    // The fixtures' own webhooks (a public address, one event) stay out of the way.
    await deleteAllWebhooks();
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  beforeEach(async () => {
    await deleteAllWebhooks();
    await idle();
    receiver.clear();
    receiver.respond = (_call, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    };
  });

  describe('settings', () => {
    it('creates a webhook with Baserow keys and defaults (200), lists, gets, patches and deletes it', async () => {
      const created = await createWebhook({ table_id: 99, active: false });
      expect(Object.keys(created)).toEqual([
        'id', 'events', 'event_config', 'headers', 'calls', 'created_on', 'updated_on', 'use_user_field_names',
        'url', 'request_method', 'name', 'include_all_events', 'failed_triggers', 'active',
      ]);
      expect(created).toMatchObject({ events: [], event_config: [], headers: {}, calls: [], use_user_field_names: true, request_method: 'POST', include_all_events: true, failed_triggers: 0, active: true });
      const list = await jwt('GET', `/api/database/webhooks/table/${tableId}/`);
      expect(list.body.map((w: any) => w.id)).toEqual([created.id]);
      expect((await jwt('GET', `/api/database/webhooks/${created.id}/`)).body).toEqual(created);
      const patched = await jwt('PATCH', `/api/database/webhooks/${created.id}/`, {});
      expect(patched.status).toBe(200);
      expect({ ...patched.body, updated_on: created.updated_on }).toEqual(created);
      expect((await jwt('DELETE', `/api/database/webhooks/${created.id}/`)).status).toBe(204);
      expect((await jwt('GET', `/api/database/webhooks/${created.id}/`)).body.error).toBe('ERROR_TABLE_WEBHOOK_DOES_NOT_EXIST');
    });

    it('keeps events and their fields as Baserow does', async () => {
      const [a, b] = fields.filter((f) => !f.primary);
      const created = await createWebhook({
        include_all_events: false,
        events: ['rows.updated'],
        event_config: [{ event_type: 'rows.updated', fields: [a.id, b.id] }, { event_type: 'rows.deleted', fields: [a.id] }],
      });
      expect(created.events).toEqual(['rows.updated']);
      expect(created.event_config).toEqual([{ event_type: 'rows.updated', fields: [a.id, b.id] }]);
      // Adding an event keeps the existing one's fields; removing one drops it.
      let res = await jwt('PATCH', `/api/database/webhooks/${created.id}/`, { events: ['rows.updated', 'rows.deleted'] });
      expect(res.body.event_config).toEqual([{ event_type: 'rows.updated', fields: [a.id, b.id] }, { event_type: 'rows.deleted' }]);
      res = await jwt('PATCH', `/api/database/webhooks/${created.id}/`, { events: ['rows.created'] });
      expect(res.body.event_config).toEqual([{ event_type: 'rows.created' }]);
      res = await jwt('PATCH', `/api/database/webhooks/${created.id}/`, { include_all_events: true });
      expect(res.body).toMatchObject({ include_all_events: true, events: [], event_config: [] });
      res = await jwt('PATCH', `/api/database/webhooks/${created.id}/`, { headers: { 'X-Secret': 'abc' }, request_method: 'PUT', use_user_field_names: false, name: 'Renamed' });
      expect(res.body).toMatchObject({ headers: { 'X-Secret': 'abc' }, request_method: 'PUT', use_user_field_names: false, name: 'Renamed' });
    });

    it('refuses bad input with the spec errors and writes nothing', async () => {
      const bad = async (body: Record<string, unknown>) => (await jwt('POST', `/api/database/webhooks/table/${tableId}/`, { name: 'Hook', url: receiver.url(), ...body })).body;
      expect((await bad({ headers: { 'Test:': 'x' } })).detail.headers[0].code).toBe('invalid_http_header_name');
      expect((await bad({ headers: { Host: 'evil.example' } })).detail.headers[0].code).toBe('invalid_http_header_name');
      expect((await bad({ headers: { 'Transfer-Encoding': 'chunked' } })).detail.headers[0].code).toBe('invalid_http_header_name');
      expect((await bad({ headers: { 'X-A': 'a\r\nb' } })).detail.headers[0].code).toBe('invalid_http_header_value');
      expect((await bad({ headers: { 'X-A': 1 } })).detail.headers[0].code).toBe('invalid_http_header_value');
      expect((await bad({ events: ['INVALID'] })).detail.events['0'][0].code).toBe('invalid_choice');
      expect((await bad({ url: 'https://mydomain.com:8a/endpoint' })).detail.url[0].code).toBe('invalid_url');
      expect((await bad({ url: 'ftp://example.com/' })).detail.url[0].code).toBe('invalid_url');
      expect((await bad({ url: 'http://user:pass@example.com/' })).detail.url[0].code).toBe('invalid_url');
      expect((await bad({ url: `http://example.com/${'a'.repeat(2000)}` })).detail.url[0].code).toBe('max_length');
      expect((await bad({ request_method: 'TRACE' })).detail.request_method[0].code).toBe('invalid_choice');
      expect((await bad({ include_all_events: false, events: ['rows.updated'], event_config: [{ event_type: 'rows.updated', fields: [Number(eve.ids.fieldId)] }] })).error).toBe(
        'ERROR_TABLE_WEBHOOK_EVENT_CONFIG_FIELD_NOT_IN_TABLE',
      );
      expect((await bad({ include_all_events: false, events: ['view.created'], event_config: [{ event_type: 'view.created', views: [Number(eve.ids.viewId)] }] })).error).toBe(
        'ERROR_TABLE_WEBHOOK_EVENT_CONFIG_VIEW_NOT_IN_TABLE',
      );
      expect((await bad({ event_config: [{ event_type: 'nope', fields: ['x'] }] })).detail.event_config['0']).toMatchObject({ event_type: [{ code: 'invalid_choice' }], fields: [{ code: 'invalid' }] });
      expect((await jwt('GET', `/api/database/webhooks/table/${tableId}/`)).body).toEqual([]);
      const hook = await createWebhook({});
      const patched = await jwt('PATCH', `/api/database/webhooks/${hook.id}/`, { include_all_events: false, events: ['rows.updated'], event_config: [{ event_type: 'rows.updated', fields: [Number(eve.ids.fieldId)] }] });
      expect(patched.body.error).toBe('ERROR_TABLE_WEBHOOK_EVENT_CONFIG_FIELD_NOT_IN_TABLE');
      expect((await jwt('GET', `/api/database/webhooks/${hook.id}/`)).body.include_all_events).toBe(true);
    });

    it('allows BASEROW_WEBHOOKS_MAX_PER_TABLE webhooks on a table', async () => {
      for (let i = 0; i < 3; i++) await createWebhook({});
      const res = await jwt('POST', `/api/database/webhooks/table/${tableId}/`, { name: 'Fourth', url: receiver.url() });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERROR_TABLE_WEBHOOK_MAX_LIMIT_EXCEEDED');
    });

    it("shows a stranger nothing, and takes no database token", async () => {
      const hook = await createWebhook({});
      expect((await jwt('GET', `/api/database/webhooks/table/${tableId}/`, undefined, eve.user.token)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
      expect((await jwt('GET', `/api/database/webhooks/${hook.id}/`, undefined, eve.user.token)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
      expect((await jwt('DELETE', `/api/database/webhooks/${hook.id}/`, undefined, eve.user.token)).status).toBe(400);
      expect((await jwt('GET', '/api/database/webhooks/table/0/')).body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
      const withToken = await t.request('GET', `/api/database/webhooks/table/${tableId}/`, { headers: { Authorization: `Token ${ada.tokenKey}` } });
      expect(withToken.status).toBe(401);
      expect((await jwt('GET', `/api/database/webhooks/${hook.id}/`)).status).toBe(200);
    });
  });

  describe('calls', () => {
    it('sends rows.created, rows.updated with old_items and rows.deleted after commit, with Baserow payloads', async () => {
      const hook = await createWebhook({ headers: { 'X-Secret': 's3cret' } });
      const primary = fields.find((f) => f.primary);
      const created = await jwt('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { [primary.name]: 'Hooked' });
      expect(created.status).toBe(200);
      await receiver.until(1);
      const [call] = receiver.received;
      expect(call.method).toBe('POST');
      expect(call.headers['x-secret']).toBe('s3cret');
      expect(call.headers['content-type']).toBe('application/json');
      expect(call.headers['x-baserow-event']).toBe('rows.created');
      expect(call.headers['x-baserow-delivery']).toBe(call.body.event_id);
      expect(Object.keys(call.body)).toEqual(['table_id', 'database_id', 'workspace_id', 'webhook_id', 'event_id', 'event_type', 'items']);
      expect(call.body).toMatchObject({ table_id: tableId, database_id: Number(ada.ids.databaseId), workspace_id: Number(ada.ids.workspaceId), webhook_id: hook.id, event_type: 'rows.created' });
      expect(call.body.items).toEqual([created.body]);

      const rowId = created.body.id;
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${rowId}/?user_field_names=true`, { [primary.name]: 'Changed' });
      await receiver.until(2);
      expect(receiver.received[1].body.event_type).toBe('rows.updated');
      expect(receiver.received[1].body.items[0][primary.name]).toBe('Changed');
      expect(receiver.received[1].body.old_items[0][primary.name]).toBe('Hooked');
      expect(receiver.received[1].body.old_items[0].id).toBe(rowId);

      await jwt('DELETE', `/api/database/rows/table/${tableId}/${rowId}/`);
      await receiver.until(3);
      expect(receiver.received[2].body).toMatchObject({ event_type: 'rows.deleted', row_ids: [rowId] });
      expect(receiver.received[2].body.items).toBeUndefined();
      await idle();
      const logged = (await jwt('GET', `/api/database/webhooks/${hook.id}/`)).body.calls;
      expect(logged.map((c: any) => c.event_type).sort()).toEqual(['rows.created', 'rows.deleted', 'rows.updated']);
      expect(Object.keys(logged[0])).toEqual(['id', 'event_id', 'event_type', 'called_time', 'called_url', 'request', 'response', 'response_status', 'error']);
      expect(logged[0]).toMatchObject({ called_url: receiver.url(), response_status: 200, error: '' });
      expect(logged[0].request.startsWith(`POST ${receiver.url()}\r\n`)).toBe(true);
      expect(logged[0].response.endsWith('\r\n\r\n{}')).toBe(true);
    });

    it('names rows by field id without use_user_field_names, and honours the method', async () => {
      await createWebhook({ use_user_field_names: false, request_method: 'PATCH' });
      await jwt('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{}, {}] });
      await receiver.until(1);
      const [call] = receiver.received;
      expect(call.method).toBe('PATCH');
      expect(call.body.items).toHaveLength(2);
      expect(Object.keys(call.body.items[0])).toContain(`field_${fields[0].id}`);
    });

    it('sends nothing for a rolled-back change, with send_webhook_events=false, or to an inactive webhook', async () => {
      const hook = await createWebhook({});
      const failed = await jwt('POST', `/api/database/rows/table/${tableId}/batch/`, { items: [{}, { [`field_${fields[0].id}`]: { not: 'text' } }] });
      expect(failed.status).toBe(400);
      const quiet = await jwt('POST', `/api/database/rows/table/${tableId}/?send_webhook_events=false`, {});
      expect(quiet.status).toBe(200);
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${quiet.body.id}/?send_webhook_events=no`, {});
      await jwt('DELETE', `/api/database/rows/table/${tableId}/${quiet.body.id}/?send_webhook_events=0`);
      await jwt('PATCH', `/api/database/webhooks/${hook.id}/`, { active: false });
      await jwt('POST', `/api/database/rows/table/${tableId}/`, {});
      await idle();
      await sleep(300);
      expect(receiver.received).toEqual([]);
      const [{ n }] = await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM database_webhookdelivery');
      expect(Number(n)).toBe(0);
    });

    it('narrows rows.updated to the fields an update touches', async () => {
      const [a, b] = fields.filter((f) => !f.primary && !f.read_only);
      await createWebhook({ include_all_events: false, events: ['rows.updated'], event_config: [{ event_type: 'rows.updated', fields: [a.id] }] });
      const row = (await jwt('POST', `/api/database/rows/table/${tableId}/?send_webhook_events=false`, {})).body;
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, {});
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [`field_${b.id}`]: null });
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/move/`);
      await idle();
      await sleep(200);
      expect(receiver.received).toEqual([]);
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [`field_${a.id}`]: null, [`field_${b.id}`]: null });
      await receiver.until(1);
      expect(receiver.received[0].body.event_type).toBe('rows.updated');
    });

    it('sends field and view events with the objects as the API shows them', async () => {
      const hook = await createWebhook({ include_all_events: false, events: ['field.created', 'field.updated', 'field.deleted', 'view.created', 'view.updated', 'view.deleted'] });
      const field = (await jwt('POST', `/api/database/fields/table/${tableId}/`, { name: 'Hooked field', type: 'text' })).body;
      await jwt('PATCH', `/api/database/fields/${field.id}/`, { name: 'Renamed field' });
      await jwt('DELETE', `/api/database/fields/${field.id}/`);
      const view = (await jwt('POST', `/api/database/views/table/${tableId}/`, { name: 'Hooked view', type: 'grid' })).body;
      await jwt('PATCH', `/api/database/views/${view.id}/`, { name: 'Renamed view' });
      await jwt('DELETE', `/api/database/views/${view.id}/`);
      await receiver.until(6);
      const bodies = receiver.received.map((call) => call.body);
      expect(bodies.map((b) => b.event_type)).toEqual(['field.created', 'field.updated', 'field.deleted', 'view.created', 'view.updated', 'view.deleted']);
      // The field as the field endpoints show it, without the related fields of a creation's answer.
      const { related_fields: _related, ...shown } = field;
      expect(bodies[0].field).toEqual(shown);
      expect(bodies[1].field).toMatchObject({ id: field.id, name: 'Renamed field' });
      expect(bodies[2]).toMatchObject({ field_id: field.id, webhook_id: hook.id });
      expect(bodies[3].view).toMatchObject({ id: view.id, name: 'Hooked view', type: 'grid' });
      expect(bodies[4].view).toMatchObject({ id: view.id, name: 'Renamed view' });
      expect(bodies[5]).toMatchObject({ view_id: view.id });
    });

    it("sends the rows of a linked table a write changed as that table's rows.updated, in batches", async () => {
      const databaseId = Number(ada.ids.databaseId);
      const other = (await jwt('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Linked' })).body;
      const link = (await jwt('POST', `/api/database/fields/table/${tableId}/`, { name: 'Links', type: 'link_row', link_row_table_id: other.id, has_related_field: true })).body;
      const targets = [];
      for (let i = 0; i < 5; i++) targets.push((await jwt('POST', `/api/database/rows/table/${other.id}/`, {})).body.id);
      await createWebhook({}, other.id);
      receiver.clear();
      await jwt('POST', `/api/database/rows/table/${tableId}/`, { [`field_${link.id}`]: targets });
      // BATCH_ROWS_SIZE_LIMIT 2, BASEROW_WEBHOOKS_BATCH_LIMIT 2: 2 of the 3 batches are sent.
      await receiver.until(2);
      await idle();
      await sleep(200);
      const bodies = receiver.received.map((call) => call.body).sort((a, b) => a.batch_id - b.batch_id);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toMatchObject({ table_id: other.id, event_type: 'rows.updated', total_count: 5, batch_id: 1, offset: 0, batch_size: 2 });
      expect(bodies[1]).toMatchObject({ batch_id: 2, offset: 2, batch_size: 2 });
      expect(bodies[0].old_items).toBeUndefined();
      expect(bodies[0].event_id).toBe(bodies[1].event_id);
      const tooLarge = (await jwt('GET', `/api/notifications/${ada.ids.workspaceId}/`)).body.results.filter((n: any) => n.type === 'webhook_payload_too_large');
      expect(tooLarge.map((n: any) => n.data)).toEqual([expect.objectContaining({ table_id: other.id, event_id: bodies[0].event_id, batch_limit: 2 })]);
      await jwt('DELETE', `/api/database/fields/${link.id}/`);
    });

    it('sends view.rows_entered once for the rows that start matching a watched view, not for all events', async () => {
      const primary = fields.find((f) => f.primary);
      const view = (await jwt('POST', `/api/database/views/table/${tableId}/`, { name: 'Matching', type: 'grid' })).body;
      expect((await jwt('POST', `/api/database/views/${view.id}/filters/`, { field: primary.id, type: 'contains', value: 'match' })).status).toBe(200);
      const hook = await createWebhook({ include_all_events: false, events: ['view.rows_entered'], event_config: [{ event_type: 'view.rows_entered', views: [view.id] }] });
      expect(hook.event_config).toEqual([{ event_type: 'view.rows_entered', views: [view.id] }]);
      const row = (await jwt('POST', `/api/database/rows/table/${tableId}/`, { [`field_${primary.id}`]: 'other' })).body;
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [`field_${primary.id}`]: 'a match now' });
      await jwt('PATCH', `/api/database/rows/table/${tableId}/${row.id}/`, { [`field_${primary.id}`]: 'still a match' });
      const created = (await jwt('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { [primary.name]: 'match on creation' })).body;
      await receiver.until(2);
      await idle();
      await sleep(200);
      const bodies = receiver.received.map((call) => call.body);
      expect(bodies).toHaveLength(2);
      expect(Object.keys(bodies[0])).toEqual(['table_id', 'database_id', 'workspace_id', 'webhook_id', 'event_id', 'event_type', 'view', 'fields', 'rows', 'total_count']);
      expect(bodies[0]).toMatchObject({ event_type: 'view.rows_entered', view: { id: view.id, name: 'Matching' }, total_count: 1 });
      expect(bodies[0].fields.slice(0, 3)).toEqual(['id', 'order', primary.name]);
      expect(bodies[0].rows.map((r: any) => [r.id, r[primary.name]])).toEqual([[row.id, 'a match now']]);
      expect(bodies[1].rows).toEqual([created]);
      await jwt('DELETE', `/api/database/views/${view.id}/`);
    });

    it('retries a failing call, counts failures in a row and deactivates the webhook past the limit', async () => {
      receiver.respond = (_call, res) => {
        res.statusCode = 500;
        res.end('broken');
      };
      const hook = await createWebhook({});
      await jwt('POST', `/api/database/rows/table/${tableId}/`, {});
      // Attempt 1 then retries after 1 s and 2 s: failures 1, 2, then deactivated at the third.
      await receiver.until(3, 15_000);
      await idle();
      const after = (await jwt('GET', `/api/database/webhooks/${hook.id}/`)).body;
      expect(after).toMatchObject({ active: false, failed_triggers: 2 });
      // Retries update their event's log entry.
      expect(after.calls).toHaveLength(1);
      expect(after.calls[0]).toMatchObject({ response_status: 500, error: '' });
      expect(after.calls[0].response.endsWith('\r\n\r\nbroken')).toBe(true);
      await sleep(500);
      expect(receiver.received).toHaveLength(3);
      // The workspace's admins are told.
      const notices = (await jwt('GET', `/api/notifications/${ada.ids.workspaceId}/`)).body.results.filter((n: any) => n.type === 'webhook_deactivated');
      expect(notices.map((n: any) => n.data)).toEqual([{ webhook_id: hook.id, table_id: tableId, database_id: Number(ada.ids.databaseId), webhook_name: 'Hook' }]);
      // Activated again: failures start over.
      expect((await jwt('PATCH', `/api/database/webhooks/${hook.id}/`, { active: true })).body).toMatchObject({ active: true, failed_triggers: 0 });
    });

    it('keeps the last BASEROW_WEBHOOKS_MAX_CALL_LOG_ENTRIES calls, and a success resets the failures', async () => {
      const hook = await createWebhook({});
      for (let i = 0; i < 5; i++) await jwt('POST', `/api/database/rows/table/${tableId}/`, {});
      await receiver.until(5);
      await idle();
      const calls = (await jwt('GET', `/api/database/webhooks/${hook.id}/`)).body.calls;
      expect(calls).toHaveLength(3);
      const times = calls.map((c: any) => c.called_time);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('follows redirects, and gives up on a loop', async () => {
      receiver.respond = (call, res) => {
        if (call.path === '/loop') {
          res.statusCode = 302;
          res.setHeader('Location', '/loop');
          res.end();
        } else if (call.path === '/moved') {
          res.statusCode = 307;
          res.setHeader('Location', '/hook');
          res.end();
        } else res.end('{}');
      };
      const moved = await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: receiver.url('/moved'), event_type: 'rows.created' });
      expect(moved.body).toMatchObject({ status_code: 200, is_unreachable: false });
      expect(receiver.received.map((c) => [c.method, c.path])).toEqual([['POST', '/moved'], ['POST', '/hook']]);
      const loop = await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: receiver.url('/loop'), event_type: 'rows.created' });
      expect(loop.body).toMatchObject({ response: '', status_code: null, is_unreachable: true });
    });

    it('reads at most WEBHOOKS_RESPONSE_MAX_KB of a large answer', async () => {
      receiver.respond = (_call, res) => {
        res.setHeader('Content-Type', 'text/plain');
        const chunk = 'x'.repeat(1024 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 100 && res.write(chunk)) sent++;
          if (sent >= 100) res.end();
          else res.once('drain', more);
        };
        res.on('error', () => undefined);
        more();
      };
      const res = await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: receiver.url(), event_type: 'rows.deleted' });
      expect(res.status).toBe(200);
      expect(res.body.status_code).toBe(200);
      expect(res.body.response.length).toBeLessThan(300 * 1024);
    });
  });

  describe('test call', () => {
    it("answers the receiver's reply, and is_unreachable when there is none; stores nothing", async () => {
      const res = await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: receiver.url(), event_type: 'rows.updated', headers: { 'X-Test': '1' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['request', 'response', 'status_code', 'is_unreachable']);
      expect(res.body).toMatchObject({ status_code: 200, is_unreachable: false });
      expect(res.body.response.endsWith('Content-Type: application/json\r\n' + res.body.response.split('Content-Type: application/json\r\n')[1])).toBe(true);
      expect(res.body.response.endsWith('\r\n\r\n{}')).toBe(true);
      const [call] = receiver.received;
      expect(call.headers['x-test']).toBe('1');
      expect(call.body).toMatchObject({ table_id: tableId, webhook_id: null, event_type: 'rows.updated' });
      expect(call.body.items[0]).toMatchObject({ id: 0, order: '0.00000000000000000000' });
      expect(call.body.old_items).toHaveLength(1);
      const down = await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: 'http://127.0.0.1:1/', event_type: 'rows.created' });
      expect(down.body).toMatchObject({ response: '', status_code: null, is_unreachable: true });
      expect((await jwt('GET', `/api/database/webhooks/table/${tableId}/`)).body).toEqual([]);
      expect((await jwt('POST', `/api/database/webhooks/table/${tableId}/test-call/`, { url: receiver.url() })).body.detail.event_type[0].code).toBe('required');
    });
  });

  describe('without BASEROW_WEBHOOKS_ALLOW_PRIVATE_ADDRESS', () => {
    let guarded: TestApp;
    let user: Tenant;

    beforeAll(async () => {
      guarded = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0' });
      user = await createTenant(guarded, 'Gus');
    });

    afterAll(() => guarded?.close());

    it.each([['http://127.0.0.1:8080/'], ['http://localhost/hook'], ['http://10.0.0.1/'], ['http://169.254.169.254/latest/meta-data'], ['http://[::1]/'], ['http://[::ffff:127.0.0.1]/'], ['http://0.0.0.0/']])(
      'refuses %s on create, update and test call',
      async (url) => {
        const path = `/api/database/webhooks/table/${user.ids.tableId}/`;
        const created = await guarded.request('POST', path, { token: user.user.token, body: { name: 'Hook', url } });
        expect(created.status).toBe(400);
        expect(created.body.detail.url[0].code).toBe('invalid_url');
        const tested = await guarded.request('POST', `${path}test-call/`, { token: user.user.token, body: { url, event_type: 'rows.created' } });
        expect(tested.body.detail.url[0].code).toBe('invalid_url');
        const [hook] = (await guarded.request('GET', path, { token: user.user.token })).body;
        const patched = await guarded.request('PATCH', `/api/database/webhooks/${hook.id}/`, { token: user.user.token, body: { url } });
        expect(patched.body.detail.url[0].code).toBe('invalid_url');
      },
    );
  });
});
