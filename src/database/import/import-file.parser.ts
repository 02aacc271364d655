import { isUtf8 } from 'node:buffer';
import { parse as parseCsv } from 'csv-parse/sync';
import type * as ExcelJS from 'exceljs';
import { loadExcel } from '../excel';
import { lazy } from '../../core/lazy';
import * as iconv from 'iconv-lite';
import { ApiError } from '../../core/errors/api-error';
import { DatabaseErrors } from '../database.errors';
import { checkZipBounds, ZipBounds } from './zip-bounds';

/*
 * This module runs in a worker thread (see ImportFileParser): parsing a file of megabytes takes
 * long enough to hold up every other request, so it never runs on the main event loop.
 */

export const IMPORT_FILE_TYPES = ['csv', 'json', 'xml', 'excel'] as const;
export type ImportFileType = (typeof IMPORT_FILE_TYPES)[number];

/** The CSV separators an upload may name: the characters, or the names the export takes. */
export const IMPORT_CSV_SEPARATORS: Readonly<Record<string, string>> = { ',': ',', ';': ';', '|': '|', tab: '\t', '\t': '\t', record_separator: '\x1e', unit_separator: '\x1f' };

export interface ImportFileOptions {
  fileType: ImportFileType;
  /** CSV only: the column separator character. */
  csvColumnSeparator: string;
  /** CSV only: the charset the bytes are in (iconv-lite names). */
  csvEncoding: string;
}

/** The size budgets of a parse (the time and memory budgets are the worker's). */
export interface ImportFileLimits {
  /** CSV: the largest record (a line, all its cells), in characters. */
  maxRecordBytes: number;
  /** Every type: the most columns a row (or the JSON / XML header) may have. */
  maxColumns: number;
  /** Excel: what the .xlsx may inflate to, checked before it is inflated. */
  excel: ZipBounds;
}

/** The parsed rows of a file, and whether its first row names the columns (JSON and XML always do). */
export interface ParsedImportFile {
  rows: string[][];
  headerFromFile: boolean;
}

/** What the worker posts: first whether the file names its columns, then the rows a chunk at a time. */
export type ParsedImportChunk = { headerFromFile: boolean } | { rows: string[][] };

export const invalidFile = (detail: string): ApiError => new ApiError('ERROR_INVALID_FILE', 400, detail);

/** Baserow's refusal of a table with more fields than MAX_FIELD_LIMIT, for a file with more columns (as table creation answers it). */
const tooManyColumns = (): ApiError => DatabaseErrors.maxFieldCountExceeded();

/** Rows per posted chunk, and about how many characters of cells. */
const CHUNK_ROWS = 2000;
const CHUNK_CHARS = 1024 * 1024;

/**
 * The worker task: the file parsed (see parseImportFile), posted as `{headerFromFile}` and then
 * chunks of rows, so that the main thread takes them a slice at a time.
 */
export async function* parseImportFileInChunks(bytes: Uint8Array, options: ImportFileOptions, limits: ImportFileLimits): AsyncGenerator<ParsedImportChunk> {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parsed = await parseImportFile(buffer, options, limits);
  yield { headerFromFile: parsed.headerFromFile };
  const { rows } = parsed;
  let start = 0;
  while (start < rows.length) {
    let end = start;
    let chars = 0;
    while (end < rows.length && end - start < CHUNK_ROWS && chars < CHUNK_CHARS) {
      for (const cell of rows[end]) chars += cell.length;
      end++;
    }
    const chunk = rows.slice(start, end);
    // Let go of what was posted.
    rows.fill(null as unknown as string[], start, end);
    start = end;
    yield { rows: chunk };
  }
}

/**
 * An uploaded file as rows of text cells, read as Baserow's web client reads the file it
 * imports: CSV with the chosen separator and charset; JSON as a list of objects whose keys
 * (in order of first appearance) become the header row; XML as the root's children being
 * rows and their children the columns (tag names as the header row); Excel as the first
 * worksheet. Ragged rows are padded with empty cells, as the web client does. Anything
 * unreadable, or beyond the limits, is `ERROR_INVALID_FILE` (too many columns is Baserow's
 * `ERROR_MAX_FIELD_COUNT_EXCEEDED`).
 */
export async function parseImportFile(bytes: Buffer, options: ImportFileOptions, limits: ImportFileLimits): Promise<ParsedImportFile> {
  if (!bytes.length) throw invalidFile('The provided file is empty.');
  switch (options.fileType) {
    case 'csv':
      return { rows: pad(parseCsvFile(bytes, options, limits)), headerFromFile: false };
    case 'json':
      return { rows: objectsToRows(parseJsonFile(bytes), limits.maxColumns), headerFromFile: true };
    case 'xml':
      return { rows: objectsToRows(parseXmlFile(bytes), limits.maxColumns), headerFromFile: true };
    case 'excel':
      return { rows: pad(await parseExcelFile(bytes, limits)), headerFromFile: false };
  }
}

/** Text of a file in a charset; UTF-8 must be valid UTF-8 (a file of mixed encodings is refused). */
function decode(bytes: Buffer, encoding: string): string {
  if (encoding.toLowerCase().replace('_', '-') === 'utf-8') {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw invalidFile('The provided file is not valid UTF-8 text; choose its encoding.');
    }
  }
  if (!iconv.encodingExists(encoding)) throw invalidFile(`The encoding ${encoding} is not supported.`);
  return iconv.decode(bytes, encoding);
}

const isUtf8Name = (encoding: string): boolean => ['utf-8', 'utf8'].includes(encoding.toLowerCase().replace('_', '-'));

/**
 * The CSV's records. UTF-8 bytes go to csv-parse as they are (checked valid first, without
 * decoding them to a string csv-parse would encode again); other charsets are decoded. The
 * record delimiter is found here (see scanCsv): csv-parse's own discovery allocates three
 * buffers per character until the first line ends, which made a line of megabytes take seconds.
 */
function parseCsvFile(bytes: Buffer, options: ImportFileOptions, limits: ImportFileLimits): string[][] {
  let input: Buffer | string;
  if (isUtf8Name(options.csvEncoding)) {
    if (!isUtf8(bytes)) throw invalidFile('The provided file is not valid UTF-8 text; choose its encoding.');
    input = bytes;
  } else input = decode(bytes, options.csvEncoding);
  const recordDelimiter = scanCsv(input, options.csvColumnSeparator, limits.maxColumns);
  try {
    return parseCsv(input, {
      delimiter: options.csvColumnSeparator,
      record_delimiter: recordDelimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      max_record_size: limits.maxRecordBytes,
    }) as string[][];
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw invalidFile(`A record of the provided file is larger than ${limits.maxRecordBytes} bytes.`);
    throw invalidFile(`The provided file is not valid CSV: ${(error as Error).message}`);
  }
}

/**
 * One pass over the CSV before csv-parse reads it: its record delimiter (the first line ending
 * outside quotes, `\r\n`, `\n` or `\r`, as csv-parse would discover it; `\n` when there is
 * none), and the refusal of a record with more than `maxColumns` cells as soon as the scan
 * passes it (a line of a million columns is refused without building a record of a million
 * strings; csv-parse's per-cell `cast` hook costs 20 µs a cell). Quotes toggle wherever they
 * are: csv-parse refuses a quote inside an unquoted cell anyway.
 */
export function scanCsv(input: Buffer | string, separator: string, maxColumns: number): string {
  const at = typeof input === 'string' ? (i: number) => input.charCodeAt(i) : (i: number) => input[i];
  const separatorCode = separator.charCodeAt(0);
  let delimiter: string | null = null;
  let quoted = false;
  let columns = 1;
  for (let i = 0; i < input.length; i++) {
    const code = at(i);
    // A doubled quote inside quotes toggles twice: still quoted.
    if (code === 34) quoted = !quoted;
    else if (quoted) continue;
    else if (code === separatorCode) {
      if (++columns > maxColumns) throw tooManyColumns();
    } else if (code === 10 || code === 13) {
      delimiter ??= code === 10 ? '\n' : at(i + 1) === 10 ? '\r\n' : '\r';
      columns = 1;
    }
  }
  return delimiter ?? '\n';
}

function parseJsonFile(bytes: Buffer): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = JSON.parse(decode(bytes, 'utf-8'));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalidFile(`The provided file is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value) || !value.length || value.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) {
    throw invalidFile('The provided JSON file must be a non-empty list of objects.');
  }
  return value as Record<string, unknown>[];
}

type XmlNode = Record<string, unknown>;

const xml = lazy(() => require('fast-xml-parser') as typeof import('fast-xml-parser'));

/**
 * Entities a file's DOCTYPE may declare: internal ones only (an external entity is refused by
 * the parser, never fetched), each of at most 10,000 characters, at most 1,000 of them, adding
 * at most 1,000,000 characters however often they are used.
 */
const ENTITY_LIMITS = { enabled: true, maxEntitySize: 10_000, maxEntityCount: 1_000, maxTotalExpansions: 100_000, maxExpandedLength: 1_000_000 };

/** A reference to a general entity other than XML's five and character references. */
const DECLARED_ENTITY_REFERENCE = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)[^\s&;]+;/;

/**
 * The internal subset of the file's DOCTYPE (`<!DOCTYPE rows [ … ]>`), or '' (quoted values
 * and comments may hold `]`).
 */
function internalSubset(text: string): string {
  const doctype = text.indexOf('<!DOCTYPE');
  if (doctype < 0) return '';
  let i = doctype + 9;
  let start = -1;
  while (i < text.length) {
    const char = text[i];
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    if (char === '"' || char === "'") {
      const end = text.indexOf(char, i + 1);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (char === '[' && start < 0) start = i + 1;
    else if (char === ']' && start >= 0) return text.slice(start, i);
    else if (char === '>' && start < 0) return '';
    i++;
  }
  return start >= 0 ? text.slice(start) : '';
}

function parseXmlFile(bytes: Buffer): Record<string, unknown>[] {
  const text = decode(bytes, 'utf-8');
  const { XMLParser, XMLValidator } = xml();
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw invalidFile(`The provided file is not valid XML: ${valid.err.msg} (line ${valid.err.line})`);
  // An entity defined by others is how an exponential expansion (billion laughs) starts: refused.
  for (const match of internalSubset(text).matchAll(/<!ENTITY\s+[^\s"']+\s+(["'])([\s\S]*?)\1/g)) {
    if (DECLARED_ENTITY_REFERENCE.test(match[2])) throw invalidFile('The provided XML file declares entities that refer to other entities, which is not supported.');
  }
  // Ordered nodes (`[{tag: children}]`), every value kept as text, entities decoded, no
  // attributes. `htmlEntities` is what makes the parser decode character references (`&#65;`).
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: ENTITY_LIMITS, htmlEntities: true });
  let parsed: XmlNode[];
  try {
    parsed = parser.parse(text) as XmlNode[];
  } catch (error) {
    // External entities, entities over the limits and other DOCTYPE refusals of the parser.
    throw invalidFile(`The provided file is not valid XML: ${(error as Error).message}`);
  }
  const nodes = parsed.filter((node) => !('?xml' in node) && !('#text' in node));
  const root = nodes.length === 1 ? (Object.values(nodes[0])[0] as XmlNode[]) : null;
  if (!root) throw invalidFile('The provided XML file must have one root element.');
  const rows = root.filter((node) => !('#text' in node)).map((row) => {
    const object: Record<string, unknown> = {};
    for (const cell of (Object.values(row)[0] as XmlNode[]).filter((node) => !('#text' in node))) {
      const [tag, children] = Object.entries(cell)[0] as [string, XmlNode[]];
      if (!(tag in object)) object[tag] = children.map((child) => ('#text' in child ? String(child['#text']) : '')).join('');
    }
    return object;
  });
  if (!rows.length) throw invalidFile('The provided XML file has no rows.');
  return rows;
}

async function parseExcelFile(bytes: Buffer, limits: ImportFileLimits): Promise<string[][]> {
  // Before exceljs inflates anything: an archive that would inflate beyond the bounds is refused.
  const refusal = checkZipBounds(bytes, limits.excel);
  if (refusal?.reason === 'not-a-zip') throw invalidFile('The provided file is not an Excel (.xlsx) workbook.');
  if (refusal) throw invalidFile(`The provided Excel workbook is too large: ${refusal.detail}.`);
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw invalidFile('The provided file is not an Excel (.xlsx) workbook.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalidFile('The provided Excel workbook has no worksheet.');
  if (sheet.columnCount > limits.maxColumns) throw tooManyColumns();
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column++) cells.push(excelText(row.getCell(column)));
    rows.push(cells);
  });
  return rows;
}

/** A cell as the text it shows (formula results, rich text, dates as ISO dates). */
function excelText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().replace('T00:00:00.000Z', '');
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return value.result === undefined || value.result === null ? '' : String(value.result instanceof Date ? value.result.toISOString() : value.result);
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

/** Objects as rows under a header row of their keys (in order of first appearance); nested values as JSON. */
function objectsToRows(objects: Record<string, unknown>[], maxColumns: number): string[][] {
  const header: string[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      if (seen.has(key)) continue;
      seen.add(key);
      header.push(key);
      if (header.length > maxColumns) throw tooManyColumns();
    }
  }
  const text = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const rows: string[][] = [header];
  // A loop, not a spread: a million rows would overflow the call stack.
  for (const object of objects) rows.push(header.map((key) => text(object[key])));
  return rows;
}

/** Every row as wide as the widest. */
function pad(rows: string[][]): string[][] {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  return rows.map((row) => (row.length === width ? row : [...row, ...Array(width - row.length).fill('')]));
}
