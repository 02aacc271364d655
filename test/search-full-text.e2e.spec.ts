import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { addMember, databaseOf, emptyTable, endedJob } from './support/fixtures';
import { uploadFile } from './support/files';

/**
 * `search_mode=full-text-with-count` (baserow-rest.md §7.3): Baserow's full-text search, from
 * its own test cases (search/test_search_compatibility.py, table/test_table_models.py
 * `test_search_all_fields_queryset`, the field types' `get_search_expression` tests) and the
 * issue's examples, on one table with every searchable field type. Each case lists the rows
 * (R1…R6) a search finds, over all the table's fields. Then: bad input, the exact id, the
 * count, every endpoint taking `search_mode`, and that results are never stale after a write.
 */

let t: TestApp;
let ada: SignedUp;
let clive: SignedUp;
let databaseId: number;
let tagsTable: number;
let tagName: number;
const tag: Record<string, number> = {};
let table: number;
const f: Record<string, number> = {};
const options: Record<string, number> = {};
/** R1…R6 → row id. */
const R: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });
const ok = async (method: string, path: string, body?: unknown, token = ada.token) => {
  const res = await api(method, path, body, token);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};
const field = async (tableId: number, body: Record<string, unknown>) => (await ok('POST', `/api/database/fields/table/${tableId}/`, body)).id as number;

/** The ids the rows endpoint finds for a full-text search (all pages: size 200). */
async function found(search: string, tableId = table, mode = 'full-text-with-count'): Promise<number[]> {
  const res = await api('GET', `/api/database/rows/table/${tableId}/?size=200&search=${encodeURIComponent(search)}&search_mode=${mode}`);
  if (res.status !== 200) throw new Error(`search ${JSON.stringify(search)}: ${res.status} ${res.text}`);
  expect(res.body.count).toBe(res.body.results.length);
  return res.body.results.map((row: { id: number }) => row.id);
}

/** The row names (R1…) of ids. */
const names = (ids: number[]) => ids.map((id) => Object.keys(R).find((key) => R[key] === id) ?? `#${id}`);

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  clive = await signUp(t, 'Clive');
  databaseId = await databaseOf(t, ada);
  const [workspace] = await ok('GET', '/api/workspaces/');
  await addMember(t, ada, clive, workspace.id);

  tagsTable = await emptyTable(t, ada, databaseId, 'Tags');
  tagName = (await ok('GET', `/api/database/fields/table/${tagsTable}/`))[0].id;
  const tagRows = (await ok('POST', `/api/database/rows/table/${tagsTable}/batch/`, { items: ['Alpha Tag', 'Beta', 'Gamma-ray 7'].map((name) => ({ [`field_${tagName}`]: name })) })).items;
  [tag.alpha, tag.beta, tag.gamma] = tagRows.map((row: { id: number }) => row.id);

  table = await emptyTable(t, ada, databaseId, 'Search');
  const initial = await ok('GET', `/api/database/fields/table/${table}/`);
  [f.name, f.notes, f.active] = initial.map((x: { id: number }) => x.id);
  f.amount = await field(table, { name: 'Amount', type: 'number', number_decimal_places: 3, number_negative: true });
  f.whole = await field(table, { name: 'Whole', type: 'number', number_decimal_places: 0, number_negative: true });
  f.stars = await field(table, { name: 'Stars', type: 'rating', max_value: 5 });
  f.due = await field(table, { name: 'Due', type: 'date', date_format: 'EU' });
  f.meeting = await field(table, { name: 'Meeting', type: 'date', date_format: 'US', date_include_time: true, date_time_format: '24' });
  f.alarm = await field(table, { name: 'Alarm', type: 'date', date_format: 'ISO', date_include_time: true, date_time_format: '12', date_force_timezone: 'Europe/Amsterdam' });
  f.spent = await field(table, { name: 'Spent', type: 'duration', duration_format: 'h:mm' });
  f.span = await field(table, { name: 'Span', type: 'duration', duration_format: 'd h mm' });
  const status = await ok('POST', `/api/database/fields/table/${table}/`, { name: 'Status', type: 'single_select', select_options: [{ value: 'Teal', color: 'blue' }, { value: 'Navy Blue', color: 'dark-blue' }] });
  f.status = status.id;
  [options.teal, options.navyBlue] = status.select_options.map((o: { id: number }) => o.id);
  const colors = await ok('POST', `/api/database/fields/table/${table}/`, { name: 'Colors', type: 'multiple_select', select_options: ['Ocean', 'Navy', 'Deep Sea'].map((value) => ({ value, color: 'blue' })) });
  f.colors = colors.id;
  [options.ocean, options.navy, options.deepSea] = colors.select_options.map((o: { id: number }) => o.id);
  f.email = await field(table, { name: 'Email', type: 'email' });
  f.site = await field(table, { name: 'Site', type: 'url' });
  f.phone = await field(table, { name: 'Phone', type: 'phone_number' });
  f.files = await field(table, { name: 'Files', type: 'file' });
  f.tags = await field(table, { name: 'Tags', type: 'link_row', link_row_table_id: tagsTable });
  f.people = await field(table, { name: 'People', type: 'multiple_collaborators' });
  f.secret = await field(table, { name: 'Secret', type: 'password' });
  f.zed = await field(table, { name: 'Zed', type: 'formula', formula: "concat('zed', field('Whole'))" });
  f.double = await field(table, { name: 'Double', type: 'formula', formula: "field('Amount') * 2" });
  f.tagNames = await field(table, { name: 'Tag names', type: 'lookup', through_field_id: f.tags, target_field_id: tagName });
  f.tagCount = await field(table, { name: 'Tag count', type: 'count', through_field_id: f.tags });

  const photo = (await uploadFile(t, `JWT ${ada.token}`, 'photo.png', Buffer.from('not really a png'))).body;
  const notes = (await uploadFile(t, `JWT ${ada.token}`, 'notes.txt', Buffer.from('notes'))).body;

  // Row ids well above the small numbers the cells hold, so an id search finds only its row.
  const filler = (await ok('POST', `/api/database/rows/table/${table}/batch/`, { items: Array.from({ length: 200 }, () => ({})) })).items.map((row: { id: number }) => row.id);
  await ok('POST', `/api/database/rows/table/${table}/batch-delete/`, { items: filler });
  await ok('POST', `/api/database/rows/table/${table}/batch/`, { items: Array.from({ length: 100 }, () => ({})) }).then((body) =>
    ok('POST', `/api/database/rows/table/${table}/batch-delete/`, { items: body.items.map((row: { id: number }) => row.id) }),
  );

  const v = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [`field_${f[key]}`, value]));
  const rows = [
    v({
      name: 'Peter Evans',
      notes: 'The quick brown fox jumps over the lazy dog',
      active: true,
      amount: '5.234',
      whole: 20500,
      stars: 4,
      due: '2023-06-01',
      meeting: '2023-10-20T15:49:00Z',
      alarm: '2024-02-03T08:05:00Z',
      spent: 3900,
      span: 93900,
      status: options.teal,
      colors: [options.ocean, options.navy],
      email: 'peter@baserow.io',
      site: 'https://baserow.io/jobs',
      phone: '+31 6-1234 5678',
      files: [{ name: photo.name, visible_name: 'A photo of him.png' }],
      tags: [tag.alpha, tag.beta],
      people: [{ id: clive.id }],
      secret: 'hunter22',
    }),
    v({
      name: 'peter-jones xyz',
      notes: 'hello-world and a.b',
      amount: '123456789',
      whole: 2050,
      due: '2023-10-20',
      meeting: '4006-07-08T00:00:00Z',
      spent: 90000,
      status: options.navyBlue,
      colors: [options.deepSea],
      email: 'dev@example.com',
      site: 'https://docs.example.org/x_z',
      phone: '--++999999',
      files: [{ name: notes.name, visible_name: 'test_file.png' }],
      tags: [tag.gamma],
      people: [{ id: ada.id }, { id: clive.id }],
    }),
    v({ name: 'Base&^%row hello_world', notes: 'meeting 10-20-2023', amount: '-50', whole: -7, due: '9999-05-05' }),
    v({ name: 'СИР café', notes: 'naïve résumé', amount: '0.5' }),
    v({ name: '中文字 テスト', notes: 'नमस्ते दुनिया' }),
    v({}),
  ];
  const created = (await ok('POST', `/api/database/rows/table/${table}/batch/`, { items: rows })).items;
  created.forEach((row: { id: number }, i: number) => (R[`R${i + 1}`] = row.id));
}, 120_000);
afterAll(async () => t?.close());

/** [search, rows found] by field type, over every field of the table. */
const CASES: Record<string, [string, string[]][]> = {
  text: [
    ['Peter Evans', ['R1']],
    ['Peter Ev', ['R1']],
    ['peTeR   EV', ['R1']],
    ['peter', ['R1', 'R2']],
    ['Evans Peter', []],
    ['Peter Evans zzz', []],
    ['jones', ['R2']],
    ['peter jones', ['R2']],
    ['xyz', ['R2']],
    // A word's prefix only: `y` is inside `xyz`, not at its start.
    ['y', []],
    ['Base&^%row', ['R3']],
    ['baserow', ['R1']],
    ['hello', ['R2', 'R3']],
    ['hello world', ['R2', 'R3']],
    ['hello+world', ['R2', 'R3']],
    ['hello_world', ['R2', 'R3']],
    // A phrase never runs from one cell into the next (R3: Name ends with `world`, Notes starts with `meeting`).
    ['world meeting', []],
    ['сир', ['R4']],
    ['СИР', ['R4']],
    ['café', ['R4']],
    ['caf', ['R4']],
    ['cafe', []],
    ['中文', ['R5']],
    ['テスト', ['R5']],
    ['字', []],
  ],
  long_text: [
    ['The quick brown fox jumps', ['R1']],
    ['The quick bro', ['R1']],
    ['ThE QuICk BROWN ', ['R1']],
    ['lazy dog', ['R1']],
    ['quick fox', []],
    ['a/b', ['R2']],
    ['a.b', ['R2']],
    ['naïve résumé', ['R4']],
    ['naive', []],
    ['नमस्', ['R5']],
    ['दुनिया', ['R5']],
  ],
  number: [
    ['5.234', ['R1']],
    ['+5.23', ['R1']],
    ['123456789', ['R2']],
    ['1234', ['R1', 'R2']],
    ['-50', ['R3']],
    ['-5', ['R3']],
    // `5` is not found in `-50`, nor `50` in it.
    ['50', ['R4']],
    ['0.5', ['R4']],
    ['205', ['R1', 'R2']],
    ['-7', ['R3']],
    ['10.468', ['R1']],
    ['246913578', ['R2']],
  ],
  rating_boolean: [
    ['true', ['R1']],
    ['false', ['R2', 'R3', 'R4', 'R5', 'R6']],
  ],
  date: [
    ['01/06/2023', ['R1']],
    ['01/06', ['R1']],
    ['01-06-2023', ['R1']],
    ['10/20/2023', ['R1', 'R3']],
    ['20/10/2023', ['R2']],
    // `23` is not found in R3's `10-20-2023`, only at the start of R1's `234` (5.234).
    ['23', ['R1']],
    ['2023', ['R1', 'R2', 'R3']],
    ['05/05/9999', ['R3']],
    ['07/08/4006', ['R2']],
    ['15:49', ['R1']],
    [':49', ['R1']],
    ['2024-02-03 09:05am', ['R1']],
    ['08:05', []],
  ],
  duration: [
    ['1:05', ['R1']],
    ['25:00', ['R2']],
    ['1d 2 05', ['R1']],
    ['1d 2h', []],
  ],
  select: [
    ['Teal', ['R1']],
    ['Tea', ['R1']],
    ['Teal   ', ['R1']],
    ['Navy', ['R1', 'R2']],
    ['Navy Blue', ['R2']],
    ['Blue', ['R2']],
    ['Ocean', ['R1']],
    ['OcEAn   ', ['R1']],
    ['Ocean Navy', ['R1']],
    ['Deep Sea', ['R2']],
  ],
  email_url_phone: [
    ['peter@baserow.io', ['R1']],
    ['baserow.io', ['R1']],
    ['dev@example', ['R2']],
    ['https://baserow.io', ['R1']],
    ['https://base', ['R1']],
    ['HTtps://BASEROW.iO', ['R1']],
    ['jobs', ['R1']],
    ['x_z', ['R2']],
    ['999999', ['R2']],
    ['99999', ['R2']],
    ['1234 5678', ['R1']],
    ['+31', ['R1']],
  ],
  file: [
    ['photo of him', ['R1']],
    ['photo of ', ['R1']],
    ['pHoTo OF', ['R1']],
    ['.png', ['R1', 'R2']],
    ['test_file', ['R2']],
  ],
  link_lookup_count: [
    ['Alpha', ['R1']],
    ['alpha tag', ['R1']],
    ['tag beta', ['R1']],
    ['Gamma', ['R2']],
    ['gamma ray', ['R2']],
  ],
  collaborators: [
    ['Clive', ['R1', 'R2']],
    ['Cli', ['R1', 'R2']],
    ['JeFF', []],
    ['Ada', ['R2']],
  ],
  password: [
    ['hunter22', []],
    ['hunter', []],
  ],
  formula: [
    ['zed205', ['R1', 'R2']],
    ['zed', ['R1', 'R2', 'R3', 'R4', 'R5', 'R6']],
  ],
  operators_and_punctuation: [
    ['#$%', []],
    ['&^%', []],
    ['peter*', ['R1', 'R2']],
    ['"peter evans"', ['R1']],
    ['NEAR(peter evans)', []],
    ['peter OR jones', []],
    ['NOT peter', []],
    ['-peter', ['R1', 'R2']],
    ['peter:*', ['R1', 'R2']],
    ['!peter', ['R1', 'R2']],
    ['(peter)', ['R1', 'R2']],
    ['^peter', ['R1', 'R2']],
    ['peter & evans', ['R1']],
    ['peter | evans', ['R1']],
    ['peter <-> evans', ['R1']],
    ["peter's", []],
    ['AND', ['R2']],
    ['*', []],
    ['"', []],
    ["'", []],
    ['\\', []],
    ['::', []],
    ['😀', []],
    ['...', []],
    ['- -', []],
  ],
};

describe.each(Object.entries(CASES))('full-text search: %s', (_kind, cases) => {
  test.each(cases)('%j finds %j', async (search, rows) => {
    expect(names(await found(search))).toEqual(rows);
  });
});

describe('full-text search: bad input', () => {
  test('very long searches: a word beyond 2047 bytes is left out, a long phrase finds what holds it', async () => {
    expect(await found('a'.repeat(5000))).toEqual([]);
    expect(names(await found(`${'é'.repeat(1100)} peter`))).toEqual(['R1', 'R2']);
    expect(await found('peter '.repeat(800))).toEqual([]);
    expect(await found(Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' '))).toEqual([]);
    expect(await found('"*:&|!()^'.repeat(400))).toEqual([]);
  });

  test('every script, and symbols only', async () => {
    for (const search of ['مرحبا', 'שלום', 'ไทย', 'Ελληνικά', '한국어', '🙂🙃', '∑∫√', '\u200b', '\u0301']) expect(await found(search)).toEqual([]);
  });

  test('NUL characters are dropped from the query string (as from every parameter), other control characters separate words', async () => {
    expect(names(await found('pe\u0000ter ev\u0000ans'))).toEqual(['R1']);
    expect(names(await found('peter\u0001evans'))).toEqual(['R1']);
    expect(await found('\u0000\u0001\u001f')).toEqual([]);
  });

  test('an unknown search_mode is a query validation error', async () => {
    const res = await api('GET', `/api/database/rows/table/${table}/?search=peter&search_mode=full-text`);
    expect(res.body).toEqual({ error: 'ERROR_QUERY_PARAMETER_VALIDATION', detail: { search_mode: [{ error: '"full-text" is not a valid choice.', code: 'invalid_choice' }] } });
  });

  test('compat stays the default and matches substrings', async () => {
    const compat = async (search: string) => names(await found(search, table, 'compat'));
    expect(await compat('y')).toEqual(['R1', 'R2']);
    expect(await compat('&^%')).toEqual(['R3']);
    const res = await api('GET', `/api/database/rows/table/${table}/?size=200&search=y`);
    expect(names(res.body.results.map((r: { id: number }) => r.id))).toEqual(['R1', 'R2']);
  });
});

describe('full-text search: the exact row id and the count', () => {
  test('a search that is a row id also finds that row (not with a leading 0)', async () => {
    expect(names(await found(String(R.R3)))).toEqual(['R3']);
    expect(names(await found(` ${R.R3} `))).toEqual(['R3']);
    expect(names(await found(`+${R.R3}`))).toEqual(['R3']);
    expect(await found(`0${R.R3}`)).toEqual([]);
    expect(await found(`${R.R3}x`)).toEqual([]);
    expect(await found('99999999999999')).toEqual([]);
  });

  test('compat search: the same rule (SearchHandler.add_exact_id_search), so 02 is not row 2', async () => {
    const ids = await emptyTable(t, ada, databaseId, 'Ids');
    const name = (await ok('GET', `/api/database/fields/table/${ids}/`))[0].id;
    const rows = (await ok('POST', `/api/database/rows/table/${ids}/batch/`, { items: ['alpha', 'beta', 'gamma'].map((n) => ({ [`field_${name}`]: n })) })).items;
    const id = rows[1].id as number;
    const compat = (search: string) => found(search, ids, 'compat');
    expect(await compat(String(id))).toEqual([id]);
    expect(await compat(` ${id} `)).toEqual([id]);
    expect(await compat(`+${id}`)).toEqual([id]);
    expect(await compat(`0${id}`)).toEqual([]);
    expect(await compat(`00${id}`)).toEqual([]);
    expect(await compat(`${id}x`)).toEqual([]);
    expect(await compat('0')).toEqual([]);
    expect(await compat('eta')).toEqual([id]);
  });

  test('count is the number of rows found, whatever the page', async () => {
    const res = await api('GET', `/api/database/rows/table/${table}/?size=1&page=2&search=peter&search_mode=full-text-with-count`);
    expect(res.body.count).toBe(2);
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([R.R2]);
    const none = await api('GET', `/api/database/rows/table/${table}/?search=zzzz&search_mode=full-text-with-count`);
    expect(none.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  test('filters, sorts and include combine with the search', async () => {
    const res = await api('GET', `/api/database/rows/table/${table}/?search=peter&search_mode=full-text-with-count&order_by=-field_${f.name}&include=field_${f.name}&filter__field_${f.whole}__higher_than=10000`);
    expect(res.body).toEqual({ count: 1, next: null, previous: null, results: [{ id: R.R1, order: expect.any(String), [`field_${f.name}`]: 'Peter Evans' }] });
  });
});

describe('full-text search: every endpoint taking search_mode', () => {
  let view: number;
  beforeAll(async () => {
    view = (await ok('POST', `/api/database/views/table/${table}/`, { name: 'Grid', type: 'grid' })).id;
  });

  test('grid view rows, count only, and aggregations', async () => {
    const rows = await ok('GET', `/api/database/views/grid/${view}/?search=hello+world&search_mode=full-text-with-count`);
    expect(names(rows.results.map((r: { id: number }) => r.id))).toEqual(['R2', 'R3']);
    expect(await ok('GET', `/api/database/views/grid/${view}/?count&search=hello+world&search_mode=full-text-with-count`)).toEqual({ count: 2 });
    const aggregations = await ok('GET', `/api/database/views/grid/${view}/aggregations/?include=total&search=peter&search_mode=full-text-with-count`);
    expect(aggregations.total).toBe(2);
  });

  test('gallery rows and the adjacent row', async () => {
    const gallery = (await ok('POST', `/api/database/views/table/${table}/`, { name: 'Gallery', type: 'gallery' })).id;
    const rows = await ok('GET', `/api/database/views/gallery/${gallery}/?search=navy&search_mode=full-text-with-count`);
    expect(names(rows.results.map((r: { id: number }) => r.id))).toEqual(['R1', 'R2']);
    const next = await ok('GET', `/api/database/rows/table/${table}/${R.R1}/adjacent/?search=navy&search_mode=full-text-with-count`);
    expect(next.id).toBe(R.R2);
    const none = await api('GET', `/api/database/rows/table/${table}/${R.R2}/adjacent/?search=navy&search_mode=full-text-with-count`);
    expect(none.status).toBe(204);
  });

  test('a shared grid searches its visible fields only', async () => {
    const shared = await ok('POST', `/api/database/views/table/${table}/`, { name: 'Shared', type: 'grid', public: true });
    await ok('PATCH', `/api/database/views/${shared.id}/field-options/`, { field_options: { [f.notes]: { hidden: true } } });
    const res = await t.request('GET', `/api/database/views/grid/${shared.slug}/public/rows/?search=hello&search_mode=full-text-with-count`);
    expect(res.status).toBe(200);
    expect(names(res.body.results.map((r: { id: number }) => r.id))).toEqual(['R3']);
    const phrase = await t.request('GET', `/api/database/views/grid/${shared.slug}/public/rows/?search=hello+wor&search_mode=full-text-with-count`);
    expect(names(phrase.body.results.map((r: { id: number }) => r.id))).toEqual(['R3']);
    const hidden = await t.request('GET', `/api/database/views/grid/${shared.slug}/public/rows/?search=quick+brown&search_mode=full-text-with-count`);
    expect(hidden.body.results).toEqual([]);
  });

  test('the public link row lookup', async () => {
    const shared = (await ok('POST', `/api/database/views/table/${table}/`, { name: 'Lookup', type: 'grid', public: true })).slug;
    const res = await t.request('GET', `/api/database/views/${shared}/link-row-field-lookup/${f.tags}/?search=ray&search_mode=full-text-with-count`);
    expect(res.body.results.map((r: { value: string }) => r.value)).toEqual(['Gamma-ray 7']);
    const tagsOnly = await t.request('GET', `/api/database/views/${shared}/link-row-field-lookup/${f.tags}/?search=a&search_mode=full-text-with-count`);
    expect(tagsOnly.body.results.map((r: { value: string }) => r.value)).toEqual(['Alpha Tag']);
  });
});

describe('full-text search: never stale', () => {
  // Each write is followed at once by a search on the same table, which must see it.
  test('row create, update, batch update, delete and restore', async () => {
    const made = await ok('POST', `/api/database/rows/table/${table}/`, { [`field_${f.name}`]: 'Quasar One' });
    expect(await found('quasar')).toEqual([made.id]);
    await ok('PATCH', `/api/database/rows/table/${table}/${made.id}/`, { [`field_${f.name}`]: 'Pulsar Two' });
    expect(await found('quasar')).toEqual([]);
    expect(await found('pulsar two')).toEqual([made.id]);
    await ok('PATCH', `/api/database/rows/table/${table}/batch/`, { items: [{ id: made.id, [`field_${f.notes}`]: 'nebula' }] });
    expect(await found('nebula')).toEqual([made.id]);
    await ok('DELETE', `/api/database/rows/table/${table}/${made.id}/`);
    expect(await found('pulsar')).toEqual([]);
    await ok('PATCH', '/api/trash/restore/', { trash_item_type: 'row', trash_item_id: made.id, parent_trash_item_id: table });
    expect(await found('pulsar')).toEqual([made.id]);
    await ok('POST', `/api/database/rows/table/${table}/batch-delete/`, { items: [made.id] });
    expect(await found('nebula')).toEqual([]);
  });

  test('a linked row’s primary value, trashed and restored', async () => {
    await ok('PATCH', `/api/database/rows/table/${tagsTable}/${tag.beta}/`, { [`field_${tagName}`]: 'Omega' });
    expect(names(await found('omega'))).toEqual(['R1']);
    expect(await found('tag beta')).toEqual([]);
    await ok('DELETE', `/api/database/rows/table/${tagsTable}/${tag.alpha}/`);
    expect(await found('alpha')).toEqual([]);
    await ok('PATCH', '/api/trash/restore/', { trash_item_type: 'row', trash_item_id: tag.alpha, parent_trash_item_id: tagsTable });
    expect(names(await found('alpha tag'))).toEqual(['R1']);
    await ok('PATCH', `/api/database/rows/table/${tagsTable}/${tag.beta}/`, { [`field_${tagName}`]: 'Beta' });
    expect(names(await found('tag beta'))).toEqual(['R1']);
  });

  test('links changed from the other side', async () => {
    const related = (await ok('GET', `/api/database/fields/table/${tagsTable}/`)).find((x: { type: string }) => x.type === 'link_row').id;
    await ok('PATCH', `/api/database/rows/table/${tagsTable}/${tag.gamma}/`, { [`field_${related}`]: [R.R3] });
    expect(names(await found('gamma ray'))).toEqual(['R3']);
    await ok('PATCH', `/api/database/rows/table/${tagsTable}/${tag.gamma}/`, { [`field_${related}`]: [R.R2] });
    expect(names(await found('gamma ray'))).toEqual(['R2']);
  });

  test('a select option renamed', async () => {
    await ok('PATCH', `/api/database/fields/${f.status}/`, { select_options: [{ id: options.teal, value: 'Turquoise', color: 'blue' }, { id: options.navyBlue, value: 'Navy Blue', color: 'dark-blue' }] });
    expect(names(await found('turq'))).toEqual(['R1']);
    expect(await found('teal')).toEqual([]);
    await ok('PATCH', `/api/database/fields/${f.colors}/`, {
      select_options: [
        { id: options.ocean, value: 'Lagoon', color: 'blue' },
        { id: options.navy, value: 'Navy', color: 'blue' },
        { id: options.deepSea, value: 'Deep Sea', color: 'blue' },
      ],
    });
    expect(names(await found('lagoon navy'))).toEqual(['R1']);
    await ok('PATCH', `/api/database/fields/${f.status}/`, { select_options: [{ id: options.teal, value: 'Teal', color: 'blue' }, { id: options.navyBlue, value: 'Navy Blue', color: 'dark-blue' }] });
    expect(names(await found('teal'))).toEqual(['R1']);
  });

  test('a field converted, or its format changed', async () => {
    await ok('PATCH', `/api/database/fields/${f.due}/`, { date_format: 'US' });
    expect(await found('01/06/2023')).toEqual([]);
    expect(names(await found('06/01/2023'))).toEqual(['R1']);
    await ok('PATCH', `/api/database/fields/${f.due}/`, { date_format: 'EU' });
    expect(names(await found('01/06/2023'))).toEqual(['R1']);
    const converted = await field(table, { name: 'Code', type: 'text' });
    await ok('PATCH', `/api/database/rows/table/${table}/${R.R4}/`, { [`field_${converted}`]: '4711' });
    expect(names(await found('4711'))).toEqual(['R4']);
    await ok('PATCH', `/api/database/fields/${converted}/`, { type: 'number', number_decimal_places: 2 });
    expect(names(await found('4711.00'))).toEqual(['R4']);
    await ok('PATCH', `/api/database/fields/${converted}/`, { type: 'boolean' });
    expect(await found('4711')).toEqual([]);
    await ok('DELETE', `/api/database/fields/${converted}/`);
  });

  test('a formula recomputed when what it reads changes', async () => {
    await ok('PATCH', `/api/database/rows/table/${table}/${R.R3}/`, { [`field_${f.whole}`]: 98765 });
    expect(names(await found('zed9876'))).toEqual(['R3']);
    await ok('PATCH', `/api/database/fields/${f.zed}/`, { formula: "concat('zap', field('Whole'))" });
    expect(await found('zed9876')).toEqual([]);
    expect(names(await found('zap9876'))).toEqual(['R3']);
    await ok('PATCH', `/api/database/fields/${f.zed}/`, { formula: "concat('zed', field('Whole'))" });
    await ok('PATCH', `/api/database/rows/table/${table}/${R.R3}/`, { [`field_${f.whole}`]: -7 });
    expect(names(await found('zed205'))).toEqual(['R1', 'R2']);
  });

  test('a field trashed and restored, created, and deleted', async () => {
    await ok('DELETE', `/api/database/fields/${f.notes}/`);
    expect(await found('quick brown')).toEqual([]);
    await ok('PATCH', '/api/trash/restore/', { trash_item_type: 'field', trash_item_id: f.notes });
    expect(names(await found('quick brown'))).toEqual(['R1']);
    const extra = await field(table, { name: 'Extra', type: 'text' });
    expect(await found('zyzzyva')).toEqual([]);
    await ok('PATCH', `/api/database/rows/table/${table}/${R.R6}/`, { [`field_${extra}`]: 'zyzzyva' });
    expect(names(await found('zyzzyva'))).toEqual(['R6']);
    await ok('DELETE', `/api/database/fields/${extra}/`);
    expect(await found('zyzzyva')).toEqual([]);
  });

  test('a collaborator renamed', async () => {
    await ok('PATCH', '/api/user/account/', { first_name: 'Clivia' }, clive.token);
    expect(names(await found('clivia'))).toEqual(['R1', 'R2']);
    expect(await found('clive')).toEqual([]);
    await ok('PATCH', '/api/user/account/', { first_name: 'Clive' }, clive.token);
    expect(names(await found('clive'))).toEqual(['R1', 'R2']);
  });

  test('an import into the table, and a duplicate of it', async () => {
    const imported = await emptyTable(t, ada, databaseId, 'Imported');
    expect(await found('anything', imported)).toEqual([]);
    const job = await ok('POST', `/api/database/tables/${imported}/import/async/`, { data: [['Xylophone one'], ['Zither two']] });
    expect((await endedJob(t, ada.token, job.id)).state).toBe('finished');
    expect((await found('xylophone', imported)).length).toBe(1);
    const copy = await ok('POST', `/api/database/tables/${table}/duplicate/async/`);
    const duplicated = (await endedJob(t, ada.token, copy.id)).duplicated_table.id;
    expect(names(await found('peter evans', duplicated))).toEqual(['R1']);
    expect(names(await found('alpha tag', duplicated))).toEqual(['R1']);
  });

  test('concurrent writes (rows, linked rows, a new link) and searches all succeed, and the index agrees with them once done', async () => {
    const colors = await emptyTable(t, ada, databaseId, 'Colors');
    const colorName = (await ok('GET', `/api/database/fields/table/${colors}/`))[0].id;
    const colorRows: number[] = (await ok('POST', `/api/database/rows/table/${colors}/batch/`, { items: ['red', 'green', 'blue'].map((name) => ({ [`field_${colorName}`]: name })) })).items.map((r: { id: number }) => r.id);
    const things = await emptyTable(t, ada, databaseId, 'Things');
    const thingName = (await ok('GET', `/api/database/fields/table/${things}/`))[0].id;
    const color = await field(things, { name: 'Color', type: 'link_row', link_row_table_id: colors });
    const rows: number[] = (await ok('POST', `/api/database/rows/table/${things}/batch/`, { items: Array.from({ length: 12 }, (_, i) => ({ [`field_${thingName}`]: `thing${i}`, [`field_${color}`]: [colorRows[i % 3]] })) })).items.map((r: { id: number }) => r.id);
    expect((await found('thing', things)).length).toBe(12);
    const writes = [
      ...rows.map((id: number, i: number) => api('PATCH', `/api/database/rows/table/${things}/${id}/`, { [`field_${thingName}`]: `object${i}` })),
      ...colorRows.map((id: number, i: number) => api('PATCH', `/api/database/rows/table/${colors}/${id}/`, { [`field_${colorName}`]: `hue${i}` })),
      api('POST', `/api/database/rows/table/${things}/batch/`, { items: [{ [`field_${thingName}`]: 'extra one' }, { [`field_${thingName}`]: 'extra two' }] }),
      api('POST', `/api/database/fields/table/${things}/`, { name: 'Second', type: 'link_row', link_row_table_id: colors }),
      ...Array.from({ length: 8 }, (_, i) => api('GET', `/api/database/rows/table/${things}/?search=${i % 2 ? 'hue' : 'object'}&search_mode=full-text-with-count`)),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBeLessThan(300);
    expect(await found('thing', things)).toEqual([]);
    expect((await found('object', things)).length).toBe(12);
    for (let i = 0; i < 3; i++) expect((await found(`hue${i}`, things)).length).toBe(4);
    expect((await found('extra', things)).length).toBe(2);
  });

  test('a table deleted for good takes its index and triggers with it', async () => {
    const gone = await emptyTable(t, ada, databaseId, 'Gone');
    const goneLink = await field(gone, { name: 'Tags', type: 'link_row', link_row_table_id: tagsTable });
    const row = await ok('POST', `/api/database/rows/table/${gone}/`, { [`field_${goneLink}`]: [tag.gamma] });
    expect(await found('gamma', gone)).toEqual([row.id]);
    await ok('DELETE', `/api/database/tables/${gone}/`);
    await ok('DELETE', '/api/trash/workspace/' + (await ok('GET', '/api/workspaces/'))[0].id + '/?application_id=' + databaseId);
    // The linked table's writes go on (the gone table's triggers on it went with it).
    await ok('PATCH', `/api/database/rows/table/${tagsTable}/${tag.gamma}/`, { [`field_${tagName}`]: 'Gamma-ray 7' });
    expect(names(await found('gamma ray'))).toEqual(['R2']);
  });
});
