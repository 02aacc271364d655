import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import * as iconv from 'iconv-lite';
import { ExportOptions, ExportWriter, TableExporter, write } from '../table-exporter';

/**
 * Baserow's `escape_csv_cell` (defusedcsv): a cell a spreadsheet would run as a formula (one
 * starting with `=`, `+`, `-`, `@`, `|` or `%`, and, as OWASP adds, a tab or a carriage
 * return) is written after a `'`, its `|` escaped as `\|`; numbers such as `-12.5` stay as
 * they are.
 */
export function escapeCsvCell(text: string): string {
  if (!/^[=+\-@|%\t\r]/.test(text) || /^-?[0-9,.]+$/.test(text)) return text;
  return `'${text.replace(/\|/g, '\\|')}`;
}

/**
 * `csv`: a header row (optional), cells as text, each escaped against formula injection, in
 * the chosen separator and charset (UTF-8 with a byte order mark, as Excel reads it).
 */
@Injectable()
export class CsvTableExporter implements TableExporter {
  readonly type = 'csv';
  readonly extension = 'csv';
  readonly contentType = 'text/csv';
  readonly rich = false;

  async open(out: Writable, columns: string[], options: ExportOptions): Promise<ExportWriter> {
    const encode = (text: string): Buffer => iconv.encode(text, options.charset);
    const cells = (row: unknown[]): string[] => row.map((cell) => escapeCsvCell(cell === null || cell === undefined ? '' : String(cell)));
    // A line break of either kind is quoted, as Python's csv writer does (csv-stringify only quotes `\r\n` itself).
    const lines = (rows: unknown[][]): string => stringify(rows.map(cells), { delimiter: options.csvColumnSeparator, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
    if (options.charset === 'utf-8') await write(out, Buffer.from([0xef, 0xbb, 0xbf]));
    if (options.csvIncludeHeader) await write(out, encode(lines([columns])));
    return {
      writeRows: async (rows) => {
        if (rows.length) await write(out, encode(lines(rows)));
      },
      finish: async () => undefined,
    };
  }
}
