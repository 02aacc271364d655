import { parse as parseCsv } from 'csv-parse/sync';
import type * as ExcelJS from 'exceljs';
import { loadExcel } from '../excel';
import { lazy } from '../../core/lazy';
import * as iconv from 'iconv-lite';
import { ApiError } from '../../core/errors/api-error';

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

/** The parsed rows of a file, and whether its first row names the columns (JSON and XML always do). */
export interface ParsedImportFile {
  rows: string[][];
  headerFromFile: boolean;
}

export const invalidFile = (detail: string): ApiError => new ApiError('ERROR_INVALID_FILE', 400, detail);

/**
 * An uploaded file as rows of text cells, read as Baserow's web client reads the file it
 * imports: CSV with the chosen separator and charset; JSON as a list of objects whose keys
 * (in order of first appearance) become the header row; XML as the root's children being
 * rows and their children the columns (tag names as the header row); Excel as the first
 * worksheet. Ragged rows are padded with empty cells, as the web client does. Anything
 * unreadable is `ERROR_INVALID_FILE`.
 */
export async function parseImportFile(bytes: Buffer, options: ImportFileOptions): Promise<ParsedImportFile> {
  if (!bytes.length) throw invalidFile('The provided file is empty.');
  switch (options.fileType) {
    case 'csv':
      return { rows: pad(parseCsvFile(bytes, options)), headerFromFile: false };
    case 'json':
      return { rows: objectsToRows(parseJsonFile(bytes)), headerFromFile: true };
    case 'xml':
      return { rows: objectsToRows(parseXmlFile(bytes)), headerFromFile: true };
    case 'excel':
      return { rows: pad(await parseExcelFile(bytes)), headerFromFile: false };
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

function parseCsvFile(bytes: Buffer, options: ImportFileOptions): string[][] {
  const text = decode(bytes, options.csvEncoding);
  try {
    return parseCsv(text, { delimiter: options.csvColumnSeparator, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (error) {
    throw invalidFile(`The provided file is not valid CSV: ${(error as Error).message}`);
  }
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

async function parseExcelFile(bytes: Buffer): Promise<string[][]> {
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw invalidFile('The provided file is not an Excel (.xlsx) workbook.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalidFile('The provided Excel workbook has no worksheet.');
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
function objectsToRows(objects: Record<string, unknown>[]): string[][] {
  const header: string[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      if (seen.has(key)) continue;
      seen.add(key);
      header.push(key);
    }
  }
  const text = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  return [header, ...objects.map((object) => header.map((key) => text(object[key])))];
}

/** Every row as wide as the widest. */
function pad(rows: string[][]): string[][] {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  return rows.map((row) => (row.length === width ? row : [...row, ...Array(width - row.length).fill('')]));
}
