import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import * as iconv from 'iconv-lite';
import { ExportOptions, ExportWriter, TableExporter, write } from '../table-exporter';

/** `json`: a list of objects keyed by column name, cells rich (lists stay lists). */
@Injectable()
export class JsonTableExporter implements TableExporter {
  readonly type = 'json';
  readonly extension = 'json';
  readonly contentType = 'application/json';
  readonly rich = true;

  async open(out: Writable, columns: string[], options: ExportOptions): Promise<ExportWriter> {
    const encode = (text: string): Buffer => iconv.encode(text, options.charset);
    let first = true;
    await write(out, encode('['));
    return {
      writeRows: async (rows) => {
        if (!rows.length) return;
        const text = rows
          .map((row) => {
            const object: Record<string, unknown> = {};
            columns.forEach((column, i) => (object[column] = row[i] ?? null));
            return JSON.stringify(object);
          })
          .join(',\n');
        await write(out, encode(`${first ? '\n' : ',\n'}${text}`));
        first = false;
      },
      finish: async () => write(out, encode('\n]\n')),
    };
  }
}
