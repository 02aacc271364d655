import { NO_TIMED_WORK, signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { recordStatements } from './support/statements';

/**
 * How many SQL statements a warm request sends (issue 13: the user behind a JWT, the table's
 * access and its fields come from caches that are never stale). Counted by the same wrapper
 * around the query runners that versions the caches.
 */
let t: TestApp;
let ada: SignedUp;
let tableId: number;
let num: number;
let viewId: number;
let tokenKey: string;
let sent: string[] = [];

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  t.request(method, path, { token: headers ? undefined : ada.token, body, headers });

/** Metadata tables: a warm request reads none of them (they come from the caches). */
const METADATA = /"(user|workspace|workspace_user|application|database_table|database_field|database_select_option|database_view\w*|database_token\w*)"/;
const readsMetadata = (statements: string[]) => statements.filter((sql) => METADATA.test(sql));

/**
 * The full-text index's check at the end of a write's transaction (whether its triggers marked
 * rows to re-index: database/search; PostgreSQL asks, SQLite knows without a statement), left
 * out of the write's own statements below.
 */
const SEARCH_CHECK = /database_search_pending|rowspace\.search_marks/;

/** A write's statements without the full-text index's check, which comes at most once, right before COMMIT. */
/** The audit log's one INSERT of a transaction (see src/audit/audit-writer.ts). */
const AUDIT_INSERT = /^INSERT INTO "baserow_enterprise_auditlogentry"/;

function writeStatements(statements: string[]): string[] {
  const checks = statements.filter((sql) => SEARCH_CHECK.test(sql));
  expect(checks.length).toBeLessThanOrEqual(1);
  if (checks.length) expect(statements.indexOf(checks[0])).toBe(statements.length - 2);
  return statements.filter((sql) => !SEARCH_CHECK.test(sql));
}

/** The statements one request sends, with its status. */
async function statementsOf(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; statements: string[]; body: any }> {
  const from = sent.length;
  const response = await api(method, path, body, headers);
  return { status: response.status, statements: sent.slice(from), body: response.body };
}

beforeAll(async () => {
  t = await startApp(NO_TIMED_WORK);
  sent = recordStatements(t.app);
  ada = await signUp(t, 'Ada');
  const databaseId = (await api('GET', '/api/applications/')).body[0].id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Items' })).body.id;
  num = (await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Num', type: 'number' })).body.id;
  await api('POST', `/api/database/rows/table/${tableId}/batch/`, { items: Array.from({ length: 50 }, (_, i) => ({ [`field_${num}`]: i })) });
  viewId = (await api('GET', `/api/database/views/table/${tableId}/`)).body[0].id;
  const workspaceId = (await api('GET', '/api/workspaces/')).body[0].id;
  tokenKey = (await api('POST', '/api/database/tokens/', { name: 'Reader', workspace: workspaceId })).body.key;
});
afterAll(async () => t?.close());

describe(`statements per warm request (${TEST_DB})`, () => {
  test('a list sends its count and its rows; with the count cached, only the rows', async () => {
    expect(readsMetadata(['SELECT * FROM "user"', 'SELECT * FROM "database_table"'])).toHaveLength(2);
    expect(readsMetadata(['SELECT * FROM "database_table_3"'])).toHaveLength(0);
    const path = (n: number) => `/api/database/rows/table/${tableId}/?filter__field_${num}__higher_than=${n}&order_by=-field_${num}`;
    await statementsOf('GET', path(1));
    const fresh = await statementsOf('GET', path(2));
    expect(fresh.status).toBe(200);
    expect(fresh.body.count).toBe(47);
    expect(fresh.statements).toHaveLength(2);
    const repeated = await statementsOf('GET', path(2));
    expect(repeated.statements).toHaveLength(1);
    expect(repeated.body).toEqual(fresh.body);
  });

  test('so does a list with a database token, and a grid view listing', async () => {
    const headers = { Authorization: `Token ${tokenKey}` };
    await statementsOf('GET', `/api/database/rows/table/${tableId}/?size=10`, undefined, headers);
    const token = await statementsOf('GET', `/api/database/rows/table/${tableId}/?size=10`, undefined, headers);
    expect(token.status).toBe(200);
    expect(token.statements).toHaveLength(1);
    await statementsOf('GET', `/api/database/views/grid/${viewId}/`);
    const grid = await statementsOf('GET', `/api/database/views/grid/${viewId}/`);
    expect(grid.status).toBe(200);
    expect(grid.statements).toHaveLength(1);
  });

  test('a metadata write is seen at once: a renamed field, a trashed table and its restore, over JWT and a token', async () => {
    const path = `/api/database/rows/table/${tableId}/?user_field_names=true&size=1`;
    await statementsOf('GET', path);
    expect((await api('PATCH', `/api/database/fields/${num}/`, { name: 'Renamed' })).status).toBe(200);
    const renamed = await statementsOf('GET', path);
    expect(Object.keys(renamed.body.results[0])).toContain('Renamed');
    expect(readsMetadata(renamed.statements).length).toBeGreaterThan(0);
    const headers = { Authorization: `Token ${tokenKey}` };
    expect((await statementsOf('GET', path, undefined, headers)).status).toBe(200);
    const tables = (await api('GET', `/api/database/tables/all-tables/`, undefined, headers)).body;
    expect(tables.map((table: { id: number }) => table.id)).toContain(tableId);
    expect((await api('DELETE', `/api/database/tables/${tableId}/`)).status).toBe(204);
    expect((await statementsOf('GET', path)).status).toBe(404);
    expect((await statementsOf('GET', path, undefined, headers)).status).toBe(404);
    const restored = await api('PATCH', '/api/trash/restore/', { trash_item_type: 'table', trash_item_id: tableId });
    expect(restored.status).toBe(204);
    expect((await statementsOf('GET', path)).status).toBe(200);
  });

  test('a batch create and a row update', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ [`field_${num}`]: 100 + i }));
    await statementsOf('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
    // The transaction, the new rows' order, the INSERT answering the rows, their history entries,
    // the action's audit log entry (one INSERT whose subqueries copy the names it shows; without a
    // ClientSessionId the action is not undoable, so it joins no undo stack); a table without
    // webhooks queues no call.
    const writes = [/^(BEGIN|START TRANSACTION)/, /^SELECT MAX\("order"\)/, /^INSERT INTO "database_table_\d+" .* RETURNING \*$/, /^INSERT INTO "database_rowhistory"/, AUDIT_INSERT, /^COMMIT/];
    const batch = await statementsOf('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
    expect(batch.status).toBe(200);
    expect(batch.body.items.map((row: any) => row[`field_${num}`])).toEqual(items.map((item) => String(item[`field_${num}`])));
    const batchWrites = writeStatements(batch.statements);
    expect(batchWrites).toHaveLength(writes.length);
    writes.forEach((pattern, i) => expect(batchWrites[i]).toMatch(pattern));
    const single = await statementsOf('POST', `/api/database/rows/table/${tableId}/`, { [`field_${num}`]: 7 });
    expect(single.status).toBe(200);
    const singleWrites = writeStatements(single.statements);
    writes.forEach((pattern, i) => expect(singleWrites[i]).toMatch(pattern));
    expect(singleWrites).toHaveLength(writes.length);
    // The row before (history and messages), the UPDATE answering the row after, its history entry, the action, its audit entry.
    const patch = await statementsOf('PATCH', `/api/database/rows/table/${tableId}/1/`, { [`field_${num}`]: 8 });
    expect([patch.status, patch.body[`field_${num}`]]).toEqual([200, '8']);
    const updates = [/^(BEGIN|START TRANSACTION)/, /^SELECT \* FROM "database_table_\d+" WHERE "id" IN/, /^UPDATE "database_table_\d+" SET .* RETURNING \*$/, /^INSERT INTO "database_rowhistory"/, AUDIT_INSERT, /^COMMIT/];
    const patchWrites = writeStatements(patch.statements);
    expect(patchWrites).toHaveLength(updates.length);
    updates.forEach((pattern, i) => expect(patchWrites[i]).toMatch(pattern));
    // With a ClientSessionId (the web client) the action also joins the undo stack: the audit log's
    // INSERT is the one statement a write sends beyond what it sent before the audit log.
    const withSession = { Authorization: `JWT ${ada.token}`, ClientSessionId: 'statements' };
    const undoable = await statementsOf('PATCH', `/api/database/rows/table/${tableId}/1/`, { [`field_${num}`]: 9 }, withSession);
    expect(undoable.status).toBe(200);
    const undoableUpdates = [...updates.slice(0, 4), /^INSERT INTO "core_action"/, AUDIT_INSERT, /^COMMIT/];
    const undoableWrites = writeStatements(undoable.statements);
    expect(undoableWrites).toHaveLength(undoableUpdates.length);
    undoableUpdates.forEach((pattern, i) => expect(undoableWrites[i]).toMatch(pattern));
  });

  test('a write checks for full-text marks only once a table has an index, and its row is then found at once', async () => {
    const checks = (statements: string[]) => statements.filter((sql) => SEARCH_CHECK.test(sql));
    const before = await statementsOf('POST', `/api/database/rows/table/${tableId}/`, { [`field_${num}`]: 9 });
    expect([before.status, checks(before.statements)]).toEqual([200, []]);
    const search = (term: string) => api('GET', `/api/database/rows/table/${tableId}/?search=${term}&search_mode=full-text-with-count`);
    expect((await search('424242')).body.count).toBe(0);
    const after = await statementsOf('POST', `/api/database/rows/table/${tableId}/`, { [`field_${num}`]: 424242 });
    expect(after.status).toBe(200);
    expect(checks(after.statements).length).toBeGreaterThan(0);
    // Indexed by the write's own commit: the search that follows finds nothing pending.
    const found = await statementsOf('GET', `/api/database/rows/table/${tableId}/?search=424242&search_mode=full-text-with-count`);
    expect(found.body.results.map((row: any) => row.id)).toEqual([after.body.id]);
    expect(found.statements.filter((sql) => /^(DELETE FROM|INSERT OR REPLACE INTO|INSERT INTO) "database_search/.test(sql))).toEqual([]);
  });
});
