/**
 * Workspace export and import benchmark (Baserow's format, src/import-export/), part of
 * `npm run bench`; alone: `ts-node --swc bench/workspace-export.ts`.
 *
 * Through the public API only, on a fresh server (bench/rows.ts's `withRowspace()`): a table of
 * BENCH_ROWS rows (default 100,000; seeded PRNG; text, long text, boolean, number, e-mail, a
 * single select, and a formula) is made by a CSV import (not measured); then
 *  - export: `POST /api/workspaces/{id}/export/async/` of its workspace, timed to the
 *    `export_applications` job's `finished` (polled every 50 ms): rows/s, seconds, zip size;
 *  - import: the zip uploaded to another workspace (`import/upload-file/`) and imported
 *    (`import/async/`), timed from the upload to the `import_applications` job's `finished`.
 * For both, the server's peak resident memory above its level before (sampled from
 * /proc/<pid>/status every 20 ms). The imported table's row count and last row are checked.
 *
 * Environment: DATABASE_URL (PostgreSQL instead of SQLite), BENCH_ROWS (100000). Prints one JSON
 * document on stdout; progress goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { prng } from '../test/support/fuzz';
import { ended, MB, measured } from './measure';
import { Api, ROWS, WORDS, log, machine, round, withRowspace } from './rows';

/** Polls a job until it ends; one that did not finish stops the benchmark. */
async function finished(api: Api, jobId: number): Promise<any> {
  const job = await ended(api, `/api/jobs/${jobId}/`);
  if (job.state !== 'finished') throw new Error(`job ${jobId} ended ${job.state}: ${job.human_readable_error}`);
  return job;
}

function csvFile(): string {
  const random = prng(20261128);
  const lines = ['Name,Notes,Active,Amount,Email,Kind'];
  for (let i = 0; i < ROWS; i++) {
    const amount = (Math.floor(random() * 2_000_000) / 100 - 10_000).toFixed(2);
    lines.push(`${WORDS[Math.floor(random() * WORDS.length)]} ${i},"${WORDS[Math.floor(random() * WORDS.length)]} note ${i}",${random() < 0.5},${amount},user${i}@example.com,${['a', 'b', 'c'][i % 3]}`);
  }
  return lines.join('\r\n') + '\r\n';
}

async function main(): Promise<void> {
  await withRowspace('workspace-export', async (api, postgres, server) => {
    const [workspace] = await api.call('GET', '/api/workspaces/');
    const database = await api.call('POST', `/api/applications/workspace/${workspace.id}/`, { name: 'Bench', type: 'database' });
    const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Large' });
    const rows = (await api.call('GET', `/api/database/rows/table/${table.id}/`)).results.map((row: { id: number }) => row.id);
    await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: rows });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Email', type: 'email' });
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Kind', type: 'single_select', select_options: ['a', 'b', 'c'].map((value) => ({ value, color: 'blue' })) });
    log(`seeding ${ROWS} rows`);
    const form = new FormData();
    form.append('first_row_header', 'true');
    form.append('file', new Blob([csvFile()]), 'rows.csv');
    const seeded = await fetch(new URL(`/api/database/tables/${table.id}/import/async/`, api.base), { method: 'POST', headers: { Authorization: api.jwtAuth }, body: form });
    if (seeded.status !== 200) throw new Error(`seed: ${seeded.status} ${await seeded.text()}`);
    await finished(api, ((await seeded.json()) as { id: number }).id);
    await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Double', type: 'formula', formula: "field('Amount') * 2" });

    log(`exporting the workspace (${ROWS} rows)`);
    const exported = await measured(server.pid, async () => {
      const job = await api.call('POST', `/api/workspaces/${workspace.id}/export/async/`, {});
      return finished(api, job.id);
    });
    const zip = readFileSync(`${server.dataDir}/media/export_files/${String(exported.result.exported_file_name).replace(/^export_/, '')}`);

    const target = await api.call('POST', '/api/workspaces/', { name: 'Imported' });
    log(`importing the ${round(zip.length / MB, 1)} MB export into another workspace`);
    const imported = await measured(server.pid, async () => {
      const upload = new FormData();
      upload.append('file', new Blob([zip]), 'export.zip');
      const res = await fetch(new URL(`/api/workspaces/${target.id}/import/upload-file/`, api.base), { method: 'POST', headers: { Authorization: api.jwtAuth }, body: upload });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
      const job = await api.call('POST', `/api/workspaces/${target.id}/import/async/`, { resource_id: ((await res.json()) as { id: number }).id });
      return finished(api, job.id);
    });
    const copy = imported.result.installed_applications.find((a: { name: string }) => a.name === 'Bench');
    const copyTable = copy.tables.find((x: { name: string }) => x.name === 'Large');
    const last = await api.call('GET', `/api/database/rows/table/${copyTable.id}/?user_field_names=true&size=1&page=${ROWS}`);
    if (last.count !== ROWS || !String(last.results[0].Name).endsWith(` ${ROWS - 1}`) || last.results[0].Double === null) throw new Error(`after the import: ${last.count} rows, the last ${JSON.stringify(last.results[0])}`);

    console.log(
      JSON.stringify(
        {
          benchmark: 'workspace-export',
          database: postgres ? `postgresql ${postgres.version}` : 'sqlite',
          rows: ROWS,
          table: 'text, long text, boolean, number, e-mail, single select, formula',
          export: { rows_per_s: round(ROWS / exported.seconds, 1), seconds: round(exported.seconds, 3), zip_mb: round(zip.length / MB, 2), peak_rss_growth_mb: exported.peak_rss_growth_mb, peak_rss_mb: exported.peak_rss_mb },
          import: { rows_per_s: round(ROWS / imported.seconds, 1), seconds: round(imported.seconds, 3), peak_rss_growth_mb: imported.peak_rss_growth_mb, peak_rss_mb: imported.peak_rss_mb },
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
