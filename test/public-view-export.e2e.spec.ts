import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';

/**
 * Baserow premium's export of a publicly shared view: `allow_public_export` (set through
 * `PATCH /api/database/view/{id}/premium`), `POST /api/database/view/{slug}/export-public-view/`
 * by anyone who may open the shared view, and the job read by its signed id.
 */
let t: TestApp;
let ada: SignedUp;
let tableId: number;
let viewId: number;
let slug: string;
let fields: Record<string, number>;

const api = (method: string, path: string, body?: unknown, token: string | null = ada.token, headers?: Record<string, string>) => t.request(method, path, { token: token ?? undefined, body, headers });
const CSV = { exporter_type: 'csv', export_charset: 'utf-8', csv_include_header: true, csv_column_separator: ',' };

async function ended(signedId: string): Promise<any> {
  for (let i = 0; i < 3000; i++) {
    const res = await t.request('GET', `/api/database/view/get-public-view-export/${signedId}/`);
    expect(res.status).toBe(200);
    if (!['pending', 'exporting'].includes(res.body.state)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The export did not end.');
}

const fileOf = (job: any): string => readFileSync(join(t.config.mediaRoot, 'export_files', job.exported_file_name), 'utf8');

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  tableId = await emptyTable(t, ada, await databaseOf(t, ada), 'Shared');
  const existing = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
  for (const field of existing.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
  await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Notes', type: 'text' });
  await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Secret', type: 'text' });
  fields = Object.fromEntries((await api('GET', `/api/database/fields/table/${tableId}/`)).body.map((f: any) => [f.name, f.id]));
  await api('POST', `/api/database/rows/table/${tableId}/batch/?user_field_names=true`, {
    items: [
      { Name: 'b', Notes: 'keep', Secret: 's1' },
      { Name: 'a', Notes: 'keep too', Secret: 's2' },
      { Name: 'c', Notes: 'drop', Secret: 's3' },
    ],
  });
  const view = (await api('POST', `/api/database/views/table/${tableId}/`, { name: 'Public', type: 'grid' })).body;
  viewId = view.id;
  slug = view.slug;
  await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [fields.Secret]: { hidden: true } } });
  await api('POST', `/api/database/views/${viewId}/filters/`, { field: fields.Notes, type: 'contains', value: 'keep' });
  await api('POST', `/api/database/views/${viewId}/sortings/`, { field: fields.Name, order: 'ASC' });
});
afterAll(async () => t?.close());

describe('public view export', () => {
  it('sets allow_public_export through the premium attributes route (no trailing slash)', async () => {
    const res = await api('PATCH', `/api/database/view/${viewId}/premium`, { allow_public_export: true, show_logo: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: viewId, allow_public_export: true, show_logo: false });
    expect((await api('GET', `/api/database/views/${viewId}/`)).body).toMatchObject({ allow_public_export: true, show_logo: false });
    const bad = await api('PATCH', `/api/database/view/${viewId}/premium`, { allow_public_export: 'maybe' });
    expect([bad.status, bad.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
    const stranger = await signUp(t, 'Stranger');
    const refused = await api('PATCH', `/api/database/view/${viewId}/premium`, { allow_public_export: false }, stranger.token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERROR_USER_NOT_IN_GROUP');
    expect((await api('GET', `/api/database/views/${viewId}/`)).body.allow_public_export).toBe(true);
  });

  it('is refused for a view that is not shared, or shared without public export', async () => {
    const hidden = await api('POST', `/api/database/view/${slug}/export-public-view/`, CSV, null);
    expect([hidden.status, hidden.body.error]).toEqual([404, 'ERROR_VIEW_DOES_NOT_EXIST']);
    await api('PATCH', `/api/database/views/${viewId}/`, { public: true });
    await api('PATCH', `/api/database/view/${viewId}/premium`, { allow_public_export: false });
    const notAllowed = await api('POST', `/api/database/view/${slug}/export-public-view/`, CSV, null);
    expect([notAllowed.status, notAllowed.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    await api('PATCH', `/api/database/view/${viewId}/premium`, { allow_public_export: true });
  });

  it('exports the visible fields of the rows the view shows, in its order, readable by the signed job id', async () => {
    const res = await api('POST', `/api/database/view/${slug}/export-public-view/`, CSV, null);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ table: tableId, view: viewId, exporter_type: 'csv', state: 'pending', url: null });
    expect(typeof res.body.id).toBe('string');
    const job = await ended(res.body.id);
    expect(job).toMatchObject({ id: res.body.id, state: 'finished', status: 'finished', progress_percentage: 100 });
    expect(job.url).toContain(`/export_files/${job.exported_file_name}`);
    const csv = fileOf(job);
    const lines = csv.split(/\r?\n/);
    expect(lines[0]).toBe('\ufeffid,Name,Notes');
    expect(lines.slice(1).filter(Boolean).map((line) => line.replace(/^\d+,/, ''))).toEqual(['a,keep too', 'b,keep']);
    expect(csv).not.toContain('Secret');
    expect(csv).not.toContain('s1');
    expect(csv).not.toContain('drop');
    // Nobody's job list holds it.
    expect((await api('GET', '/api/jobs/')).body.jobs.map((j: { id: unknown }) => j.id)).not.toContain(Number(res.body.id.split('.')[0]));
  });

  it('takes the request filters, order and fields, on visible fields only', async () => {
    const ordered = await api('POST', `/api/database/view/${slug}/export-public-view/`, { ...CSV, order_by: `-field_${fields.Name}`, fields: [9999999, fields.Notes, fields.Secret, fields.Name] }, null);
    expect(ordered.status).toBe(200);
    const csv = fileOf(await ended(ordered.body.id)).split(/\r?\n/);
    expect(csv[0]).toBe('\ufeffid,Notes,Name');
    expect(csv.slice(1, 3).map((line) => line.split(',').slice(1).join(','))).toEqual(['keep,b', 'keep too,a']);

    const filtered = await api('POST', `/api/database/view/${slug}/export-public-view/`, { ...CSV, filters: { filter_type: 'AND', filters: [{ field: fields.Name, type: 'equal', value: 'a' }], groups: [] } }, null);
    const lines = fileOf(await ended(filtered.body.id)).split(/\r?\n/).filter(Boolean);
    expect(lines.length).toBe(2);
    expect(lines[1]).toContain(',a,keep too');

    const byHidden = await api('POST', `/api/database/view/${slug}/export-public-view/`, { ...CSV, order_by: `field_${fields.Secret}` }, null);
    expect([byHidden.status, byHidden.body.error]).toEqual([400, 'ERROR_ORDER_BY_FIELD_NOT_FOUND']);
    const filterHidden = await api('POST', `/api/database/view/${slug}/export-public-view/`, { ...CSV, filters: { filter_type: 'AND', filters: [{ field: fields.Secret, type: 'equal', value: 's1' }], groups: [] } }, null);
    expect([filterHidden.status, filterHidden.body.error]).toEqual([400, 'ERROR_FILTER_FIELD_NOT_FOUND']);
    const badExporter = await api('POST', `/api/database/view/${slug}/export-public-view/`, { ...CSV, exporter_type: 'pdf' }, null);
    expect([badExporter.status, badExporter.body.error]).toEqual([400, 'ERROR_REQUEST_BODY_VALIDATION']);
  });

  it('reads no job by a forged, unsigned or another kind of id', async () => {
    const own = await api('POST', `/api/database/export/table/${tableId}/`, CSV);
    for (const id of [String(own.body.id), `${own.body.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, 'nonsense', `${own.body.id}.`]) {
      const res = await t.request('GET', `/api/database/view/get-public-view-export/${id}/`);
      expect([res.status, res.body.error]).toEqual([404, 'ERROR_EXPORT_JOB_DOES_NOT_EXIST']);
    }
  });

  it('asks for the password token of a password-protected view', async () => {
    await api('PATCH', `/api/database/views/${viewId}/`, { public_view_password: 'secret123' });
    const without = await api('POST', `/api/database/view/${slug}/export-public-view/`, CSV, null);
    expect([without.status, without.body.error]).toEqual([401, 'ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW']);
    const token = (await t.request('POST', `/api/database/views/${slug}/public/auth/`, { body: { password: 'secret123' } })).body.access_token;
    const withToken = await api('POST', `/api/database/view/${slug}/export-public-view/`, CSV, null, { 'Baserow-View-Authorization': `JWT ${token}` });
    expect(withToken.status).toBe(200);
    expect((await ended(withToken.body.id)).state).toBe('finished');
  });
});
