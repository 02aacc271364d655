import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { signUp, SignedUp, TestApp } from './support/app';
import { comparableRows, richDatabase, RichDatabase } from './support/rich-database';
import type { KeyPair } from '../src/import-export/archive/signature';
import { baserowDatabase, CONTRACT, CONTRACT_NAME, LOGO, LOGO_NAME } from './support/baserow-fixture';
import { join } from 'node:path';
import { download, uploadFile } from './support/files';
import { buildBaserowZip, startAppTrustingBaserow, exportWorkspace, importZip, readZip, uploadImport, writeZip } from './support/workspace-zips';
import { ResourceCleanupService } from '../src/import-export/resource-cleanup.service';

let t: TestApp;
let ada: SignedUp;
let db: RichDatabase;
/** The key "another Baserow" signs with, trusted by the instance. */
let baserowKeys: KeyPair;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

beforeAll(async () => {
  ({ t, baserowKeys } = await startAppTrustingBaserow());
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

describe('a zip exported by Baserow 1.35.3 (every field type Rowspace has)', () => {
  let ws: number;
  let job: any;
  let tables: Record<string, number>;
  let fields: Record<string, any>;
  let rows: Record<string, any[]>;

  beforeAll(async () => {
    ws = (await api('POST', '/api/workspaces/', { name: 'From Baserow' })).body.id;
    const { zip } = await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: baserowDatabase(ada.email) }], files: { [CONTRACT_NAME]: CONTRACT, [LOGO_NAME]: LOGO }, keys: baserowKeys });
    job = await importZip(t, ada.token, ws, zip);
    tables = {};
    fields = {};
    rows = {};
    for (const table of job.installed_applications?.[0]?.tables ?? []) {
      tables[table.name] = table.id;
      for (const f of (await api('GET', `/api/database/fields/table/${table.id}/`)).body) fields[`${table.name}.${f.name}`] = f;
      rows[table.name] = (await api('GET', `/api/database/rows/table/${table.id}/?user_field_names=true`)).body.results;
    }
  });

  test('the import job finishes with the database installed', () => {
    expect(job).toMatchObject({ state: 'finished', human_readable_error: '', installed_applications: [{ name: 'CRM', type: 'database', workspace: { id: ws } }] });
    expect(job.installed_applications[0].tables.map((x: any) => [x.name, x.order])).toEqual([
      ['Customers', 1],
      ['Orders', 2],
    ]);
  });

  test('every field keeps its type and properties', () => {
    const f = (name: string) => fields[`Customers.${name}`];
    const types = Object.fromEntries(Object.entries(fields).filter(([k]) => k.startsWith('Customers.')).map(([k, v]) => [k.slice(10), v.type]));
    expect(types).toEqual({
      Name: 'text', Notes: 'long_text', Site: 'url', Mail: 'email', Amount: 'number', Stars: 'rating', Active: 'boolean', Since: 'date', Meeting: 'date',
      Changed: 'last_modified', Created: 'created_on', 'Changed by': 'last_modified_by', 'Created by': 'created_by', Orders: 'link_row', Docs: 'file', Tier: 'single_select',
      Tags: 'multiple_select', Phone: 'phone_number', Double: 'formula', 'Order count': 'count', Quantity: 'rollup', 'Order names': 'lookup', Owners: 'multiple_collaborators',
      Ref: 'uuid', No: 'autonumber', Call: 'duration', Secret: 'password',
    });
    expect(f('Name').primary).toBe(true);
    expect(f('Amount')).toMatchObject({ number_decimal_places: 2, number_negative: true });
    expect(f('Stars')).toMatchObject({ max_value: 5, color: 'dark-orange', style: 'star' });
    expect(f('Meeting')).toMatchObject({ date_format: 'ISO', date_include_time: true });
    expect(f('Orders')).toMatchObject({ link_row_table_id: tables.Orders, link_row_related_field_id: fields['Orders.Customer'].id });
    expect(fields['Orders.Customer']).toMatchObject({ type: 'link_row', link_row_table_id: tables.Customers, link_row_related_field_id: f('Orders').id });
    expect(f('Tier').select_options.map((o: any) => [o.value, o.color])).toEqual([['Gold', 'yellow'], ['Silver', 'light-gray']]);
    expect(f('Tier').single_select_default).toBe(f('Tier').select_options[0].id);
    expect(f('Tags').select_options.map((o: any) => o.value)).toEqual(['vip', 'new', 'eu']);
    expect(f('Double')).toMatchObject({ formula: "field('Amount') * 2", formula_type: 'number', error: null });
    expect(f('Order count')).toMatchObject({ through_field_id: f('Orders').id, formula_type: 'number' });
    expect(f('Quantity')).toMatchObject({ through_field_id: f('Orders').id, target_field_id: fields['Orders.Qty'].id, rollup_function: 'sum' });
    expect(f('Order names')).toMatchObject({ through_field_id: f('Orders').id, target_field_id: fields['Orders.Order'].id, formula_type: 'array' });
    expect(f('Owners')).toMatchObject({ notify_user_when_added: true });
    expect(f('Call')).toMatchObject({ duration_format: 'h:mm' });
  });

  test('every cell keeps its value (computed ones computed again, creators and collaborators by e-mail)', async () => {
    const [acme, globex] = rows.Customers;
    const tier = fields['Customers.Tier'].select_options;
    const tags = fields['Customers.Tags'].select_options;
    expect(acme).toMatchObject({
      id: 1,
      order: '1.00000000000000000000',
      Name: 'Acme',
      Notes: 'Line 1\nLine 2',
      Site: 'https://acme.test',
      Mail: 'buyer@acme.test',
      Amount: '1200.50',
      Stars: 4,
      Active: true,
      Since: '2024-03-01',
      Meeting: '2024-03-01T09:30:00Z',
      Changed: '2024-02-01T08:15:00Z',
      Created: '2024-01-05T10:00:00.123456Z',
      Orders: [{ id: 11, value: 'A-1' }, { id: 12, value: 'A-2' }],
      Tier: { id: tier[1].id, value: 'Silver', color: 'light-gray' },
      Tags: [{ id: tags[0].id, value: 'vip', color: 'red' }, { id: tags[2].id, value: 'eu', color: 'blue' }],
      Phone: '+31 20 555 0100',
      Double: '2401.00',
      'Order count': '2',
      Quantity: '7',
      'Order names': [{ id: 11, value: 'A-1' }, { id: 12, value: 'A-2' }],
      Owners: [{ id: ada.id, name: ada.name }],
      Ref: '0e7a3f1c-5a1b-4c2d-9e8f-123456789abc',
      No: 1,
      Call: 5400,
      Secret: true,
    });
    expect(acme['Created by']).toMatchObject({ id: ada.id });
    expect(globex['Created by']).toBeNull();
    expect(globex['Changed by']).toMatchObject({ id: ada.id });
    expect(globex).toMatchObject({ id: 2, Name: 'Globex', Amount: '-15.00', Active: false, Tier: null, Tags: [], Owners: [], Ref: '7d4b0c8e-1111-4222-8333-444455556666', No: 2, Call: null, Secret: null, 'Order count': '1', Quantity: '10' });
    expect(rows.Orders.map((r: any) => [r.id, r.Order, r.Qty, r.Customer.map((c: any) => c.id)])).toEqual([
      [11, 'A-1', '3', [1]],
      [12, 'A-2', '4', [1]],
      [13, 'G-1', '10', [2]],
    ]);
    // The files the zip carries are stored again (one stored file for the same content) and served.
    const [contract] = acme.Docs;
    expect(contract).toMatchObject({ visible_name: 'Contract.txt', size: CONTRACT.length, is_image: false });
    expect(globex.Docs.map((d: any) => d.visible_name)).toEqual(['logo.gif', 'Same contract']);
    expect(globex.Docs[1].name).toBe(contract.name);
    expect((await download(t, contract.url)).body.equals(CONTRACT)).toBe(true);
    expect((await download(t, globex.Docs[0].url)).body.equals(LOGO)).toBe(true);
  });

  test("exported again, it is Baserow's serialized database it came from: the same keys of every field, view and row, the same cells", async () => {
    const { zip } = await exportWorkspace(t, ada.token, ws);
    const entries = await readZip(zip);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    const again = JSON.parse(entries.get(manifest.applications.database.items[0].files.schema)!.toString());
    const original = baserowDatabase(ada.email) as any;
    expect(again.tables.map((x: any) => x.name)).toEqual(['Customers', 'Orders']);
    for (const [index, table] of original.tables.entries()) {
      const copy = again.tables[index];
      const byName = new Map<string, any>(copy.fields.map((f: any) => [f.name, f]));
      const idOf = new Map<number, number>(table.fields.map((f: any) => [f.id, byName.get(f.name)?.id]));
      for (const field of table.fields) {
        const exported = byName.get(field.name);
        // Every key Baserow exports for the type, no other (Baserow builds the field model from them).
        expect([field.name, Object.keys(exported).sort()]).toEqual([field.name, Object.keys(field).sort()]);
        for (const key of ['type', 'primary', 'read_only', 'description', 'number_decimal_places', 'date_format', 'date_include_time', 'max_value', 'style', 'formula', 'rollup_function', 'duration_format', 'notify_user_when_added', 'has_related_field']) {
          if (key in field) expect([field.name, key, exported[key]]).toEqual([field.name, key, field[key]]);
        }
        for (const key of ['link_row_table_id']) if (key in field) expect(exported[key]).toBe(again.tables[original.tables.findIndex((x: any) => x.id === field[key])].id);
        for (const key of ['link_row_related_field_id', 'through_field_id', 'target_field_id']) {
          if (field[key] == null) continue;
          const target = original.tables.flatMap((x: any) => x.fields).find((f: any) => f.id === field[key]);
          const targetCopy = again.tables.flatMap((x: any) => x.fields).find((f: any) => f.name === target.name);
          expect([field.name, key, exported[key]]).toEqual([field.name, key, targetCopy.id]);
        }
        if (field.select_options) expect(exported.select_options.map((o: any) => [o.value, o.color, o.order])).toEqual(field.select_options.map((o: any) => [o.value, o.color, o.order]));
      }
      // Rows: the same keys, and the same cells (ids of options and files renamed by the import).
      for (const [r, row] of table.rows.entries()) {
        const exported = copy.rows[r];
        // The rows' creators and editors who are members of the workspace are kept (by e-mail), others are nobody.
        const member = (email: string) => (email === ada.email ? email : undefined);
        expect(Object.keys(exported).filter((k) => !k.startsWith('field_') && !['created_by', 'last_modified_by'].includes(k)).sort()).toEqual(['created_on', 'id', 'order', 'updated_on']);
        expect([exported.created_by, exported.last_modified_by]).toEqual([member(row.created_by), member(row.last_modified_by)]);
        expect([exported.id, exported.order, exported.created_on, exported.updated_on]).toEqual([row.id, row.order, row.created_on, row.updated_on]);
        for (const field of table.fields) {
          const value = exported[`field_${idOf.get(field.id)}`];
          const given = row[`field_${field.id}`];
          const label = `${table.name}.${field.name}`;
          const optionValue = (f: any, id: number) => f.select_options.find((o: any) => o.id === id)?.value;
          const exportedField = byName.get(field.name);
          if (field.type === 'single_select') expect([label, given === null ? null : optionValue(exportedField, value)]).toEqual([label, given === null ? null : optionValue(field, given)]);
          else if (field.type === 'multiple_select') expect([label, value.map((id: number) => optionValue(exportedField, id))]).toEqual([label, given.map((id: number) => optionValue(field, id))]);
          else if (field.type === 'file') expect([label, value.map((v: any) => [v.visible_name, v.size, v.name.slice(-68)])]).toEqual([label, given.map((v: any) => [v.visible_name, v.size, v.name.slice(-68)])]);
          else if (field.type === 'multiple_collaborators') expect([label, value]).toEqual([label, given.filter((email: string) => email === ada.email)]);
          else if (field.type === 'password') expect([label, typeof value]).toEqual([label, given === null ? 'object' : 'string']);
          else if (['created_by', 'last_modified_by'].includes(field.type)) expect([label, value]).toEqual([label, member(row[field.type]) ?? null]);
          else expect([label, value]).toEqual([label, given]);
        }
      }
      // Views: the same keys (calendar left out: Rowspace has no such view type).
      const views = table.views.filter((v: any) => v.type !== 'calendar');
      expect(copy.views.map((v: any) => [v.name, Object.keys(v).sort()])).toEqual(views.map((v: any) => [v.name, Object.keys(v).sort()]));
    }
  });

  test('views keep their types, settings, filters, filter groups, sorts, group-bys, decorations and field options', async () => {
    const views = (await api('GET', `/api/database/views/table/${tables.Customers}/?include=filters,sortings,decorations,group_bys`)).body;
    expect(views.map((v: any) => [v.name, v.type])).toEqual([
      ['All customers', 'grid'],
      ['Cards', 'gallery'],
      ['Sign up', 'form'],
      ['Board', 'kanban'],
    ]);
    const [grid, gallery, form, kanban] = views;
    const f = (name: string) => fields[`Customers.${name}`].id;
    const tier = fields['Customers.Tier'].select_options;
    expect(grid).toMatchObject({ filter_type: 'AND', row_identifier_type: 'count', row_height_size: 'medium', public: false });
    expect(grid.filters.map((x: any) => [x.field, x.type, x.value, x.group !== null])).toEqual([
      [f('Tier'), 'single_select_equal', String(tier[1].id), false],
      [f('Active'), 'boolean', '1', true],
      [f('Amount'), 'higher_than', '100', true],
      [f('Owners'), 'multiple_collaborators_has', String(ada.id), false],
    ]);
    expect(grid.filter_groups).toEqual([{ id: expect.any(Number), filter_type: 'OR', parent_group: null, view: grid.id }]);
    expect(grid.sortings.map((s: any) => [s.field, s.order])).toEqual([[f('Amount'), 'DESC']]);
    expect(grid.group_bys.map((g: any) => [g.field, g.order])).toEqual([[f('Tier'), 'ASC']]);
    expect(grid.decorations.map((d: any) => [d.type, d.value_provider_type, d.value_provider_conf])).toEqual([
      ['left_border_color', 'single_select_color', { field_id: f('Tier') }],
      ['background_color', 'conditional_color', { colors: [expect.objectContaining({ color: 'light-red', filters: [expect.objectContaining({ type: 'single_select_equal', field: f('Tier'), value: String(tier[0].id) })] })] }],
    ]);
    const options = (await api('GET', `/api/database/views/${grid.id}/field-options/`)).body.field_options;
    expect(options[f('Amount')]).toMatchObject({ width: 120, hidden: false, order: 1, aggregation_type: 'sum', aggregation_raw_type: 'sum' });
    expect(options[f('Notes')]).toMatchObject({ width: 200, hidden: true });
    expect(gallery).toMatchObject({ card_cover_image_field: f('Docs') });
    expect(gallery.sortings.map((s: any) => s.field)).toEqual([f('Name')]);
    expect(gallery.filters.map((x: any) => [x.field, x.type, x.value])).toEqual([[f('Tier'), 'single_select_is_any_of', `${tier[0].id},${tier[1].id}`]]);
    expect(form).toMatchObject({ title: 'Become a customer', description: 'Tell us about you', submit_text: 'Send', submit_action_message: 'Thanks!' });
    const formOptions = (await api('GET', `/api/database/views/${form.id}/field-options/`)).body.field_options;
    expect(formOptions[f('Name')]).toMatchObject({ name: 'Company', description: 'Your company', enabled: true, required: true });
    expect(kanban).toMatchObject({ single_select_field: f('Tier') });
    // The grid's filters select the rows Baserow's would.
    const listed = (await api('GET', `/api/database/views/grid/${grid.id}/`)).body.results;
    expect(listed.map((r: any) => r.id)).toEqual([1]);
  });
});

/** Python with `cryptography` runs Baserow's own signing code (test/support/python/baserow_signature.py). */
const python = spawnSync('python3', ['-c', 'import cryptography'], { encoding: 'utf8' }).status === 0;

(python ? describe : describe.skip)("signatures cross-checked with Baserow's own code (Python cryptography)", () => {
  const script = join(__dirname, 'support', 'python', 'baserow_signature.py');
  const run = (...args: string[]) => spawnSync('python3', [script, ...args], { encoding: 'utf8' });
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rowspace-signature-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("Baserow's validate_signature accepts a Rowspace export's signature, and refuses it once the manifest changes", async () => {
    const { zip } = await exportWorkspace(t, ada.token, db.workspaceId);
    writeFileSync(join(dir, 'rowspace.zip'), zip);
    expect(run('verify', join(dir, 'rowspace.zip')).stdout.trim()).toBe('valid');
    const entries = [...(await readZip(zip))].map(([name, content]) => ({ name, content }));
    const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.content.toString());
    manifest.applications.database.items[0].name = 'Plannïng ✓ 𝒳';
    writeFileSync(join(dir, 'changed.zip'), await writeZip(entries.map((e) => (e.name === 'manifest.json' ? { name: e.name, content: Buffer.from(JSON.stringify(manifest)) } : e))));
    expect(run('verify', join(dir, 'changed.zip')).stdout.trim()).toBe('forged');
  });

  test('a zip signed by Baserow (with a trusted key, a manifest with non-ASCII names) is accepted by Rowspace', async () => {
    const ws = (await api('POST', '/api/workspaces/', { name: 'Signed by Python' })).body.id;
    const { zip } = await buildBaserowZip({ applications: [{ id: 77, name: 'CRM – “ünïcode” 𝒳', serialized: { ...baserowDatabase(ada.email), name: 'CRM – “ünïcode” 𝒳', tables: [] } }], keys: baserowKeys });
    writeFileSync(join(dir, 'baserow.zip'), zip);
    writeFileSync(join(dir, 'private.pem'), baserowKeys.privateKeyPem);
    expect(run('sign', join(dir, 'baserow.zip'), join(dir, 'private.pem')).stdout.trim()).toBe('signed');
    const signed = readFileSync(join(dir, 'baserow.zip'));
    const done = await importZip(t, ada.token, ws, signed);
    expect(done).toMatchObject({ state: 'finished', installed_applications: [{ name: 'CRM – “ünïcode” 𝒳' }] });
  });
});

test("the routes are in /api/schema.json with Baserow's operation ids", async () => {
  const paths = (await t.request('GET', '/api/schema.json')).body.paths;
  expect([
    paths['/api/workspaces/{workspaceId}/export/async/'].post.operationId,
    paths['/api/workspaces/{workspaceId}/export/'].get.operationId,
    paths['/api/workspaces/{workspaceId}/import/upload-file/'].post.operationId,
    paths['/api/workspaces/{workspaceId}/import/async/'].post.operationId,
    paths['/api/workspaces/{workspaceId}/import/{resourceId}/'].delete.operationId,
  ]).toEqual(['export_workspace_applications_async', 'list_workspace_exports', 'import_resource_upload_file', 'import_workspace_applications_async', 'import_export_resource']);
});

test("GET /export/ lists the user's finished exports of the workspace, latest first, as Baserow's job serializer; only_structure leaves the rows out", async () => {
  const { job, zip } = await exportWorkspace(t, ada.token, db.workspaceId, { only_structure: true, application_ids: [db.databaseId] });
  const entries = await readZip(zip);
  const manifest = JSON.parse(entries.get('manifest.json')!.toString());
  expect(manifest.configuration).toEqual({ only_structure: true });
  const app = JSON.parse(entries.get(manifest.applications.database.items[0].files.schema)!.toString());
  expect(app.tables.map((x: any) => x.rows)).toEqual([[], []]);
  const list = (await api('GET', `/api/workspaces/${db.workspaceId}/export/`)).body;
  expect(list.results[0]).toEqual(job);
  expect(list.results.length).toBeGreaterThan(1);
  expect(list.results.length).toBeLessThanOrEqual(5);
  expect(list.results.every((j: any) => j.type === 'export_applications' && j.workspace_id === db.workspaceId && j.state === 'finished')).toBe(true);
  const other = await signUp(t, 'Other');
  expect((await api('GET', `/api/workspaces/${db.workspaceId}/export/`, undefined, other.token)).body.error).toBe('ERROR_USER_NOT_IN_GROUP');
});

test('a user file missing from the storage is left out of its cell (the zip stays importable)', async () => {
  const ws = (await api('POST', '/api/workspaces/', { name: 'Files' })).body.id;
  const database = (await api('POST', `/api/applications/workspace/${ws}/`, { name: 'Docs', type: 'database' })).body.id;
  const table = (await api('POST', `/api/database/tables/database/${database}/`, { name: 'Docs' })).body.id;
  const field = (await api('POST', `/api/database/fields/table/${table}/`, { name: 'Files', type: 'file' })).body;
  const kept = (await uploadFile(t, `JWT ${ada.token}`, 'kept.txt', Buffer.from('kept'))).body;
  const lost = (await uploadFile(t, `JWT ${ada.token}`, 'lost.txt', Buffer.from('lost'))).body;
  await api('POST', `/api/database/rows/table/${table}/`, { [`field_${field.id}`]: [{ name: kept.name }, { name: lost.name }] });
  rmSync(join(t.config.mediaRoot, 'user_files', lost.name));
  const { zip } = await exportWorkspace(t, ada.token, ws);
  const entries = await readZip(zip);
  const manifest = JSON.parse(entries.get('manifest.json')!.toString());
  const app = JSON.parse(entries.get(manifest.applications.database.items[0].files.schema)!.toString());
  const cells = app.tables[0].rows.map((row: any) => row[`field_${field.id}`]).filter((cell: any[]) => cell.length);
  expect(cells).toEqual([[{ name: kept.name, visible_name: 'kept.txt', original_name: kept.name, size: 4 }]]);
  expect([entries.has(kept.name), entries.has(lost.name)]).toEqual([true, false]);
  expect((await importZip(t, ada.token, ws, zip)).state).toBe('finished');
});

test('exports and uploads older than BASEROW_IMPORT_EXPORT_RESOURCE_REMOVAL_AFTER_DAYS are deleted with their zips; a newer one stays', async () => {
  const ws = (await api('POST', '/api/workspaces/', { name: 'Old exports' })).body.id;
  const { job, zip } = await exportWorkspace(t, ada.token, ws);
  const upload = await uploadImport(t, ada.token, ws, zip);
  expect(upload.status).toBe(200);
  const cleanup = t.app.get(ResourceCleanupService);
  const exportFile = join(t.config.mediaRoot, 'export_files', job.exported_file_name.replace(/^export_/, ''));
  // Four days on: nothing goes.
  await cleanup.run(new Date(Date.now() + 4 * 24 * 3600 * 1000));
  expect((await api('GET', `/api/workspaces/${ws}/export/`)).body.results.map((j: any) => j.id)).toEqual([job.id]);
  expect(existsSync(exportFile)).toBe(true);
  // Six days on: the export and the upload go, with their zips.
  expect(await cleanup.run(new Date(Date.now() + 6 * 24 * 3600 * 1000))).toBeGreaterThanOrEqual(2);
  expect((await api('GET', `/api/workspaces/${ws}/export/`)).body.results).toEqual([]);
  expect(existsSync(exportFile)).toBe(false);
  expect((await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: (upload.body as any).id })).body.error).toBe('ERROR_RESOURCE_DOES_NOT_EXIST');
});
