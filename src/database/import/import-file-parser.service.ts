import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { moduleFile } from '../../core/workers/spawn-worker';
import { WorkerBudget, WorkerBudgetExceeded, WorkerPool } from '../../core/workers/worker-pool';
import { ImportFileLimits, ImportFileOptions, invalidFile, ParsedImportChunk, ParsedImportFile } from './import-file.parser';

/** The worker task that parses a file (import-file.parser.ts). */
const PARSE_TASK = { file: moduleFile(__dirname, 'import-file.parser'), name: 'parseImportFileInChunks' };

/**
 * Parses uploaded import files in the worker pool, within the configured budgets: the size
 * limits (record size, columns, an .xlsx's inflated size) are checked by the parser, the time
 * and memory budgets by the pool. Every refusal is an API error (`ERROR_INVALID_FILE`, or
 * `ERROR_MAX_FIELD_COUNT_EXCEEDED` for too many columns), never a stall of the event loop.
 */
@Injectable()
export class ImportFileParser {
  private readonly limits: ImportFileLimits;
  private readonly budget: WorkerBudget;

  constructor(
    private readonly pool: WorkerPool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = {
      maxRecordBytes: config.importMaxRecordBytes,
      maxColumns: config.importMaxColumns,
      excel: { maxInflatedBytes: config.importExcelMaxInflatedBytes, maxRatio: config.importExcelMaxCompressionRatio },
    };
    this.budget = { timeoutMs: config.importParseTimeoutMs, maxMemoryMb: config.importParseMaxMemoryMb };
  }

  async parse(bytes: Buffer, options: ImportFileOptions): Promise<ParsedImportFile> {
    if (!bytes.length) throw invalidFile('The provided file is empty.');
    const rows: string[][] = [];
    let headerFromFile = false;
    try {
      for await (const chunk of this.pool.stream<ParsedImportChunk>(PARSE_TASK, [bytes, options, this.limits], this.budget)) {
        if ('headerFromFile' in chunk) headerFromFile = chunk.headerFromFile;
        // One row at a time, not a spread: a chunk's rows are appended without a call of thousands of arguments.
        else for (const row of chunk.rows) rows.push(row);
      }
    } catch (error) {
      if (error instanceof WorkerBudgetExceeded) {
        throw invalidFile(
          error.budget === 'time'
            ? `The provided file took longer than ${Math.round(this.budget.timeoutMs / 1000)} seconds to read.`
            : `The provided file needs more than ${this.budget.maxMemoryMb} MB of memory to read.`,
        );
      }
      throw error;
    }
    return { rows, headerFromFile };
  }
}
