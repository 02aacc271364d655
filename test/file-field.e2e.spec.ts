import { signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { databaseOf, emptyTable, settleJob } from './support/fixtures';
import { FieldTypeRegistry } from '../src/database/fields/field-type';
import { UnusedUserFilesService } from '../src/database/files/unused-user-files.service';
import { FileStorage } from '../src/files/storage/file-storage';
import { download, pngImage, uploadFile } from './support/files';

jest.setTimeout(60_000);

describe(`file field (${TEST_DB})`, () => {
  let t: TestApp;
  let user: SignedUp;
  let tableId: number;
  let fieldId: number;
  let image: any;
  let text: any;

  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: user.token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const rows = async (query = '') => (await ok('GET', `/api/database/rows/table/${tableId}/?user_field_names=true${query}`)).results;
  const names = async (query: string) => (await rows(query)).map((row: any) => row.Name);

  beforeAll(async () => {
    t = await startApp();
    user = await signUp(t);
    tableId = await emptyTable(t, user, await databaseOf(t, user), 'Docs');
    image = (await uploadFile(t, `JWT ${user.token}`, 'photo.png', await pngImage(120, 80))).body;
    text = (await uploadFile(t, `JWT ${user.token}`, 'notes.txt', Buffer.from('meeting notes'))).body;
    fieldId = (await ok('POST', `/api/database/fields/table/${tableId}/`, { name: 'Attachments', type: 'file' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is a field type with no properties of its own', async () => {
    const field = await ok('GET', `/api/database/fields/${fieldId}/`);
    expect(field).toMatchObject({ type: 'file', name: 'Attachments', primary: false });
  });

  it('writes files by name and answers them as Baserow does', async () => {
    const row = await ok('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, {
      Name: 'both',
      Attachments: [{ name: image.name, visible_name: 'Holiday' }, { name: text.name }],
    });
    expect(row.Attachments).toHaveLength(2);
    const [picture, notes] = row.Attachments;
    expect(Object.keys(picture)).toEqual(['url', 'thumbnails', 'visible_name', 'name', 'size', 'mime_type', 'is_image', 'image_width', 'image_height', 'uploaded_at']);
    expect(picture).toEqual({
      url: `http://localhost:8000/media/user_files/${image.name}`,
      thumbnails: {
        tiny: { url: `http://localhost:8000/media/thumbnails/tiny/${image.name}`, width: null, height: 21 },
        small: { url: `http://localhost:8000/media/thumbnails/small/${image.name}`, width: 48, height: 48 },
        card_cover: { url: `http://localhost:8000/media/thumbnails/card_cover/${image.name}`, width: 300, height: 160 },
      },
      visible_name: 'Holiday',
      name: image.name,
      size: image.size,
      mime_type: 'image/png',
      is_image: true,
      image_width: 120,
      image_height: 80,
      uploaded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/),
    });
    expect(notes).toMatchObject({ visible_name: 'notes.txt', name: text.name, thumbnails: null, is_image: false, mime_type: 'text/plain', image_width: null });
    expect((await download(t, picture.thumbnails.small.url)).status).toBe(200);

    await ok('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'text only', Attachments: `${text.name}` });
    await ok('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'none' });
    const listed = await rows();
    expect(listed.map((r: any) => [r.Name, r.Attachments.length])).toEqual([['both', 2], ['text only', 1], ['none', 0]]);
    expect(listed[0].Attachments).toEqual(row.Attachments);
  });

  it('refuses names of files that do not exist and malformed values, writing nothing', async () => {
    const before = await rows();
    const post = (value: unknown) => t.request('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { token: user.token, body: { Name: 'bad', Attachments: value } });
    // Baserow's UserFileDoesNotExist: the whole detail is one message naming the missing files.
    const missingName = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_0000000000000000000000000000000000000000000000000000000000000000.png';
    const missing = await post([{ name: missingName }]);
    expect([missing.status, missing.body]).toEqual([400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: `The user files ['${missingName}'] do not exist.` }]);
    const two = await post([{ name: 'zz_1.png' }, { name: image.name }, { name: 'bb_2.png' }, { name: 'zz_1.png' }]);
    expect([two.status, two.body]).toEqual([400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The user files ['bb_2.png', 'zz_1.png'] do not exist." }]);
    expect((await post(`${text.name},nope_y.txt`)).body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The user files ['nope_y.txt'] do not exist." });
    // Malformed values: the field's leaf of the detail tree, as FileFieldRequestSerializer answers.
    const leaf = (error: string, code: string) => ({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { Attachments: [{ error, code }] } });
    const sameType = leaf('All list values must be same type.', 'not_same_type');
    const cases: [unknown, unknown][] = [
      [[image.name, { name: text.name }], sameType],
      [[{ name: image.name }, text.name], sameType],
      [[image.name, 5], sameType],
      [['../../etc/passwd'], leaf('The user file name is invalid.', 'invalid')],
      [[{ name: '../x.png' }], leaf('The user file name is invalid.', 'invalid')],
      [`${text.name}, ${image.name}`, leaf('The user file name is invalid.', 'invalid')],
      [[{ visible_name: 'x' }], leaf('A name property is required for all values of the list.', 'required')],
      [[5], leaf('The provided value should be a list of valid string or objects containing a value property.', 'invalid')],
      [{ name: image.name }, leaf('This value must be a list or a string.', 'not_a_list')],
      [12, leaf('This value must be a list or a string.', 'not_a_list')],
      [[{ name: image.name, visible_name: 5 }], leaf('The provided `visible_name` must be a string.', 'invalid')],
    ];
    for (const [bad, expected] of cases) {
      const res = await post(bad);
      expect([JSON.stringify(bad), res.status, res.body]).toEqual([JSON.stringify(bad), 400, expected]);
    }
    const rowId = before[1].id;
    const update = await t.request('PATCH', `/api/database/rows/table/${tableId}/${rowId}/?user_field_names=true`, { token: user.token, body: { Attachments: ['nope_x.png'] } });
    expect([update.status, update.body]).toEqual([400, { error: 'ERROR_REQUEST_BODY_VALIDATION', detail: "The user files ['nope_x.png'] do not exist." }]);
    expect(await rows()).toEqual(before);
  });

  it('filters by file name, type and count, and is searched by visible name', async () => {
    const f = (type: string, value: string) => `&filter__field_${fieldId}__${type}=${encodeURIComponent(value)}`;
    expect(await names(f('filename_contains', 'holi'))).toEqual(['both']);
    expect(await names(f('filename_contains', 'NOTES'))).toEqual(['both', 'text only']);
    expect(await names(f('filename_contains', ''))).toEqual(['both', 'text only', 'none']);
    expect(await names(f('filename_contains', '%'))).toEqual([]);
    expect(await names(f('has_file_type', 'image'))).toEqual(['both']);
    expect(await names(f('has_file_type', 'document'))).toEqual(['both', 'text only']);
    expect(await names(f('has_file_type', 'video'))).toEqual(['both', 'text only', 'none']);
    expect(await names(f('files_lower_than', '2'))).toEqual(['text only', 'none']);
    expect(await names(f('files_lower_than', '1'))).toEqual(['none']);
    expect(await names(f('files_lower_than', 'x'))).toEqual(['both', 'text only', 'none']);
    expect(await names(f('empty', ''))).toEqual(['none']);
    expect(await names(f('not_empty', ''))).toEqual(['both', 'text only']);
    expect(await names('&search=holiday')).toEqual(['both']);
    expect(await names(`&search=${encodeURIComponent('notes.t')}`)).toEqual(['both', 'text only']);
    const wrong = await t.request('GET', `/api/database/rows/table/${tableId}/?filter__field_${fieldId}__contains=x`, { token: user.token });
    expect(wrong.body.error).toBe('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD');
  });

  it('counts empty cells in a grid view, and exports as Baserow does', async () => {
    const views = await ok('GET', `/api/database/views/table/${tableId}/`);
    const gridId = views.length ? views[0].id : (await ok('POST', `/api/database/views/table/${tableId}/`, { name: 'Grid', type: 'grid' })).id;
    const aggregate = async (type: string) => (await ok('GET', `/api/database/views/grid/${gridId}/aggregation/${fieldId}/?type=${type}`)).value;
    expect([await aggregate('empty_count'), await aggregate('not_empty_count')]).toEqual([1, 2]);

    const type = t.app.get(FieldTypeRegistry).require('file');
    const field = { id: fieldId, type: 'file' } as never;
    const [both] = await rows();
    const imageUrl = `http://localhost:8000/media/user_files/${image.name}`;
    const textUrl = `http://localhost:8000/media/user_files/${text.name}`;
    expect(type.exportValue!(field, both.Attachments, true)).toEqual([
      { visible_name: 'Holiday', name: image.name, url: imageUrl },
      { visible_name: 'notes.txt', name: text.name, url: textUrl },
    ]);
    expect(type.exportValue!(field, both.Attachments, false)).toBe(`Holiday (${imageUrl}),notes.txt (${textUrl})`);
    const commas = [{ ...both.Attachments[0], visible_name: 'a, b' }];
    expect(type.exportValue!(field, commas, false)).toBe(`"a, b (${imageUrl})"`);
    expect(type.exportValue!(field, [], false)).toBe('');
  });

  it('takes files from form visitors: uploaded for the form, then named in the submission', async () => {
    const form = await ok('POST', `/api/database/views/table/${tableId}/`, { name: 'Upload form', type: 'form' });
    await ok('PATCH', `/api/database/views/${form.id}/field-options/`, { field_options: { [fieldId]: { enabled: true } } });
    const formUpload = (auth: string | null) => {
      const body = new FormData();
      body.append('file', new Blob([Buffer.from('from a visitor')]), 'cv.txt');
      return fetch(`${t.url}/api/database/views/form/${form.slug}/upload-file/`, { method: 'POST', body, headers: auth ? { Authorization: auth } : {} });
    };
    const anonymous = await formUpload(null);
    expect([anonymous.status, await anonymous.json()]).toEqual([404, { error: 'ERROR_FORM_DOES_NOT_EXIST', detail: 'The requested form does not exist.' }]);
    const member = await formUpload(`JWT ${user.token}`);
    expect(member.status).toBe(200);
    await ok('PATCH', `/api/database/views/${form.id}/`, { public: true });
    const visitor = await formUpload(null);
    expect(visitor.status).toBe(200);
    const file = (await visitor.json()) as { name: string; original_name: string };
    expect(file.original_name).toBe('cv.txt');
    const submitted = await t.request('POST', `/api/database/views/form/${form.slug}/submit/`, { body: { [`field_${fieldId}`]: [{ name: file.name }] } });
    expect(submitted.status).toBe(200);
    const row = await ok('GET', `/api/database/rows/table/${tableId}/${submitted.body.row_id}/?user_field_names=true`);
    expect(row.Attachments.map((a: any) => [a.name, a.visible_name])).toEqual([[file.name, 'cv.txt']]);
    await ok('DELETE', `/api/database/rows/table/${tableId}/${submitted.body.row_id}/`);
    await ok('DELETE', `/api/database/views/${form.id}/`);
  });

  it('keeps its files through table duplication', async () => {
    const job = await ok('POST', `/api/database/tables/${tableId}/duplicate/async/`);
    await settleJob(t, user.token, job.id);
    const copy = (await ok('GET', `/api/jobs/${job.id}/`)).duplicated_table.id;
    const copied = (await ok('GET', `/api/database/rows/table/${copy}/?user_field_names=true`)).results;
    expect(copied.map((r: any) => r.Attachments)).toEqual((await rows()).map((r: any) => r.Attachments));
  });

  it('converts to text as `visible_name (url)` and back to the same files', async () => {
    const before = (await rows()).map((r: any) => r.Attachments.map((a: any) => [a.name, a.visible_name]));
    await ok('PATCH', `/api/database/fields/${fieldId}/`, { type: 'text' });
    const asText = await rows();
    expect(asText[0].Attachments).toBe(`Holiday (http://localhost:8000/media/user_files/${image.name}), notes.txt (http://localhost:8000/media/user_files/${text.name})`);
    expect(asText[2].Attachments).toBeNull();
    await ok('PATCH', `/api/database/rows/table/${tableId}/${asText[2].id}/?user_field_names=true`, { Attachments: 'no files here (http://x/y)' });
    await ok('PATCH', `/api/database/fields/${fieldId}/`, { type: 'file' });
    const back = (await rows()).map((r: any) => r.Attachments.map((a: any) => [a.name, a.visible_name]));
    expect(back).toEqual(before);
  });

  it('deletes the files nothing names any more, once older than the trash retention', async () => {
    const upload = async (name: string) => (await uploadFile(t, `JWT ${user.token}`, name, Buffer.from(`content of ${name}`))).body;
    const orphan = await upload('orphan.txt');
    const orphanImage = (await uploadFile(t, `JWT ${user.token}`, 'orphan.png', await pngImage(30, 30))).body;
    const historyOnly = await upload('history.txt');
    const trashedOnly = await upload('trashed.txt');
    const row = await ok('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'temp', Attachments: [historyOnly.name] });
    await ok('PATCH', `/api/database/rows/table/${tableId}/${row.id}/?user_field_names=true`, { Attachments: [] });
    const [entry] = (await ok('GET', `/api/database/rows/table/${tableId}/${row.id}/history/`)).results;
    expect(entry.before[`field_${fieldId}`]).toEqual([
      { name: historyOnly.name, visible_name: 'history.txt', size: historyOnly.size, mime_type: 'text/plain', is_image: false, image_width: null, image_height: null, uploaded_at: expect.stringMatching(/\+00:00$/) },
    ]);
    expect(entry.after[`field_${fieldId}`]).toEqual([]);
    expect(entry.fields_metadata[`field_${fieldId}`]).toEqual({ id: fieldId, type: 'file' });
    const trashed = await ok('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'trashed', Attachments: [trashedOnly.name] });
    await t.request('DELETE', `/api/database/rows/table/${tableId}/${trashed.id}/`, { token: user.token });

    const cleaner = t.app.get(UnusedUserFilesService);
    const storage = t.app.get(FileStorage);
    expect(await cleaner.deleteUnused(new Date())).toEqual([]);
    const later = new Date(Date.now() + (t.config.hoursUntilTrashPermanentlyDeleted + 1) * 3600 * 1000);
    expect((await cleaner.deleteUnused(later)).sort()).toEqual([orphan.name, orphanImage.name].sort());
    expect(await storage.exists(`user_files/${orphan.name}`)).toBe(false);
    expect(await storage.exists(`thumbnails/small/${orphanImage.name}`)).toBe(false);
    expect((await download(t, orphan.url)).status).toBe(404);
    for (const kept of [image, text, historyOnly, trashedOnly]) {
      expect(await storage.exists(`user_files/${kept.name}`)).toBe(true);
      expect((await download(t, kept.url)).status).toBe(200);
    }
    expect(await storage.exists(`thumbnails/small/${image.name}`)).toBe(true);
    // A deleted file can no longer be put in a cell.
    const reuse = await t.request('POST', `/api/database/rows/table/${tableId}/`, { token: user.token, body: { [`field_${fieldId}`]: [orphan.name] } });
    expect(reuse.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: `The user files ['${orphan.name}'] do not exist.` });
  });
});
