import * as ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, endedJob } from './support/fixtures';

/*
 * The budgets of parsing an uploaded import file (in a worker thread): each refusal is the
 * spec's error envelope, and nothing is written, neither a new table nor rows of an import.
 */

let t: TestApp;
let ada: SignedUp;
let databaseId: number;
let tableId: number;

async function upload(app: TestApp, token: string, path: string, file: Buffer | string, fileName: string, fields: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([typeof file === 'string' ? Buffer.from(file) : file]), fileName);
  const res = await fetch(app.url + path, { method: 'POST', headers: { Authorization: `JWT ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The names of the database's tables and the row count of the import target: what a refusal must leave as it was. */
async function state(app: TestApp, token: string, database: number, table: number): Promise<{ tables: string[]; rows: number }> {
  const tables = (await app.request('GET', `/api/database/tables/database/${database}/`, { token })).body.map((x: any) => x.name);
  const rows = (await app.request('GET', `/api/database/rows/table/${table}/?size=1`, { token })).body.count;
  return { tables, rows };
}

/** Uploads to both import routes (a new table, rows appended): both refused with `error` and `detail`, nothing written. */
async function expectRefused(app: TestApp, token: string, database: number, table: number, file: Buffer | string, fileName: string, error: string, detail: RegExp | string) {
  const before = await state(app, token, database, table);
  for (const [path, fields] of [
    [`/api/database/tables/database/${database}/async/`, { name: 'Refused' }],
    [`/api/database/tables/${table}/import/async/`, {}],
  ] as const) {
    const res = await upload(app, token, path, file, fileName, fields);
    expect({ path, status: res.status, error: res.body?.error }).toEqual({ path, status: 400, error });
    if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
    else expect(res.body.detail).toMatch(detail);
  }
  expect(await state(app, token, database, table)).toEqual(before);
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A workbook with one more entry in its zip (as a zip bomb hides one), deflated. */
async function withEntry(workbook: Buffer, name: string, content: Buffer): Promise<Buffer> {
  const zip = await JSZip.loadAsync(workbook);
  zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The workbook with the inflated size its zip directory declares for `name` set to `size` (a lying archive). */
function declaredSize(workbook: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(workbook);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = copy.indexOf(signature); at >= 0; at = copy.indexOf(signature, at + 4)) {
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      copy.writeUInt32LE(size, at + 24);
      return copy;
    }
  }
  throw new Error(`${name} is not in the workbook`);
}

/** Text that deflate cannot shrink much (hex digits of a simple generator). */
function incompressible(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = 123456789;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = '0123456789abcdef'.charCodeAt((x >> 16) & 15);
  }
  return out;
}

describe('size budgets', () => {
  beforeAll(async () => {
    t = await startApp({ IMPORT_MAX_RECORD_SIZE_MB: '1', IMPORT_EXCEL_MAX_INFLATED_MB: '4' });
    ada = await signUp(t, 'Ada');
    databaseId = await databaseOf(t, ada);
    const res = await upload(t, ada.token, `/api/database/tables/database/${databaseId}/async/`, 'Name,Notes\nfirst,one\n', 'seed.csv', { name: 'Target', first_row_header: 'true' });
    tableId = (await endedJob(t, ada.token, res.body.id)).table_id;
  });
  afterAll(async () => t?.close());

  test('a CSV record within the size budget is imported whole', async () => {
    const cell = 'y'.repeat(900 * 1024);
    const res = await upload(t, ada.token, `/api/database/tables/${tableId}/import/async/`, `big,"${cell}"\n`, 'big.csv');
    expect(res.status).toBe(200);
    expect((await endedJob(t, ada.token, res.body.id)).state).toBe('finished');
    const rows = (await t.request('GET', `/api/database/rows/table/${tableId}/?user_field_names=true&search=big`, { token: ada.token })).body.results;
    expect(rows.map((row: any) => [row.Name, row.Notes.length])).toEqual([['big', cell.length]]);
  });

  test('a CSV record over IMPORT_MAX_RECORD_SIZE_MB is ERROR_INVALID_FILE', async () => {
    await expectRefused(t, ada.token, databaseId, tableId, `name,notes\nfirst,${'y'.repeat(1536 * 1024)}\nsecond,z\n`, 'long.csv', 'ERROR_INVALID_FILE', /A record of the provided file is larger than 1048576 bytes/);
  });

  test('a line of a million columns is ERROR_MAX_FIELD_COUNT_EXCEEDED', async () => {
    await expectRefused(t, ada.token, databaseId, tableId, `${Array(1_000_000).fill('abc').join(',')}\n`, 'wide.csv', 'ERROR_MAX_FIELD_COUNT_EXCEEDED', '');
  });

  test('601 columns (one more than a table takes) in CSV, JSON and Excel is ERROR_MAX_FIELD_COUNT_EXCEEDED', async () => {
    const names = Array.from({ length: 601 }, (_, i) => `c${i}`);
    await expectRefused(t, ada.token, databaseId, tableId, `${names.join(',')}\n`, 'wide.csv', 'ERROR_MAX_FIELD_COUNT_EXCEEDED', '');
    await expectRefused(t, ada.token, databaseId, tableId, JSON.stringify([Object.fromEntries(names.map((n) => [n, 1]))]), 'wide.json', 'ERROR_MAX_FIELD_COUNT_EXCEEDED', '');
    await expectRefused(t, ada.token, databaseId, tableId, await xlsx([names]), 'wide.xlsx', 'ERROR_MAX_FIELD_COUNT_EXCEEDED', '');
  });

  test('an .xlsx whose zip directory declares more than IMPORT_EXCEL_MAX_INFLATED_MB is refused before it is inflated', async () => {
    const workbook = await withEntry(await xlsx([['Name'], ['Ada']]), 'xl/media/big.bin', incompressible(5 * 1024 * 1024));
    await expectRefused(t, ada.token, databaseId, tableId, workbook, 'big.xlsx', 'ERROR_INVALID_FILE', /too large: it would inflate to more than 4 MB/);
  });

  test('an .xlsx with an entry inflating more than IMPORT_EXCEL_MAX_COMPRESSION_RATIO times (a zip bomb) is refused', async () => {
    const workbook = await withEntry(await xlsx([['Name'], ['Ada']]), 'xl/media/zeros.bin', Buffer.alloc(3 * 1024 * 1024));
    await expectRefused(t, ada.token, databaseId, tableId, workbook, 'bomb.xlsx', 'ERROR_INVALID_FILE', /xl\/media\/zeros.bin inflates more than 100 times/);
  });

  test('an .xlsx whose entry inflates beyond the size its directory declares is refused', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [`name ${i}`, i]);
    const workbook = declaredSize(await xlsx(rows), 'xl/worksheets/sheet1.xml', 100);
    await expectRefused(t, ada.token, databaseId, tableId, workbook, 'liar.xlsx', 'ERROR_INVALID_FILE', /sheet1.xml inflates beyond its declared size/);
  });
});

describe('time budget', () => {
  let s: TestApp;
  let cy: SignedUp;
  beforeAll(async () => {
    s = await startApp({ IMPORT_PARSE_TIMEOUT_SECONDS: '1' });
    cy = await signUp(s, 'Cy');
  });
  afterAll(async () => s?.close());

  test('a parse that overruns IMPORT_PARSE_TIMEOUT_SECONDS is ERROR_INVALID_FILE, and the server goes on', async () => {
    const database = await databaseOf(s, cy);
    const res = await upload(s, cy.token, `/api/database/tables/database/${database}/async/`, 'Name\nfirst\n', 'seed.csv', { name: 'Target', first_row_header: 'true' });
    const table = (await endedJob(s, cy.token, res.body.id)).table_id;
    // About 19 MB of XML: fast-xml-parser takes seconds over it, the budget is one.
    const row = '<row><a>1</a><b>some text</b><c>x</c><d>y</d><e>z</e></row>';
    const xml = `<rows>${row.repeat(Math.floor((19 * 1024 * 1024) / row.length))}</rows>`;
    await expectRefused(s, cy.token, database, table, xml, 'slow.xml', 'ERROR_INVALID_FILE', 'The provided file took longer than 1 seconds to read.');
    expect((await s.request('GET', '/api/_health/')).status).toBe(200);
  });
});

describe('memory budget', () => {
  let m: TestApp;
  let bob: SignedUp;
  beforeAll(async () => {
    m = await startApp({ IMPORT_PARSE_MAX_MEMORY_MB: '64' });
    bob = await signUp(m, 'Bob');
  });
  afterAll(async () => m?.close());

  test('a parse that needs more heap than IMPORT_PARSE_MAX_MEMORY_MB is ERROR_INVALID_FILE', async () => {
    const database = await databaseOf(m, bob);
    const res = await upload(m, bob.token, `/api/database/tables/database/${database}/async/`, 'Name\nfirst\n', 'seed.csv', { name: 'Target', first_row_header: 'true' });
    const table = (await endedJob(m, bob.token, res.body.id)).table_id;
    // About 15 MB of JSON: 400,000 objects, well over 64 MB once parsed.
    const json = JSON.stringify(Array.from({ length: 400_000 }, (_, i) => ({ Name: `name ${i}`, n: i, tags: 'a b c' })));
    await expectRefused(m, bob.token, database, table, json, 'big.json', 'ERROR_INVALID_FILE', 'The provided file needs more than 64 MB of memory to read.');
  });
});
