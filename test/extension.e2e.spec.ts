import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/core/config/config';
import { signUp, SignedUp, startApp, TestApp } from './support/app';

/**
 * Extension by modules: the example under examples/color-field, enabled only by
 * EXTRA_MODULES, adds the `color` field type and the `color_is_dark` / `color_is_light`
 * filters through the registries; a bad EXTRA_MODULES stops the start with a clear error.
 */
let t: TestApp;
let ada: SignedUp;
let tableId: number;
let nameField: number;
let colorField: number;
const rows: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
const cell = () => `field_${colorField}`;

/** The row keys a list query answers, in order. */
async function keys(query: string): Promise<string[]> {
  const res = await api('GET', `/api/database/rows/table/${tableId}/?${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  const byId = Object.fromEntries(Object.entries(rows).map(([k, v]) => [v, k]));
  return res.body.results.map((r: { id: number }) => byId[r.id]);
}

async function colors(): Promise<Record<string, unknown>> {
  const res = await api('GET', `/api/database/rows/table/${tableId}/?size=200`);
  const byId = Object.fromEntries(Object.entries(rows).map(([k, v]) => [v, k]));
  return Object.fromEntries(res.body.results.map((r: Record<string, unknown>) => [byId[r.id as number], r[cell()]]));
}

beforeAll(async () => {
  t = await startApp({ EXTRA_MODULES: './examples/color-field' });
  ada = await signUp(t, 'Ada');
  const databaseId = (await api('GET', '/api/applications/')).body[0].id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Palette' })).body.id;
  nameField = (await api('GET', `/api/database/fields/table/${tableId}/`)).body[0].id;
  await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: [1, 2] });
});

afterAll(async () => {
  await t?.close();
});

describe('the color field type of the example extension', () => {
  test('is created like any field type', async () => {
    const res = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Color', type: 'color' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Color', type: 'color', table_id: tableId, primary: false });
    colorField = res.body.id;
    const listed = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    expect(listed.map((f: { type: string }) => f.type)).toContain('color');
  });

  test('cells are #rrggbb, stored lower-case; anything else is a validation error', async () => {
    const values: Record<string, string> = {
      black: '#000000', white: '#FFFFFF', navy: '#1A2B3C', gold: ' #ffcc00 ', gray128: '#808080', gray127: '#7f7f7f', none: '',
    };
    for (const [key, value] of Object.entries(values)) {
      const res = await api('POST', `/api/database/rows/table/${tableId}/`, { [`field_${nameField}`]: key, [cell()]: value });
      expect(res.status).toBe(200);
      rows[key] = res.body.id;
    }
    expect(await colors()).toEqual({
      black: '#000000', white: '#ffffff', navy: '#1a2b3c', gold: '#ffcc00', gray128: '#808080', gray127: '#7f7f7f', none: '',
    });

    for (const bad of ['red', '#12345', '#1234567', '#ggggg0', 12, true, ['#000000']]) {
      const res = await api('POST', `/api/database/rows/table/${tableId}/`, { [cell()]: bad });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
      expect(res.body.detail[cell()]).toEqual([{ error: expect.any(String), code: 'invalid' }]);
    }
    const patched = await api('PATCH', `/api/database/rows/table/${tableId}/${rows.white}/`, { [cell()]: 'white' });
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { [cell()]: [{ error: 'Enter a color as #rrggbb.', code: 'invalid' }] } });
    // null is an empty cell, as for url and email.
    const nulled = await api('POST', `/api/database/rows/table/${tableId}/`, { [cell()]: null });
    expect(nulled.body[cell()]).toBe('');
    await api('DELETE', `/api/database/rows/table/${tableId}/${nulled.body.id}/`);
    expect(Object.keys(await colors())).toHaveLength(7);
  });

  test('rows filter by color_is_dark and color_is_light in SQL; empty cells match neither', async () => {
    const dark = await keys(`filter__field_${colorField}__color_is_dark=`);
    expect(dark.sort()).toEqual(['black', 'gray127', 'navy']);
    const light = await keys(`filter__field_${colorField}__color_is_light=`);
    expect(light.sort()).toEqual(['gold', 'gray128', 'white']);
    // The value is ignored; the filters combine with core filters and with OR.
    expect(await keys(`filter__field_${colorField}__color_is_dark=whatever&filter__field_${nameField}__contains=gray`)).toEqual(['gray127']);
    const either = await keys(`filter_type=OR&filter__field_${colorField}__color_is_dark=&filter__field_${colorField}__color_is_light=`);
    expect(either.sort()).toEqual(['black', 'gold', 'gray127', 'gray128', 'navy', 'white']);
    const tree = { filter_type: 'AND', filters: [{ type: 'color_is_light', field: colorField, value: '' }], groups: [] };
    expect((await keys(`filters=${encodeURIComponent(JSON.stringify(tree))}`)).sort()).toEqual(['gold', 'gray128', 'white']);
  });

  test('the filters apply to color fields only, and color fields get no filter they do not support', async () => {
    const onText = await api('GET', `/api/database/rows/table/${tableId}/?filter__field_${nameField}__color_is_dark=`);
    expect(onText.status).toBe(400);
    expect(onText.body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
    const unsupported = await api('GET', `/api/database/rows/table/${tableId}/?filter__field_${colorField}__is_even_and_whole=`);
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
  });

  test('cells sort and are found by search', async () => {
    expect(await keys(`order_by=field_${colorField}`)).toEqual(['none', 'black', 'navy', 'gray127', 'gray128', 'gold', 'white']);
    expect(await keys(`order_by=-field_${colorField}`)).toEqual(['white', 'gold', 'gray128', 'gray127', 'navy', 'black', 'none']);
    expect(await keys('search=FFCC')).toEqual(['gold']);
    expect(await keys('search=1a2b')).toEqual(['navy']);
  });

  test('the type is listed wherever field types are enumerated', async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    // Any enum of the schema that lists the core text-like types lists the extension's type too.
    const enums: string[][] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const value = node as Record<string, unknown>;
        if (Array.isArray(value.enum) && value.enum.includes('long_text') && value.enum.includes('url')) enums.push(value.enum as string[]);
        Object.values(value).forEach(walk);
      }
    };
    walk(schema);
    for (const list of enums) expect(list).toContain('color');
    const unknown = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Nope', type: 'colour' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
  });

  test('converts to text and back: colors are kept (lower-case), other text is emptied', async () => {
    const toText = await api('PATCH', `/api/database/fields/${colorField}/`, { type: 'text' });
    expect(toText.status).toBe(200);
    expect(toText.body.type).toBe('text');
    const asText = await colors();
    expect(asText).toMatchObject({ black: '#000000', white: '#ffffff', navy: '#1a2b3c', gold: '#ffcc00' });
    expect([null, '']).toContain(asText.none);
    // Text that is not a color, and an upper-case color, then back to color.
    await api('PATCH', `/api/database/rows/table/${tableId}/batch/`, {
      items: [{ id: rows.white, [cell()]: 'snow white' }, { id: rows.gold, [cell()]: '#ABCDEF' }],
    });
    const onText = await api('GET', `/api/database/rows/table/${tableId}/?filter__field_${colorField}__color_is_dark=`);
    expect(onText.body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');

    const back = await api('PATCH', `/api/database/fields/${colorField}/`, { type: 'color' });
    expect(back.status).toBe(200);
    expect(back.body.type).toBe('color');
    expect(await colors()).toEqual({
      black: '#000000', white: '', navy: '#1a2b3c', gold: '#abcdef', gray128: '#808080', gray127: '#7f7f7f', none: '',
    });
    expect((await keys(`filter__field_${colorField}__color_is_light=`)).sort()).toEqual(['gold', 'gray128']);
  });
});

describe('EXTRA_MODULES at start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rowspace-ext-'));
  const config = (extra: string) =>
    loadConfig({ SECRET_KEY: 'test-secret-key-that-is-long-enough', DATA_DIR: dir, SQLITE_PATH: ':memory:', EXTRA_MODULES: extra });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('is a comma-separated list of specifiers', () => {
    expect(config(' ./examples/color-field , some-package ,').extraModules).toEqual(['./examples/color-field', 'some-package']);
    expect(config('').extraModules).toEqual([]);
  });

  test.each([
    ['./examples/no-such-extension', /EXTRA_MODULES: cannot find "\.\/examples\/no-such-extension" \(no file or folder .*no-such-extension\)/],
    ['rowspace-no-such-package', /EXTRA_MODULES: cannot find "rowspace-no-such-package" \(no package of that name/],
    ['./examples/color-field/color.filters', /EXTRA_MODULES: "\.\/examples\/color-field\/color.filters" \(.*color\.filters\.ts\) exports no Nest module; export the @Module\(\) class as `RowspaceExtension` or as the default export\./],
    ['./package.json', /exports no Nest module/],
    ['./README.md', /EXTRA_MODULES: "\.\/README\.md" \(.*README\.md\) failed to load: /],
  ])('a bad specifier (%s) stops the start with a configuration error', async (specifier, message) => {
    const failure = createApp(config(specifier), { log: { level: 'silent' } });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(message);
  });
});

describe('an extension with metadata tables of its own', () => {
  const migrated = async (app: TestApp) =>
    ((await app.app.get(DataSource).query('SELECT "name" FROM "migrations"')) as { name: string }[]).map((row) => row.name);

  test('has its entities and migrations in the data source, and only in the apps that load it', async () => {
    const notes = await startApp({ EXTRA_MODULES: './test/support/notes-extension' });
    try {
      const dataSource = notes.app.get(DataSource);
      expect(await migrated(notes)).toContain('TestExtensionNotes1900000000000');
      const repository = dataSource.getRepository('TestExtensionNoteEntity');
      const saved = await repository.save({ text: 'hello' });
      expect(await repository.findOneBy({ id: saved.id })).toEqual({ id: saved.id, text: 'hello' });
      // The app's own entities and history are there too.
      expect(dataSource.hasMetadata('UserEntity')).toBe(true);
      expect(await migrated(notes)).toContain('SearchIndex1736900000000');
    } finally {
      await notes.close();
    }
    // An app started afterwards without the extension knows nothing of it.
    const plain = await startApp();
    try {
      expect(plain.app.get(DataSource).hasMetadata('TestExtensionNoteEntity')).toBe(false);
      expect(await migrated(plain)).not.toContain('TestExtensionNotes1900000000000');
    } finally {
      await plain.close();
    }
  });
});
