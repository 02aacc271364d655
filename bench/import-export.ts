/**
 * Import and export benchmark (the integrator wires it into `npm run bench`; alone:
 * `ts-node --swc bench/import-export.ts`).
 *
 * Through the public API only, on a fresh server (bench/rows.ts's `withRowspace()`):
 *  - import: a CSV file of BENCH_ROWS rows (default 100,000; seeded PRNG) with a header row and
 *    five columns (text, long text, boolean, number with two decimals, e-mail) is uploaded as
 *    multipart to `POST /api/database/tables/{id}/import/async/` of a table with those fields;
 *    timed from sending the upload to the `file_import` job's `finished` (polled every 50 ms):
 *    rows/s, seconds, and the server's peak resident memory above its level before (sampled
 *    from /proc/<pid>/status every 20 ms). The row count and a sample of cells are checked.
 *  - export: `POST /api/database/export/table/{id}/` with `exporter_type: csv` of that table, timed
 *    to the export job's `finished` (polled through `GET /api/database/export/{job_id}/`): rows/s,
 *    seconds, peak resident memory growth, file size; the file must hold a header and every row.
 * The aims are restated in `aims`: import >= 20,000 rows/s on SQLite, export >= 50,000
 * rows/s, resident memory growth under 100 MB for either.
 *
 * Environment: DATABASE_URL (PostgreSQL instead of SQLite), BENCH_ROWS (100000). Prints one JSON
 * document on stdout; progress goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../test/support/fuzz';
import { ended, MB, measured } from './measure';
import { ROWS, WORDS, log, machine, round, withRowspace } from './rows';

/** The CSV to import and what its rows hold (for the checks). */
function csvFile(): { text: string; names: string[] } {
  const random = prng(20261126);
  const names: string[] = [];
  const lines = ['Name,Notes,Active,Amount,Email'];
  for (let i = 0; i < ROWS; i++) {
    const name = `${WORDS[Math.floor(random() * WORDS.length)]} ${i}`;
    names.push(name);
    const notes = `"${WORDS[Math.floor(random() * WORDS.length)]}, ""${i}"""`;
    const amount = (Math.floor(random() * 2_000_000) / 100 - 10_000).toFixed(2);
    lines.push(`${name},${notes},${random() < 0.5 ? 'true' : 'false'},${amount},user${i}@example.com`);
  }
  return { text: lines.join('\r\n') + '\r\n', names };
}

async function main(): Promise<void> {
  await withRowspace('import-export', async (api, postgres, server) => {
    const [database] = (await api.call('GET', '/api/applications/')).filter((app: { type: string }) => app.type === 'database');
    const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Imported' });
    const rows = (await api.call('GET', `/api/database/rows/table/${table.id}/`)).results.map((row: { id: number }) => row.id);
    await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: rows });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Email', type: 'email' });
    const { text, names } = csvFile();
    log(`importing a ${round(Buffer.byteLength(text) / MB, 1)} MB CSV of ${ROWS} rows`);

    const imported = await measured(server.pid, async () => {
      const form = new FormData();
      form.append('first_row_header', 'true');
      form.append('file', new Blob([text]), 'rows.csv');
      const res = await fetch(new URL(`/api/database/tables/${table.id}/import/async/`, api.base), { method: 'POST', headers: { Authorization: api.jwtAuth }, body: form });
      if (res.status !== 200) throw new Error(`import upload: ${res.status} ${await res.text()}`);
      const job = (await res.json()) as { id: number };
      return ended(api, `/api/jobs/${job.id}/`);
    });
    if (imported.result.state !== 'finished') throw new Error(`the import ended ${imported.result.state}: ${imported.result.human_readable_error}`);
    if (Object.keys(imported.result.report.failing_rows).length) throw new Error(`the import reported failing rows: ${JSON.stringify(imported.result.report.failing_rows).slice(0, 300)}`);
    const last = await api.call('GET', `/api/database/rows/table/${table.id}/?user_field_names=true&size=1&page=${ROWS}`);
    if (last.count !== ROWS || last.results[0].Name !== names[ROWS - 1]) throw new Error(`after the import: ${last.count} rows, the last named ${last.results[0]?.Name}`);

    log(`exporting ${ROWS} rows as CSV`);
    const exported = await measured(server.pid, async () => {
      const job = await api.call('POST', `/api/database/export/table/${table.id}/`, { exporter_type: 'csv' });
      return ended(api, `/api/database/export/${job.id}/`);
    });
    if (exported.result.state !== 'finished') throw new Error(`the export ended ${exported.result.state}`);
    const file = readFileSync(join(server.dataDir, 'media', 'export_files', exported.result.exported_file_name));
    const lines = file.toString('utf8').split('\r\n').filter((line) => line !== '');
    if (lines.length !== ROWS + 1) throw new Error(`the export holds ${lines.length} lines for ${ROWS} rows`);

    const importRate = ROWS / imported.seconds;
    const exportRate = ROWS / exported.seconds;
    console.log(
      JSON.stringify(
        {
          benchmark: 'import-export',
          database: postgres ? `postgresql ${postgres.version}` : 'sqlite',
          rows: ROWS,
          import: {
            format: 'csv (multipart upload, header row, 5 columns: text, long text, boolean, number, email)',
            rows_per_s: round(importRate, 1),
            seconds: round(imported.seconds, 3),
            file_mb: round(Buffer.byteLength(text) / MB, 2),
            peak_rss_growth_mb: imported.peak_rss_growth_mb,
            peak_rss_mb: imported.peak_rss_mb,
          },
          export: {
            format: 'csv',
            rows_per_s: round(exportRate, 1),
            seconds: round(exported.seconds, 3),
            file_mb: round(file.length / MB, 2),
            peak_rss_growth_mb: exported.peak_rss_growth_mb,
            peak_rss_mb: exported.peak_rss_mb,
          },
          aims: {
            import_rows_per_s_at_least_20000: importRate >= 20_000,
            export_rows_per_s_at_least_50000: exportRate >= 50_000,
            import_rss_growth_under_100_mb: imported.peak_rss_growth_mb === null ? null : imported.peak_rss_growth_mb < 100,
            export_rss_growth_under_100_mb: exported.peak_rss_growth_mb === null ? null : exported.peak_rss_growth_mb < 100,
          },
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
