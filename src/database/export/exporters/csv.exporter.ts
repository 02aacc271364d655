import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import * as iconv from 'iconv-lite';
import { ExportOptions, ExportWriter, TableExporter, write } from '../table-exporter';

/** `csv`: a header row (optional), cells as text, in the chosen separator and charset (UTF-8 with a byte order mark, as Excel reads it). */
@Injectable()
export class CsvTableExporter implements TableExporter {
  readonly type = 'csv';
  readonly extension = 'csv';
  readonly contentType = 'text/csv';
  readonly rich = false;

  async open(out: Writable, columns: string[], options: ExportOptions): Promise<ExportWriter> {
    const encode = (text: string): Buffer => iconv.encode(text, options.charset);
    const lines = (rows: unknown[][]): string => stringify(rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))), { delimiter: options.csvColumnSeparator, record_delimiter: 'windows' });
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
