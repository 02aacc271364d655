import { NO_TIMED_WORK, signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { databaseOf } from './support/fixtures';
import { recordStatements } from './support/statements';

/**
 * Anonymous requests of a shared view read its rows through the members' cached paths: a
 * repeated listing sends only its page (the count is cached), a repeated footer and a repeated
 * link lookup count nothing again (and read no metadata), and every write is seen at once (the caches are keyed by the
 * tables' write versions).
 */
let t: TestApp;
let owner: SignedUp;
let sent: string[] = [];

beforeAll(async () => {
  t = await startApp(NO_TIMED_WORK);
  sent = recordStatements(t.app);
  owner = await signUp(t, 'Owner');
});
afterAll(async () => t?.close());

async function ok(method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token: owner.token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The statements an anonymous request sends that read the rows of these tables. */
async function rowReads(path: string, tableIds: number[]): Promise<{ body: any; reads: string[]; all: string[] }> {
  const from = sent.length;
  const res = await t.request('GET', path);
  expect(res.status).toBe(200);
  const names = tableIds.map((id) => `"database_table_${id}"`);
  return { body: res.body, reads: sent.slice(from).filter((sql) => names.some((name) => sql.includes(name))), all: sent.slice(from) };
}

describe(`a shared view's reads are cached and never stale (${TEST_DB})`, () => {
  it('rows with their count, footers with the total, and link lookups', async () => {
    const database = await databaseOf(t, owner);
    const table = await ok('POST', `/api/database/tables/database/${database}/`, { name: 'Numbers' });
    const other = await ok('POST', `/api/database/tables/database/${database}/`, { name: 'Other' });
    const num = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Num', type: 'number' });
    const link = await ok('POST', `/api/database/fields/table/${table.id}/`, { name: 'Link', type: 'link_row', link_row_table_id: other.id });
    const targets = (await ok('GET', `/api/database/rows/table/${other.id}/`)).results.map((r: any) => r.id);
    const existing = (await ok('GET', `/api/database/rows/table/${table.id}/`)).results.map((r: any) => r.id);
    await ok('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing });
    await ok('POST', `/api/database/rows/table/${table.id}/batch/`, {
      items: [1, 2, 3].map((n) => ({ [`field_${num.id}`]: n, [`field_${link.id}`]: n === 1 ? [targets[0]] : [] })),
    });
    const view = (await ok('GET', `/api/database/views/table/${table.id}/`))[0];
    const slug = (await ok('PATCH', `/api/database/views/${view.id}/`, { public: true })).slug;
    await ok('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: { [num.id]: { aggregation_type: 'sum', aggregation_raw_type: 'sum' } } });

    const footer = `/api/database/views/grid/${slug}/public/aggregations/?include=total`;
    const first = await rowReads(footer, [table.id]);
    expect(first.body).toEqual({ [`field_${num.id}`]: 6, total: 3 });
    expect(first.reads.length).toBeGreaterThan(0);
    const again = await rowReads(footer, [table.id]);
    expect(again.body).toEqual(first.body);
    expect(again.reads).toEqual([]);

    const rows = `/api/database/views/grid/${slug}/public/rows/?size=2`;
    await rowReads(rows, [table.id]);
    const page = await rowReads(rows, [table.id]);
    expect(page.body.count).toBe(3);
    expect(page.reads).toHaveLength(1);

    // Grouped: the groups' counts are kept too.
    const grouped = `/api/database/views/grid/${slug}/public/rows/?group_by=field_${num.id}`;
    await rowReads(grouped, [table.id]);
    const groups = await rowReads(grouped, [table.id]);
    expect(groups.body.group_by_metadata[`field_${num.id}`]).toEqual([1, 2, 3].map((n) => ({ [`field_${num.id}`]: String(n), count: 1 })));
    expect(groups.reads).toHaveLength(1);

    const lookup = `/api/database/views/${slug}/link-row-field-lookup/${link.id}/`;
    await rowReads(lookup, [table.id, other.id]);
    const looked = await rowReads(lookup, [table.id, other.id]);
    expect(looked.body.results.map((r: any) => r.id)).toEqual([targets[0]]);
    expect(looked.reads).toHaveLength(1);
    // The view, its fields and their options come from the metadata caches: the page is the only statement.
    expect(looked.all).toEqual(looked.reads);
    expect(again.all).toEqual([]);

    // A write is seen by the very next request.
    const created = await ok('POST', `/api/database/rows/table/${table.id}/`, { [`field_${num.id}`]: 10, [`field_${link.id}`]: [targets[1]] });
    expect((await rowReads(footer, [table.id])).body).toEqual({ [`field_${num.id}`]: 16, total: 4 });
    expect((await rowReads(rows, [table.id])).body.count).toBe(4);
    await ok('POST', `/api/database/rows/table/${table.id}/`, { [`field_${num.id}`]: 3 });
    const regrouped = (await rowReads(grouped, [table.id])).body.group_by_metadata[`field_${num.id}`];
    expect(regrouped.find((group: any) => group[`field_${num.id}`] === '3').count).toBe(2);
    expect((await rowReads(lookup, [table.id, other.id])).body.results.map((r: any) => r.id)).toEqual([targets[0], targets[1]]);
    await ok('PATCH', `/api/database/rows/table/${table.id}/${created.id}/`, { [`field_${num.id}`]: 20 });
    expect((await rowReads(footer, [table.id])).body).toEqual({ [`field_${num.id}`]: 29, total: 5 });
    // A filter (metadata) is seen at once too.
    await ok('POST', `/api/database/views/${view.id}/filters/`, { field: num.id, type: 'higher_than', value: '2' });
    expect((await rowReads(footer, [table.id])).body).toEqual({ [`field_${num.id}`]: 26, total: 3 });
    expect((await rowReads(lookup, [table.id, other.id])).body.results.map((r: any) => r.id)).toEqual([targets[1]]);
  });
});
