import * as ExcelJS from 'exceljs';
import * as iconv from 'iconv-lite';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable, endedJob } from './support/fixtures';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

/** A multipart POST of `file` (named `fileName`) with the given form fields. */
async function upload(path: string, file: Buffer | string | null, fileName: string, fields: Record<string, string> = {}, token = ada.token): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file !== null) form.append('file', new Blob([typeof file === 'string' ? Buffer.from(file) : file]), fileName);
  const res = await fetch(t.url + path, { method: 'POST', headers: { Authorization: `JWT ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const ended = (jobId: number): Promise<any> => endedJob(t, ada.token, jobId);

/** Creates a table from an upload and answers its rows keyed by field name. */
async function createFrom(file: Buffer | string, fileName: string, fields: Record<string, string> = {}): Promise<{ job: any; rows: any[] }> {
  const res = await upload(`/api/database/tables/database/${databaseId}/async/`, file, fileName, { name: `From ${fileName}`, ...fields });
  expect(res.status).toBe(200);
  const job = await ended(res.body.id);
  expect(job.state).toBe('finished');
  const rows = (await api('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true`)).body.results.map(({ id: _id, order: _order, ...cells }: any) => cells);
  return { job, rows };
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = await databaseOf(t, ada);
});
afterAll(async () => t?.close());

describe('creating a table from an uploaded file', () => {
  test('CSV with a header row, a separator and an encoding', async () => {
    const csv = iconv.encode('Name;City\r\nZoë;"Köln; Mitte"\r\nBo;Paris\r\n', 'windows-1252');
    const { job, rows } = await createFrom(csv, 'people.csv', { csv_column_separator: ';', csv_encoding: 'windows-1252', first_row_header: 'true' });
    expect(job).toMatchObject({ type: 'file_import', name: 'From people.csv', first_row_header: true });
    expect(rows).toEqual([
      { Name: 'Zoë', City: 'Köln; Mitte' },
      { Name: 'Bo', City: 'Paris' },
    ]);
  });

  test('CSV without a header names the fields "Field N"; ragged rows are padded', async () => {
    const { rows } = await createFrom('a,b,c\nd\n', 'plain.csv');
    expect(rows).toEqual([
      { 'Field 1': 'a', 'Field 2': 'b', 'Field 3': 'c' },
      { 'Field 1': 'd', 'Field 2': '', 'Field 3': '' },
    ]);
  });

  test('JSON: a list of objects, keys in order of first appearance, nested values as JSON', async () => {
    const { rows } = await createFrom(JSON.stringify([{ name: 'Ada', age: 36 }, { name: 'Bob', tags: ['x'], age: null }]), 'people.json');
    expect(rows).toEqual([
      { name: 'Ada', age: '36', tags: '' },
      { name: 'Bob', age: '', tags: '["x"]' },
    ]);
  });

  test("XML: the root's children are rows, their children the columns", async () => {
    const xml = '<?xml version="1.0"?>\n<people>\n  <person><name>Ada &amp; co</name><age>36</age></person>\n  <person><age>7</age><city>Rome</city></person>\n</people>';
    const { rows } = await createFrom(xml, 'people.xml');
    expect(rows).toEqual([
      { name: 'Ada & co', age: '36', city: '' },
      { name: '', age: '7', city: 'Rome' },
    ]);
    // Internal entities of its DOCTYPE are decoded, within limits.
    const declared = await createFrom('<?xml version="1.0"?>\n<!DOCTYPE people [ <!ENTITY co "Company Ltd"> ]>\n<people><person><name>&co; &amp; &#65;</name></person></people>', 'entities.xml');
    expect(declared.rows).toEqual([{ name: 'Company Ltd & A' }]);
  });

  test('Excel: the first worksheet', async () => {
    const { rows } = await createFrom(await xlsx([['Name', 'Count'], ['Ada', 3], ['Bob', 4.5]]), 'book.xlsx', { first_row_header: 'true' });
    expect(rows).toEqual([
      { Name: 'Ada', Count: '3' },
      { Name: 'Bob', Count: '4.5' },
    ]);
  });
});

describe('appending an uploaded file to a table', () => {
  test('the rows of a CSV file are imported through the field types', async () => {
    const tableId = await emptyTable(t, ada, databaseId, 'Append CSV');
    const res = await upload(`/api/database/tables/${tableId}/import/async/`, 'Name,Notes,Active\nAda,hello,true\nBob,,no\n', 'rows.csv', { first_row_header: 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'file_import', table_id: tableId, state: 'pending' });
    const job = await ended(res.body.id);
    expect(job).toMatchObject({ state: 'finished', report: { failing_rows: {} } });
    const rows = (await api('GET', `/api/database/rows/table/${tableId}/?user_field_names=true`)).body.results;
    expect(rows.map((r: any) => [r.Name, r.Notes, r.Active])).toEqual([
      ['Ada', 'hello', true],
      ['Bob', '', false],
    ]);
  });

  test('JSON rows are appended without their header row, with a configuration', async () => {
    const tableId = await emptyTable(t, ada, databaseId, 'Append JSON');
    const fields = (await api('GET', `/api/database/fields/table/${tableId}/`)).body;
    const notes = fields.find((f: any) => f.name === 'Notes').id;
    const res = await upload(`/api/database/tables/${tableId}/import/async/`, JSON.stringify([{ a: 'x', b: 'skipped' }]), 'rows.json', { configuration: JSON.stringify({ skipped_fields: [notes] }) });
    const job = await ended(res.body.id);
    expect(job.state).toBe('finished');
    const rows = (await api('GET', `/api/database/rows/table/${tableId}/?user_field_names=true`)).body.results;
    expect(rows.map((r: any) => [r.Name, r.Notes])).toEqual([['x', null]]);
  });
});

const XXE = '<?xml version="1.0"?>\n<!DOCTYPE r [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<r><row><a>&xxe;</a></row></r>';
const BILLION_LAUGHS = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE lolz [',
  ' <!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
  ']>',
  '<lolz><row><a>&lol9;</a></row></lolz>',
].join('\n');

describe('bad uploads', () => {
  const before = async () => (await api('GET', `/api/database/tables/database/${databaseId}/`)).body.length;

  test.each([
    ['broken quoting', 'a,"b\nc,d\n', 'bad.csv', {}, /not valid CSV/],
    ['mixed encodings', Buffer.concat([Buffer.from('name\nZoë\n'), iconv.encode('Zoë\n', 'latin1')]), 'mixed.csv', {}, /not valid UTF-8/],
    ['an empty file', '', 'empty.csv', {}, /empty/],
    ['JSON that is not a list of objects', '{"a": 1}', 'x.json', {}, /list of objects/],
    ['a list of lists as JSON', '[[1, 2]]', 'x.json', {}, /list of objects/],
    ['truncated JSON', '[{"a": 1}', 'x.json', {}, /not valid JSON/],
    ['broken XML', '<rows><row><a>1</row></rows>', 'x.xml', {}, /not valid XML/],
    // Hostile XML: never fetched, never expanded without bound, never a 500.
    ['XML with an external entity', XXE, 'x.xml', {}, /External entities are not supported/],
    ['XML with an external parameter entity', '<?xml version="1.0"?>\n<!DOCTYPE r [ <!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p; ]>\n<r><row><a>1</a></row></r>', 'x.xml', {}, /not valid XML/],
    ['XML with an entity over the size limit', `<?xml version="1.0"?>\n<!DOCTYPE r [ <!ENTITY big "${'x'.repeat(10_001)}"> ]>\n<r><row><a>&big;</a></row></r>`, 'x.xml', {}, /exceeds maximum allowed size/],
    ['XML whose entities expand past the limit', `<!DOCTYPE r [ <!ENTITY e "${'x'.repeat(10_000)}"> ]>\n<r>${'<row><a>&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;</a></row>'.repeat(11)}</r>`, 'x.xml', {}, /limit exceeded/],
    ['XML with nested entities (billion laughs)', BILLION_LAUGHS, 'x.xml', {}, /refer to other entities/],
    ['Excel that is not Excel', 'PK\u0003\u0004 definitely not a zip', 'x.xlsx', {}, /not an Excel/],
    ['a text file named .xlsx', 'name\nAda\n', 'x.xlsx', {}, /not an Excel/],
    ['an unknown encoding', 'a\n', 'x.csv', { csv_encoding: 'klingon' }, /not supported/],
  ])('%s is ERROR_INVALID_FILE and creates nothing', async (_name, file, fileName, fields, detail) => {
    const count = await before();
    const res = await upload(`/api/database/tables/database/${databaseId}/async/`, file, fileName, { name: 'Bad', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_INVALID_FILE');
    expect(res.body.detail).toMatch(detail);
    expect(await before()).toBe(count);
  });

  test('a missing file, bad options, strangers and broken multipart are refused', async () => {
    expect((await upload(`/api/database/tables/database/${databaseId}/async/`, null, '', { name: 'x' })).body.error).toBe('ERROR_INVALID_FILE');
    expect((await upload(`/api/database/tables/database/${databaseId}/async/`, 'a\n', 'x.csv', { name: 'x', file_type: 'pdf' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await upload(`/api/database/tables/database/${databaseId}/async/`, 'a\n', 'x.bin', { name: 'x' })).body).toEqual({
      error: 'ERROR_REQUEST_BODY_VALIDATION',
      detail: { file_type: [{ error: 'This field is required.', code: 'required' }] },
    });
    expect((await upload(`/api/database/tables/database/${databaseId}/async/`, 'a\n', 'x.csv', {})).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await upload(`/api/database/tables/database/${databaseId}/async/`, 'a\n', 'x.csv', { name: 'x' }, eve.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    const broken = await t.request('POST', `/api/database/tables/database/${databaseId}/async/`, {
      token: ada.token,
      raw: '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nunterminated',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xx' },
    });
    expect(broken.status).toBe(400);
    // Elsewhere multipart is still DRF's 415.
    const elsewhere = await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: ada.token, raw: '--xx--\r\n', headers: { 'Content-Type': 'multipart/form-data; boundary=xx' } });
    expect(elsewhere.status).toBe(415);
  });

  test('the OpenAPI document shows the multipart variant', async () => {
    const document = (await t.request('GET', '/api/schema.json')).body;
    const operation = document.paths['/api/database/tables/{tableId}/import/async/'].post;
    expect(Object.keys(operation.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(operation.requestBody.content['multipart/form-data'].schema.properties.file).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
  });
});

describe('large files', () => {
  test('a table is created from a CSV of 20,000 rows (more values than one statement binds)', async () => {
    const lines = ['a,b,c,d,e', ...Array.from({ length: 20_000 }, (_, i) => `${i},b${i},c${i},d${i},e${i}`)];
    const { job } = await createFrom(lines.join('\n'), 'large.csv', { first_row_header: 'true' });
    const last = (await api('GET', `/api/database/rows/table/${job.table_id}/?user_field_names=true&size=1&page=20000`)).body;
    expect(last.count).toBe(20_000);
    expect(last.results[0]).toMatchObject({ a: '19999', e: 'e19999' });
  }, 60_000);
});
