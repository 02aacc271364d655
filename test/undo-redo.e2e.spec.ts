import { DataSource } from 'typeorm';
import { ActionsService } from '../src/actions/actions.service';
import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { settleJob } from './support/fixtures';
import { done, onTablePage, undoClient } from './support/undo';
import { connect, expectNone, WsClient } from './support/ws';

/**
 * Undo and redo (Baserow's ActionHandler, research §2): the headers every JWT request reads,
 * `PATCH /api/user/undo/` and `/redo/`, and the row actions done, undone and redone with the
 * messages real sockets receive (the undoing client's too).
 */
describe(`undo and redo (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;
  let stranger: SignedUp;
  let workspaceId: number;
  let databaseId: number;
  const open: WsClient[] = [];
  let s: ReturnType<typeof undoClient>;

  const rowsUrl = (tableId: number) => `/api/database/rows/table/${tableId}/`;
  const rowUrl = (tableId: number, rowId: number) => `/api/database/rows/table/${tableId}/${rowId}/`;

  /** A table with a primary text field and a number field, no rows. */
  async function newTable(name: string): Promise<{ tableId: number; primary: number; number: number }> {
    const tableId = (await s.plain('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id as number;
    const fields = (await s.plain('GET', `/api/database/fields/table/${tableId}/`)).body as { id: number; primary: boolean }[];
    const primary = fields.find((f) => f.primary)!.id;
    for (const f of fields.filter((f) => !f.primary)) await s.plain('DELETE', `/api/database/fields/${f.id}/`);
    const number = (await s.plain('POST', `/api/database/fields/table/${tableId}/`, { name: 'Amount', type: 'number' })).body.id as number;
    const rows = (await s.plain('GET', rowsUrl(tableId))).body.results as { id: number }[];
    if (rows.length) await s.plain('POST', `${rowsUrl(tableId)}batch-delete/`, { items: rows.map((r) => r.id) });
    return { tableId, primary, number };
  }

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'Owner');
    stranger = await signUp(t, 'Stranger');
    s = undoClient(t, () => owner);
    const app = (await s.plain('GET', '/api/applications/')).body[0];
    databaseId = app.id;
    workspaceId = app.workspace.id;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => t?.close());

  describe('headers', () => {
    test('a malformed ClientSessionId refuses every JWT request with a detail and no error code', async () => {
      for (const value of ['', 'has space', 'a_b', 'x'.repeat(257)]) {
        const res = await t.request('GET', '/api/workspaces/', { token: owner.token, headers: { ClientSessionId: value } });
        expect({ value, status: res.status, body: res.body }).toEqual({
          value,
          status: 400,
          body: { detail: 'An invalid ClientSessionId header was provided. It must be between 1 and 256 characters long and must only contain alphanumeric or the - characters.' },
        });
      }
      expect((await t.request('GET', '/api/workspaces/', { token: owner.token, headers: { ClientSessionId: `a-${'x'.repeat(254)}` } })).status).toBe(200);
    });

    test('a malformed ClientUndoRedoActionGroupId is answered with a bare JSON array; any UUID spelling is accepted', async () => {
      for (const value of ['', 'not-a-uuid', '1234', 'g'.repeat(32)]) {
        const res = await t.request('GET', '/api/workspaces/', { token: owner.token, headers: { ClientUndoRedoActionGroupId: value } });
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: ['An invalid ClientUndoRedoActionGroupId header was provided. It must be a valid Version 4 UUID.'] });
      }
      for (const value of ['0d2a8b4e-5f6c-4d3e-8a1b-2c3d4e5f6a7b', '0D2A8B4E5F6C4D3E8A1B2C3D4E5F6A7B', '{0d2a8b4e-5f6c-4d3e-8a1b-2c3d4e5f6a7b}', 'urn:uuid:0d2a8b4e-5f6c-4d3e-8a1b-2c3d4e5f6a7b']) {
        expect((await t.request('GET', '/api/workspaces/', { token: owner.token, headers: { ClientUndoRedoActionGroupId: value } })).status).toBe(200);
      }
    });

    test('public routes and anonymous requests do not read them', async () => {
      expect((await t.request('GET', '/api/settings/', { headers: { ClientSessionId: 'bad id' } })).status).toBe(200);
    });

    test('CORS allows both headers', async () => {
      const res = await fetch(`${t.url}/api/user/undo/`, { method: 'OPTIONS', headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'PATCH' } });
      const allowed = res.headers.get('access-control-allow-headers') ?? '';
      expect(allowed).toContain('clientsessionid');
      expect(allowed).toContain('clientundoredoactiongroupid');
    });
  });

  describe('the endpoints', () => {
    test('nothing to do', async () => {
      expect((await s.undo({})).body).toEqual(done('NOTHING_TO_DO'));
      expect((await s.redo({})).body).toEqual(done('NOTHING_TO_DO'));
    });

    test('ClientSessionId is required, after the body is checked', async () => {
      for (const path of ['/api/user/undo/', '/api/user/redo/']) {
        const res = await t.request('PATCH', path, { token: owner.token, body: { scopes: {} } });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { error: 'ERROR_CLIENT_SESSION_ID_HEADER_NOT_SET', detail: 'The ClientSessionId must be set when using this endpoint.' },
        });
        const bad = await t.request('PATCH', path, { token: owner.token, body: {} });
        expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { scopes: [{ error: 'This field is required.', code: 'required' }] } } });
      }
    });

    test('scope keys are the registered scope types; values are checked', async () => {
      const unknown = await s.undo({ table: 1, foo: 1 });
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 400,
        body: {
          error: 'ERROR_REQUEST_BODY_VALIDATION',
          detail: { scopes: { non_field_errors: [{ error: "Received unknown fields: {'foo'}. Please check the api documentation and only provide valid fields.", code: 'invalid' }] } },
        },
      });
      const negative = await s.undo({ table: -1 });
      expect(negative.status).toBe(400);
      expect(negative.body.detail.scopes.table[0].code).toBe('min_value');
      expect((await t.request('PATCH', '/api/user/undo/', { token: owner.token, body: { scopes: 'x' }, headers: { ClientSessionId: 's' } })).body.detail).toEqual({
        scopes: { non_field_errors: [{ error: 'Invalid data. Expected a dictionary, but got str.', code: 'invalid' }] },
      });
      expect((await s.undo({ root: false, workspace: 0, table: null, view: 0 })).body).toEqual(done('NOTHING_TO_DO'));
    });

    test('needs a JWT', async () => {
      expect((await t.request('PATCH', '/api/user/undo/', { body: { scopes: {} }, headers: { ClientSessionId: 's' } })).status).toBe(401);
    });
  });

  describe('rows', () => {
    test('create_row: undo trashes it, redo restores it; the undoing client gets the messages too', async () => {
      const { tableId, primary } = await newTable('Create');
      const client = await onTablePage(t, owner, tableId, open);
      const created = await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Alpha' }, client.origin);
      expect(created.status).toBe(200);
      await expectNone(client);
      const scope = `table${tableId}`;
      expect((await s.undo({ table: tableId }, client.origin)).body).toEqual(done('SUCCESS', ['create_row', scope]));
      expect(await client.waitFor('rows_deleted')).toMatchObject({ table_id: tableId, row_ids: [created.body.id] });
      expect((await s.plain('GET', rowUrl(tableId, created.body.id))).status).toBe(404);
      expect((await s.redo({ table: tableId }, client.origin)).body).toEqual(done('SUCCESS', ['create_row', scope]));
      expect(await client.waitFor('rows_created')).toMatchObject({ table_id: tableId, rows: [{ id: created.body.id, [`field_${primary}`]: 'Alpha' }] });
      expect((await s.plain('GET', rowUrl(tableId, created.body.id))).body[`field_${primary}`]).toBe('Alpha');
      // Nothing more to redo; the undo stack has it again.
      expect((await s.redo({ table: tableId })).body).toEqual(done('NOTHING_TO_DO'));
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_row', scope]));
    });

    test('update_row: undo writes the cells back, links and formulas included', async () => {
      const { tableId, primary, number } = await newTable('Update');
      const other = await newTable('Linked');
      const linkedA = (await s.plain('POST', rowsUrl(other.tableId), { [`field_${other.primary}`]: 'A' })).body.id;
      const linkedB = (await s.plain('POST', rowsUrl(other.tableId), { [`field_${other.primary}`]: 'B' })).body.id;
      const link = (await s.plain('POST', `/api/database/fields/table/${tableId}/`, { name: 'Link', type: 'link_row', link_row_table_id: other.tableId })).body.id;
      const formula = (await s.plain('POST', `/api/database/fields/table/${tableId}/`, { name: 'Double', type: 'formula', formula: "field('Amount') * 2" })).body.id;
      const row = (await s.plain('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Before', [`field_${number}`]: '2', [`field_${link}`]: [linkedA] })).body;
      const client = await onTablePage(t, owner, tableId, open);
      const updated = await s.api('PATCH', rowUrl(tableId, row.id), { [`field_${primary}`]: 'After', [`field_${number}`]: '5', [`field_${link}`]: [linkedB] }, client.origin);
      expect(updated.status).toBe(200);
      expect(updated.body[`field_${formula}`]).toBe('10');
      await expectNone(client);
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_row', `table${tableId}`]));
      const message = await client.waitFor('rows_updated');
      expect(message.rows[0]).toMatchObject({ id: row.id, [`field_${primary}`]: 'Before', [`field_${number}`]: '2', [`field_${formula}`]: '4' });
      const back = (await s.plain('GET', rowUrl(tableId, row.id))).body;
      expect(back).toMatchObject({ [`field_${primary}`]: 'Before', [`field_${number}`]: '2', [`field_${formula}`]: '4' });
      expect(back[`field_${link}`].map((l: { id: number }) => l.id)).toEqual([linkedA]);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_row', `table${tableId}`]));
      const again = (await s.plain('GET', rowUrl(tableId, row.id))).body;
      expect(again).toMatchObject({ [`field_${primary}`]: 'After', [`field_${number}`]: '5', [`field_${formula}`]: '10' });
      expect(again[`field_${link}`].map((l: { id: number }) => l.id)).toEqual([linkedB]);
      // The linked table's row lost and regained the link: its cells are right too.
      const linked = (await s.plain('GET', rowUrl(other.tableId, linkedA))).body;
      expect(Object.values(linked).some((v) => Array.isArray(v) && v.length === 0)).toBe(true);
    });

    test('row history written by an undo or a redo carries action_command_type UNDO / REDO (and so do its messages)', async () => {
      const { tableId, primary } = await newTable('History');
      const row = (await s.plain('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Before' })).body;
      const client = await connect(t, owner.token);
      open.push(client);
      client.send({ page: 'row', table_id: tableId, row_id: row.id });
      await client.waitFor('page_add');
      await s.api('PATCH', rowUrl(tableId, row.id), { [`field_${primary}`]: 'After' });
      expect(await client.waitFor('row_history_updated')).toMatchObject({ row_history_entry: { action_type: 'update_rows', action_command_type: 'DO' } });
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_row', `table${tableId}`]));
      const undone = await client.waitFor('row_history_updated');
      expect(undone).toMatchObject({ table_id: tableId, row_id: row.id, row_history_entry: { action_type: 'update_rows', action_command_type: 'UNDO' } });
      expect(undone.row_history_entry.after).toEqual({ [`field_${primary}`]: 'Before' });
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_row', `table${tableId}`]));
      expect(await client.waitFor('row_history_updated')).toMatchObject({ row_history_entry: { action_command_type: 'REDO', after: { [`field_${primary}`]: 'After' } } });
      const history = (await s.plain('GET', `${rowUrl(tableId, row.id)}history/`)).body.results as { action_type: string; action_command_type: string }[];
      expect(history.map((e) => [e.action_type, e.action_command_type])).toEqual([
        ['update_rows', 'REDO'],
        ['update_rows', 'UNDO'],
        ['update_rows', 'DO'],
        ['create_row', 'DO'],
      ]);
    });

    test('delete_row: undo restores it from the trash with its history and comments; redo deletes it again', async () => {
      const { tableId, primary } = await newTable('Delete');
      const row = (await s.plain('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Kept' })).body;
      await s.plain('PATCH', rowUrl(tableId, row.id), { [`field_${primary}`]: 'Kept 2' });
      const comment = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello' }] }] };
      expect((await s.plain('POST', `/api/row_comments/${tableId}/${row.id}/`, { message: comment })).status).toBe(200);
      const client = await onTablePage(t, owner, tableId, open);
      expect((await s.api('DELETE', rowUrl(tableId, row.id), undefined, client.origin)).status).toBe(204);
      expect((await s.undo({ table: tableId }, client.origin)).body).toEqual(done('SUCCESS', ['delete_row', `table${tableId}`]));
      expect(await client.waitFor('rows_created')).toMatchObject({ table_id: tableId, rows: [{ id: row.id, [`field_${primary}`]: 'Kept 2' }] });
      const history = (await s.plain('GET', `${rowUrl(tableId, row.id)}history/`)).body.results.map((e: { action_type: string }) => e.action_type);
      expect(history).toEqual(expect.arrayContaining(['update_rows', 'create_row']));
      expect((await s.plain('GET', `/api/row_comments/${tableId}/${row.id}/`)).body.count).toBe(1);
      expect((await s.redo({ table: tableId }, client.origin)).body).toEqual(done('SUCCESS', ['delete_row', `table${tableId}`]));
      expect(await client.waitFor('rows_deleted')).toMatchObject({ row_ids: [row.id] });
      expect((await s.plain('GET', rowUrl(tableId, row.id))).status).toBe(404);
      // Undo again: restored from the redo's trash entry.
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_row', `table${tableId}`]));
      expect((await s.plain('GET', rowUrl(tableId, row.id))).status).toBe(200);
    });

    test('batches: create_rows, update_rows, delete_rows; move_row', async () => {
      const { tableId, primary, number } = await newTable('Batch');
      const client = await onTablePage(t, owner, tableId, open);
      const scope = `table${tableId}`;
      const created = await s.api('POST', `${rowsUrl(tableId)}batch/`, { items: [{ [`field_${primary}`]: 'One' }, { [`field_${primary}`]: 'Two' }, { [`field_${primary}`]: 'Three' }] });
      const ids = created.body.items.map((r: { id: number }) => r.id) as number[];
      await client.waitFor('rows_created');
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_rows', scope]));
      expect(await client.waitFor('rows_deleted')).toMatchObject({ row_ids: ids });
      expect((await s.plain('GET', rowsUrl(tableId))).body.count).toBe(0);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_rows', scope]));
      expect((await client.waitFor('rows_created')).rows.map((r: { id: number }) => r.id)).toEqual(ids);

      await s.api('PATCH', `${rowsUrl(tableId)}batch/`, { items: ids.map((id, i) => ({ id, [`field_${number}`]: String(i + 10) })) });
      await client.waitFor('rows_updated');
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_rows', scope]));
      expect((await client.waitFor('rows_updated')).rows.map((r: Record<string, unknown>) => r[`field_${number}`])).toEqual([null, null, null]);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_rows', scope]));
      expect((await client.waitFor('rows_updated')).rows.map((r: Record<string, unknown>) => r[`field_${number}`])).toEqual(['10', '11', '12']);

      await s.api('PATCH', `${rowUrl(tableId, ids[2])}move/?before_id=${ids[0]}`);
      await client.waitFor('rows_updated');
      const order = async () => (await s.plain('GET', rowsUrl(tableId))).body.results.map((r: { id: number }) => r.id);
      expect(await order()).toEqual([ids[2], ids[0], ids[1]]);
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['move_row', scope]));
      await client.waitFor('rows_updated');
      expect(await order()).toEqual(ids);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['move_row', scope]));
      expect(await order()).toEqual([ids[2], ids[0], ids[1]]);

      await s.api('POST', `${rowsUrl(tableId)}batch-delete/`, { items: ids });
      await client.waitFor('rows_deleted');
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_rows', scope]));
      expect((await client.waitFor('rows_created')).rows.map((r: { id: number }) => r.id).sort()).toEqual([...ids].sort());
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_rows', scope]));
      await client.waitFor('rows_deleted');
      expect((await s.plain('GET', rowsUrl(tableId))).body.count).toBe(0);
    });
  });

  test('import_rows: the job rows are undone and redone as one action of the session', async () => {
    const { tableId, primary } = await newTable('Import');
    const client = await onTablePage(t, owner, tableId, open);
    const job = await s.api('POST', `/api/database/tables/${tableId}/import/async/`, { data: [['a', '1'], ['b', '2']] });
    expect(job.status).toBe(200);
    await settleJob(t, owner.token, job.body.id);
    const ids = (await client.waitFor('rows_created')).rows.map((r: { id: number }) => r.id);
    expect(ids).toHaveLength(2);
    expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['import_rows', `table${tableId}`]));
    expect(await client.waitFor('rows_deleted')).toMatchObject({ row_ids: ids });
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['import_rows', `table${tableId}`]));
    expect((await client.waitFor('rows_created')).rows.map((r: Record<string, unknown>) => r[`field_${primary}`])).toEqual(['a', 'b']);
  });

  describe('the undo stack', () => {
    test('an action group is undone and redone as one (newest first, then oldest first)', async () => {
      const { tableId, primary } = await newTable('Group');
      const group = { ClientUndoRedoActionGroupId: '5a8e7f6d-1c2b-4a3d-9e8f-7a6b5c4d3e2f' };
      const a = (await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'A' }, group)).body.id;
      const b = (await s.api('PATCH', rowUrl(tableId, a), { [`field_${primary}`]: 'B' }, group)).body.id;
      expect(b).toBe(a);
      const scope = `table${tableId}`;
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_row', scope], ['create_row', scope]));
      expect((await s.plain('GET', rowsUrl(tableId))).body.count).toBe(0);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_row', scope], ['update_row', scope]));
      expect((await s.plain('GET', rowUrl(tableId, a))).body[`field_${primary}`]).toBe('B');
    });

    test('at most 20 actions of a group are undone at once', async () => {
      const { tableId, primary } = await newTable('Big group');
      const group = { ClientUndoRedoActionGroupId: '6b8e7f6d-1c2b-4a3d-9e8f-7a6b5c4d3e2f' };
      for (let i = 0; i < 21; i++) await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: `R${i}` }, group);
      expect((await s.undo({ table: tableId })).body.actions).toHaveLength(20);
      expect((await s.plain('GET', rowsUrl(tableId))).body.count).toBe(1);
      expect((await s.undo({ table: tableId })).body.actions).toHaveLength(1);
    });

    test('a redo after a newer action has nothing to do', async () => {
      const { tableId, primary } = await newTable('Redo rule');
      await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'First' });
      expect((await s.undo({ table: tableId })).body.result_code).toBe('SUCCESS');
      await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Second' });
      expect((await s.redo({ table: tableId })).body).toEqual(done('NOTHING_TO_DO'));
    });

    test('an action whose object is gone is skipped, and the next undo moves on', async () => {
      const { tableId, primary } = await newTable('Skipped');
      const first = (await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'First' })).body.id;
      const second = (await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Second' })).body.id;
      // Deleted outside the session: the session's create can no longer be undone.
      expect((await s.plain('DELETE', rowUrl(tableId, second))).status).toBe(204);
      expect((await s.undo({ table: tableId })).body).toEqual(done('SKIPPED_DUE_TO_ERROR', ['create_row', `table${tableId}`]));
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_row', `table${tableId}`]));
      expect((await s.plain('GET', rowUrl(tableId, first))).status).toBe(404);
    });

    test('session, scope and user must match; another user\'s scopes are nothing to do', async () => {
      const { tableId, primary } = await newTable('Isolation');
      const row = (await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Mine' })).body.id;
      expect((await undoClient(t, () => owner, 'other-session').undo({})).body).toEqual(done('NOTHING_TO_DO'));
      expect((await s.undo({ table: tableId + 1000 })).body).toEqual(done('NOTHING_TO_DO'));
      const theirs = undoClient(t, () => stranger);
      expect((await theirs.undo({ table: tableId, workspace: workspaceId, application: databaseId })).body).toEqual(done('NOTHING_TO_DO'));
      expect((await theirs.undo({})).body).toEqual(done('NOTHING_TO_DO'));
      expect((await s.plain('GET', rowUrl(tableId, row))).status).toBe(200);
      expect((await s.undo({ table: tableId })).body.result_code).toBe('SUCCESS');
    });

    test('actions without a ClientSessionId are never undone: they are in the audit log, not on an undo stack', async () => {
      const { tableId, primary } = await newTable('No session');
      const dataSource = t.app.get(DataSource);
      const count = async (table: string) => Number((await dataSource.query(`SELECT COUNT(*) AS "n" FROM "${table}"`))[0].n);
      const [actions, audit] = [await count('core_action'), await count('baserow_enterprise_auditlogentry')];
      await s.plain('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Anonymous' });
      expect(await count('core_action')).toBe(actions);
      expect(await count('baserow_enterprise_auditlogentry')).toBe(audit + 1);
      const [entry] = await dataSource.query('SELECT "action_type", "action_command_type" FROM "baserow_enterprise_auditlogentry" ORDER BY "id" DESC LIMIT 1');
      expect(entry).toEqual({ action_type: 'create_row', action_command_type: 'DO' });
      expect((await s.undo({ table: tableId })).body).toEqual(done('NOTHING_TO_DO'));
    });

    test('actions older than MINUTES_UNTIL_ACTION_CLEANED_UP cannot be undone and are cleaned up', async () => {
      const { tableId, primary } = await newTable('Old');
      await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'Old' });
      const dataSource = t.app.get(DataSource);
      const old = new Date(Date.now() - 121 * 60_000).toISOString().replace('Z', '000Z');
      await dataSource.query(`UPDATE "core_action" SET "created_on" = '${old}', "updated_on" = '${old}' WHERE "scope" = 'table${tableId}'`);
      expect((await s.undo({ table: tableId })).body).toEqual(done('NOTHING_TO_DO'));
      await t.app.get(ActionsService).deleteOld();
      expect((await dataSource.query(`SELECT COUNT(*) AS "n" FROM "core_action" WHERE "scope" = 'table${tableId}'`))[0].n).toEqual(expect.anything());
      expect(Number((await dataSource.query(`SELECT COUNT(*) AS "n" FROM "core_action" WHERE "scope" = 'table${tableId}'`))[0].n)).toBe(0);
    });
  });

  test('a stranger\'s socket receives nothing of an undo', async () => {
    const { tableId, primary } = await newTable('Quiet');
    const strangerSocket = await connect(t, stranger.token);
    open.push(strangerSocket);
    await s.api('POST', rowsUrl(tableId), { [`field_${primary}`]: 'X' });
    await s.undo({ table: tableId });
    await expectNone(strangerSocket);
  });
});
