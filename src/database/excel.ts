import type * as ExcelJS from 'exceljs';

/** exceljs takes about 300 ms to load: only the requests that read or write a workbook pay for it, not start-up. */
export const loadExcel = (): Promise<typeof ExcelJS> => import('exceljs');
