import { DataSource } from 'typeorm';
import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { HiddenLeftovers } from '../src/database/tables/hidden-leftovers.service';
import { databaseOf, emptyTable, endedJob } from './support/fixtures';

/**
 * Long writes (table creation from data, imports, duplications, template installs) write in
 * chunks of LONG_WRITE_CHUNK_ROWS rows, each its own transaction, and take turns with other
 * writes; the result is whole, and a cancel or a failure mid-way leaves nothing behind.
 */
const CHUNK = 20;
let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;
let eveTable: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const ended = (jobId: number, token = ada.token): Promise<any> => endedJob(t, token, jobId);
const tablesOf = async (id = databaseId) => (await api('GET', `/api/database/tables/database/${id}/`)).body as { id: number; name: string }[];
const countOf = async (tableId: number) => (await api('GET', `/api/database/rows/table/${tableId}/?size=1`)).body.count as number;
const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [`row ${from + i}`, String(from + i)]);

/** The SQL tables of user tables, and the metadata rows of tables, as the database holds them. */
async function storedTables(): Promise<{ sql: string[]; metadata: number }> {
  const ds = t.app.get(DataSource);
  const sql =
    TEST_DB === 'postgres'
      ? await ds.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'database_table_%'`)
      : await ds.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'database_table_%'`);
  const [{ count }] = await ds.query('SELECT COUNT(*) AS count FROM database_table');
  return { sql: sql.map((r: { name: string }) => r.name).sort(), metadata: Number(count) };
}

/** The stored tables once a cancelled job's cleanup, which follows its cancelled state, is done (or as they are after a bound). */
async function storedTablesSettled(expected: { sql: string[]; metadata: number }): Promise<{ sql: string[]; metadata: number }> {
  let stored = await storedTables();
  for (let i = 0; i < 500 && JSON.stringify(stored) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    stored = await storedTables();
  }
  return stored;
}

/** Waits until the job reports progress (so it is mid-way): fails if it ended first. */
async function midway(jobId: number, token = ada.token): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    const job = (await api('GET', `/api/jobs/${jobId}/`, undefined, token)).body;
    if (!['pending', 'started'].includes(job.state)) throw new Error(`The job ended (${job.state}) before it was seen mid-way.`);
    if (job.progress_percentage > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('The job showed no progress.');
}

beforeAll(async () => {
  t = await startApp({ LONG_WRITE_CHUNK_ROWS: String(CHUNK), MAX_ROW_REPORT_ERROR_COUNT: '100' });
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = await databaseOf(t, ada);
  eveTable = await emptyTable(t, eve, await databaseOf(t, eve), 'Eve table');
});
afterAll(async () => {
  await t?.close();
});

describe('long writes in chunks', () => {
  test('a table created from data over many chunks has every row, in order; sync creation too', async () => {
    const data = [['Name', 'Number'], ...rows(10 * CHUNK + 7)];
    const job = await ended((await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Chunked', data, first_row_header: true })).body.id);
    expect(job).toMatchObject({ state: 'finished', progress_percentage: 100 });
    const page = (await api('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true&size=200&page=2`)).body;
    expect(page.count).toBe(10 * CHUNK + 7);
    expect(page.results.map((r: any) => [r.Name, r.Number])).toEqual(rows(7, 200));
    expect((await tablesOf()).map((x) => x.name)).toContain('Chunked');

    const sync = await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Sync chunked', data: rows(3 * CHUNK + 1) });
    expect(sync.status).toBe(200);
    expect(await countOf(sync.body.id)).toBe(3 * CHUNK + 1);
    const last = (await api('GET', `/api/database/rows/table/${sync.body.id}/?user_field_names=true&size=1&page=${3 * CHUNK + 1}`)).body.results[0];
    expect(last).toMatchObject({ 'Field 1': `row ${3 * CHUNK}`, 'Field 2': String(3 * CHUNK) });
  });

  test('an import into an existing table over many chunks appends every row and reports the failing ones', async () => {
    const id = await emptyTable(t, ada, databaseId, 'Import target');
    const fields = (await api('GET', `/api/database/fields/table/${id}/`)).body;
    for (const field of fields.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Number', type: 'number' });
    const data = rows(5 * CHUNK + 3);
    data[CHUNK + 1] = ['bad', 'not a number'];
    const job = await ended((await api('POST', `/api/database/tables/${id}/import/async/`, { data })).body.id);
    expect(job.state).toBe('finished');
    expect(Object.keys(job.report.failing_rows)).toEqual([String(CHUNK + 1)]);
    expect(await countOf(id)).toBe(5 * CHUNK + 2);
  });

  test('a duplicated table and a duplicated database hold every row of the original', async () => {
    const source = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Source', data: rows(4 * CHUNK + 5) })).body.id;
    const dup = await ended((await api('POST', `/api/database/tables/${source}/duplicate/async/`)).body.id);
    expect(dup.state).toBe('finished');
    expect(dup.duplicated_table.name).toBe('Source 2');
    expect(await countOf(dup.duplicated_table.id)).toBe(4 * CHUNK + 5);
    const copied = (await api('GET', `/api/database/rows/table/${dup.duplicated_table.id}/?user_field_names=true&size=200`)).body.results;
    const original = (await api('GET', `/api/database/rows/table/${source}/?user_field_names=true&size=200`)).body.results;
    expect(copied).toEqual(original);

    const app = await ended((await api('POST', `/api/applications/${databaseId}/duplicate/async/`)).body.id);
    expect(app.state).toBe('finished');
    const copies = app.duplicated_application.tables as { id: number; name: string }[];
    expect(copies.map((x) => x.name)).toEqual((await tablesOf()).map((x) => x.name));
    const copy = copies.find((x) => x.name === 'Source')!;
    expect((await api('GET', `/api/database/rows/table/${copy.id}/?user_field_names=true&size=200`)).body.results).toEqual(original);
  });
});

describe('turns: other writes go between the chunks of a long write', () => {
  test('a row create by another user completes while a table is being created from data; the half-built table is seen nowhere', async () => {
    const before = await storedTables();
    const res = await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Big', data: rows(300 * CHUNK) });
    await midway(res.body.id);
    const created = await api('POST', `/api/database/rows/table/${eveTable}/`, {}, eve.token);
    expect(created.status).toBe(200);
    // Functional order, not a time: the interactive write did not wait for the whole job.
    expect(['pending', 'started']).toContain((await api('GET', `/api/jobs/${res.body.id}/`)).body.state);
    // Mid-way, the new table is stored but listed nowhere: not in the database, not in the trash.
    expect((await storedTables()).metadata).toBe(before.metadata + 1);
    expect((await tablesOf()).map((x) => x.name)).not.toContain('Big');
    const apps = (await api('GET', '/api/applications/')).body;
    expect(apps.flatMap((a: any) => a.tables ?? []).map((x: any) => x.name)).not.toContain('Big');
    const structure = (await api('GET', '/api/trash/')).body;
    expect(structure.workspaces.flatMap((w: any) => w.applications).every((a: any) => !a.trashed)).toBe(true);
    const job = await ended(res.body.id);
    expect(job.state).toBe('finished');
    expect(await countOf(job.table_id)).toBe(300 * CHUNK);
    expect((await tablesOf()).map((x) => x.name)).toContain('Big');
  }, 120_000);

  test('a row create in the same table completes while an import appends to it', async () => {
    const id = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Busy', data: [['seed']] })).body.id;
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data: rows(300 * CHUNK).map(([name]) => [name]) });
    await midway(res.body.id);
    const created = await api('POST', `/api/database/rows/table/${id}/?user_field_names=true`, { 'Field 1': 'interactive' });
    expect(created.status).toBe(200);
    expect(['pending', 'started']).toContain((await api('GET', `/api/jobs/${res.body.id}/`)).body.state);
    expect((await ended(res.body.id)).state).toBe('finished');
    expect(await countOf(id)).toBe(1 + 1 + 300 * CHUNK);
  }, 120_000);
});

describe('a cancel or a failure mid-way leaves nothing', () => {
  test('a table creation cancelled mid-way leaves no table, no rows, no SQL table', async () => {
    const before = await storedTables();
    const res = await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Cancelled', data: rows(300 * CHUNK) });
    await midway(res.body.id);
    expect((await api('POST', `/api/jobs/${res.body.id}/cancel/`)).status).toBe(200);
    expect((await ended(res.body.id)).state).toBe('cancelled');
    expect(await storedTablesSettled(before)).toEqual(before);
    expect((await tablesOf()).map((x) => x.name)).not.toContain('Cancelled');
  }, 120_000);

  test('an import cancelled mid-way removes the rows its committed chunks wrote', async () => {
    const id = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Import cancelled', data: [['kept']] })).body.id;
    const res = await api('POST', `/api/database/tables/${id}/import/async/`, { data: rows(300 * CHUNK).map(([name]) => [name]) });
    await midway(res.body.id);
    expect(await countOf(id)).toBeGreaterThan(1);
    expect((await api('POST', `/api/jobs/${res.body.id}/cancel/`)).status).toBe(200);
    expect((await ended(res.body.id)).state).toBe('cancelled');
    // The job shows cancelled at once; its undo follows, chunk by chunk.
    for (let i = 0; i < 1500 && (await countOf(id)) > 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const left = (await api('GET', `/api/database/rows/table/${id}/?user_field_names=true`)).body;
    expect(left.results.map((r: any) => r['Field 1'])).toEqual(['kept']);
  }, 120_000);

  test('an import whose failing rows pass the limit after several chunks fails and removes its rows', async () => {
    const id = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Import failing', data: [['kept']] })).body.id;
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Number', type: 'number' });
    // Every other row fails: the 101st failure comes in the 11th chunk, after 10 committed ones.
    const data = Array.from({ length: 20 * CHUNK }, (_, i) => [`row ${i}`, i % 2 ? 'x' : String(i)]);
    const job = await ended((await api('POST', `/api/database/tables/${id}/import/async/`, { data })).body.id);
    expect(job.state).toBe('failed');
    expect(job.human_readable_error).toBe('This file import has raised too many errors.');
    const left = (await api('GET', `/api/database/rows/table/${id}/?user_field_names=true`)).body;
    expect(left.results.map((r: any) => r['Field 1'])).toEqual(['kept']);
  }, 120_000);

  test('a table duplication cancelled mid-way leaves no copy', async () => {
    const source = (await ended((await api('POST', `/api/database/tables/database/${databaseId}/async/`, { name: 'Dup source', data: rows(300 * CHUNK) })).body.id)).table_id;
    const before = await storedTables();
    const res = await api('POST', `/api/database/tables/${source}/duplicate/async/`);
    await midway(res.body.id);
    expect((await api('POST', `/api/jobs/${res.body.id}/cancel/`)).status).toBe(200);
    expect((await ended(res.body.id)).state).toBe('cancelled');
    expect(await storedTablesSettled(before)).toEqual(before);
    expect((await tablesOf()).map((x) => x.name)).not.toContain('Dup source 2');
  }, 120_000);
});

describe('after a crash mid-way', () => {
  test('hidden tables and applications a stopped job left are deleted for good; trashed ones stay in the trash', async () => {
    const ds = t.app.get(DataSource);
    const workspaceId = (await api('GET', `/api/applications/${databaseId}/`)).body.workspace.id;
    // What a process killed mid-way leaves: a table and an application flagged trashed, with no trash entry.
    const leftover = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Leftover', data: rows(3) })).body.id;
    const leftoverApp = (await api('POST', `/api/applications/workspace/${workspaceId}/`, { name: 'Leftover app', type: 'database', init_with_data: true })).body;
    await ds.query(`UPDATE database_table SET trashed = ${TEST_DB === 'postgres' ? 'true' : '1'} WHERE id = ${leftover}`);
    await ds.query(`UPDATE application SET trashed = ${TEST_DB === 'postgres' ? 'true' : '1'} WHERE id = ${leftoverApp.id}`);
    const trashed = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Trashed', data: rows(3) })).body.id;
    expect((await api('DELETE', `/api/database/tables/${trashed}/`)).status).toBe(204);
    expect((await tablesOf()).map((x) => x.name)).not.toContain('Leftover');
    expect((await api('GET', '/api/applications/')).body.map((a: any) => a.name)).not.toContain('Leftover app');

    const counts = await t.app.get(HiddenLeftovers).deleteCreatedBefore(new Date(Date.now() + 60_000));
    expect(counts).toEqual({ tables: 1, applications: 1 });
    const stored = await storedTables();
    expect(stored.sql).not.toContain(`database_table_${leftover}`);
    expect(stored.sql).not.toContain(`database_table_${leftoverApp.tables[0].id}`);
    expect(stored.sql).toContain(`database_table_${trashed}`);
    const [{ count }] = await ds.query(`SELECT COUNT(*) AS count FROM application WHERE id = ${leftoverApp.id}`);
    expect(Number(count)).toBe(0);
    const contents = (await api('GET', `/api/trash/workspace/${workspaceId}/?application_id=${databaseId}`)).body;
    expect(contents.results.map((item: any) => item.trash_item_id)).toContain(trashed);
  });
});
