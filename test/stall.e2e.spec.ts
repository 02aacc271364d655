import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { freshDatabase, request, signUp, TEST_DB, TestApp, TestDatabase } from './support/app';
import { ServerProcess, startServer } from './support/server';
import { describeWait, ProbeTarget, StallProbe } from './support/stall-probe';
import { inflatingXlsx, longCellCsv, manyRows, wideCsv } from './support/stall-inputs';

/**
 * No request stalls the others (issue 21, "Done when"). The real server runs in a child process
 * (so that the measuring client is not on the server's event loop); for each reproduction of a
 * stall, the offending request(s) run while another user, in another workspace, sends a health
 * check and a small row create in their own table every PROBE_PERIOD_MS. A case fails if one of
 * those waited more than STALL_BOUND_MS (a functional bound with a wide margin, not a benchmark),
 * if one failed, or if the offending request did not end well (the spec's error or done; never
 * a 500) within CASE_BUDGET_MS. The server is started again after a case cut by its budget (or
 * when it does not answer), so that work it may still be stuck on does not spill into the next one.
 */

/**
 * The longest a measured request may wait while an offending request runs. Each reproduction
 * stalled the others for seconds before its fix; fixed, the worst waits are 20-150 ms here, and a
 * loaded CI machine, several times slower at moments, has shown 270 ms (250 ms was the bound).
 */
const STALL_BOUND_MS = 400;
/** How often the measuring client sends its health check and its row create. */
const PROBE_PERIOD_MS = 100;
/** How long one case's offending work may take (requests and jobs) before the case fails. */
const CASE_BUDGET_MS = 20_000;
/** Measuring starts this long before the offending request, to see the server's quiet waits too. */
const PROBE_LEAD_MS = 300;
/** One case: its set-up, its budget, and a restart of the server after it if needed. */
const CASE_TIMEOUT_MS = CASE_BUDGET_MS + 70_000;

// Sizes of the reproductions: seconds of stall on the server as it was, little work once fixed.
const REGEX_A_COUNT = 28;
const XLSX_INFLATED_BYTES = 200 * 1024 * 1024;
const LONG_CELL_BYTES = 2 * 1024 * 1024;
const CSV_COLUMNS = 1_000_000;
const LARGE_TABLE_ROWS = 30_000;
const BULK_ROWS = 50_000;
const PARALLEL_LOOKUPS = 6;
const CONCAT_LEVELS = 5;
const CONCAT_CELL_BYTES = 1024;
const PASSWORD_ROWS = 10;
const SIGN_UPS = 3;
/** A role batch of ROLE_TEAMS × ROLE_TABLES assignments (teams given a role on each table): the most a batch takes. */
const ROLE_TEAMS = 40;
const ROLE_TABLES = 50;

jest.setTimeout(CASE_TIMEOUT_MS);

interface Answer {
  status: number;
  /** The JSON body (or text) when small; large answers are only counted, not parsed on the client's loop. */
  body: any;
  bytes: number;
}

interface Offender {
  token: string;
  workspaceId: number;
  databaseId: number;
}

let db: TestDatabase;
let env: Record<string, string>;
let server: ServerProcess;
let probeTarget: Omit<ProbeTarget, 'url'>;
/** Ends the offending work of the case under way once its budget is spent. */
let caseSignal: AbortSignal = new AbortController().signal;
/** The case under way was cut by its budget: the server may still be busy with it and is started again. */
let cut = false;
const figures: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const asTestApp = (url: string) => ({ url, request: (method: string, path: string, options?: object) => request(url, method, path, options) }) as TestApp;

/** A request of the offending side (or its set-up), ended by the case's budget; small answers parsed. */
async function call(method: string, path: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `JWT ${options.token}`;
  let body: string | FormData | undefined = options.form;
  if (options.json !== undefined) {
    body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(server.url + path, { method, headers, body, signal: caseSignal });
  const bytes = Buffer.from(await res.arrayBuffer());
  let parsed: unknown = null;
  if (bytes.length < 1024 * 1024) {
    const text = bytes.toString();
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed, bytes: bytes.length };
}

/** `call` that must answer 200 (set-up steps). */
async function ok(method: string, path: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<any> {
  const res = await call(method, path, options);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A multipart form with `file` named `fileName` and the given fields. */
function upload(file: Buffer, fileName: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([file]), fileName);
  return form;
}

/** Polls a job until it has ended; answers its body. */
async function endedJob(token: string, jobId: number): Promise<any> {
  const signal = caseSignal;
  for (;;) {
    signal.throwIfAborted();
    const job = await ok('GET', `/api/jobs/${jobId}/`, { token });
    if (!['pending', 'started'].includes(job.state)) return job;
    await sleep(100);
  }
}

/** A job-starting answer: a refusal with the spec's error, or a job that ends (finished, or failed with a readable error). */
async function acceptedOrRefused(res: Answer, token: string): Promise<void> {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body).toMatchObject({ error: expect.any(String) });
    return;
  }
  const job = await endedJob(token, res.body.id);
  expect(['finished', 'failed']).toContain(job.state);
  if (job.state === 'failed') expect(job.human_readable_error).toEqual(expect.any(String));
}

/** A new user (with the example workspace a sign-up makes) who sends the offending requests of one case. */
async function newOffender(): Promise<Offender> {
  const user = await signUp(asTestApp(server.url), 'Offender');
  const [workspace] = await ok('GET', '/api/workspaces/', { token: user.token });
  const apps = await ok('GET', `/api/applications/workspace/${workspace.id}/`, { token: user.token });
  return { token: user.token, workspaceId: workspace.id, databaseId: apps.find((a: { type: string }) => a.type === 'database').id };
}

/** A new table (the example fields Name, Notes, Active and two empty rows); answers its id and fields by name. */
async function newTable(user: Offender, name: string): Promise<{ id: number; fields: Record<string, number> }> {
  const table = await ok('POST', `/api/database/tables/database/${user.databaseId}/`, { token: user.token, json: { name } });
  const fields = await ok('GET', `/api/database/fields/table/${table.id}/`, { token: user.token });
  return { id: table.id, fields: Object.fromEntries(fields.map((f: { name: string; id: number }) => [f.name, f.id])) };
}

/** A table made from `count` rows of data (a finished job, not measured); answers its id. */
async function tableFromRows(user: Offender, name: string, count: number): Promise<number> {
  const started = await ok('POST', `/api/database/tables/database/${user.databaseId}/async/`, { token: user.token, json: { name, data: manyRows(count), first_row_header: true } });
  const job = await endedJob(user.token, started.id);
  if (job.state !== 'finished') throw new Error(`seeding ${name}: ${JSON.stringify(job)}`);
  return job.table_id;
}

const rowCount = async (user: Offender, tableId: number): Promise<number> =>
  (await ok('GET', `/api/database/rows/table/${tableId}/?size=1`, { token: user.token })).count;

/**
 * Runs `offense` while the measuring client measures; fails with the worst wait if one waited
 * more than the bound, if one failed, or if `offense` failed or outlived the case's budget.
 */
async function whileMeasuring(offense: () => Promise<void>): Promise<void> {
  const probe = new StallProbe({ url: server.url, ...probeTarget }, PROBE_PERIOD_MS, CASE_BUDGET_MS + 10_000);
  probe.start();
  await sleep(PROBE_LEAD_MS);
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new Error(`the offending work did not end within ${CASE_BUDGET_MS} ms`)), CASE_BUDGET_MS);
  caseSignal = budget.signal;
  const started = performance.now();
  let failure: Error | null = null;
  try {
    const running = offense();
    running.catch(() => undefined); // its failure is read below; after the budget, nobody waits for it
    await Promise.race([running, new Promise<never>((_, reject) => budget.signal.addEventListener('abort', () => reject(budget.signal.reason)))]);
  } catch (error) {
    failure = error as Error;
  }
  cut = budget.signal.aborted;
  const took = Math.round(performance.now() - started);
  clearTimeout(timer);
  caseSignal = new AbortController().signal;
  const report = probe.stop();
  const summary = `worst wait of ${report.waits.length} measured: ${describeWait(report.worst)}; the offending work took ${took} ms`;
  figures.push(`${expect.getState().currentTestName}: ${summary}${failure ? `; FAILED: ${failure.message.split('\n')[0]}` : ''}`);
  if (failure) throw new Error(`the offending request(s) did not end well (${failure.message}); ${summary}`);
  if (report.failed && report.failed.problem !== 'pending') throw new Error(`a measured request failed: ${describeWait(report.failed)}; ${summary}`);
  if (!report.worst || report.worst.ms > STALL_BOUND_MS) throw new Error(`a measured request waited more than ${STALL_BOUND_MS} ms: ${summary}`);
}

async function start(): Promise<void> {
  server = await startServer(env);
}

beforeAll(async () => {
  db = await freshDatabase();
  env = {
    ...db.env,
    SECRET_KEY: 'test-secret-key-that-is-long-enough',
    PUBLIC_URL: 'http://localhost:8000',
    REDIS_URL: '',
    LOG_LEVEL: 'error',
    // The request limits stay at their defaults: a team's server has them (the measurer sends 20 a second).
  };
  await start();
  const measurer = await signUp(asTestApp(server.url), 'Measurer');
  const apps = await ok('GET', '/api/applications/', { token: measurer.token });
  const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
  const table = await ok('POST', `/api/database/tables/database/${databaseId}/`, { token: measurer.token, json: { name: 'Probe' } });
  const fields = await ok('GET', `/api/database/fields/table/${table.id}/`, { token: measurer.token });
  probeTarget = { token: measurer.token, tableId: table.id, fieldId: fields.find((f: { primary: boolean }) => f.primary).id };
}, 120_000);

/** Whether the server answers its health check within a second (it is not stuck on a case's work). */
const answering = (): Promise<boolean> =>
  fetch(`${server.url}/api/_health/`, { signal: AbortSignal.timeout(1000) }).then(
    (res) => res.status === 200,
    () => false,
  );

afterEach(async () => {
  const stuck = cut || !(await answering());
  cut = false;
  if (!stuck) return;
  // The server may still be busy with the work of a case cut by its budget: a new process on the same database.
  server.child.kill('SIGKILL');
  await server.exited;
  await start();
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await db?.drop();
  if (figures.length) console.log(`stall suite on ${TEST_DB} (bound ${STALL_BOUND_MS} ms, every ${PROBE_PERIOD_MS} ms):\n${figures.join('\n')}`);
});

describe(`no request stalls the others (${TEST_DB})`, () => {
  test(`1. regex_replace '(a+)+$' on ${REGEX_A_COUNT} a's and a b: creating the formula field, then a PATCH of the row`, async () => {
    const user = await newOffender();
    const table = await newTable(user, 'Regex');
    const row = await ok('POST', `/api/database/rows/table/${table.id}/`, { token: user.token, json: { [`field_${table.fields.Name}`]: `${'a'.repeat(REGEX_A_COUNT)}b` } });
    await whileMeasuring(async () => {
      const formula = "regex_replace(field('Name'), '(a+)+$', 'x')";
      const field = await call('POST', `/api/database/fields/table/${table.id}/`, { token: user.token, json: { name: 'rx', type: 'formula', formula } });
      expect(field.status).toBe(200);
      const patched = await call('PATCH', `/api/database/rows/table/${table.id}/${row.id}/`, { token: user.token, json: { [`field_${table.fields.Name}`]: `${'a'.repeat(REGEX_A_COUNT)}c` } });
      expect(patched.status).toBe(200);
    });
  });

  test(`2. import of an .xlsx whose sheet inflates to ${XLSX_INFLATED_BYTES >> 20} MB`, async () => {
    const user = await newOffender();
    const file = await inflatingXlsx(XLSX_INFLATED_BYTES);
    expect(file.length).toBeLessThan(2 * 1024 * 1024);
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/database/tables/database/${user.databaseId}/async/`, { token: user.token, form: upload(file, 'inflating.xlsx', { name: 'Inflating' }) });
      await acceptedOrRefused(res, user.token);
    });
  });

  test(`2b. a CSV with one ${LONG_CELL_BYTES >> 20} MB cell, imported as a new table and into an existing one`, async () => {
    const user = await newOffender();
    const target = await newTable(user, 'Target');
    const csv = longCellCsv(LONG_CELL_BYTES);
    await whileMeasuring(async () => {
      const created = await call('POST', `/api/database/tables/database/${user.databaseId}/async/`, { token: user.token, form: upload(csv, 'long.csv', { name: 'Long cell' }) });
      await acceptedOrRefused(created, user.token);
      const appended = await call('POST', `/api/database/tables/${target.id}/import/async/`, { token: user.token, form: upload(csv, 'long.csv') });
      await acceptedOrRefused(appended, user.token);
    });
  });

  test(`2c. a CSV line of ${CSV_COLUMNS} columns`, async () => {
    const user = await newOffender();
    const csv = wideCsv(CSV_COLUMNS);
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/database/tables/database/${user.databaseId}/async/`, { token: user.token, form: upload(csv, 'wide.csv', { name: 'Wide' }) });
      await acceptedOrRefused(res, user.token);
    });
  });

  test(`3. duplicating a database holding a ${LARGE_TABLE_ROWS}-row table`, async () => {
    const user = await newOffender();
    await tableFromRows(user, 'Large', LARGE_TABLE_ROWS);
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/applications/${user.databaseId}/duplicate/async/`, { token: user.token });
      expect(res.status).toBe(202);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
    });
  });

  test(`3d. a snapshot of a database holding a ${LARGE_TABLE_ROWS}-row table`, async () => {
    const user = await newOffender();
    await tableFromRows(user, 'Large', LARGE_TABLE_ROWS);
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/snapshots/application/${user.databaseId}/`, { token: user.token, json: { name: 'Stall' } });
      expect(res.status).toBe(202);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
    });
  });

  test(`3e. restoring a snapshot of a database holding a ${LARGE_TABLE_ROWS}-row table`, async () => {
    const user = await newOffender();
    const tableId = await tableFromRows(user, 'Large', LARGE_TABLE_ROWS);
    const taken = await endedJob(user.token, (await call('POST', `/api/snapshots/application/${user.databaseId}/`, { token: user.token, json: { name: 'Stall' } })).body.id);
    expect(taken.state).toBe('finished');
    const before = await ok('GET', `/api/applications/workspace/${user.workspaceId}/`, { token: user.token });
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/snapshots/${taken.snapshot.id}/restore/`, { token: user.token });
      expect(res.status).toBe(200);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
    });
    const after = await ok('GET', `/api/applications/workspace/${user.workspaceId}/`, { token: user.token });
    const restored = after.find((a: { id: number }) => !before.some((b: { id: number }) => b.id === a.id));
    const table = restored.tables.find((t: { name: string }) => t.name === 'Large');
    expect(table.id).not.toBe(tableId);
    expect(await rowCount(user, table.id)).toBe(LARGE_TABLE_ROWS);
  });

  test(`3f. exporting a workspace holding a ${LARGE_TABLE_ROWS}-row table, then importing that export`, async () => {
    const user = await newOffender();
    await tableFromRows(user, 'Large', LARGE_TABLE_ROWS);
    let zip = Buffer.alloc(0);
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/workspaces/${user.workspaceId}/export/async/`, { token: user.token, json: {} });
      expect(res.status).toBe(202);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
      zip = Buffer.from(await (await fetch(String(job.url).replace(/^http:\/\/localhost:8000/, server.url), { signal: caseSignal })).arrayBuffer());
    });
    const target = (await ok('POST', '/api/workspaces/', { token: user.token, json: { name: 'Imported' } })).id;
    await whileMeasuring(async () => {
      const resource = await ok('POST', `/api/workspaces/${target}/import/upload-file/`, { token: user.token, form: upload(zip, 'export.zip') });
      const res = await call('POST', `/api/workspaces/${target}/import/async/`, { token: user.token, json: { resource_id: resource.id } });
      expect(res.status).toBe(202);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
    });
    const imported = (await ok('GET', `/api/applications/workspace/${target}/`, { token: user.token }))[0];
    expect(await rowCount(user, imported.tables.find((x: { name: string }) => x.name === 'Large').id)).toBe(LARGE_TABLE_ROWS);
  });

  test(`3b. creating a table from ${BULK_ROWS} rows of data`, async () => {
    const user = await newOffender();
    const body = JSON.stringify({ name: 'Bulk', data: manyRows(BULK_ROWS), first_row_header: true });
    let tableId = 0;
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/database/tables/database/${user.databaseId}/async/`, { token: user.token, json: body });
      expect(res.status).toBe(200);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
      tableId = job.table_id;
    });
    expect(await rowCount(user, tableId)).toBe(BULK_ROWS);
  });

  test(`3c. appending ${BULK_ROWS} rows to a table (import into an existing table)`, async () => {
    const user = await newOffender();
    const table = await newTable(user, 'Appended');
    const before = await rowCount(user, table.id);
    const body = JSON.stringify({ data: manyRows(BULK_ROWS).slice(1).map(([name, , note]) => [name, note]) });
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/database/tables/${table.id}/import/async/`, { token: user.token, json: body });
      expect(res.status).toBe(200);
      const job = await endedJob(user.token, res.body.id);
      expect(job.state).toBe('finished');
    });
    expect(await rowCount(user, table.id)).toBe(before + BULK_ROWS);
  });

  test(`4. ${PARALLEL_LOOKUPS} anonymous link-row-field-lookups at once on a ${LARGE_TABLE_ROWS}-row public view`, async () => {
    const user = await newOffender();
    const large = await tableFromRows(user, 'Shared', LARGE_TABLE_ROWS);
    const targets = await newTable(user, 'Targets');
    const [target] = (await ok('GET', `/api/database/rows/table/${targets.id}/`, { token: user.token })).results;
    const link = await ok('POST', `/api/database/fields/table/${large}/`, { token: user.token, json: { name: 'Link', type: 'link_row', link_row_table_id: targets.id } });
    const [first] = (await ok('GET', `/api/database/rows/table/${large}/?size=1`, { token: user.token })).results;
    await ok('PATCH', `/api/database/rows/table/${large}/${first.id}/`, { token: user.token, json: { [`field_${link.id}`]: [target.id] } });
    const [view] = await ok('GET', `/api/database/views/table/${large}/`, { token: user.token });
    const shared = await ok('PATCH', `/api/database/views/${view.id}/`, { token: user.token, json: { public: true } });
    await whileMeasuring(async () => {
      const lookups = await Promise.all(Array.from({ length: PARALLEL_LOOKUPS }, () => call('GET', `/api/database/views/${shared.slug}/link-row-field-lookup/${link.id}/`)));
      for (const res of lookups) expect([res.status, res.body?.count]).toEqual([200, 1]);
    });
  });

  test(`5. ${CONCAT_LEVELS} chained concat formulas, ×10 each, from a ${CONCAT_CELL_BYTES}-byte cell, then the table's listing`, async () => {
    const user = await newOffender();
    const table = await newTable(user, 'Concat');
    const [row] = (await ok('GET', `/api/database/rows/table/${table.id}/`, { token: user.token })).results;
    await ok('PATCH', `/api/database/rows/table/${table.id}/${row.id}/`, { token: user.token, json: { [`field_${table.fields.Name}`]: 'x'.repeat(CONCAT_CELL_BYTES) } });
    await whileMeasuring(async () => {
      for (let level = 1; level <= CONCAT_LEVELS; level++) {
        const previous = level === 1 ? 'Name' : `L${level - 1}`;
        const formula = `concat(${new Array(10).fill(`field('${previous}')`).join(', ')})`;
        const field = await call('POST', `/api/database/fields/table/${table.id}/`, { token: user.token, json: { name: `L${level}`, type: 'formula', formula } });
        expect(field.status).toBeLessThan(500);
      }
      const listing = await call('GET', `/api/database/rows/table/${table.id}/`, { token: user.token });
      expect(listing.status).toBe(200);
    });
  });

  test(`7. a batch create of ${PASSWORD_ROWS} rows with a password cell`, async () => {
    const user = await newOffender();
    const table = await newTable(user, 'Secrets');
    const password = await ok('POST', `/api/database/fields/table/${table.id}/`, { token: user.token, json: { name: 'Secret', type: 'password' } });
    const items = Array.from({ length: PASSWORD_ROWS }, (_, i) => ({ [`field_${password.id}`]: `correct horse ${i}` }));
    await whileMeasuring(async () => {
      const res = await call('POST', `/api/database/rows/table/${table.id}/batch/`, { token: user.token, json: { items } });
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(PASSWORD_ROWS);
    });
  });

  test(`9. a role batch of ${ROLE_TEAMS * ROLE_TABLES} assignments (${ROLE_TEAMS} teams on ${ROLE_TABLES} tables), then its removal`, async () => {
    const user = await newOffender();
    const tables: number[] = [];
    for (let i = 0; i < ROLE_TABLES; i++) tables.push((await ok('POST', `/api/database/tables/database/${user.databaseId}/`, { token: user.token, json: { name: `T${i}` } })).id);
    const teams: number[] = [];
    for (let i = 0; i < ROLE_TEAMS; i++) teams.push((await ok('POST', `/api/teams/workspace/${user.workspaceId}/`, { token: user.token, json: { name: `Team ${i}`, subjects: [] } })).id);
    const items = (role: string | null) => teams.flatMap((team) => tables.map((table) => ({ subject_type: 'baserow_enterprise.Team', subject_id: team, scope_type: 'database_table', scope_id: table, role })));
    await whileMeasuring(async () => {
      const given = await call('POST', `/api/role/${user.workspaceId}/batch/`, { token: user.token, json: { items: items('VIEWER') } });
      expect(given.status).toBe(200);
      expect(given.bytes).toBeGreaterThan(ROLE_TEAMS * ROLE_TABLES * 50);
      const removed = await call('POST', `/api/role/${user.workspaceId}/batch/`, { token: user.token, json: { items: items(null) } });
      expect(removed.status).toBe(200);
    });
    const left = await ok('GET', `/api/role/${user.workspaceId}/?scope_type=database_table&scope_id=${tables[0]}`, { token: user.token });
    expect(left).toEqual([]);
  });

  test(`8. ${SIGN_UPS} sign-ups with the example workspace, one after another`, async () => {
    await whileMeasuring(async () => {
      for (let i = 0; i < SIGN_UPS; i++) {
        const email = `signup-${randomBytes(4).toString('hex')}@example.com`;
        const res = await call('POST', '/api/user/', { json: { name: 'New', email, password: 'password123', authenticate: true } });
        expect(res.status).toBe(200);
        expect(res.body.access_token).toEqual(expect.any(String));
      }
    });
  });
});
