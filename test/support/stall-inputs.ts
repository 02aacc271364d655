import * as ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { crc32, deflateRawSync } from 'node:zlib';

// jszip reuses an entry given as already-compressed data (its CompressedObject) instead of deflating it
// again in JavaScript: native zlib packs hundreds of MB in half a second where jszip's pako takes seconds.
const CompressedObject = require('jszip/lib/compressedObject');
const compressions = require('jszip/lib/compressions');

/**
 * An .xlsx whose one sheet inflates to about `inflatedBytes` (rows of one long inline string,
 * so it deflates about 500:1): the "zip bomb" of an import, a small upload that a reader
 * without a bound on the inflated size spends minutes and gigabytes on.
 */
export async function inflatingXlsx(inflatedBytes: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Data').addRow(['x']);
  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()));
  const sheetPath = Object.keys(zip.files).find((path) => /^xl\/worksheets\/sheet\d*\.xml$/.test(path));
  if (!sheetPath) throw new Error('exceljs wrote no sheet');
  const head = Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
  const tail = Buffer.from('</sheetData></worksheet>');
  const text = Buffer.alloc(10_000, 'a');
  const rows = Math.ceil(inflatedBytes / text.length);
  const pieces: Buffer[] = [head];
  for (let r = 1; r <= rows; r++) pieces.push(Buffer.from(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>`), text, Buffer.from('</t></is></c></row>'));
  pieces.push(tail);
  const sheet = Buffer.concat(pieces);
  const deflated = deflateRawSync(sheet, { level: 4 });
  zip.file(sheetPath, new CompressedObject(deflated.length, sheet.length, crc32(sheet), compressions.DEFLATE, deflated));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A CSV of one record whose first cell is `cellBytes` long. */
export const longCellCsv = (cellBytes: number): Buffer => Buffer.from(`${'x'.repeat(cellBytes)},short\n`);

/** A CSV of one line of `columns` two-letter cells. */
export const wideCsv = (columns: number): Buffer => Buffer.from(`${new Array<string>(columns).fill('ab').join(',')}\n`);

/** `count` rows of three text cells (a table's worth of `data`), with a header row first. */
export function manyRows(count: number): string[][] {
  const rows: string[][] = [['Name', 'Amount', 'Note']];
  for (let i = 1; i <= count; i++) rows.push([`row ${i}`, String(i), `note of row ${i}`]);
  return rows;
}
