import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { TypeRegistry } from '../../core/registry/type-registry';

/** The export options every exporter reads (validated by the export endpoint). */
export interface ExportOptions {
  /** iconv-lite's name of the charset text is written in. */
  charset: string;
  csvColumnSeparator: string;
  csvIncludeHeader: boolean;
}

/** One exported file being written: a header (the column names), then rows of cells. */
export interface ExportWriter {
  /** Cells of one row, in column order: the exporter's `rich` values or text. */
  writeRows(rows: unknown[][]): Promise<void>;
  /** Ends the file (closing tags, the workbook's zip directory). */
  finish(): Promise<void>;
}

/**
 * One export file type (Baserow's table exporter registry): its file extension and whether it
 * keeps cells rich (lists and objects, JSON and XML) or as text (CSV, Excel). One
 * implementation per file in `exporters/`.
 */
export interface TableExporter {
  readonly type: string;
  readonly extension: string;
  readonly contentType: string;
  readonly rich: boolean;
  /** Starts a file on `out` with these column names (the first is `id`). */
  open(out: Writable, columns: string[], options: ExportOptions): Promise<ExportWriter>;
}

@Injectable()
export class TableExporterRegistry extends TypeRegistry<TableExporter> {
  protected readonly kind = 'Table exporter';
}

/** Writes to a stream, waiting while it is full (an export never buffers more than a page); fails once the stream is closed. */
export async function write(out: Writable, chunk: Buffer | string): Promise<void> {
  if (out.destroyed) throw new Error('The export stream is closed.');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('error', done);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('The export stream is closed.'));
    out.once('drain', onDrain);
    out.once('error', done);
    out.once('close', onClose);
  });
}
