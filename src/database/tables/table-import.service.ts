import { Inject, Injectable, Logger } from '@nestjs/common';
import { PermissionService, TableOperations as T } from '../../permissions';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { LongWrite } from '../../core/database/long-write';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ApiError, ErrorTree, FieldError, validationError } from '../../core/errors/api-error';
import { pythonTypeName } from '../../core/validation/field';
import { JobFailure, JobProgress, JobRunner } from '../../jobs/job-runner';
import { serializeJob } from '../../jobs/jobs.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { CellError, FieldTypeRegistry, fieldColumn } from '../fields/field-type';
import { RowRepository } from '../rows/row.repository';
import type { RowWriteSession } from '../rows/row-cascade';
import { ImportedCells, RowsService } from '../rows/rows.service';
import { TableContext, TableContextService, tableScope } from '../table-context';
import { yieldTurn } from '../../core/lifecycle/yield-turn';

/**
 * Rows prepared and inserted per batch (the row repository splits an INSERT further when a
 * batch holds more values than one statement binds). Small batches keep what a batch allocates
 * short-lived: with 1,024 rows the server's memory grew by 130 MB over a 100,000-row import,
 * with 256 by 80 MB, at the same speed.
 */
const BATCH_ROWS = 256;

/** What an import into an existing table writes: rows of cells, and the optional upsert and skip settings. */
export interface ImportInput {
  data: unknown[][];
  configuration?: ImportConfiguration | null;
}

export interface ImportConfiguration {
  upsert_fields?: number[] | null;
  upsert_values?: unknown[][] | null;
  skipped_fields?: number[] | null;
}

const notAList = (value: unknown): FieldError => ({ error: `Expected a list of items but got type "${pythonTypeName(value)}".`, code: 'not_a_list' });
const minLengthError = (length: number): FieldError => ({ error: `Ensure this field has at least ${length} elements.`, code: 'min_length' });

/** The report of a finished import: per failing row index, the messages per field. */
export type FailingRows = Record<string, Record<string, string[]>>;

/** What an import has done so far: its failing rows, and the rows it created and updated. */
interface ImportState {
  failingRows: FailingRows;
  failures: number;
  created: number[];
  updated: number[];
}

/**
 * Imports rows into an existing table (`file_import` jobs): the columns of `data` are the
 * table's writable fields in their order (primary first), each value is converted by its
 * field type as a row create converts it, rows that fail are reported and left out, the
 * others are inserted in multi-row statements. With `upsert_fields`, a row whose
 * `upsert_values` match an existing row updates it instead.
 *
 * An append is a long write: chunks of `LONG_WRITE_CHUNK_ROWS` rows, each its own transaction,
 * so that other writes take turns with it; its rows show as they are committed (as rows another
 * user creates) and are announced once at the end. A failure or a cancel deletes the rows its
 * committed chunks created. An upsert, which changes existing rows, stays one transaction.
 */
@Injectable()
export class TableImportService {
  private readonly logger = new Logger(TableImportService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly long: LongWrite,
    private readonly contexts: TableContextService,
    private readonly rowsService: RowsService,
    private readonly rows: RowRepository,
    private readonly types: FieldTypeRegistry,
    private readonly runner: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly permissions: PermissionService,
  ) {}

  /** Checks the table and the configuration, then runs the import as a `file_import` job. */
  async importAsync(user: UserEntity, tableId: number, input: ImportInput): Promise<Record<string, unknown>> {
    const context = await this.contexts.require(tableId, user.id, T.importRows);
    const configuration = this.checkConfiguration(context, input);
    const job = await this.runner.start(
      user,
      'file_import',
      { database_id: context.table.databaseId, name: null, table_id: tableId, first_row_header: false, report: { failing_rows: {} } },
      async (progress) => ({ report: { failing_rows: await this.importRows(user, tableId, input.data, configuration, progress) } }),
    );
    return serializeJob(job);
  }

  /** The fields the columns of imported data fill, in order: the writable ones, primary first. */
  importFields(context: TableContext): FieldEntity[] {
    return context.fields.filter((field) => !this.types.of(field).readOnly);
  }

  /**
   * The import itself: nothing stays when it fails or is cancelled (a progress report notices
   * the cancel and throws). Answers the failing rows.
   */
  async importRows(user: UserEntity, tableId: number, data: unknown[][], configuration: ImportConfiguration, progress: JobProgress | null): Promise<FailingRows> {
    const state: ImportState = { failingRows: {}, failures: 0, created: [], updated: [] };
    const report = (done: number) => progress?.set({ progress: Math.floor((done / data.length) * 100) });
    const fieldIds = this.importFields(await this.contexts.require(tableId, user.id, T.importRows)).map((field) => field.id);
    const size = this.long.rowsPerChunk(fieldIds.length);
    // An upsert, or rows that fit in one chunk, in one transaction.
    if (!this.long.chunked || configuration.upsert_fields?.length || data.length <= size) {
      await this.db.run(async () => {
        const context = await this.contexts.require(tableId, user.id, T.importRows);
        const upsert = configuration.upsert_fields?.length ? await this.upsertIndex(context, configuration.upsert_fields) : null;
        const session = await this.rowsService.beginImport(context);
        await this.importRange(context, user.id, data, 0, data.length, configuration, upsert, session, state, report);
        await this.rowsService.announceImport(context, state.created, state.updated);
      });
      return state.failingRows;
    }
    try {
      for (let start = 0; start < data.length; start += size) {
        await this.long.chunk(async () => {
          const context = await this.contexts.require(tableId, user.id, T.importRows);
          // The columns of the data are the fields as they were when the import began.
          if (this.importFields(context).map((field) => field.id).join() !== fieldIds.join()) throw DatabaseErrors.importFieldsChanged();
          const session = await this.rowsService.beginImport(context);
          await this.importRange(context, user.id, data, start, Math.min(data.length, start + size), configuration, null, session, state, null);
          this.db.rowsChanged(tableId);
        });
        await report(Math.min(data.length, start + size));
      }
      await this.db.run(async () => this.rowsService.announceImport(await this.contexts.require(tableId, user.id, T.importRows), state.created));
    } catch (error) {
      await this.undo(tableId, state.created);
      throw error;
    }
    return state.failingRows;
  }

  /** Deletes the rows a failed or cancelled import created, in chunks as they were written. */
  private async undo(tableId: number, ids: number[]): Promise<void> {
    try {
      for (let start = 0; start < ids.length; start += this.long.chunkRows) {
        const part = ids.slice(start, start + this.long.chunkRows);
        await this.long.chunk(async () => {
          const context = await this.contexts.ofTable(tableId);
          if (context) await this.rowsService.removeImported(context, part);
        });
      }
    } catch (error) {
      this.logger.error(`Undoing the import into table ${tableId} failed`, error instanceof Error ? error.stack : String(error));
    }
  }

  /** Rows `from` to `to` of the data, in batches, inside the caller's transaction. */
  private async importRange(
    context: TableContext,
    userId: number,
    data: unknown[][],
    from: number,
    to: number,
    configuration: ImportConfiguration,
    upsert: { fields: FieldEntity[]; rows: Map<string, number> } | null,
    session: RowWriteSession | null,
    state: ImportState,
    report: ((done: number) => Promise<void> | undefined) | null,
  ): Promise<void> {
    const fields = this.importFields(context);
    // Fields the importing user may not write (field permissions) are left out, as Baserow's import does.
    const unwritable = await this.permissions.unwritableFields(userId, tableScope(context.table, context.workspaceId), fields.map((field) => field.id));
    const skipped = new Set([...(configuration.skipped_fields ?? []), ...unwritable]);
    for (let start = from; start < to; start += BATCH_ROWS) {
      const chunk = data.slice(start, Math.min(to, start + BATCH_ROWS));
      // The job owns its rows: the ones done are let go, so memory shrinks as the import goes.
      data.fill(null as unknown as unknown[], start, start + chunk.length);
      const bodies = chunk.map((row) => {
        const body: Record<string, unknown> = {};
        fields.forEach((field, i) => {
          if (!skipped.has(field.id) && Array.isArray(row) && i < row.length) body[fieldColumn(field)] = row[i];
        });
        return body;
      });
      const { valid, failing, validIndexes } = await this.prepare(context, bodies, userId);
      for (const [index, errors] of failing) state.failingRows[String(start + index)] = errors;
      state.failures += failing.size;
      if (state.failures > this.config.maxRowReportErrorCount) {
        throw new JobFailure('ERROR_REPORT_MAX_ERRORS_COUNT_EXCEEDED', 'This file import has raised too many errors.', { report: { failing_rows: state.failingRows } });
      }
      const inserts: ImportedCells[] = [];
      const updates: { id: number; cells: ImportedCells }[] = [];
      for (const [k, cells] of valid.entries()) {
        const index = start + validIndexes[k];
        const existing = upsert ? await this.matchUpsert(context, upsert, configuration.upsert_values?.[index], userId) : undefined;
        if (existing === undefined) inserts.push(cells);
        else updates.push({ id: existing, cells });
      }
      await this.rowsService.updateImported(context, updates, userId, session);
      for (const update of updates) state.updated.push(update.id);
      // A loop, not push(...ids): no spread of a long array into a call.
      for (const id of await this.rowsService.insertImported(context, inserts, userId, session)) state.created.push(id);
      if (report) {
        await report(start + chunk.length);
        // SQLite's driver answers without leaving the microtask queue: let other requests (polls, cancels) in.
        await yieldTurn();
      }
    }
  }

  private async prepare(context: TableContext, bodies: Record<string, unknown>[], userId: number) {
    const { valid, failing } = await this.rowsService.prepareImport(context, bodies, userId);
    const validIndexes = bodies.map((_, i) => i).filter((i) => !failing.has(i));
    return { valid, failing, validIndexes };
  }

  /**
   * The body checks Baserow's TableImportConfiguration and TableImportSerializer make: lists of
   * field ids (`upsert_fields` not empty), lists of upsert value lists, upsert values when
   * upsert fields are given, one upsert value list per row; then known fields.
   */
  private checkConfiguration(context: TableContext, input: ImportInput): ImportConfiguration {
    const raw = input.configuration;
    if (raw === undefined || raw === null) return {};
    const tree: ErrorTree = {};
    const list = (key: keyof ImportConfiguration, minLength: number): unknown[] | null => {
      const value = raw[key];
      if (value === undefined || value === null) return null;
      if (!Array.isArray(value)) tree[key] = [notAList(value)];
      else if (value.length < minLength) tree[key] = [minLengthError(minLength)];
      else return value;
      return null;
    };
    const ids = (key: 'upsert_fields' | 'skipped_fields', minLength: number): number[] | null => {
      const value = list(key, minLength);
      const errors: ErrorTree = {};
      value?.forEach((id, i) => {
        if (typeof id !== 'number' || !Number.isInteger(id)) errors[String(i)] = [{ error: 'A valid integer is required.', code: 'invalid' }];
        else if (id < 1) errors[String(i)] = [{ error: 'Ensure this value is greater than or equal to 1.', code: 'min_value' }];
      });
      if (Object.keys(errors).length) tree[key] = errors;
      return value as number[] | null;
    };
    const upsertFields = ids('upsert_fields', 1);
    const skippedFields = ids('skipped_fields', 0);
    const upsertValues = list('upsert_values', 0);
    const valueErrors: ErrorTree = {};
    upsertValues?.forEach((item, i) => {
      if (!Array.isArray(item)) valueErrors[String(i)] = [notAList(item)];
      else if (!item.length) valueErrors[String(i)] = [minLengthError(1)];
    });
    if (Object.keys(valueErrors).length) tree['upsert_values'] = valueErrors;
    if (Object.keys(tree).length) throw validationError({ configuration: tree });
    const values = upsertValues as unknown[][] | null;
    if (upsertFields?.length && !values?.length) {
      // Baserow's key, as its serializer spells it.
      throw validationError({ configuration: { upsert_value: [{ error: 'upsert_values must not be empty when upsert_fields are provided.', code: 'invalid' }] } });
    }
    if (values?.length && values.length !== input.data.length) {
      const error = { error: '`data` and `configuration.upsert_values` should have the same length.', code: 'invalid' };
      // The serializer's own `validate`: a list under `data`, the bare error under `configuration`.
      throw validationError({ data: [error], configuration: { upsert_values: error as unknown as ErrorTree } });
    }
    if (upsertFields?.length && values!.some((v) => v.length !== upsertFields.length)) {
      tree['upsert_values'] = [{ error: 'Each upsert_values item must contain as many values as upsert_fields.', code: 'invalid' } as FieldError];
    }
    if (Object.keys(tree).length) throw validationError({ configuration: tree });
    for (const id of [...(upsertFields ?? []), ...(skippedFields ?? [])]) if (!context.byId.has(id)) throw DatabaseErrors.fieldNotInTable();
    for (const id of upsertFields ?? []) {
      const field = context.byId.get(id)!;
      if (!this.types.of(field).column(field)) throw new ApiError('ERROR_INVALID_UPSERT_FIELD', 400, `The field ${field.name} cannot be used to match rows.`);
    }
    return { upsert_fields: upsertFields, upsert_values: values, skipped_fields: skippedFields };
  }

  /** The table's live rows by the text of their upsert cells (first row wins), read once per import. */
  private async upsertIndex(context: TableContext, fieldIds: number[]): Promise<{ fields: FieldEntity[]; rows: Map<string, number> }> {
    const fields = fieldIds.map((id) => context.byId.get(id)!);
    const ctx = this.contexts.fieldContext(context, null);
    const rows = new Map<string, number>();
    for await (const batch of this.rows.scan(context.table.id, { liveOnly: true })) {
      // One field after the other: the import's transaction is one connection.
      const columns: unknown[][] = [];
      for (const field of fields) columns.push(await this.types.of(field).readValues(field, batch, ctx));
      batch.forEach((row, i) => {
        const key = JSON.stringify(fields.map((field, f) => this.types.of(field).toText(field, columns[f][i])));
        if (!rows.has(key)) rows.set(key, row.id);
      });
    }
    return { fields, rows };
  }

  /** The existing row an upsert value list names, or undefined (a value its field cannot take matches nothing). */
  private async matchUpsert(context: TableContext, index: { fields: FieldEntity[]; rows: Map<string, number> }, values: unknown[] | undefined, userId: number): Promise<number | undefined> {
    if (!values) return undefined;
    const ctx = this.contexts.fieldContext(context, userId);
    const texts: (string | null)[] = [];
    for (const [i, field] of index.fields.entries()) {
      const type = this.types.of(field);
      try {
        const stored = await type.prepareValue(field, values[i], ctx);
        const [apiValue] = await type.readValues(field, [{ id: 0, [fieldColumn(field)]: this.rows.dialect.bind(stored) }], ctx);
        texts.push(type.toText(field, apiValue));
      } catch (error) {
        if (error instanceof CellError) return undefined;
        throw error;
      }
    }
    return index.rows.get(JSON.stringify(texts));
  }
}
