import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Dialect, SqliteDialect } from '../src/core/database/dialect';
import { DIALECT } from '../src/core/database/tokens';
import { UnitOfWork } from '../src/core/database/unit-of-work';
import type { SqliteReadPool } from '../src/core/database/sqlite-read-pool';
import { RowRepository } from '../src/database/rows/row.repository';
import { JobRepository } from '../src/jobs/job.repository';
import { freshDatabase, SignedUp, signUp, startApp, TEST_DB, TestApp, TestDatabase } from './support/app';
import { endedJob } from './support/fixtures';
import { prng } from './support/fuzz';
import { richDatabase, RichDatabase } from './support/rich-database';

/**
 * Reads off the event loop (SQLite's read workers) and the one SQLite connection taken in
 * turns. On SQLite the app reads with two workers; a second app on the same file reads on its
 * connection, and both must answer every read alike. On both databases: a read after a commit
 * sees it, a long scan does not hold up other requests, a transaction reads its own writes
 * while others read what is committed, and a write outside a transaction is not swallowed by
 * another request's open transaction.
 */
const sqlite = TEST_DB === 'sqlite';
let db: TestDatabase;
let t: TestApp;
/** SQLite only: the same database read on the main connection (no workers). */
let plain: TestApp | null = null;
let owner: SignedUp;
let rich: RichDatabase;

const api = async (method: string, path: string, body?: unknown, app = t): Promise<any> => {
  const res = await app.request(method, path, { token: owner.token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};

const poolOf = (app: TestApp): SqliteReadPool | null => (app.app.get<Dialect>(DIALECT) as SqliteDialect).connection?.pool ?? null;

/** Resolves once `condition` holds, checked every few milliseconds (no time is asserted). */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 5000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`Waited in vain for ${what}.`);
}

/** A gate a transaction waits at, and a signal that it got there. */
function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  return { open, opened, reached, arrived };
}

beforeAll(async () => {
  db = await freshDatabase();
  t = await startApp({ SQLITE_READ_WORKERS: '2' }, db);
  if (sqlite) plain = await startApp({ SQLITE_READ_WORKERS: '0' }, db);
  await poolOf(t)?.start();
  owner = await signUp(t, 'Reader');
  rich = await richDatabase(t, owner);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await plain?.close();
  await db?.drop();
});

(sqlite ? describe : describe.skip)('the read workers answer as the main connection does', () => {
  const paths: string[] = [];

  beforeAll(async () => {
    const tasks = rich.tasks;
    const add = async (body: Record<string, unknown>) => (await api('POST', `/api/database/fields/table/${tasks}/`, body)).id as number;
    await add({ name: 'Code', type: 'text' });
    await add({ name: 'Notes', type: 'long_text' });
    await add({ name: 'Site', type: 'url' });
    await add({ name: 'Mail', type: 'email' });
    await add({ name: 'Phone', type: 'phone_number' });
    await add({ name: 'Stars', type: 'rating', max_value: 5 });
    await add({ name: 'Spent', type: 'duration', duration_format: 'h:mm:ss' });
    await add({ name: 'Start', type: 'date', date_include_time: true, date_format: 'ISO', date_time_format: '24' });
    await add({ name: 'Delta', type: 'number', number_decimal_places: 3, number_negative: true });
    await add({ name: 'Key', type: 'uuid' });
    await add({ name: 'No', type: 'autonumber' });
    await add({ name: 'Created', type: 'created_on' });
    await add({ name: 'Modified', type: 'last_modified' });
    await add({ name: 'Author', type: 'created_by' });
    await add({ name: 'Editor', type: 'last_modified_by' });
    await add({ name: 'People', type: 'multiple_collaborators' });
    await add({ name: 'Secret', type: 'password' });
    const random = prng(7);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const words = ['alpha', 'Beta', 'gamma delta', 'Ünïcödé', 'emoji 🎉', '', '100', 'a_b%c', "it's"];
    const items = Array.from({ length: 40 }, (_, i) => ({
      Name: `${pick(words)} ${i}`,
      Code: random() < 0.2 ? null : pick(words),
      Notes: random() < 0.2 ? null : `${pick(words)}\n${pick(words)}`,
      Site: pick(['https://example.com/a', 'http://x.org', null]),
      Mail: pick(['a@example.com', 'B@Example.org', null]),
      Phone: pick(['+1 555 0100', '0123', null]),
      Stars: Math.floor(random() * 6),
      Spent: pick([null, 0, 59, 3600, 86399.5, 123456]),
      Start: pick([null, '2024-02-29T13:45:00Z', '1999-12-31T23:59:59Z', '2026-06-01T00:00:00Z']),
      Delta: pick([null, '-1.5', '0', '3.141', '-1000.001', '42']),
      Hours: pick([null, '0.5', '7', '12.5', '3']),
      'Done?': random() < 0.5,
      Due: pick([null, '2026-01-10', '2025-12-31', '2024-02-29']),
      Status: pick([null, rich.options.Todo, rich.options.Doing, rich.options.Done]),
      Tags: pick([[], [rich.options.ui], [rich.options.api, rich.options.ui]]),
      People: pick([[], [{ id: owner.id }]]),
      Secret: pick([null, 'hunter2']),
    }));
    await api('POST', `/api/database/rows/table/${tasks}/batch/?user_field_names=true`, { items });
    // Some rows changed after, by a name of their own.
    const some = (await api('GET', `/api/database/rows/table/${tasks}/?size=5`)).results.map((row: { id: number }) => ({ id: row.id, Code: 'changed' }));
    await api('PATCH', `/api/database/rows/table/${tasks}/batch/?user_field_names=true`, { items: some });

    const fields: { id: number; type: string }[] = await api('GET', `/api/database/fields/table/${tasks}/`);
    const rowsPath = `/api/database/rows/table/${tasks}/`;
    paths.push(`${rowsPath}?size=200`, `${rowsPath}?size=200&user_field_names=true`, `${rowsPath}?size=7&page=3`);
    for (const field of fields) {
      paths.push(`${rowsPath}?size=200&order_by=field_${field.id}`, `${rowsPath}?size=200&order_by=-field_${field.id},id`);
      paths.push(`${rowsPath}?size=200&filter__field_${field.id}__empty=`, `${rowsPath}?size=200&filter__field_${field.id}__not_empty=`);
      if (['text', 'long_text', 'url', 'email', 'phone_number', 'single_select', 'multiple_select', 'link_row', 'formula', 'lookup'].includes(field.type)) paths.push(`${rowsPath}?size=200&filter__field_${field.id}__contains=a`);
    }
    for (const search of ['a', 'Ünï', '100', 'changed', '2026', 'a_b%c', 'zzz']) {
      paths.push(`${rowsPath}?size=200&search=${encodeURIComponent(search)}`, `${rowsPath}?size=200&search=${encodeURIComponent(search)}&search_mode=compat`);
    }
    const hours = fields.find((f) => f.id === rich.fields.Hours.id)!.id;
    const filters = { filter_type: 'OR', filters: [{ field: hours, type: 'higher_than', value: '5' }], groups: [{ filter_type: 'AND', filters: [{ field: rich.fields.Due.id, type: 'date_is_before', value: 'UTC?2026-01-01?exact_date' }, { field: hours, type: 'not_empty', value: '' }] }] };
    paths.push(`${rowsPath}?size=200&filters=${encodeURIComponent(JSON.stringify(filters))}&order_by=-field_${hours}`);
    paths.push(`${rowsPath}?size=200&view_id=${rich.gridId}`, `/api/database/rows/table/${rich.projects}/?size=200`);
    const ids: number[] = (await api('GET', `${rowsPath}?size=200`)).results.map((row: { id: number }) => row.id);
    paths.push(`/api/database/rows/names/?table__${tasks}=${ids.slice(0, 10).join(',')}`);
    for (const id of ids.slice(0, 8)) {
      paths.push(`${rowsPath}${id}/adjacent/`, `${rowsPath}${id}/adjacent/?previous=true&view_id=${rich.gridId}`, `${rowsPath}${id}/adjacent/?search=a`);
    }
    // The views: a grid with filters, sorts and a group-by, a kanban, a gallery, and the grid made public.
    paths.push(`/api/database/views/grid/${rich.gridId}/?include=field_options,row_metadata`, `/api/database/views/grid/${rich.gridId}/?search=a`);
    const views: { id: number; type: string }[] = await api('GET', `/api/database/views/table/${tasks}/`);
    paths.push(`/api/database/views/kanban/${views.find((v) => v.type === 'kanban')!.id}/`);
    const gallery = await api('POST', `/api/database/views/table/${tasks}/`, { name: 'Cards', type: 'gallery' });
    paths.push(`/api/database/views/gallery/${gallery.id}/`);
    const grid = await api('PATCH', `/api/database/views/${rich.gridId}/`, { public: true });
    paths.push(`/api/database/views/grid/${grid.slug}/public/rows/?size=200`, `/api/database/views/grid/${grid.slug}/public/rows/?search=a`);
    const kinds = ['empty_count', 'not_empty_count', 'unique_count', 'min', 'max', 'sum', 'median', 'std_dev', 'distribution'];
    for (const field of fields) for (const kind of kinds) paths.push(`/api/database/views/grid/${rich.gridId}/aggregation/${field.id}/?type=${kind}&include=total`);
  }, 120_000);

  test('lists, searches, views, adjacent rows and aggregations of every field type', async () => {
    const pool = poolOf(t)!;
    const before = pool.stats.served;
    // The answer with the app's own address (page links) left out.
    const read = async (app: TestApp, path: string) => {
      const res = await app.request('GET', path, { token: owner.token });
      return { path, status: res.status, body: res.text ? JSON.parse(res.text.replaceAll(app.url, '')) : null };
    };
    for (const path of paths) expect(await read(t, path)).toEqual(await read(plain!, path));
    expect(paths.length).toBeGreaterThan(400);
    // Workers answered reads (those quick the last time run on the connection: see SqliteConnection.read).
    expect(pool.stats.served - before).toBeGreaterThan(0);
  }, 300_000);

  test('exports', async () => {
    const file = async (app: TestApp, body: Record<string, unknown>) => {
      const job = await endedJob(app, owner.token, (await api('POST', `/api/database/export/table/${rich.tasks}/`, body, app)).id);
      expect(job.state).toBe('finished');
      return readFileSync(join(app.config.mediaRoot, 'export_files', job.exported_file_name), 'utf8');
    };
    for (const body of [{ exporter_type: 'csv' }, { exporter_type: 'json', view_id: rich.gridId }]) {
      const pooled = await file(t, body);
      expect(pooled.length).toBeGreaterThan(100);
      expect(pooled).toBe(await file(plain!, body));
    }
  });

  test('a worker reads exactly the bound values the main connection reads', async () => {
    const pool = poolOf(t)!;
    const dataSource = t.app.get(DataSource);
    const sql = 'SELECT ?1 AS "a", ?2 AS "b", ?3 AS "c", ?4 AS "d", typeof(?5) AS "e", ?6 AS "f", 1.5e300 * 1e10 AS "inf", -0.0 AS "neg", x\'0102\' AS "blob", 9007199254740993 AS "big"';
    const params = [{ 1: 'text', 2: 12.25, 3: null, 4: -7, 5: 3, 6: Buffer.from([1, 2, 3]) }];
    expect(await pool.query(sql, params)).toEqual(await dataSource.query(sql, params));
    const [row] = await pool.query(sql, params);
    expect(Buffer.isBuffer(row.blob)).toBe(true);
    expect(row.inf).toBe(Infinity);
    // A statement SQLite refuses fails as the main connection's driver fails it.
    await expect(pool.query('SELECT * FROM "no_such_table"')).rejects.toMatchObject({ message: expect.stringContaining('no such table'), driverError: { code: 'SQLITE_ERROR' } });
  });
});

describe('read-your-writes', () => {
  test('a list right after a write sees it, every time, from whichever connection or worker reads it', async () => {
    const table = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Fresh' })).id;
    const primary = (await api('GET', `/api/database/fields/table/${table}/`)).find((f: { primary: boolean }) => f.primary).id;
    const loop = async (lane: number) => {
      for (let i = 0; i < 25; i++) {
        const name = `lane ${lane} row ${i}`;
        const row = await api('POST', `/api/database/rows/table/${table}/`, { [`field_${primary}`]: name });
        const found = await api('GET', `/api/database/rows/table/${table}/?filter__field_${primary}__equal=${encodeURIComponent(name)}`);
        expect(found.results.map((r: { id: number }) => r.id)).toEqual([row.id]);
        await api('PATCH', `/api/database/rows/table/${table}/${row.id}/`, { [`field_${primary}`]: `${name} changed` });
        const changed = await api('GET', `/api/database/rows/table/${table}/?search=${encodeURIComponent(`${name} changed`)}`);
        expect(changed.count).toBe(1);
      }
    };
    await Promise.all([1, 2, 3, 4].map(loop));
    expect((await api('GET', `/api/database/rows/table/${table}/?size=1`)).count).toBe(4 * 25 + 2);
  }, 120_000);

  (sqlite ? test : test.skip)('a worker sees every commit at once (no snapshot is kept between reads)', async () => {
    const pool = poolOf(t)!;
    const rows = t.app.get(RowRepository);
    const uow = t.app.get(UnitOfWork);
    const table = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Counted' })).id;
    const count = async () => Number((await pool.query(`SELECT COUNT(*) AS "n" FROM "database_table_${table}"`))[0].n);
    const start = await count();
    for (let i = 1; i <= 100; i++) {
      await uow.run(() => rows.insert(table, [{ values: {}, order: BigInt(i) * 10n ** 20n }], [], null));
      // Both workers, one after the other and together.
      expect(await Promise.all([count(), count()])).toEqual([start + i, start + i]);
    }
  }, 60_000);
});

describe('a long scan does not hold up other requests', () => {
  let big: number;
  let bigView: number;
  let small: number;

  beforeAll(async () => {
    big = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Big' })).id;
    const fields = await api('GET', `/api/database/fields/table/${big}/`);
    for (const field of fields.filter((f: { primary: boolean }) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    const primary = fields.find((f: { primary: boolean }) => f.primary).id;
    const notes = (await api('POST', `/api/database/fields/table/${big}/`, { name: 'Notes', type: 'long_text' })).id;
    const amount = (await api('POST', `/api/database/fields/table/${big}/`, { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true })).id;
    const existing = (await api('GET', `/api/database/rows/table/${big}/`)).results.map((r: { id: number }) => r.id);
    if (existing.length) await api('POST', `/api/database/rows/table/${big}/batch-delete/`, { items: existing });
    const items = Array.from({ length: 200 }, (_, i) => ({ [`field_${primary}`]: `row ${i}`, [`field_${notes}`]: `note number ${i} with some words to scan`, [`field_${amount}`]: String((i % 50) - 25) }));
    await api('POST', `/api/database/rows/table/${big}/batch/`, { items });
    // 200 rows doubled ten times: 204,800 rows, written straight into the table.
    const columns = ['order', 'created_on', 'updated_on', `field_${primary}`, `field_${notes}`, `field_${amount}`].map((c) => `"${c}"`).join(', ');
    const dataSource = t.app.get(DataSource);
    for (let i = 0; i < 10; i++) await dataSource.query(`INSERT INTO "database_table_${big}" (${columns}) SELECT ${columns} FROM "database_table_${big}"`);
    // A grid view aggregating every field: each aggregation is one more scan of the filtered rows.
    bigView = (await api('POST', `/api/database/views/table/${big}/`, { name: 'Sums', type: 'grid' })).id;
    await api('POST', `/api/database/views/${bigView}/filters/`, { field: notes, type: 'contains', value: 'words' });
    const options = Object.fromEntries([primary, notes, amount].map((id) => [id, { aggregation_raw_type: id === amount ? 'sum' : 'unique_count', aggregation_type: id === amount ? 'sum' : 'unique_count' }]));
    await api('PATCH', `/api/database/views/${bigView}/field-options/`, { field_options: options });
    small = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Small' })).id;
  }, 120_000);

  /** Whether a scan of the big table is running: on a worker (SQLite), in a PostgreSQL backend. */
  const scanning = async (): Promise<boolean> => {
    if (sqlite) return poolOf(t)!.stats.busy > 0;
    const [row] = await t.app.get(DataSource).query(`SELECT COUNT(*) AS "n" FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND query NOT LIKE '%pg_stat_activity%'`, [`%database_table_${big}%`]);
    return Number(row.n) > 0;
  };

  test('while a slow list and aggregations scan the big table, a small list, a write and a socket-free request are answered', async () => {
    let slowDone = false;
    const slow = Promise.all([
      t.request('GET', `/api/database/views/grid/${bigView}/aggregations/?include=total`, { token: owner.token }),
      t.request('GET', `/api/database/rows/table/${big}/?filter__field_${(await api('GET', `/api/database/fields/table/${big}/`))[1].id}__contains=number 19&order_by=-field_${(await api('GET', `/api/database/fields/table/${big}/`))[2].id}`, { token: owner.token }),
    ]).then((answers) => {
      slowDone = true;
      return answers;
    });
    await until(scanning, 'the scan to start');
    const fast = await t.request('GET', `/api/database/rows/table/${small}/?search=a`, { token: owner.token });
    const written = await t.request('POST', `/api/database/rows/table/${small}/`, { token: owner.token, body: {} });
    const settings = await t.request('GET', '/api/settings/');
    expect([fast.status, written.status, settings.status]).toEqual([200, 200, 200]);
    expect(slowDone).toBe(false);
    const [aggregations, list] = await slow;
    expect(aggregations.status).toBe(200);
    expect(aggregations.body.total).toBe(204_800);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(11 * 1024);
  }, 120_000);
});

describe('transactions and reads', () => {
  test('a transaction reads its own writes; other requests read what is committed, until it commits', async () => {
    const uow = t.app.get(UnitOfWork);
    const rows = t.app.get(RowRepository);
    const dialect = t.app.get<Dialect>(DIALECT);
    const table = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Pending' })).id;
    const primary = (await api('GET', `/api/database/fields/table/${table}/`)).find((f: { primary: boolean }) => f.primary).id;
    const countOf = async (value: string) => Number((await rows.read(`SELECT COUNT(*) AS "n" FROM "database_table_${table}" WHERE "field_${primary}" = ${dialect.placeholder(1)}`, [value]))[0].n);
    const { open, opened, reached, arrived } = gate();
    let insideSaw = -1;
    const transaction = uow
      .run(async () => {
        await rows.insert(table, [{ values: { [`field_${primary}`]: 'in the transaction' }, order: 10n ** 22n }], [`field_${primary}`], owner.id);
        await uow.manager.query(`UPDATE "database_table" SET "name" = ${dialect.placeholder(1)} WHERE "id" = ${dialect.placeholder(2)}`, ['Renamed', table]);
        insideSaw = await countOf('in the transaction');
        reached();
        await opened;
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await arrived;
    expect(insideSaw).toBe(1);
    // Outside: neither the row nor the new name, through the API and through a read.
    expect(await countOf('in the transaction')).toBe(0);
    expect((await api('GET', `/api/database/rows/table/${table}/?search=${encodeURIComponent('in the transaction')}`)).count).toBe(0);
    expect((await api('GET', `/api/database/tables/${table}/`)).name).toBe('Pending');
    open();
    expect(await transaction).toBe('rolled back');
    expect(await countOf('in the transaction')).toBe(0);

    // Committed, it is seen at once.
    await uow.run(() => rows.insert(table, [{ values: { [`field_${primary}`]: 'committed' }, order: 10n ** 22n }], [`field_${primary}`], owner.id));
    expect(await countOf('committed')).toBe(1);
  });

  test('a write outside a transaction is not rolled back with another request’s transaction', async () => {
    const uow = t.app.get(UnitOfWork);
    const rows = t.app.get(RowRepository);
    const jobs = t.app.get(JobRepository);
    const table = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Shared' })).id;
    const rowIds = async () => (await api('GET', `/api/database/rows/table/${table}/`)).results.map((r: { id: number }) => r.id);
    const existing = await rowIds();
    const job = await jobs.create({ userId: owner.id, type: 'probe', state: 'started', progressPercentage: 0, humanReadableError: '', data: {} });
    const { open, opened, reached, arrived } = gate();
    let progress: Promise<unknown> | null = null;
    const transaction = uow
      .run(async () => {
        await rows.insert(table, [{ values: {}, order: 10n ** 22n }], [], owner.id);
        // Work the transaction does not wait for, written apart from it (as a job's progress).
        progress = uow.outside(() => jobs.update(job.id, { progressPercentage: 42 }));
        reached();
        await opened;
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await arrived;
    // Meanwhile, other requests write outside any unit of work: a save() (its own transaction) and an update.
    const saved = jobs.create({ userId: owner.id, type: 'probe', state: 'finished', progressPercentage: 100, humanReadableError: '', data: { saved: true } });
    const updated = jobs.update(job.id, { data: { updated: true } });
    const created = t.request('POST', `/api/database/rows/table/${table}/`, { token: owner.token, body: {} });
    open();
    expect(await transaction).toBe('rolled back');
    const [savedJob, , createdRow] = await Promise.all([saved, updated, created, progress]);
    expect(createdRow.status).toBe(200);
    expect(await jobs.find(savedJob.id)).toMatchObject({ data: { saved: true } });
    expect(await jobs.find(job.id)).toMatchObject({ progressPercentage: 42, data: { updated: true } });
    expect(await rowIds()).toEqual([...existing, createdRow.body.id]);
  });

  test('an import shows its progress while it writes in chunks; a cancel stops it and takes back the rows it wrote', async () => {
    const table = (await api('POST', `/api/database/tables/database/${rich.databaseId}/`, { name: 'Imported' })).id;
    const before = (await api('GET', `/api/database/rows/table/${table}/?size=1`)).count;
    const data = Array.from({ length: 60_000 }, (_, i) => [`row ${i}`, 'note', 'true']);
    const job = await api('POST', `/api/database/tables/${table}/import/async/`, { data });
    let seen: any = null;
    await until(async () => {
      seen = await api('GET', `/api/jobs/${job.id}/`);
      if (seen.state !== 'started' && seen.state !== 'pending') throw new Error(`The import ended (${seen.state}) before it was seen running.`);
      return seen.progress_percentage > 0;
    }, 'the import to report progress');
    expect(seen.progress_percentage).toBeLessThan(100);
    // Each chunk commits on its own (other writes take turns in between): what is written so far is listed.
    expect((await api('GET', `/api/database/rows/table/${table}/?size=1`)).count).toBeGreaterThan(before);
    expect((await api('POST', `/api/jobs/${job.id}/cancel/`)).state).toBe('cancelled');
    expect((await api('GET', `/api/jobs/${job.id}/`)).state).toBe('cancelled');
    expect((await endedJob(t, owner.token, job.id)).state).toBe('cancelled');
    // The cancelled job deletes the rows it appended.
    await until(async () => (await api('GET', `/api/database/rows/table/${table}/?size=1`)).count === before, 'the appended rows to be taken back');
    // Stored as cancelled once the transaction has rolled back (another instance reads the database).
    await until(async () => (await t.app.get(DataSource).query(`SELECT "state" FROM "job" WHERE "id" = ${t.app.get<Dialect>(DIALECT).placeholder(1)}`, [job.id]))[0].state === 'cancelled', 'the cancel to be stored');
  }, 120_000);
});
