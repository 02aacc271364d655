import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { UnusedUserFilesService } from '../src/database/files/unused-user-files.service';
import { RowHistoryService } from '../src/database/row-history/row-history.service';
import { SnapshotCleanup } from '../src/snapshots/snapshot-cleanup';
import { SnapshotStore } from '../src/snapshots/snapshot-store';
import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { addMember, endedJob } from './support/fixtures';
import { download } from './support/files';
import { comparableRows, richDatabase, RichDatabase } from './support/rich-database';
import { connect, expectNone } from './support/ws';

let t: TestApp;
let ada: SignedUp;
let bob: SignedUp;
let eve: SignedUp;
let db: RichDatabase;

const api = (method: string, path: string, body?: unknown, token = ada.token, headers?: Record<string, string>) => t.request(method, path, { token, body, headers });
const byName = (list: any[], name: string) => list.find((x) => x.name === name);
const snapshotFiles = () => {
  const dir = join(t.config.mediaRoot, 'snapshots');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const appsOf = async (workspaceId: number, token = ada.token) => (await api('GET', `/api/applications/workspace/${workspaceId}/`, undefined, token)).body;

/** Takes a snapshot and waits for it: answers the finished job. */
async function snapshot(applicationId: number, name: string, token = ada.token): Promise<any> {
  const res = await api('POST', `/api/snapshots/application/${applicationId}/`, { name }, token);
  if (res.status !== 202) throw new Error(`snapshot: ${res.status} ${res.text}`);
  return endedJob(t, token, res.body.id);
}

/** Restores a snapshot and waits: answers the ended job and the applications created meanwhile. */
async function restore(snapshotId: number, workspaceId: number, token = ada.token): Promise<{ job: any; created: any[] }> {
  const before = new Set((await appsOf(workspaceId, token)).map((a: any) => a.id));
  const res = await api('POST', `/api/snapshots/${snapshotId}/restore/`, undefined, token);
  if (res.status !== 200) throw new Error(`restore: ${res.status} ${res.text}`);
  const job = await endedJob(t, token, res.body.id);
  return { job, created: (await appsOf(workspaceId, token)).filter((a: any) => !before.has(a.id)) };
}

/** Every application row, hidden ones included (a failed restore must leave none). */
const applicationCount = async () => Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS "n" FROM "application"'))[0].n);

beforeAll(async () => {
  // Chunks of two rows: a restore of the rich database reads its rows from the snapshot's file in
  // many batches and passes (the long-write path); an application of two rows is restored in one
  // transaction (the short path).
  t = await startApp({ LONG_WRITE_CHUNK_ROWS: '2' });
  ada = await signUp(t, 'Ada');
  bob = await signUp(t, 'Bob');
  eve = await signUp(t, 'Eve');
  db = await richDatabase(t, ada);
  await addMember(t, ada, bob, db.workspaceId);
});
afterAll(async () => t?.close());

describe(`snapshots (${TEST_DB})`, () => {
  let taken: any;
  let restored: any;
  let originalRows: Record<string, any[]>;
  let originalFile: any;

  beforeAll(async () => {
    originalRows = { Projects: await comparableRows(t, ada.token, db.projects), Tasks: await comparableRows(t, ada.token, db.tasks) };
    const res = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Before cleanup' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: res.body.id,
      type: 'create_snapshot',
      progress_percentage: 0,
      state: 'pending',
      human_readable_error: '',
      snapshot: { id: expect.any(Number), name: 'Before cleanup', snapshot_from_application: db.databaseId, created_at: expect.any(String), created_by: { username: ada.email } },
    });
    const job = await endedJob(t, ada.token, res.body.id);
    expect([job.state, job.progress_percentage, job.human_readable_error]).toEqual(['finished', 100, '']);
    taken = job.snapshot;
    expect(taken).toEqual(res.body.snapshot);
  });

  test('the list shows the snapshot as Baserow serializes it, newest first', async () => {
    const list = await api('GET', `/api/snapshots/application/${db.databaseId}/`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([taken]);
    expect(taken.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    // A member who is not an admin may list (Baserow's core permissions; enterprise roles narrow it).
    expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`, undefined, bob.token)).body).toEqual([taken]);
    // The document is in the file storage, compressed.
    expect(snapshotFiles()).toHaveLength(1);
    expect(snapshotFiles()[0]).toMatch(/^[0-9a-f]{32}\.jsonl\.gz$/);
    // Never served by the media route (it holds the whole database).
    expect((await download(t, `http://localhost:8000/media/snapshots/${snapshotFiles()[0]}`)).status).toBe(404);
  });

  test('the jobs listing shows a snapshot job with its snapshot', async () => {
    const jobs = (await api('GET', '/api/jobs/')).body.jobs;
    expect(jobs.find((j: any) => j.type === 'create_snapshot')).toMatchObject({ state: 'finished', snapshot: { id: taken.id, name: 'Before cleanup' } });
  });

  describe('after the original changed, a restore', () => {
    let job: any;
    beforeAll(async () => {
      // The original changes after the snapshot: a row with the file deleted (trash emptied), a cell, a field, a view filter.
      const tasks = (await api('GET', `/api/database/rows/table/${db.tasks}/?user_field_names=true`)).body.results;
      const design = byName(tasks.map((r: any) => ({ ...r, name: r.Name })), 'Design');
      originalFile = design.Attachments[0];
      await api('DELETE', `/api/database/rows/table/${db.tasks}/${design.id}/`);
      await api('DELETE', `/api/trash/workspace/${db.workspaceId}/?application_id=${db.databaseId}&table_id=${db.tasks}`);
      const build = byName(tasks.map((r: any) => ({ ...r, name: r.Name })), 'Build');
      await api('PATCH', `/api/database/rows/table/${db.tasks}/${build.id}/?user_field_names=true`, { Name: 'Build (changed)' });
      await api('POST', `/api/database/fields/table/${db.projects}/`, { name: 'Added later', type: 'text' });
      // Nothing else names the file now (its row deleted for good, the row history past its
      // retention): the hourly cleanup of unused files would delete it, but the snapshot keeps it.
      const later = new Date(Date.now() + 365 * 86_400_000);
      await t.app.get(RowHistoryService).purgeExpired(later);
      expect(await t.app.get(UnusedUserFilesService).deleteUnused(later)).toEqual([]);

      const adaTab = await connect(t, ada.token);
      const bobTab = await connect(t, bob.token);
      const eveTab = await connect(t, eve.token);
      const before = (await appsOf(db.workspaceId)).map((a: any) => a.id);
      const res = await api('POST', `/api/snapshots/${taken.id}/restore/`, undefined, ada.token, adaTab.origin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: res.body.id, type: 'restore_snapshot', progress_percentage: 0, state: 'pending', human_readable_error: '', snapshot: taken });
      job = await endedJob(t, ada.token, res.body.id);
      const apps = await appsOf(db.workspaceId);
      restored = apps.find((a: any) => !before.includes(a.id));
      // application_created reaches every member, the requesting tab included (Baserow sends it with no user).
      for (const tab of [adaTab, bobTab]) {
        const message = await tab.waitFor('application_created');
        expect(message.application).toMatchObject({ id: restored.id, name: 'Before cleanup', type: 'database' });
      }
      await adaTab.drain();
      await expectNone(eveTab);
      [adaTab, bobTab, eveTab].forEach((c) => c.close());
    });

    test('finishes with a new application named after the snapshot, last in the workspace', async () => {
      expect([job.state, job.progress_percentage, job.human_readable_error]).toEqual(['finished', 100, '']);
      const apps = await appsOf(db.workspaceId);
      expect(apps[apps.length - 1].id).toBe(restored.id);
      expect(restored).toMatchObject({ name: 'Before cleanup', type: 'database', workspace: { id: db.workspaceId } });
      expect(restored.tables.map((x: any) => [x.name, x.order])).toEqual([
        ['Projects', 1],
        ['Tasks', 2],
      ]);
      // The original is unaffected.
      expect(byName(apps, 'Planning').id).toBe(db.databaseId);
    });

    test('rows are those of the snapshot, cell by cell (computed cells computed again)', async () => {
      for (const name of ['Projects', 'Tasks']) {
        const rows = await comparableRows(t, ada.token, byName(restored.tables, name).id);
        // Link cells name rows by id and value: the restored tables keep the row ids.
        expect(rows).toEqual(originalRows[name]);
      }
    });

    test('fields keep their types and properties, links and lookups pointing inside the restored database', async () => {
      const tasks = byName(restored.tables, 'Tasks').id;
      const projects = byName(restored.tables, 'Projects').id;
      const fields = (await api('GET', `/api/database/fields/table/${tasks}/`)).body;
      const shape = (f: any) => [f.name, f.type, f.primary, f.order, f.number_decimal_places ?? null, f.formula ?? null, f.date_format ?? null];
      const originalTasks = (await api('GET', `/api/database/fields/table/${db.tasks}/`)).body;
      expect(fields.map(shape)).toEqual(originalTasks.map(shape));
      expect(byName(fields, 'Project').link_row_table_id).toBe(projects);
      expect(byName(fields, 'Blocked by').link_row_table_id).toBe(tasks);
      const projectFields = (await api('GET', `/api/database/fields/table/${projects}/`)).body;
      expect(projectFields.map((f: any) => f.name)).not.toContain('Added later');
      expect(byName(fields, 'Status').single_select_default).toBe(byName(byName(fields, 'Status').select_options.map((o: any) => ({ ...o, name: o.value })), 'Todo').id);
    });

    test('views keep their settings: filters, filter groups, sorts, group-bys, decorations, field options', async () => {
      const tasks = byName(restored.tables, 'Tasks').id;
      const views = (await api('GET', `/api/database/views/table/${tasks}/?include=filters,sortings,group_bys,decorations`)).body;
      const originals = (await api('GET', `/api/database/views/table/${db.tasks}/?include=filters,sortings,group_bys,decorations`)).body;
      const fieldName = async (tableId: number) => new Map(((await api('GET', `/api/database/fields/table/${tableId}/`)).body as any[]).map((f) => [f.id, f.name]));
      const names = { [tasks]: await fieldName(tasks), [db.tasks]: await fieldName(db.tasks) };
      const shape = (view: any, tableId: number) => {
        const name = (id: number) => names[tableId].get(id);
        return {
          name: view.name,
          type: view.type,
          filter_type: view.filter_type,
          filters: view.filters.map((f: any) => [name(f.field), f.type, f.group === null ? null : 'group']).sort(),
          sortings: view.sortings.map((s: any) => [name(s.field), s.order]),
          group_bys: view.group_bys.map((g: any) => [name(g.field), g.order]),
          decorations: view.decorations.map((d: any) => [d.type, d.value_provider_type, name(d.value_provider_conf.field_id)]),
          single_select_field: view.single_select_field === undefined ? undefined : name(view.single_select_field),
        };
      };
      expect(views.map((v: any) => shape(v, tasks))).toEqual(originals.map((v: any) => shape(v, db.tasks)));
      const grid = byName(views, 'Open work');
      const options = (await api('GET', `/api/database/views/${grid.id}/field-options/`)).body.field_options;
      const hours = byName((await api('GET', `/api/database/fields/table/${tasks}/`)).body, 'Hours').id;
      expect(options[hours]).toMatchObject({ width: 321, hidden: true });
      // The restored grid filters as the original did when the snapshot was taken.
      expect((await api('GET', `/api/database/views/grid/${grid.id}/`)).status).toBe(200);
    });

    test('a file cell still downloads, though its row was deleted from the original and the unused files cleaned up before the restore', async () => {
      const tasks = byName(restored.tables, 'Tasks').id;
      const rows = (await api('GET', `/api/database/rows/table/${tasks}/?user_field_names=true`)).body.results;
      const design = rows.find((r: any) => r.Name === 'Design');
      expect(design.Attachments).toEqual([originalFile]);
      const file = await download(t, design.Attachments[0].url);
      expect(file.status).toBe(200);
      expect(file.body.subarray(1, 4).toString()).toBe('PNG');
      expect((await download(t, design.Attachments[0].thumbnails.small.url)).status).toBe(200);
    });

    test('a second restore is named "<name> 2"', async () => {
      const { job: again, created } = await restore(taken.id, db.workspaceId);
      expect(again.state).toBe('finished');
      expect(created.map((a: any) => a.name)).toEqual(['Before cleanup 2']);
    });
  });

  describe('who may, and bad input', () => {
    test('a non-member is refused every operation; a member who is not an admin may do them all', async () => {
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`, undefined, eve.token)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
      const refused = [
        await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Eve' }, eve.token),
        await api('POST', `/api/snapshots/${taken.id}/restore/`, undefined, eve.token),
        await api('DELETE', `/api/snapshots/${taken.id}/`, undefined, eve.token),
      ];
      expect(refused.map((r) => [r.status, r.body.error])).toEqual(Array(3).fill([400, 'ERROR_USER_NOT_IN_GROUP']));
      const bobs = await snapshot(db.databaseId, 'Bob was here', bob.token);
      expect(bobs.state).toBe('finished');
      expect(bobs.snapshot.created_by).toEqual({ username: bob.email });
      expect((await api('DELETE', `/api/snapshots/${bobs.snapshot.id}/`, undefined, bob.token)).status).toBe(204);
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body.map((s: any) => s.id)).toEqual([taken.id]);
    });

    test('unknown ids answer 404 with the spec codes; a body without a name is a validation error', async () => {
      expect((await api('GET', '/api/snapshots/application/999999/')).body.error).toBe('ERROR_APPLICATION_DOES_NOT_EXIST');
      const create = await api('POST', '/api/snapshots/application/999999/', { name: 'x' });
      expect([create.status, create.body.error]).toEqual([404, 'ERROR_APPLICATION_DOES_NOT_EXIST']);
      for (const [method, path] of [
        ['POST', '/api/snapshots/999999/restore/'],
        ['DELETE', '/api/snapshots/999999/'],
      ]) {
        const res = await api(method, path);
        expect([res.status, res.body.error]).toEqual([404, 'ERROR_SNAPSHOT_DOES_NOT_EXIST']);
      }
      const empty = await api('POST', `/api/snapshots/application/${db.databaseId}/`, {});
      expect([empty.status, empty.body.error, Object.keys(empty.body.detail)]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION', ['name']]);
      const long = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'x'.repeat(161) });
      expect(long.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
      expect((await api('GET', '/api/snapshots/application/abc/')).status).toBe(404);
    });

    test("a name is unique per application and creator; another member's snapshot may share it", async () => {
      const same = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Before cleanup' });
      expect([same.status, same.body.error]).toEqual([400, 'ERROR_SNAPSHOT_NAME_NOT_UNIQUE']);
      const bobs = await snapshot(db.databaseId, 'Before cleanup', bob.token);
      expect(bobs.state).toBe('finished');
      expect((await api('DELETE', `/api/snapshots/${bobs.snapshot.id}/`, undefined, bob.token)).status).toBe(204);
    });

    test('BASEROW_MAX_SNAPSHOTS_PER_GROUP counts the restorable snapshots of the whole workspace', async () => {
      const limits = t.config.snapshots;
      const max = limits.maxPerWorkspace;
      const other = (await api('POST', `/api/applications/workspace/${db.workspaceId}/`, { name: 'Other', type: 'database' })).body;
      try {
        limits.maxPerWorkspace = 2;
        expect((await snapshot(other.id, 'Second')).state).toBe('finished');
        const third = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Third' });
        expect([third.status, third.body.error]).toEqual([400, 'ERROR_MAXIMUM_SNAPSHOTS_REACHED']);
        // Another workspace has its own count.
        const own = (await appsOf((await api('GET', '/api/workspaces/', undefined, eve.token)).body[0].id, eve.token))[0];
        expect((await snapshot(own.id, 'Eve', eve.token)).state).toBe('finished');
        limits.maxPerWorkspace = -1;
        expect((await snapshot(other.id, 'Unlimited')).state).toBe('finished');
      } finally {
        limits.maxPerWorkspace = max;
      }
    });
  });

  describe('deletion, expiry, trash', () => {
    test('a deleted snapshot is gone with its document: listing, restore and a second delete', async () => {
      const job = await snapshot(db.databaseId, 'To delete');
      const files = snapshotFiles().length;
      expect((await api('DELETE', `/api/snapshots/${job.snapshot.id}/`)).status).toBe(204);
      expect(snapshotFiles()).toHaveLength(files - 1);
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body.map((s: any) => s.id)).not.toContain(job.snapshot.id);
      expect((await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`)).body.error).toBe('ERROR_SNAPSHOT_DOES_NOT_EXIST');
      expect((await api('DELETE', `/api/snapshots/${job.snapshot.id}/`)).body.error).toBe('ERROR_SNAPSHOT_DOES_NOT_EXIST');
    });

    test('snapshots older than BASEROW_SNAPSHOT_EXPIRATION_TIME_DAYS are deleted by the cleanup, younger ones stay', async () => {
      const job = await snapshot(db.databaseId, 'Expiring');
      const cleanup = t.app.get(SnapshotCleanup);
      expect(await cleanup.deleteUnusable(new Date(Date.now() + 359 * 86_400_000))).toEqual([]);
      const files = snapshotFiles().length;
      const deleted = await cleanup.deleteUnusable(new Date(Date.now() + 361 * 86_400_000));
      expect(deleted).toContain(job.snapshot.id);
      expect(deleted).toContain(taken.id);
      expect(snapshotFiles()).toHaveLength(files - deleted.length);
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body).toEqual([]);
    });

    test("a trashed application's snapshots wait in the trash with it; deleted for good, they go too", async () => {
      const app = (await api('POST', `/api/applications/workspace/${db.workspaceId}/`, { name: 'Short-lived', type: 'database', init_with_data: true })).body;
      const job = await snapshot(app.id, 'Of short-lived');
      expect((await api('DELETE', `/api/applications/${app.id}/`)).status).toBe(204);
      expect((await api('GET', `/api/snapshots/application/${app.id}/`)).body.error).toBe('ERROR_APPLICATION_DOES_NOT_EXIST');
      // Restored from the trash, the application has its snapshots again.
      const trash = (await api('GET', `/api/trash/workspace/${db.workspaceId}/`)).body;
      expect(trash.results.length).toBeGreaterThan(0);
      expect((await api('PATCH', '/api/trash/restore/', { trash_item_type: 'application', trash_item_id: app.id })).status).toBe(204);
      expect((await api('GET', `/api/snapshots/application/${app.id}/`)).body.map((s: any) => s.id)).toEqual([job.snapshot.id]);
      // Deleted for good: the snapshot cannot be used, and the cleanup deletes it with its document.
      await api('DELETE', `/api/applications/${app.id}/`);
      expect((await api('DELETE', `/api/trash/workspace/${db.workspaceId}/?application_id=${app.id}`)).status).toBe(204);
      expect((await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`)).body.error).toBe('ERROR_SNAPSHOT_DOES_NOT_EXIST');
      const files = snapshotFiles().length;
      expect(await t.app.get(SnapshotCleanup).deleteUnusable()).toEqual([job.snapshot.id]);
      expect(snapshotFiles()).toHaveLength(files - 1);
    });
  });

  describe('jobs and races', () => {
    /** Holds the next call of a SnapshotStore method until `release()`: a job is caught mid-way. */
    function hold(method: 'open' | 'write', after = false) {
      const store = t.app.get(SnapshotStore);
      const original = store[method].bind(store) as (...args: any[]) => Promise<any>;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const arrived = new Promise<void>((resolve) => (reached = resolve));
      let ended!: () => void;
      const settled = new Promise<void>((resolve) => (ended = resolve));
      (store as any)[method] = async (...args: any[]) => {
        (store as any)[method] = original;
        try {
          if (!after) {
            reached();
            await gate;
            return await original(...args);
          }
          const result = await original(...args);
          reached();
          await gate;
          return result;
        } finally {
          ended();
        }
      };
      return { arrived, release, settled };
    }

    test('while a snapshot of the application is being created, another is refused; a second job of the user is over the limit', async () => {
      const held = hold('write');
      const first = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Slow' });
      expect(first.status).toBe(202);
      await held.arrived;
      const again = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Other name' });
      expect([again.status, again.body.error]).toEqual([400, 'ERROR_SNAPSHOT_IS_BEING_CREATED']);
      const elsewhere = (await appsOf(db.workspaceId)).find((a: any) => a.name === 'Other');
      const limited = await api('POST', `/api/snapshots/application/${elsewhere.id}/`, { name: 'Parallel' });
      expect([limited.status, limited.body.error]).toEqual([400, 'ERROR_SNAPSHOT_OPERATION_LIMIT_EXCEEDED']);
      // Not listed until it is finished.
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body.map((s: any) => s.name)).not.toContain('Slow');
      held.release();
      expect((await endedJob(t, ada.token, first.body.id)).state).toBe('finished');
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body.map((s: any) => s.name)).toContain('Slow');
    });

    test('two members asking for a snapshot of one application at once: one is taken, the other is refused', async () => {
      const held = hold('write');
      const answers = await Promise.all([
        api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'At once A' }),
        api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'At once B' }, bob.token),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 400]);
      expect(answers.find((a) => a.status === 400)!.body.error).toBe('ERROR_SNAPSHOT_IS_BEING_CREATED');
      const accepted = answers.find((a) => a.status === 202)!;
      await held.arrived;
      held.release();
      const token = accepted === answers[0] ? ada.token : bob.token;
      expect((await endedJob(t, token, accepted.body.id)).state).toBe('finished');
      expect((await api('DELETE', `/api/snapshots/${accepted.body.snapshot.id}/`, undefined, token)).status).toBe(204);
    });

    test('a cancelled creation leaves no snapshot and no document', async () => {
      const files = snapshotFiles().length;
      const held = hold('write');
      const res = await api('POST', `/api/snapshots/application/${db.databaseId}/`, { name: 'Cancelled' });
      await held.arrived;
      expect((await api('POST', `/api/jobs/${res.body.id}/cancel/`)).status).toBe(200);
      held.release();
      // The job is answered cancelled at once; its work stops at its next progress report.
      await held.settled;
      expect((await endedJob(t, ada.token, res.body.id)).state).toBe('cancelled');
      expect((await api('GET', `/api/snapshots/application/${db.databaseId}/`)).body.map((s: any) => s.name)).not.toContain('Cancelled');
      expect(snapshotFiles()).toHaveLength(files);
      // The name is free again.
      expect((await snapshot(db.databaseId, 'Cancelled')).state).toBe('finished');
    });

    test('a snapshot being restored cannot be deleted nor restored again', async () => {
      const job = await snapshot(db.databaseId, 'Busy');
      const held = hold('open');
      const res = await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`);
      await held.arrived;
      const deleting = await api('DELETE', `/api/snapshots/${job.snapshot.id}/`);
      expect([deleting.status, deleting.body.error]).toEqual([400, 'ERROR_SNAPSHOT_IS_BEING_RESTORED']);
      const twice = await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`, undefined, bob.token);
      expect([twice.status, twice.body.error]).toEqual([400, 'ERROR_SNAPSHOT_IS_BEING_RESTORED']);
      held.release();
      expect((await endedJob(t, ada.token, res.body.id)).state).toBe('finished');
      expect((await api('DELETE', `/api/snapshots/${job.snapshot.id}/`)).status).toBe(204);
    });

    test('a snapshot deleted (expired) while it is restored: the job fails with the spec error, nothing restored, nothing left hidden', async () => {
      const job = await snapshot(db.databaseId, 'Vanishing');
      const apps = (await appsOf(db.workspaceId)).length;
      const count = await applicationCount();
      const held = hold('open', true);
      const res = await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`);
      await held.arrived;
      expect(await t.app.get(SnapshotCleanup).deleteUnusable(new Date(Date.now() + 400 * 86_400_000))).toContain(job.snapshot.id);
      held.release();
      const ended = await endedJob(t, ada.token, res.body.id);
      expect([ended.state, ended.human_readable_error]).toEqual(['failed', 'The requested snapshot does not exist.']);
      expect(await appsOf(db.workspaceId)).toHaveLength(apps);
      expect(await applicationCount()).toBe(count);
    });

    test('the original application deleted for good while its snapshot is restored: the spec error, nothing restored', async () => {
      const app = (await api('POST', `/api/applications/workspace/${db.workspaceId}/`, { name: 'Doomed', type: 'database', init_with_data: true })).body;
      const job = await snapshot(app.id, 'Of doomed');
      const held = hold('open', true);
      const res = await api('POST', `/api/snapshots/${job.snapshot.id}/restore/`);
      await held.arrived;
      await api('DELETE', `/api/applications/${app.id}/`);
      expect((await api('DELETE', `/api/trash/workspace/${db.workspaceId}/?application_id=${app.id}`)).status).toBe(204);
      const count = await applicationCount();
      const names = (await appsOf(db.workspaceId)).map((a: any) => a.name);
      held.release();
      const ended = await endedJob(t, ada.token, res.body.id);
      expect([ended.state, ended.human_readable_error]).toEqual(['failed', 'The requested snapshot does not exist.']);
      expect((await appsOf(db.workspaceId)).map((a: any) => a.name)).toEqual(names);
      expect(await applicationCount()).toBe(count);
    });
  });
});
