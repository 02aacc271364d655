/**
 * Snapshot benchmark (`npm run bench:snapshots`; part of `npm run bench`).
 *
 * Through the public API only, on a fresh server (bench/rows.ts's `withRowspace()`): a database
 * with one table of BENCH_ROWS rows (default 100,000; imported from a seeded CSV: text, long text,
 * boolean, number with two decimals, e-mail) and a grid view with a filter and a sort, then
 *  - snapshot: `POST /api/snapshots/application/{id}/` timed to its `create_snapshot` job's
 *    `finished` (polled every 50 ms): seconds, rows/s, the compressed document's size, and the
 *    server's peak resident memory (sampled from /proc/<pid>/status every 20 ms), above its level
 *    before and in all;
 *  - restore: `POST /api/snapshots/{id}/restore/` timed to its `restore_snapshot` job's `finished`:
 *    the same figures; the restored table must hold every row, the last one's cells included.
 *
 * Environment: DATABASE_URL (PostgreSQL instead of SQLite), BENCH_ROWS (100000). Prints one JSON
 * document on stdout; progress goes to stderr.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../test/support/fuzz';
import { ended, MB, measured } from './measure';
import { ROWS, WORDS, log, machine, round, withRowspace } from './rows';

function csvFile(): { text: string; last: string } {
  const random = prng(20261128);
  const lines = ['Name,Notes,Active,Amount,Email'];
  let last = '';
  for (let i = 0; i < ROWS; i++) {
    last = `${WORDS[Math.floor(random() * WORDS.length)]} ${i}`;
    const notes = `"${WORDS[Math.floor(random() * WORDS.length)]}, ""${i}"""`;
    const amount = (Math.floor(random() * 2_000_000) / 100 - 10_000).toFixed(2);
    lines.push(`${last},${notes},${random() < 0.5 ? 'true' : 'false'},${amount},user${i}@example.com`);
  }
  return { text: lines.join('\r\n') + '\r\n', last };
}

async function main(): Promise<void> {
  await withRowspace('snapshots', async (api, postgres, server) => {
    const [database] = (await api.call('GET', '/api/applications/')).filter((app: { type: string }) => app.type === 'database');
    const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Large' });
    const initial = (await api.call('GET', `/api/database/rows/table/${table.id}/`)).results.map((row: { id: number }) => row.id);
    await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: initial });
    const amount = await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Email', type: 'email' });
    const { text, last } = csvFile();
    log(`importing ${ROWS} rows`);
    const form = new FormData();
    form.append('first_row_header', 'true');
    form.append('file', new Blob([text]), 'rows.csv');
    const upload = await fetch(new URL(`/api/database/tables/${table.id}/import/async/`, api.base), { method: 'POST', headers: { Authorization: api.jwtAuth }, body: form });
    if (upload.status !== 200) throw new Error(`import: ${upload.status} ${await upload.text()}`);
    const imported = await ended(api, `/api/jobs/${((await upload.json()) as { id: number }).id}/`);
    if (imported.state !== 'finished') throw new Error(`the import ended ${imported.state}`);
    const [grid] = await api.call('GET', `/api/database/views/table/${table.id}/`);
    await api.call('POST', `/api/database/views/${grid.id}/filters/`, { field: amount.id, type: 'higher_than', value: '0' });
    await api.call('POST', `/api/database/views/${grid.id}/sortings/`, { field: amount.id, order: 'DESC' });

    log(`snapshot of a database of ${ROWS} rows`);
    const taken = await measured(server.pid, async () => ended(api, `/api/jobs/${(await api.call('POST', `/api/snapshots/application/${database.id}/`, { name: 'Bench' })).id}/`));
    if (taken.result.state !== 'finished') throw new Error(`the snapshot ended ${taken.result.state}: ${taken.result.human_readable_error}`);
    const snapshots = join(server.dataDir, 'media', 'snapshots');
    const documentBytes = readdirSync(snapshots).reduce((sum, name) => sum + statSync(join(snapshots, name)).size, 0);

    log('restore');
    const before = new Set((await api.call('GET', '/api/applications/')).map((app: { id: number }) => app.id));
    const restored = await measured(server.pid, async () => ended(api, `/api/jobs/${(await api.call('POST', `/api/snapshots/${taken.result.snapshot.id}/restore/`)).id}/`));
    if (restored.result.state !== 'finished') throw new Error(`the restore ended ${restored.result.state}: ${restored.result.human_readable_error}`);
    const copy = (await api.call('GET', '/api/applications/')).find((app: { id: number }) => !before.has(app.id));
    const copyTable = copy.tables.find((t: { name: string }) => t.name === 'Large');
    const tail = await api.call('GET', `/api/database/rows/table/${copyTable.id}/?user_field_names=true&size=1&page=${ROWS}`);
    if (tail.count !== ROWS || tail.results[0].Name !== last) throw new Error(`after the restore: ${tail.count} rows, the last named ${tail.results[0]?.Name}`);

    const figures = (m: { seconds: number; peak_rss_growth_mb: number | null; peak_rss_mb: number | null }) => ({
      seconds: round(m.seconds, 3),
      rows_per_s: round(ROWS / m.seconds, 1),
      peak_rss_growth_mb: m.peak_rss_growth_mb,
      peak_rss_mb: m.peak_rss_mb,
    });
    console.log(
      JSON.stringify(
        {
          benchmark: 'snapshots',
          database: postgres ? `postgresql ${postgres.version}` : 'sqlite',
          rows: ROWS,
          table: '1 table, 5 fields (text, long text, boolean, number, email), a grid view with a filter and a sort',
          snapshot: { ...figures(taken), document_mb: round(documentBytes / MB, 2) },
          restore: figures(restored),
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
