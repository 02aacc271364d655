import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { settleJob } from './support/fixtures';
import { done, onTablePage, undoClient } from './support/undo';
import { WsClient } from './support/ws';

/** Undo and redo of field actions (research §2.5): create, update with a conversion, delete, duplicate, primary. */
describe(`undo and redo: fields (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;
  let databaseId: number;
  let s: ReturnType<typeof undoClient>;
  const open: WsClient[] = [];
  const rowsUrl = (tableId: number) => `/api/database/rows/table/${tableId}/`;
  const fieldsUrl = (tableId: number) => `/api/database/fields/table/${tableId}/`;

  async function newTable(name: string): Promise<{ tableId: number; primary: number }> {
    const tableId = (await s.plain('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id as number;
    const fields = (await s.plain('GET', fieldsUrl(tableId))).body as { id: number; primary: boolean }[];
    for (const f of fields.filter((f) => !f.primary)) await s.plain('DELETE', `/api/database/fields/${f.id}/`);
    const rows = (await s.plain('GET', rowsUrl(tableId))).body.results as { id: number }[];
    if (rows.length) await s.plain('POST', `${rowsUrl(tableId)}batch-delete/`, { items: rows.map((r) => r.id) });
    return { tableId, primary: fields.find((f) => f.primary)!.id };
  }
  const fieldIds = async (tableId: number) => ((await s.plain('GET', fieldsUrl(tableId))).body as { id: number }[]).map((f) => f.id);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'Owner');
    s = undoClient(t, () => owner);
    databaseId = (await s.plain('GET', '/api/applications/')).body[0].id;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => t?.close());

  test('create_field: undo trashes it (field_deleted), redo restores it (field_restored)', async () => {
    const { tableId } = await newTable('Create field');
    const client = await onTablePage(t, owner, tableId, open);
    const field = (await s.api('POST', fieldsUrl(tableId), { name: 'Extra', type: 'text' }, client.origin)).body;
    const scope = `table${tableId}`;
    expect((await s.undo({ table: tableId }, client.origin)).body).toEqual(done('SUCCESS', ['create_field', scope]));
    expect(await client.waitFor('field_deleted')).toMatchObject({ field_id: field.id, table_id: tableId });
    expect(await fieldIds(tableId)).not.toContain(field.id);
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_field', scope]));
    expect(await client.waitFor('field_restored')).toMatchObject({ field: { id: field.id, name: 'Extra' } });
    expect(await fieldIds(tableId)).toContain(field.id);
  });

  test('update_field: undo of a conversion brings the type and the old cells back; redo converts again', async () => {
    const { tableId } = await newTable('Convert');
    const text = (await s.plain('POST', fieldsUrl(tableId), { name: 'Code', type: 'text' })).body.id;
    const a = (await s.plain('POST', rowsUrl(tableId), { [`field_${text}`]: 'abc' })).body.id;
    const b = (await s.plain('POST', rowsUrl(tableId), { [`field_${text}`]: '42' })).body.id;
    const client = await onTablePage(t, owner, tableId, open);
    const converted = await s.api('PATCH', `/api/database/fields/${text}/`, { type: 'number', name: 'Amount' });
    expect(converted.body).toMatchObject({ type: 'number', name: 'Amount' });
    await client.waitFor('field_updated');
    const cells = async () => {
      const rows = (await s.plain('GET', rowsUrl(tableId))).body.results as Record<string, unknown>[];
      return Object.fromEntries(rows.map((r) => [r.id, r[`field_${text}`]]));
    };
    expect(await cells()).toEqual({ [a]: null, [b]: '42' });
    expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_field', `table${tableId}`]));
    expect(await client.waitFor('field_updated')).toMatchObject({ field: { id: text, type: 'text', name: 'Code' } });
    expect(await cells()).toEqual({ [a]: 'abc', [b]: '42' });
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['update_field', `table${tableId}`]));
    expect(await client.waitFor('field_updated')).toMatchObject({ field: { id: text, type: 'number', name: 'Amount' } });
    expect(await cells()).toEqual({ [a]: null, [b]: '42' });
    expect((await s.undo({ table: tableId })).body.result_code).toBe('SUCCESS');
    expect(await cells()).toEqual({ [a]: 'abc', [b]: '42' });
  });

  test('update_field: a single select converted to text and back keeps its options and cells', async () => {
    const { tableId } = await newTable('Select');
    const select = (await s.plain('POST', fieldsUrl(tableId), { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'blue' }, { value: 'Done', color: 'green' }] })).body;
    const [todo, doneOption] = select.select_options;
    const a = (await s.plain('POST', rowsUrl(tableId), { [`field_${select.id}`]: todo.id })).body.id;
    const b = (await s.plain('POST', rowsUrl(tableId), { [`field_${select.id}`]: doneOption.id })).body.id;
    await s.api('PATCH', `/api/database/fields/${select.id}/`, { type: 'boolean' });
    expect((await s.undo({ table: tableId })).body.result_code).toBe('SUCCESS');
    const field = (await s.plain('GET', `/api/database/fields/${select.id}/`)).body;
    expect(field.type).toBe('single_select');
    expect(field.select_options.map((o: { value: string; color: string }) => [o.value, o.color])).toEqual([
      ['Todo', 'blue'],
      ['Done', 'green'],
    ]);
    const rows = (await s.plain('GET', rowsUrl(tableId))).body.results as Record<string, { value: string } | null>[];
    expect(Object.fromEntries(rows.map((r) => [r.id, r[`field_${select.id}`]?.value]))).toEqual({ [a]: 'Todo', [b]: 'Done' });
  });

  test('delete_field: undo restores it with its cells; redo deletes it again', async () => {
    const { tableId } = await newTable('Delete field');
    const field = (await s.plain('POST', fieldsUrl(tableId), { name: 'Note', type: 'text' })).body.id;
    const row = (await s.plain('POST', rowsUrl(tableId), { [`field_${field}`]: 'kept' })).body.id;
    const client = await onTablePage(t, owner, tableId, open);
    expect((await s.api('DELETE', `/api/database/fields/${field}/`)).status).toBe(200);
    await client.waitFor('field_deleted');
    expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_field', `table${tableId}`]));
    expect(await client.waitFor('field_restored')).toMatchObject({ field: { id: field } });
    expect((await s.plain('GET', `${rowsUrl(tableId)}${row}/`)).body[`field_${field}`]).toBe('kept');
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_field', `table${tableId}`]));
    expect(await client.waitFor('field_deleted')).toMatchObject({ field_id: field });
  });

  test('duplicate_field: the job\'s copy is undone and redone', async () => {
    const { tableId } = await newTable('Duplicate field');
    const field = (await s.plain('POST', fieldsUrl(tableId), { name: 'Orig', type: 'text' })).body.id;
    const job = await s.api('POST', `/api/database/fields/${field}/duplicate/async/`, { duplicate_data: true });
    expect(job.status).toBe(202);
    await settleJob(t, owner.token, job.body.id);
    const copy = (await s.plain('GET', fieldsUrl(tableId))).body.find((f: { name: string }) => f.name === 'Orig 2').id;
    expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['duplicate_field', `table${tableId}`]));
    expect(await fieldIds(tableId)).not.toContain(copy);
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['duplicate_field', `table${tableId}`]));
    expect(await fieldIds(tableId)).toContain(copy);
  });

  test('change_primary_field: undo makes the old primary field primary again', async () => {
    const { tableId, primary } = await newTable('Primary');
    const other = (await s.plain('POST', fieldsUrl(tableId), { name: 'Other', type: 'text' })).body.id;
    expect((await s.api('POST', `${fieldsUrl(tableId)}change-primary-field/`, { new_primary_field_id: other })).status).toBe(200);
    const primaryOf = async () => ((await s.plain('GET', fieldsUrl(tableId))).body as { id: number; primary: boolean }[]).find((f) => f.primary)!.id;
    expect(await primaryOf()).toBe(other);
    expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['change_primary_field', `table${tableId}`]));
    expect(await primaryOf()).toBe(primary);
    expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['change_primary_field', `table${tableId}`]));
    expect(await primaryOf()).toBe(other);
  });

  test('undo of a field whose table was deleted since is skipped', async () => {
    const { tableId } = await newTable('Gone');
    const field = (await s.api('POST', fieldsUrl(tableId), { name: 'Temp', type: 'text' })).body.id;
    await s.plain('PATCH', `/api/database/fields/${field}/`, { name: 'Temp 2' });
    expect((await s.plain('DELETE', `/api/database/tables/${tableId}/`)).status).toBe(204);
    expect((await s.undo({ table: tableId })).body).toEqual(done('SKIPPED_DUE_TO_ERROR', ['create_field', `table${tableId}`]));
  });
});
