import { randomBytes } from 'node:crypto';
import { ViewOperations as V } from '../../permissions';
import { TableOperations as T } from '../../permissions';
import { Injectable } from '@nestjs/common';
import { toApiDateTime } from '../../core/database/columns';
import { ApiError, validationError } from '../../core/errors/api-error';
import { FileStorage } from '../../files/storage/file-storage';
import type { JobEntity } from '../../jobs/job.entity';
import { JobProgress, JobRunner } from '../../jobs/job-runner';
import { JobRepository } from '../../jobs/job.repository';
import type { UserEntity } from '../../users/user.entity';
import { ViewsService } from '../../views/views.service';
import { ViewErrors } from '../../views/views.errors';
import type { FieldEntity } from '../fields/field.entity';
import { exportedValue, FieldTypeRegistry, fieldColumn } from '../fields/field-type';
import { RowListQuery, RowSelection } from '../rows/row-list.query';
import { RowsService } from '../rows/rows.service';
import { TableContext, TableContextService } from '../table-context';
import { CSV_SEPARATORS, EXPORT_CHARSETS, ExportTableDto } from './export.dto';
import { storeExportFile } from './export-file';
import { ExportOptions, TableExporter, TableExporterRegistry } from './table-exporter';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { yieldTurn } from '../../core/lifecycle/yield-turn';
import { Errors } from '../../core/errors/api-error';
import type { SlugCaller } from '../../views/view-access.service';
import { PublicViewsService } from '../../views/public/public-views.service';
import { PublicExportJobIds } from './public-export-job-ids';
import { PublicViewErrors } from '../../views/public/public-view.errors';
import { DatabaseErrors } from '../database.errors';

export const EXPORT_JOB_TYPE = 'export_table';
/**
 * Rows read, converted and written at a time: about 20,000 cells (a thousand rows of twenty
 * fields), so that converting a page stays a short slice of the event loop however wide the table.
 */
const pageSize = (fields: number): number => Math.max(50, Math.min(1000, Math.floor(20_000 / Math.max(1, fields + 1))));

export const ExportErrors = {
  jobDoesNotExist: () => new ApiError('ERROR_EXPORT_JOB_DOES_NOT_EXIST', 404, 'That export job does not exist.'),
  viewUnsupported: () => new ApiError('ERROR_VIEW_UNSUPPORTED_FOR_EXPORT_TYPE', 400, 'You cannot export this view using that exporter type.'),
};

/** View types whose rows can be exported (Baserow's exporters support grid views). */
const EXPORTABLE_VIEW_TYPES = new Set(['grid']);

/**
 * An export job as Baserow's `ExportJobSerializer` shows it: a running export is `exporting`
 * (Baserow's export jobs have their own states), its times as every other timestamp.
 */
export function serializeExportJob(job: JobEntity): Record<string, unknown> {
  const state = job.state === 'started' ? 'exporting' : job.state;
  return {
    id: job.id,
    table: job.data.table ?? null,
    view: job.data.view ?? null,
    exporter_type: job.data.exporter_type,
    state,
    status: state,
    exported_file_name: job.data.exported_file_name ?? null,
    created_at: toApiDateTime(job.createdOn),
    progress_percentage: job.progressPercentage,
    url: job.data.url ?? null,
  };
}

/** What an export reads: the rows of a selection, these fields as columns after `id`. */
interface ExportPlan {
  context: TableContext;
  selection: RowSelection;
  fields: FieldEntity[];
}

/**
 * Exports a table or one of its views to a file (CSV, JSON, XML, Excel) in a job: the rows
 * are read a page at a time in the view's (or the table's) order (RowReader.pages: one page
 * held at a time) and streamed through the exporter into the file storage under
 * `export_files/`; the finished job carries the URL.
 * A new export cancels the user's unfinished one, as Baserow does.
 */
@Injectable()
export class ExportService {
  constructor(
    private readonly contexts: TableContextService,
    private readonly rows: RowsService,
    private readonly listQuery: RowListQuery,
    private readonly views: ViewsService,
    private readonly types: FieldTypeRegistry,
    private readonly exporters: TableExporterRegistry,
    private readonly runner: JobRunner,
    private readonly jobs: JobRepository,
    private readonly storage: FileStorage,
    private readonly db: UnitOfWork,
    private readonly actions: ActionLog,
    private readonly publicViews: PublicViewsService,
    private readonly publicJobIds: PublicExportJobIds,
  ) {}

  async exportTable(user: UserEntity, tableId: number, body: ExportTableDto): Promise<Record<string, unknown>> {
    const context = await this.contexts.require(tableId, user.id, T.runExport);
    const exporter = this.exporters.require(body.exporter_type);
    const plan = await this.plan(user, context, body);
    const options = this.options(body);
    await this.jobs.cancelRunning(user.id, EXPORT_JOB_TYPE);
    const job = await this.runner.start(
      user,
      EXPORT_JOB_TYPE,
      { table: tableId, view: body.view_id || null, exporter_type: exporter.type, exported_file_name: null, url: null },
      async (progress) => {
        const done = await this.write(plan, exporter, options, progress);
        // Baserow's `export_table` action: not undoable, for the audit log.
        const params = { tableId, viewId: body.view_id || null, exporterType: exporter.type };
        await this.db.run(async () => this.actions.record('export_table', params, { scope: ActionScopes.table(tableId), workspaceId: context.workspaceId }));
        return done;
      },
    );
    return serializeExportJob(job);
  }

  /**
   * `POST /api/database/view/{slug}/export-public-view/` (Baserow premium): an export of a shared
   * view by anyone who may open it, run as nobody: only while the view is public and allows
   * public export (PERMISSION_DENIED otherwise, as Baserow's check of an anonymous export).
   * Only the view's visible fields are exported, filtered and ordered by; its saved filters hold.
   * The job is read by its signed id (`getPublic`).
   */
  async exportPublicView(caller: SlugCaller, slug: string, body: ExportTableDto): Promise<Record<string, unknown>> {
    const { view, context } = await this.views.requireBySlug(slug, caller, { notFound: DatabaseErrors.viewDoesNotExist, passwordRequired: PublicViewErrors.noAuthorization });
    if (!view.public || !view.allowPublicExport) throw Errors.permissionDenied();
    // Read after the checks: the first read of a view's field options stores them.
    const access = { view, context, visible: await this.publicViews.visibleFields(view, context), member: false };
    const exporter = this.exporters.require(body.exporter_type);
    if (!EXPORTABLE_VIEW_TYPES.has(view.type)) throw ExportErrors.viewUnsupported();
    const selection = await this.publicViews.exportSelection(access, body.filters ?? null, body.order_by || null);
    // `fields`: the visible ones among them, in the order given (others are left out, as Baserow does).
    const visible = new Map(access.visible.map((field) => [field.id, field]));
    const fields = body.fields ? body.fields.filter((id) => visible.has(id)).map((id) => visible.get(id)!) : access.visible;
    await this.listQuery.where(selection, context, this.rows.sqlBuilder(), false);
    const plan: ExportPlan = { context, selection, fields };
    const job = await this.runner.start(
      null,
      EXPORT_JOB_TYPE,
      { table: context.table.id, view: view.id, exporter_type: exporter.type, exported_file_name: null, url: null, public_export: true },
      (progress) => this.write(plan, exporter, this.options(body), progress),
    );
    return { ...serializeExportJob(job), id: this.publicJobIds.sign(job.id) };
  }

  /** `GET /api/database/view/get-public-view-export/{job_id}/`: a public export job by its signed id, for anyone who has it. */
  async getPublic(signedId: string): Promise<Record<string, unknown>> {
    const id = this.publicJobIds.verify(signedId);
    const job = id === null ? null : await this.jobs.find(id);
    if (!job || job.userId !== null || job.type !== EXPORT_JOB_TYPE) throw ExportErrors.jobDoesNotExist();
    return { ...serializeExportJob(job), id: signedId };
  }

  private options(body: ExportTableDto): ExportOptions {
    return {
      charset: EXPORT_CHARSETS[body.export_charset ?? 'utf-8'],
      csvColumnSeparator: CSV_SEPARATORS[body.csv_column_separator ?? ','],
      csvIncludeHeader: body.csv_include_header ?? true,
    };
  }

  async get(user: UserEntity, jobId: number): Promise<Record<string, unknown>> {
    const job = await this.jobs.find(jobId);
    if (!job || job.userId !== user.id || job.type !== EXPORT_JOB_TYPE) throw ExportErrors.jobDoesNotExist();
    return serializeExportJob(job);
  }

  /** The rows and columns of the export, checked now so that bad options answer the request. */
  private async plan(user: UserEntity, context: TableContext, body: ExportTableDto): Promise<ExportPlan> {
    let fields = context.fields;
    let saved: Pick<RowSelection, 'filters' | 'sorts'> = { filters: null, sorts: [] };
    if (body.view_id) {
      const { view } = await this.views.require(body.view_id, user.id, V.read);
      if (view.tableId !== context.table.id) throw ViewErrors.viewNotInTable(view.id);
      if (!EXPORTABLE_VIEW_TYPES.has(view.type)) throw ExportErrors.viewUnsupported();
      saved = await this.views.savedSelection(view, context);
      const options = (await this.views.fieldOptions(view, context, false)) as Record<string, { hidden?: boolean; order?: number }>;
      fields = context.fields
        .filter((field) => !options[String(field.id)]?.hidden)
        .sort((a, b) => Number(b.primary) - Number(a.primary) || (options[String(a.id)]?.order ?? 32767) - (options[String(b.id)]?.order ?? 32767) || a.id - b.id);
    }
    if (body.fields) {
      const missing = body.fields.filter((id) => !context.byId.has(id));
      if (missing.length) throw validationError({ fields: [{ error: `The fields ${missing.join(', ')} do not belong to the table.`, code: 'invalid' }] });
      fields = body.fields.map((id) => context.byId.get(id)!);
    }
    const adhoc = body.filters ? this.listQuery.parseFiltersJson(JSON.stringify(body.filters)) : null;
    const trees = [saved.filters, adhoc].filter((tree) => !!tree);
    const selection: RowSelection = {
      filters: trees.length > 1 ? { filter_type: 'AND', filters: [], groups: trees as never } : (trees[0] ?? null),
      search: null,
      sorts: body.order_by ? this.listQuery.parseOrderBy(context, body.order_by, false) : saved.sorts,
    };
    // Compiles the filters once here: an unknown field or type answers the request, not the job.
    await this.listQuery.where(selection, context, this.rows.sqlBuilder(), false);
    return { context, selection, fields };
  }

  /** The job's work: the file, written page by page; nothing stays stored when it fails or is cancelled. */
  private async write(plan: ExportPlan, exporter: TableExporter, options: ExportOptions, progress: JobProgress): Promise<Record<string, unknown>> {
    const name = `export_${randomBytes(24).toString('base64url')}.${exporter.extension}`;
    return storeExportFile(this.storage, name, exporter.contentType, async (out) => {
      const { count } = await this.rows.select(plan.context, plan.selection, false, 0, 0);
      const writer = await exporter.open(out, ['id', ...plan.fields.map((field) => field.name)], options);
      let done = 0;
      for await (const rows of this.rows.pages(plan.context, plan.selection, { userFieldNames: false, fields: plan.fields }, pageSize(plan.fields.length))) {
        await writer.writeRows(rows.map((row) => [row.id, ...plan.fields.map((field) => this.cell(field, row[fieldColumn(field)], exporter.rich))]));
        done += rows.length;
        await progress.set({ progress: Math.min(100, Math.floor((done / Math.max(1, count)) * 100)) });
        // Between pages, other requests: a page's conversion is one short slice of the event loop.
        await yieldTurn();
      }
      await writer.finish();
    });
  }

  private cell(field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    return exportedValue(this.types.of(field), field, apiValue, rich);
  }
}
