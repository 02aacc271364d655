/**
 * Full-text search benchmark (`npx ts-node --swc bench/search.ts`).
 *
 * Builds a table of BENCH_ROWS rows (default 100,000) through the public API: Name (text,
 * primary), Notes (long text), Active (boolean), Amount (number, 2 places), Due (date), Status
 * (single select), Email and Tags (a link to a small table), 200 rows per batch request. About
 * 3 % of the names hold the word "quokka". It then measures:
 *  - write_cost: BENCH_WRITE_BATCHES batches of 200 new rows (and as many batch updates of 200
 *    rows) before the table has a full-text index, then the same after its first full-text search
 *    built it (Rowspace keeps the index in every write's transaction from then on): ms per batch;
 *  - first_search_ms: that first search (it builds the index of the whole table);
 *  - search: `GET /api/database/rows/table/{id}/?size=100&search=<term>&search_mode=full-text-with-count`
 *    with BENCH_CONCURRENCY clients for BENCH_SECONDS (after a 2 s warm-up), for a word in 3 % of the
 *    rows, a phrase in a few rows, a prefix in about 1/26 of the rows and a word in no row; every
 *    answer must be 200 with the expected count;
 *  - the compat search of the same word, for comparison.
 * Prints one JSON document on stdout; progress goes to stderr. DATABASE_URL runs it on PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { prng } from '../test/support/fuzz';
import { Api, BATCH_SIZE, PAGE_SIZE, ROWS, countIs, envInt, load, log, machine, percentile, round, withRowspace } from './rows';

const WRITE_BATCHES = Math.floor(envInt('BENCH_WRITE_BATCHES', 25));
const CLIENTS = (process.env.BENCH_CONCURRENCY ?? '10').split(',').map((c) => Math.floor(Number(c)));
const TERM = 'quokka';
const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'gamma', 'harbor', 'indigo', 'juniper', 'kelvin', 'lumen', 'maple', 'nimbus', 'onyx', 'pepper', 'quartz', 'raven', 'sierra', 'tundra', 'umber', 'velvet', 'willow', 'xenon', 'yonder', 'zephyr'];
const LOREM = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do', 'eiusmod', 'tempor', 'incididunt', 'ut', 'labore', 'et', 'dolore', 'magna', 'aliqua'];

interface Fields {
  name: number;
  notes: number;
  active: number;
  amount: number;
  due: number;
  status: number;
  email: number;
  tags: number;
  options: number[];
  tagRows: number[];
}

async function createTable(api: Api, databaseId: number): Promise<{ tableId: number; fields: Fields }> {
  const create = (tableId: number, body: Record<string, unknown>) => api.call('POST', `/api/database/fields/table/${tableId}/`, body);
  const tags = await api.call('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Tags', data: [['Name'], ...WORDS.map((w) => [w])], first_row_header: true });
  const tagRows = (await api.call('GET', `/api/database/rows/table/${tags.id}/?size=200`)).results.map((r: { id: number }) => r.id);
  const table = await api.call('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Search' });
  const initial: { id: number; name: string }[] = await api.call('GET', `/api/database/fields/table/${table.id}/`);
  const byName = (name: string) => initial.find((f) => f.name === name)!.id;
  const status = await create(table.id, { name: 'Status', type: 'single_select', select_options: ['Backlog', 'Todo', 'Doing', 'Done'].map((value) => ({ value, color: 'blue' })) });
  const fields: Fields = {
    name: byName('Name'),
    notes: byName('Notes'),
    active: byName('Active'),
    amount: (await create(table.id, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true })).id,
    due: (await create(table.id, { name: 'Due', type: 'date', date_format: 'EU' })).id,
    status: status.id,
    email: (await create(table.id, { name: 'Email', type: 'email' })).id,
    tags: (await create(table.id, { name: 'Tags', type: 'link_row', link_row_table_id: tags.id, has_related_field: false })).id,
    options: status.select_options.map((o: { id: number }) => o.id),
    tagRows,
  };
  const existing = (await api.call('GET', `/api/database/rows/table/${table.id}/?size=200`)).results.map((r: { id: number }) => r.id);
  if (existing.length) await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: existing });
  return { tableId: table.id, fields };
}

/** Row i's values (the same on every run). */
function rowValues(fields: Fields, i: number, random: () => number): { row: Record<string, unknown>; hit: boolean; word: string } {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const hit = random() < 0.03;
  const word = pick(WORDS);
  const row = {
    [`field_${fields.name}`]: hit ? `${word} ${TERM} ${i}` : `${word} ${pick(WORDS)} ${i}`,
    [`field_${fields.notes}`]: random() < 0.2 ? null : Array.from({ length: 4 + Math.floor(random() * 12) }, () => pick(LOREM)).join(' '),
    [`field_${fields.active}`]: random() < 0.5,
    [`field_${fields.amount}`]: ((Math.floor(random() * 200_000) - 100_000) / 100).toFixed(2),
    [`field_${fields.due}`]: new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 2000) * 86_400_000).toISOString().slice(0, 10),
    [`field_${fields.status}`]: random() < 0.1 ? null : pick(fields.options),
    [`field_${fields.email}`]: `${pick(WORDS)}.${i}@example.org`,
    [`field_${fields.tags}`]: random() < 0.5 ? [] : [pick(fields.tagRows)],
  };
  return { row, hit, word };
}

const stats = (ms: number[]) => ({ batches: ms.length, mean_ms: round(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length)), p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99) });

async function timedBatches(api: Api, tableId: number, fields: Fields, from: number, random: () => number): Promise<{ create: number[]; update: number[] }> {
  const create: number[] = [];
  const update: number[] = [];
  for (let b = 0; b < WRITE_BATCHES; b++) {
    const items = Array.from({ length: BATCH_SIZE }, (_, k) => rowValues(fields, from + b * BATCH_SIZE + k, random).row);
    let t0 = performance.now();
    const created = await api.call('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
    create.push(performance.now() - t0);
    const changed = created.items.map((row: { id: number }) => ({ id: row.id, [`field_${fields.notes}`]: `updated ${random().toString(36).slice(2)} ${row.id}` }));
    t0 = performance.now();
    await api.call('PATCH', `/api/database/rows/table/${tableId}/batch/`, { items: changed });
    update.push(performance.now() - t0);
    // Back out, so the table keeps ROWS rows and the searches' counts stay known.
    await api.call('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: created.items.map((row: { id: number }) => row.id) });
  }
  return { create, update };
}

async function main(): Promise<void> {
  await withRowspace('search', async (api, postgres) => {
    const database = (await api.call('GET', '/api/applications/')).find((a: { type: string }) => a.type === 'database');
    const { tableId, fields } = await createTable(api, database.id);
    const random = prng(20250601);
    let hits = 0;
    const byWord = new Map<string, number>();
    const insertStart = performance.now();
    for (let start = 0; start < ROWS; start += BATCH_SIZE) {
      const items = [];
      for (let i = start; i < Math.min(ROWS, start + BATCH_SIZE); i++) {
        const { row, hit, word } = rowValues(fields, i, random);
        items.push(row);
        if (hit) hits += 1;
        byWord.set(word, (byWord.get(word) ?? 0) + 1);
      }
      await api.call('POST', `/api/database/rows/table/${tableId}/batch/`, { items });
      if ((start / BATCH_SIZE) % 50 === 0) log(`inserted ${start + items.length} of ${ROWS}`);
    }
    const insertSeconds = (performance.now() - insertStart) / 1000;

    log('write cost without a full-text index');
    const before = await timedBatches(api, tableId, fields, ROWS, prng(7));
    const path = (search: string, mode = 'full-text-with-count') => `/api/database/rows/table/${tableId}/?size=${PAGE_SIZE}&search=${encodeURIComponent(search)}&search_mode=${mode}`;
    let t0 = performance.now();
    const first = await api.call('GET', path(TERM));
    const firstSearchMs = performance.now() - t0;
    if (first.count !== hits) throw new Error(`first search counted ${first.count}, expected ${hits}`);
    log(`first full-text search (index build) took ${round(firstSearchMs)} ms`);
    log('write cost with the full-text index maintained');
    const after = await timedBatches(api, tableId, fields, ROWS, prng(7));
    t0 = performance.now();
    await api.call('GET', path(TERM));
    const searchAfterWritesMs = performance.now() - t0;

    // The phrase "<word> quokka" is in the hit rows whose name starts with that word.
    const phraseRows = (await api.call('GET', `${path(`${WORDS[0]} ${TERM}`)}`)).count as number;
    const searches: Record<string, { search: string; count: number }> = {
      word_3pct: { search: TERM, count: hits },
      phrase: { search: `${WORDS[0]} ${TERM}`, count: phraseRows },
      prefix: { search: WORDS[1].slice(0, 3), count: (await api.call('GET', path(WORDS[1].slice(0, 3)))).count },
      none: { search: 'zzyzx', count: 0 },
    };
    const results: Record<string, unknown> = {};
    for (const [name, { search, count }] of Object.entries(searches)) {
      for (const clients of CLIENTS) {
        log(`load ${name} (${search}) with ${clients} clients`);
        results[`${name}_c${clients}`] = { search, count, ...(await load(api, path(search), clients, countIs(count))) };
      }
    }
    for (const clients of CLIENTS) results[`compat_word_c${clients}`] = { search: TERM, count: hits, ...(await load(api, path(TERM, 'compat'), clients, countIs(hits))) };

    console.log(
      JSON.stringify(
        {
          benchmark: 'search',
          database: postgres ? `postgresql ${postgres.version}` : 'sqlite',
          rows: ROWS,
          insert_rows_per_s: round(ROWS / insertSeconds, 1),
          write_cost: {
            batch_size: BATCH_SIZE,
            create_before_index: stats(before.create),
            create_with_index: stats(after.create),
            update_before_index: stats(before.update),
            update_with_index: stats(after.update),
          },
          first_search_ms: round(firstSearchMs),
          search_after_writes_ms: round(searchAfterWritesMs),
          search: results,
          machine: machine(),
        },
        null,
        2,
      ),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
