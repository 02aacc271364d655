import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ExcelJS from 'exceljs';
import * as iconv from 'iconv-lite';
import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';
import { JobRepository } from '../src/jobs/job.repository';
import { download, pngImage, uploadFile } from './support/files';

let t: TestApp;
let ada: SignedUp;
let eve: SignedUp;
let databaseId: number;
let table: { id: number; fields: Record<string, number> };

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

/** Polls the export endpoint until the job has ended. */
async function exported(jobId: number, token = ada.token): Promise<any> {
  for (let i = 0; i < 3000; i++) {
    const job = (await api('GET', `/api/database/export/${jobId}/`, undefined, token)).body;
    if (!['pending', 'exporting'].includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The export did not end.');
}

/** The stored bytes of a finished export (the file its `url` names). */
function fileOf(job: any): Buffer {
  expect(job.url).toBe(`${t.config.mediaUrl.replace(/\/+$/, '')}/export_files/${job.exported_file_name}`);
  return readFileSync(join(t.config.mediaRoot, 'export_files', job.exported_file_name));
}

async function exportFile(body: Record<string, unknown>, tableId = table.id): Promise<{ job: any; file: Buffer }> {
  const res = await api('POST', `/api/database/export/table/${tableId}/`, body);
  expect(res.status).toBe(200);
  const job = await exported(res.body.id);
  expect(job.state).toBe('finished');
  return { job, file: fileOf(job) };
}

beforeAll(async () => {
  t = await startApp();
  ada = await signUp(t, 'Ada');
  eve = await signUp(t, 'Eve');
  databaseId = await databaseOf(t, ada);
  const id = await emptyTable(t, ada, databaseId, 'Export me');
  const existing = (await api('GET', `/api/database/fields/table/${id}/`)).body;
  for (const field of existing.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Amount', type: 'number', number_decimal_places: 2 });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Done', type: 'boolean' });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Kind', type: 'single_select', select_options: [{ value: 'A', color: 'blue' }, { value: 'B', color: 'red' }] });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'x', color: 'blue' }, { value: 'y', color: 'red' }] });
  await api('POST', `/api/database/fields/table/${id}/`, { name: 'Day', type: 'date', date_format: 'EU' });
  const fields = Object.fromEntries((await api('GET', `/api/database/fields/table/${id}/`)).body.map((f: any) => [f.name, f.id]));
  table = { id, fields };
  await api('POST', `/api/database/rows/table/${id}/batch/?user_field_names=true`, {
    items: [
      { Name: 'Ada, "the first"', Amount: '1.5', Done: true, Kind: 'A', Tags: ['x', 'y'], Day: '2024-03-01' },
      { Name: 'Bob', Amount: null, Done: false, Kind: null, Tags: [], Day: null },
      { Name: 'Café <b>', Amount: '20', Done: true, Kind: 'B', Tags: ['y'], Day: '2023-12-31' },
    ],
  });
});
afterAll(async () => t?.close());

describe('export', () => {
  test('CSV of a table: header, cells as Baserow writes them, the job polled until it carries the url', async () => {
    const res = await api('POST', `/api/database/export/table/${table.id}/`, { exporter_type: 'csv' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      table: table.id,
      view: null,
      exporter_type: 'csv',
      state: 'pending',
      status: 'pending',
      exported_file_name: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/),
      progress_percentage: 0,
      url: null,
    });
    const job = await exported(res.body.id);
    expect(job).toMatchObject({ state: 'finished', status: 'finished', progress_percentage: 100, exported_file_name: expect.stringMatching(/^export_[\w-]+\.csv$/) });
    const ids = (await api('GET', `/api/database/rows/table/${table.id}/`)).body.results.map((r: any) => r.id);
    const text = fileOf(job).toString('utf8');
    expect(text).toBe(
      '\ufeff' +
        [
          'id,Name,Amount,Done,Kind,Tags,Day',
          `${ids[0]},"Ada, ""the first""",1.50,True,A,"x,y",01/03/2024`,
          `${ids[1]},Bob,,False,,,`,
          `${ids[2]},Café <b>,20.00,True,B,y,31/12/2023`,
          '',
        ].join('\r\n'),
    );
  });

  test('JSON and XML keep lists and booleans; empty cells are "" as Baserow writes them', async () => {
    const ids = (await api('GET', `/api/database/rows/table/${table.id}/`)).body.results.map((r: any) => r.id);
    const json = JSON.parse((await exportFile({ exporter_type: 'json' })).file.toString('utf8'));
    expect(json).toEqual([
      { id: ids[0], Name: 'Ada, "the first"', Amount: '1.50', Done: true, Kind: 'A', Tags: ['x', 'y'], Day: '01/03/2024' },
      { id: ids[1], Name: 'Bob', Amount: '', Done: false, Kind: '', Tags: [], Day: '' },
      { id: ids[2], Name: 'Café <b>', Amount: '20.00', Done: true, Kind: 'B', Tags: ['y'], Day: '31/12/2023' },
    ]);
    const xml = (await exportFile({ exporter_type: 'xml' })).file.toString('utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8" ?>\n<rows>\n  <row>\n')).toBe(true);
    expect(xml).toContain(`<id>${ids[2]}</id>`);
    expect(xml).toContain('<Name>Café &lt;b&gt;</Name>');
    expect(xml).toContain('<Tags>\n      <item>x</item>\n      <item>y</item>\n    </Tags>');
    expect(xml).toContain('<Done>true</Done>');
    expect(xml.trimEnd().endsWith('</rows>')).toBe(true);
  });

  test('Excel is a real workbook with a header row and the cells as text', async () => {
    const { file } = await exportFile({ exporter_type: 'excel' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as any);
    const sheet = workbook.worksheets[0];
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['id', 'Name', 'Amount', 'Done', 'Kind', 'Tags', 'Day']);
    expect(values(2).slice(1)).toEqual(['Ada, "the first"', '1.50', 'True', 'A', 'x,y', '01/03/2024']);
    expect(sheet.rowCount).toBe(4);
  });

  test('CSV cells a spreadsheet would run as formulas are escaped as Baserow escapes them; JSON keeps integers as numbers', async () => {
    const id = await emptyTable(t, ada, databaseId, 'Formulas');
    for (const field of (await api('GET', `/api/database/fields/table/${id}/`)).body.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Count', type: 'number' });
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Delta', type: 'number', number_decimal_places: 1, number_negative: true });
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'a,b', color: 'blue' }, { value: 'c', color: 'red' }] });
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Twice', type: 'formula', formula: "field('Count') * 2" });
    await api('POST', `/api/database/fields/table/${id}/`, { name: '=Header', type: 'formula', formula: "field('Count') > 5" });
    // Text cells are trimmed on input: a leading tab or carriage return comes from formulas.
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Tab', type: 'formula', formula: "'\tx'" });
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Return', type: 'formula', formula: "'\ry'" });
    const link = (await api('POST', `/api/database/fields/table/${id}/`, { name: 'Link', type: 'link_row', link_row_table_id: table.id, has_related_field: false })).body;
    expect(link.id).toEqual(expect.any(Number));
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Looked', type: 'lookup', through_field_id: link.id, target_field_id: table.fields.Done });
    const linked = (await api('GET', `/api/database/rows/table/${table.id}/`)).body.results.map((r: any) => r.id).slice(0, 2);
    const names = ['=HYPERLINK("http://evil.example","click|me")', '+SUM(1)', '@cmd', '|pipe', '%x', '-', 'plain'];
    const created = await api('POST', `/api/database/rows/table/${id}/batch/?user_field_names=true`, {
      items: names.map((Name, i) => (i === 0 ? { Name, Count: 7, Delta: '-12.5', Tags: ['a,b', 'c'], Link: linked } : { Name, Count: i === 1 ? 12345678901 : null })),
    });
    expect(created.status).toBe(200);
    const ids = created.body.items.map((row: any) => row.id);
    const csv = (await exportFile({ exporter_type: 'csv' }, id)).file.toString('utf8').replace('\ufeff', '').split('\r\n');
    expect(csv[0]).toBe("id,Name,Count,Delta,Tags,Twice,'=Header,Tab,Return,Link,Looked");
    // Lists as Baserow's comma-separated text (an item with a comma or a quote quoted), then quoted again as a CSV cell.
    expect(csv[1]).toBe(`${ids[0]},"'=HYPERLINK(""http://evil.example"",""click\\|me"")",7,-12.5,"""a,b"",c",14,True,'\tx,"'\ry","""Ada, """"the first"""""",Bob","True,False"`);
    expect(csv[2]).toBe(`${ids[1]},'+SUM(1),12345678901,,,24691357802,True,'\tx,"'\ry",,`);
    expect(csv.slice(3, 8).map((line) => line.split(',').slice(1, 7))).toEqual([
      ["'@cmd", '', '', '', '0', 'False'],
      ["'\\|pipe", '', '', '', '0', 'False'],
      ["'%x", '', '', '', '0', 'False'],
      ["'-", '', '', '', '0', 'False'],
      ['plain', '', '', '', '0', 'False'],
    ]);
    const json = JSON.parse((await exportFile({ exporter_type: 'json' }, id)).file.toString('utf8'));
    expect(json[0]).toEqual({ id: ids[0], Name: names[0], Count: 7, Delta: '-12.5', Tags: ['a,b', 'c'], Twice: 14, '=Header': true, Tab: '\tx', Return: '\ry', Link: ['Ada, "the first"', 'Bob'], Looked: [true, false] });
    expect(json[1]).toEqual({ id: ids[1], Name: names[1], Count: 12345678901, Delta: '', Tags: [], Twice: 24691357802, '=Header': true, Tab: '\tx', Return: '\ry', Link: [], Looked: [] });
    expect(json[2]).toMatchObject({ Name: '@cmd', Count: '', Twice: 0, '=Header': false });
  });

  test('a running export is `exporting`, its created_at with microseconds as every timestamp', async () => {
    const jobs = t.app.get(JobRepository);
    const job = await jobs.create({ userId: ada.id, type: 'export_table', state: 'started', progressPercentage: 40, humanReadableError: '', data: { table: table.id, view: null, exporter_type: 'csv' } });
    const res = await api('GET', `/api/database/export/${job.id}/`);
    expect(res.body).toMatchObject({ id: job.id, state: 'exporting', status: 'exporting', progress_percentage: 40, url: null });
    const iso = job.createdOn.toISOString();
    expect(res.body.created_at).toBe(iso.endsWith('.000Z') ? iso.replace('.000Z', 'Z') : iso.replace(/Z$/, '000Z'));
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    await jobs.update(job.id, { state: 'cancelled' });
  });

  test('CSV options: separator, no header, charset', async () => {
    const { file } = await exportFile({ exporter_type: 'csv', csv_column_separator: ';', csv_include_header: false, export_charset: 'windows-1252' });
    const text = iconv.decode(file, 'windows-1252');
    const lines = text.split('\r\n');
    expect(lines[0]).toMatch(/^\d+;"Ada, ""the first""";1\.50;True;A;x,y;01\/03\/2024$/);
    expect(lines[2]).toMatch(/^\d+;Café <b>;20\.00;/);
    expect(file.includes(Buffer.from([0xe9]))).toBe(true);
    expect(file.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
  });

  test("a view export applies the view's filters, sorts, hidden fields and field order", async () => {
    const view = (await api('POST', `/api/database/views/table/${table.id}/`, { name: 'Done only', type: 'grid' })).body;
    await api('POST', `/api/database/views/${view.id}/filters/`, { field: table.fields.Done, type: 'boolean', value: '1' });
    await api('POST', `/api/database/views/${view.id}/sortings/`, { field: table.fields.Amount, order: 'DESC' });
    await api('PATCH', `/api/database/views/${view.id}/field-options/`, {
      field_options: { [table.fields.Tags]: { hidden: true }, [table.fields.Day]: { hidden: true }, [table.fields.Done]: { order: 1 }, [table.fields.Amount]: { order: 2 }, [table.fields.Kind]: { order: 0 } },
    });
    const { job, file } = await exportFile({ exporter_type: 'csv', view_id: view.id });
    expect(job.view).toBe(view.id);
    const lines = file.toString('utf8').replace('\ufeff', '').split('\r\n');
    expect(lines[0]).toBe('id,Name,Kind,Done,Amount');
    expect(lines.slice(1).map((line) => line.replace(/^\d+,/, ''))).toEqual(['Café <b>,B,True,20.00', '"Ada, ""the first""",A,True,1.50', '']);
  });

  test('bad options, views of other tables or types, strangers and missing objects are refused', async () => {
    const path = `/api/database/export/table/${table.id}/`;
    expect((await api('POST', path, { exporter_type: 'pdf' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', path, { exporter_type: 'csv', csv_column_separator: 'x' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', path, { exporter_type: 'csv', export_charset: 'klingon' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
    expect((await api('POST', path, { exporter_type: 'csv' }, eve.token)).body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    expect((await api('POST', '/api/database/export/table/999999/', { exporter_type: 'csv' })).body.error).toBe('ERROR_TABLE_DOES_NOT_EXIST');
    expect((await api('POST', path, { exporter_type: 'csv', view_id: 999999 })).body.error).toBe('ERROR_VIEW_DOES_NOT_EXIST');
    const other = await emptyTable(t, ada, databaseId, 'Other');
    const otherView = (await api('GET', `/api/database/views/table/${other}/`)).body[0];
    expect((await api('POST', path, { exporter_type: 'csv', view_id: otherView.id })).body.error).toBe('ERROR_VIEW_NOT_IN_TABLE');
    const form = (await api('POST', `/api/database/views/table/${table.id}/`, { name: 'Form', type: 'form' })).body;
    expect((await api('POST', path, { exporter_type: 'csv', view_id: form.id })).body).toEqual({ error: 'ERROR_VIEW_UNSUPPORTED_FOR_EXPORT_TYPE', detail: 'You cannot export this view using that exporter type.' });
    expect((await api('POST', path, { exporter_type: 'csv', order_by: 'field_999999' })).body.error).toBe('ERROR_ORDER_BY_FIELD_NOT_FOUND');
    const job = (await api('POST', path, { exporter_type: 'csv' })).body;
    await exported(job.id);
    expect((await api('GET', `/api/database/export/${job.id}/`, undefined, eve.token)).body).toEqual({ error: 'ERROR_EXPORT_JOB_DOES_NOT_EXIST', detail: 'That export job does not exist.' });
  });

  test('file cells export by visible name and URL; the Excel export and the image download from their URLs', async () => {
    const id = await emptyTable(t, ada, databaseId, 'With files');
    for (const field of (await api('GET', `/api/database/fields/table/${id}/`)).body.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    await api('POST', `/api/database/fields/table/${id}/`, { name: 'Files', type: 'file' });
    const image = await pngImage(60, 40);
    const upload = await uploadFile(t, `JWT ${ada.token}`, 'photo.png', image);
    expect(upload.status).toBe(200);
    const row = await api('POST', `/api/database/rows/table/${id}/?user_field_names=true`, { Name: 'With a photo', Files: [{ name: upload.body.name, visible_name: 'Photo' }] });
    expect(row.status).toBe(200);
    const cell = row.body.Files[0];
    expect(cell.url).toBe(upload.body.url);
    // The image and its thumbnail load from the instance.
    const original = await download(t, cell.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.body.equals(image)).toBe(true);
    const tiny = await download(t, cell.thumbnails.tiny.url);
    expect(tiny.status).toBe(200);
    expect(tiny.body.length).toBeGreaterThan(0);

    const csv = (await exportFile({ exporter_type: 'csv' }, id)).file.toString('utf8');
    expect(csv).toBe(`\ufeffid,Name,Files\r\n${row.body.id},With a photo,Photo (${cell.url})\r\n`);
    const json = JSON.parse((await exportFile({ exporter_type: 'json' }, id)).file.toString('utf8'));
    expect(json).toEqual([{ id: row.body.id, Name: 'With a photo', Files: [{ visible_name: 'Photo', name: upload.body.name, url: cell.url }] }]);
    const { job } = await exportFile({ exporter_type: 'excel' }, id);
    const xlsx = await download(t, job.url);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const values = workbook.worksheets[0].getRow(2).values as unknown[];
    expect(values.slice(1)).toEqual([row.body.id, 'With a photo', `Photo (${cell.url})`]);
  });

  test('a few thousand rows export complete and in order across pages: the table order (moved rows included) and a sorted view', async () => {
    const id = await emptyTable(t, ada, databaseId, 'Paged');
    // Notes repeat (ties of a sort) and some are empty (nulls of a sort).
    const data = Array.from({ length: 2_500 }, (_, i) => [`row ${i}`, i % 11 === 0 ? '' : `note ${i % 7}`, i % 2 ? 'true' : 'false']);
    const importJob = (await api('POST', `/api/database/tables/${id}/import/async/`, { data })).body;
    for (let i = 0; i < 3000; i++) {
      if ((await api('GET', `/api/jobs/${importJob.id}/`)).body.state === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    /** The row ids a client lists, page after page, in the table's or the view's order. */
    const listed = async (query: string): Promise<number[]> => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const body = (await api('GET', `/api/database/rows/table/${id}/?size=200&page=${page}${query}`)).body;
        ids.push(...body.results.map((row: any) => row.id));
        if (!body.next) return ids;
      }
    };
    const exportedIds = async (body: Record<string, unknown>): Promise<number[]> => {
      const { file } = await exportFile({ exporter_type: 'csv', ...body }, id);
      return file.toString('utf8').split('\r\n').slice(1, -1).map((line) => Number(line.split(',')[0].replace(/^\uFEFF/, '')));
    };
    // Rows moved between others take orders between theirs (fractions), across page boundaries.
    const ids = await listed('');
    expect(ids).toHaveLength(2_500);
    for (const [row, before] of [[ids[2_400], ids[1]], [ids[10], ids[1_500]], [ids[999], ids[1_000]], [ids[1_001], ids[0]]]) {
      expect((await api('PATCH', `/api/database/rows/table/${id}/${row}/move/?before_id=${before}`)).status).toBe(200);
    }
    const tableOrder = await listed('');
    expect(tableOrder).not.toEqual(ids);
    expect(await exportedIds({})).toEqual(tableOrder);

    const view = (await api('POST', `/api/database/views/table/${id}/`, { name: 'By notes', type: 'grid' })).body;
    const notes = (await api('GET', `/api/database/fields/table/${id}/`)).body.find((field: any) => field.name === 'Notes');
    expect((await api('POST', `/api/database/views/${view.id}/sortings/`, { field: notes.id, order: 'DESC' })).status).toBe(200);
    const viewOrder = await listed(`&view_id=${view.id}`);
    expect(new Set(viewOrder).size).toBe(2_500);
    expect(await exportedIds({ view_id: view.id })).toEqual(viewOrder);
  }, 120_000);

  test('100,000 rows export page by page without holding them in memory', async () => {
    const id = await emptyTable(t, ada, databaseId, 'Big');
    const data = Array.from({ length: 100_000 }, (_, i) => [`row ${i}`, `note ${i}`, i % 2 ? 'true' : 'false']);
    const importJob = (await api('POST', `/api/database/tables/${id}/import/async/`, { data })).body;
    for (let i = 0; i < 3000; i++) {
      if ((await api('GET', `/api/jobs/${importJob.id}/`)).body.state === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const { file } = await exportFile({ exporter_type: 'csv' }, id);
    clearInterval(sampler);
    const lines = file.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(100_002);
    expect(lines[100_000]).toMatch(/^\d+,row 99999,note 99999,True$/);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);

    // A new export cancels the user's unfinished one; a cancelled export leaves no file behind.
    const files = () => readdirSync(join(t.config.mediaRoot, 'export_files')).sort();
    const stored = files();
    const first = (await api('POST', `/api/database/export/table/${id}/`, { exporter_type: 'json' })).body;
    const second = (await api('POST', `/api/database/export/table/${id}/`, { exporter_type: 'xml' })).body;
    expect((await exported(first.id)).state).toBe('cancelled');
    const cancel = await api('POST', `/api/jobs/${second.id}/cancel/`);
    expect(cancel.status).toBe(200);
    const cancelled = await exported(second.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', url: null, exported_file_name: null });
    // The job shows `cancelled` at once; its work stops at its next page and removes what it wrote.
    for (let i = 0; i < 200 && files().length !== stored.length; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(files()).toEqual(stored);
  }, 120_000);
});
