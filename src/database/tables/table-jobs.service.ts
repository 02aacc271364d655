import { Injectable } from '@nestjs/common';
import { ApplicationOperations as A, TableOperations as T } from '../../permissions';
import type { JobEntity } from '../../jobs/job.entity';
import { JobRunner } from '../../jobs/job-runner';
import { serializeJob } from '../../jobs/jobs.service';
import type { UserEntity } from '../../users/user.entity';
import { serializeTable } from './table.serializer';
import { EXAMPLE_TABLE, tableFromData, TablesService } from './tables.service';

/** Table work that runs as a job polled through `/api/jobs/{id}/`: import-create and duplicate. */
@Injectable()
export class TableJobsService {
  constructor(
    private readonly tables: TablesService,
    private readonly runner: JobRunner,
  ) {}

  /** `file_import`: the table is created from `data` in the background. */
  async createAsync(user: UserEntity, databaseId: number, input: { name: string; data?: unknown[][]; firstRowHeader: boolean }): Promise<Record<string, unknown>> {
    const database = await this.tables.requireDatabase(user, databaseId, A.createTable);
    const job = await this.runner.start(
      user,
      'file_import',
      { database_id: databaseId, name: input.name, table_id: null, first_row_header: input.firstRowHeader, report: { failing_rows: {} } },
      async (progress) => {
        const initial = input.data ? tableFromData(input.data, input.firstRowHeader) : EXAMPLE_TABLE;
        // Each chunk reports progress, which notices a cancel: the hidden table is then dropped.
        const table = await this.tables.createTable(database, input.name, initial, user.id, (done, total) => progress.set({ progress: Math.floor((done / total) * 99) }), true);
        return { table_id: table.id };
      },
    );
    return serializeJob(job);
  }

  /**
   * `duplicate_table`: a copy named "<name> 2" placed right after the original. The request is
   * refused when the user may not duplicate the table (Baserow's DuplicateTableJobType.prepare_values), not the job.
   */
  async duplicateAsync(user: UserEntity, tableId: number): Promise<Record<string, unknown>> {
    const original = await this.tables.get(user, tableId, T.duplicate);
    const job: JobEntity = await this.runner.start(user, 'duplicate_table', { original_table: original, duplicated_table: null }, async (progress) => {
      const table = await this.tables.duplicate(user, tableId, (done, total) => progress.set({ progress: Math.floor((done / total) * 99) }));
      return { duplicated_table: serializeTable(table) };
    });
    return serializeJob(job);
  }
}
