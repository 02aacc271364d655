import { SignedUp, signUp, startApp, TestApp } from './support/app';
import { databaseOf } from './support/fixtures';

/**
 * `GET /api/database/views/{slug}/link-row-field-lookup/{field_id}/` as Baserow 1.35.3 answers
 * it: only the linked rows that the rows the view shows link to (its filters, live rows), by
 * page, searched on the primary field, never stale after a write; a form looks up any row; a link
 * limited to a view of the linked table keeps that view's filters.
 */
let t: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Owner');
});
afterAll(async () => {
  await t.close();
});

async function ok(method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token: owner.token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A table with a primary text field and these rows (its starting rows removed). */
async function tableWith(name: string, names: string[]) {
  const table = await ok('POST', `/api/database/tables/database/${await databaseOf(t, owner)}/`, { name });
  const fields = await ok('GET', `/api/database/fields/table/${table.id}/`);
  const primary = fields.find((f: any) => f.primary);
  const existing = (await ok('GET', `/api/database/rows/table/${table.id}/`)).results;
  await ok('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing.map((r: any) => r.id) });
  const rows = (await ok('POST', `/api/database/rows/table/${table.id}/batch/`, { items: names.map((n) => ({ [`field_${primary.id}`]: n })) })).items;
  return { table, primary, rows: rows as { id: number; order: string }[] };
}

async function setUp() {
  const targets = await tableWith('Targets', ['T1', 'T2', 'T3', 'T4', 'T5', 'T6']);
  const source = await tableWith('Source', ['S1', 'S2', 'S3', 'S4']);
  const link = await ok('POST', `/api/database/fields/table/${source.table.id}/`, { name: 'Link', type: 'link_row', link_row_table_id: targets.table.id });
  const secret = await ok('POST', `/api/database/fields/table/${source.table.id}/`, { name: 'Secret', type: 'text' });
  const [t1, t2, t3, t4, t5] = targets.rows.map((r) => r.id);
  const cells: [number, number[]][] = [
    [source.rows[0].id, [t2, t1]],
    [source.rows[1].id, [t3]],
    [source.rows[2].id, [t4]],
    [source.rows[3].id, [t5]],
  ];
  await ok('PATCH', `/api/database/rows/table/${source.table.id}/batch/`, {
    items: cells.map(([id, links]) => ({ id, [`field_${link.id}`]: links, [`field_${secret.id}`]: id === source.rows[2].id ? 'hide' : 'show' })),
  });
  // S4 is trashed: its links are not reachable; S3 is filtered out by a filter on a hidden field.
  await ok('DELETE', `/api/database/rows/table/${source.table.id}/${source.rows[3].id}/`);
  const view = (await ok('GET', `/api/database/views/table/${source.table.id}/`))[0];
  await ok('PATCH', `/api/database/views/${view.id}/`, { public: true });
  await ok('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: { [secret.id]: { hidden: true } } });
  const filter = await ok('POST', `/api/database/views/${view.id}/filters/`, { field: secret.id, type: 'not_equal', value: 'hide' });
  const slug = (await ok('GET', `/api/database/views/${view.id}/`)).slug;
  return { targets, source, link, secret, view, slug, filter, ids: targets.rows.map((r) => r.id) };
}

const lookup = (slug: string, fieldId: number, query = '') => t.request('GET', `/api/database/views/${slug}/link-row-field-lookup/${fieldId}/${query}`);

describe('public link row lookups', () => {
  it('answers only the rows the view’s shown rows link to, in order, by page', async () => {
    const { slug, link, targets, ids } = await setUp();
    const res = await lookup(slug, link.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 3,
      next: null,
      previous: null,
      results: [0, 1, 2].map((i) => ({ id: ids[i], value: `T${i + 1}`, order: targets.rows[i].order })),
    });
    const first = await lookup(slug, link.id, '?size=2');
    expect(first.body.count).toBe(3);
    expect(first.body.results.map((r: any) => r.value)).toEqual(['T1', 'T2']);
    expect(first.body.next).toContain('page=2');
    expect(first.body.previous).toBeNull();
    const second = await lookup(slug, link.id, '?size=2&page=2');
    expect(second.body.results.map((r: any) => r.value)).toEqual(['T3']);
    expect(second.body.next).toBeNull();
    expect(second.body.previous).not.toBeNull();
    const beyond = await lookup(slug, link.id, '?size=2&page=9');
    expect(beyond.status).toBe(200);
    expect(beyond.body.count).toBe(3);
    expect(beyond.body.results).toEqual([]);
    const searched = await lookup(slug, link.id, '?search=t2');
    expect(searched.body.results.map((r: any) => r.value)).toEqual(['T2']);
    // A row the view filters out (T4's only link) is not found by search either.
    expect((await lookup(slug, link.id, '?search=T4')).body.count).toBe(0);
    const tooLarge = await lookup(slug, link.id, '?size=201');
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toEqual({ error: 'ERROR_PAGE_SIZE_LIMIT', detail: 'The page size is limited to 200.' });
  });

  it('follows writes at once: links, filters, restores and trashed linked rows', async () => {
    const { slug, link, source, targets, filter, ids } = await setUp();
    const values = async () => (await lookup(slug, link.id)).body.results.map((r: any) => r.value);
    expect(await values()).toEqual(['T1', 'T2', 'T3']);
    await ok('PATCH', `/api/database/rows/table/${source.table.id}/${source.rows[1].id}/`, { [`field_${link.id}`]: [ids[2], ids[5]] });
    expect(await values()).toEqual(['T1', 'T2', 'T3', 'T6']);
    await ok('DELETE', `/api/database/rows/table/${source.table.id}/${source.rows[0].id}/`);
    expect(await values()).toEqual(['T3', 'T6']);
    await ok('DELETE', `/api/database/views/filter/${filter.id}/`);
    expect(await values()).toEqual(['T3', 'T4', 'T6']);
    // A linked row in the trash is not looked up.
    await ok('DELETE', `/api/database/rows/table/${targets.table.id}/${ids[5]}/`);
    expect(await values()).toEqual(['T3', 'T4']);
  });

  it('keeps the filters of the view a link is limited to, and a form looks up any row', async () => {
    const { slug, link, source, targets, ids } = await setUp();
    const limit = await ok('POST', `/api/database/views/table/${targets.table.id}/`, { name: 'No T1', type: 'grid' });
    await ok('POST', `/api/database/views/${limit.id}/filters/`, { field: targets.primary.id, type: 'not_equal', value: 'T1' });
    await ok('PATCH', `/api/database/fields/${link.id}/`, { link_row_limit_selection_view_id: limit.id });
    expect((await lookup(slug, link.id)).body.results.map((r: any) => r.value)).toEqual(['T2', 'T3']);
    const form = await ok('POST', `/api/database/views/table/${source.table.id}/`, { name: 'Form', type: 'form', public: true });
    await ok('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: { [link.id]: { enabled: true } } });
    const res = await lookup(form.slug, link.id);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.id)).toEqual(ids.slice(1));
    for (const row of res.body.results) expect(Object.keys(row).sort()).toEqual(['id', 'order', 'value']);
    // A field the form does not show is not found.
    await ok('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: { [link.id]: { enabled: false } } });
    const hidden = await lookup(form.slug, link.id);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERROR_FIELD_DOES_NOT_EXIST');
  });
});
