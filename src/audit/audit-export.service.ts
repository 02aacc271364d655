import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { CSV_SEPARATORS, EXPORT_CHARSETS } from '../database/export/export.dto';
import { storeExportFile } from '../database/export/export-file';
import { CsvTableExporter } from '../database/export/exporters/csv.exporter';
import { FileStorage } from '../files/storage/file-storage';
import { JobProgress, JobRunner } from '../jobs/job-runner';
import { serializeJob } from '../jobs/job.serializer';
import type { UserEntity } from '../users/user.entity';
import { AUDIT_CSV_COLUMNS, AuditLogExportDto, parseApiDateTime } from './audit.dto';
import { AuditEntryRow, AuditFilters, AuditRepository } from './audit.repository';
import { AuditService, serializeEntry } from './audit.service';
import { isoMicros } from '../database/rows/row.repository';

export const AUDIT_EXPORT_JOB_TYPE = 'audit_log_export';
/** Entries read and written at a time (Baserow's paginator of 2000). */
const PAGE = 2000;

/**
 * The `audit_log_export` job (Baserow's AuditLogExportJobType): the filtered entries, the newest
 * first, written as CSV (the table export's CSV writer: separators, charsets, the byte order mark,
 * formula-like cells escaped) to the file storage under `export_files/`; the finished job carries
 * the file's name and URL. Who may export is checked when it is asked for and again when it runs.
 */
@Injectable()
export class AuditExportService {
  constructor(
    private readonly audit: AuditService,
    private readonly repo: AuditRepository,
    private readonly runner: JobRunner,
    private readonly storage: FileStorage,
    private readonly db: UnitOfWork,
  ) {}

  async start(user: UserEntity, body: AuditLogExportDto): Promise<Record<string, unknown>> {
    await this.audit.authorize(user, body.filter_workspace_id);
    const data = {
      csv_column_separator: body.csv_column_separator,
      csv_first_row_header: body.csv_first_row_header,
      export_charset: body.export_charset,
      filter_user_id: body.filter_user_id ?? null,
      filter_workspace_id: body.filter_workspace_id ?? null,
      filter_action_type: body.filter_action_type ?? null,
      filter_from_timestamp: apiTime(body.filter_from_timestamp),
      filter_to_timestamp: apiTime(body.filter_to_timestamp),
      exclude_columns: body.exclude_columns ?? null,
      created_on: toApiDateTime(new Date()),
      exported_file_name: null,
      url: null,
    };
    const job = await this.runner.start(user, AUDIT_EXPORT_JOB_TYPE, data, (progress) => this.write(user, data, progress));
    return serializeJob(job);
  }

  private async write(user: UserEntity, data: Record<string, any>, progress: JobProgress): Promise<Record<string, unknown>> {
    await this.db.run(() => this.audit.authorize(user, data.filter_workspace_id));
    const filters: AuditFilters = {
      userId: data.filter_user_id,
      workspaceId: data.filter_workspace_id,
      actionType: data.filter_action_type,
      from: data.filter_from_timestamp ? isoMicros(new Date(data.filter_from_timestamp)) : null,
      to: data.filter_to_timestamp ? isoMicros(new Date(data.filter_to_timestamp)) : null,
    };
    const excluded = new Set(data.exclude_columns ? String(data.exclude_columns).split(',') : []);
    const columns = Object.keys(AUDIT_CSV_COLUMNS).filter((column) => !excluded.has(column));
    const options = { charset: EXPORT_CHARSETS[data.export_charset], csvColumnSeparator: CSV_SEPARATORS[data.csv_column_separator], csvIncludeHeader: data.csv_first_row_header };
    return storeExportFile(this.storage, `${randomUUID()}.csv`, 'text/csv', async (out) => {
      const writer = await new CsvTableExporter().open(out, columns.map((column) => AUDIT_CSV_COLUMNS[column]), options);
      filters.upToId = await this.db.run(() => this.repo.lastId());
      const count = await this.db.run(() => this.repo.count(filters));
      for (let offset = 0; offset < count; offset += PAGE) {
        const rows = await this.db.run(() => this.repo.list(filters, [], PAGE, offset));
        await writer.writeRows(rows.map((row) => columns.map((column) => csvCell(row, column))));
        await progress.set({ progress: Math.min(100, Math.floor(((offset + rows.length) / count) * 100)) });
      }
      await writer.finish();
    });
  }
}

function apiTime(text: string | undefined): string | null {
  return text ? toApiDateTime(parseApiDateTime(text)) : null;
}

/** A cell as Baserow's CSV writer shows it (a timestamp as Python prints a datetime). */
function csvCell(row: AuditEntryRow, column: string): unknown {
  switch (column) {
    case 'type':
      return serializeEntry(row).type;
    case 'description':
      return serializeEntry(row).description;
    case 'timestamp':
      return pythonDateTime(row.action_timestamp);
    default:
      return row[column as keyof AuditEntryRow];
  }
}

/** `2024-05-01T10:00:00.123000Z` as Python's `str(datetime)`: `2024-05-01 10:00:00.123000+00:00`. */
function pythonDateTime(iso: string): string {
  const [date, time] = iso.replace('Z', '').split('T');
  const [clock, fraction = ''] = time.split('.');
  return `${date} ${clock}${/^0*$/.test(fraction) ? '' : `.${fraction.padEnd(6, '0').slice(0, 6)}`}+00:00`;
}
