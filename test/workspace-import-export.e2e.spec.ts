import { createHash } from 'node:crypto';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { comparableRows, richDatabase, RichDatabase } from './support/rich-database';
import { exportWorkspace, importZip, readZip } from './support/workspace-zips';

let t: TestApp;
let ada: SignedUp;
let db: RichDatabase;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  db = await richDatabase(t, ada);
});
afterAll(async () => t?.close());

/** A database's tables with their fields (ids and table ids left out) and rows, comparable between copies. */
async function shapeOf(databaseId: number, token = ada.token): Promise<any> {
  const app = (await api('GET', `/api/applications/${databaseId}/`, undefined, token)).body;
  const tables = [];
  for (const table of app.tables) {
    const fields = (await api('GET', `/api/database/fields/table/${table.id}/`, undefined, token)).body.map((f: any) => {
      // Ids differ between copies.
      const rest = { ...f };
      for (const key of ['id', 'table_id', 'database_id', 'workspace_id', 'link_row_table_id', 'link_row_table', 'link_row_related_field_id', 'link_row_related_field', 'through_field_id', 'target_field_id', 'select_options', 'single_select_default']) delete rest[key];
      const select_options = f.select_options;
      const primary = rest.link_row_table_primary_field;
      return { ...rest, link_row_table_primary_field: primary && [primary.name, primary.type], select_options: select_options?.map((o: any) => [o.value, o.color]) };
    });
    const views = (await api('GET', `/api/database/views/table/${table.id}/?include=filters,sortings,decorations,group_bys`, undefined, token)).body.map((v: any) => ({
      name: v.name,
      type: v.type,
      filter_type: v.filter_type,
      filters: v.filters?.map((f: any) => f.type),
      sortings: v.sortings?.map((s: any) => s.order),
      group_bys: v.group_bys?.map((g: any) => g.order),
      decorations: v.decorations?.map((d: any) => [d.type, d.value_provider_type]),
    }));
    const rows = (await comparableRows(t, token, table.id)).map((row) => {
      const copy = { ...row };
      for (const [key, value] of Object.entries(copy)) {
        // Linked rows keep their ids; file cells get new stored names; options compare by value.
        if (Array.isArray(value) && value.some((v: any) => v && typeof v === 'object' && 'visible_name' in v)) copy[key] = value.map((v: any) => [v.visible_name, v.size, v.mime_type]);
      }
      return copy;
    });
    tables.push({ name: table.name, order: table.order, fields, views, rows });
  }
  return tables;
}

describe('a Rowspace export', () => {
  let job: any;
  let entries: Map<string, Buffer>;

  beforeAll(async () => {
    ({ job, zip: entries } = await exportWorkspace(t, ada.token, db.workspaceId).then(async (r) => ({ job: r.job, zip: await readZip(r.zip) })));
  });

  test('the job answers as Baserow: export_applications, exported_file_name, url, created_on, workspace_id', () => {
    expect(job).toEqual({
      id: job.id,
      type: 'export_applications',
      progress_percentage: 100,
      state: 'finished',
      human_readable_error: '',
      exported_file_name: expect.stringMatching(/^export_[0-9a-f-]{36}\.zip$/),
      url: expect.stringContaining(`export_files/${job.exported_file_name.replace(/^export_/, '')}`),
      created_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      workspace_id: db.workspaceId,
    });
  });

  test("the zip has Baserow's layout: manifest, signature, one JSON per application, the user files, all checksummed", () => {
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(Object.keys(manifest).sort()).toEqual(['applications', 'baserow_version', 'checksums', 'configuration', 'total_files', 'version']);
    expect(manifest).toMatchObject({ version: '1.0.0', baserow_version: '1.35.3', configuration: { only_structure: false }, total_files: entries.size });
    const [item] = manifest.applications.database.items;
    expect(item).toEqual({ id: db.databaseId, type: 'database', name: 'Planning', uuid: expect.stringMatching(/^[0-9a-f]{32}$/), total_files: 1, files: { schema: `database__${item.uuid}_${createHash('sha256').update(entries.get(item.files.schema)!).digest('hex')}.json` } });
    for (const [name, sha] of Object.entries(manifest.checksums)) expect(createHash('sha256').update(entries.get(name)!).digest('hex')).toBe(sha);
    expect(Object.keys(manifest.checksums).length).toBe(entries.size - 2);
    const signature = JSON.parse(entries.get('manifest_signature.json')!.toString());
    expect(Object.keys(signature).sort()).toEqual(['public_key_pem', 'signature', 'timestamp']);
    expect(Buffer.from(signature.public_key_pem, 'base64').toString()).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  test("the application JSON is Baserow's serialized database: tables, fields, views, rows with Baserow's cell forms", () => {
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    const app = JSON.parse(entries.get(manifest.applications.database.items[0].files.schema)!.toString());
    expect(Object.keys(app).sort()).toEqual(['id', 'name', 'order', 'tables', 'type']);
    const tasks = app.tables.find((x: any) => x.name === 'Tasks');
    expect(Object.keys(tasks).sort()).toEqual(['data_sync', 'field_rules', 'fields', 'id', 'name', 'order', 'rows', 'views']);
    const field = (name: string) => tasks.fields.find((f: any) => f.name === name);
    expect(field('Done?')).toEqual({
      id: db.fields['Done?'].id,
      type: 'boolean',
      name: 'Done?',
      description: null,
      order: expect.any(Number),
      primary: false,
      read_only: false,
      db_index: false,
      immutable_type: false,
      immutable_properties: false,
      field_constraints: [],
      boolean_default: false,
    });
    expect(field('Project')).toMatchObject({ type: 'link_row', link_row_table_id: db.projects, link_row_related_field_id: db.fields.Tasks.id, has_related_field: true });
    expect(field('Status').select_options.map((o: any) => o.value)).toEqual(['Todo', 'Doing', 'Done']);
    const design = tasks.rows.find((r: any) => r[`field_${tasks.fields.find((f: any) => f.primary).id}`] === 'Design');
    expect(design[`field_${db.fields['Done?'].id}`]).toBe('true');
    expect(design[`field_${db.fields.Hours.id}`]).toBe('4.5');
    expect(design[`field_${db.fields.Status.id}`]).toBe(db.options.Done);
    expect(design[`field_${db.fields.Tags.id}`]).toEqual([db.options.ui]);
    expect(design[`field_${db.fields.Cost.id}`]).toBeNull();
    const [file] = design[`field_${db.fields.Attachments.id}`];
    expect(file).toEqual({ name: expect.stringMatching(/_[0-9a-f]{64}\.png$/), visible_name: 'Sketch', original_name: file.name, size: expect.any(Number) });
    expect(entries.has(file.name)).toBe(true);
    expect(design.created_on).toMatch(/\+00:00$/);
    const grid = tasks.views.find((v: any) => v.type === 'grid');
    expect(grid).toMatchObject({ name: 'Open work', filter_type: 'OR', public: false, row_identifier_type: 'id', row_height_size: 'small' });
    expect(grid.filters.map((f: any) => f.type)).toEqual(['single_select_equal', 'higher_than', 'multiple_select_has']);
    expect(grid.filter_groups).toHaveLength(1);
    expect(grid.sortings).toEqual([{ id: expect.any(Number), field_id: db.fields.Due.id, order: 'DESC' }]);
    expect(grid.group_bys).toEqual([{ id: expect.any(Number), field_id: db.fields.Status.id, order: 'ASC' }]);
    expect(grid.decorations).toEqual([{ id: expect.any(Number), type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: db.fields.Status.id }, order: expect.any(Number) }]);
    expect(tasks.views.find((v: any) => v.type === 'kanban')).toMatchObject({ single_select_field_id: db.fields.Status.id });
  });

  test('imported into another workspace, it is the same database: tables, fields, views, rows and files', async () => {
    const ws = (await api('POST', '/api/workspaces/', { name: 'Copy' })).body.id;
    const { zip } = await exportWorkspace(t, ada.token, db.workspaceId);
    const done = await importZip(t, ada.token, ws, zip);
    expect(done).toMatchObject({ type: 'import_applications', state: 'finished', workspace_id: ws, resource: { id: expect.any(Number), name: 'export.zip', size: zip.length } });
    expect(done.installed_applications).toHaveLength(1);
    const copy = done.installed_applications[0];
    expect(copy).toMatchObject({ name: 'Planning', type: 'database', workspace: { id: ws } });
    expect(await shapeOf(copy.id)).toEqual(await shapeOf(db.databaseId));
  });
});
