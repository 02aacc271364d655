import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { loadExcel } from '../../excel';
import { ExportWriter, TableExporter } from '../table-exporter';
import { yieldTurn } from '../../../core/lifecycle/yield-turn';

/** `excel`: an .xlsx workbook of one sheet, a header row and cells as text, written as a stream. */
@Injectable()
export class ExcelTableExporter implements TableExporter {
  readonly type = 'excel';
  readonly extension = 'xlsx';
  readonly contentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  readonly rich = false;

  async open(out: Writable, columns: string[]): Promise<ExportWriter> {
    const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(columns).commit();
    return {
      writeRows: async (rows) => {
        for (const row of rows) sheet.addRow(row.map((cell) => (cell === null || cell === undefined ? null : typeof cell === 'number' ? cell : String(cell)))).commit();
        // Let the zip stream flush what the rows produced before the next page.
        await yieldTurn();
      },
      finish: async () => {
        sheet.commit();
        await workbook.commit();
      },
    };
  }
}
