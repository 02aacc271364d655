import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { ApiError, ErrorTree, validationError } from '../../core/errors/api-error';
import { pythonTypeName } from '../../core/validation/field';
import type { FieldEntity } from '../fields/field.entity';
import { CellError, FieldTypeRegistry, KEEP_CELL, fieldColumn } from '../fields/field-type';
import { TableContext, TableContextService } from '../table-context';
import { settleCells } from './settle-cells';

/** Prepared cells of one row: column values and what types without a column store after the insert. */
export type ImportedCells = { values: Record<string, unknown>; relations: Map<FieldEntity, unknown>; fieldIds: number[] };

/**
 * A cell whose off-loop preparation (a password hash) was done before the write's transaction
 * began: the transaction takes the value as it is, with the value as sent for a field that
 * meanwhile became another type.
 */
class SettledCell {
  constructor(
    readonly sent: unknown,
    readonly value: unknown,
  ) {}
}

/** An error tree's leaves per field as plain messages (an import report's per-field lists). */
function messages(errors: ErrorTree): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const collect = (node: unknown, into: string[]): void => {
    if (Array.isArray(node)) for (const item of node) collect(item, into);
    else if (node && typeof node === 'object') {
      if (typeof (node as { error?: unknown }).error === 'string') into.push((node as { error: string }).error);
      else for (const value of Object.values(node)) collect(value, into);
    }
  };
  for (const [key, node] of Object.entries(errors)) {
    const list: string[] = [];
    collect(node, list);
    out[key] = list;
  }
  return out;
}

const READ_ONLY_DETAIL = (type: string): string => `Field of type ${type} is read only and should not be set manually.`;

/**
 * What a request or an import gives for rows, checked and converted by the field types before
 * anything is written: cells, ids, batch bodies (`{"items": [...]}`), and the errors in
 * Baserow's shapes (a batch's under `items.<index>`, an import's per row and field).
 */
@Injectable()
export class RowInput {
  constructor(
    private readonly contexts: TableContextService,
    private readonly types: FieldTypeRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Checks and converts one row's cells. Unknown keys are ignored; a read-only type is a
   * string detail; a bad value is that key's leaf in `errors`. On create, missing cells
   * take their default.
   */
  private async prepareCells(
    context: TableContext,
    body: Record<string, unknown>,
    userFieldNames: boolean,
    create: boolean,
    userId: number | null,
    errors: ErrorTree,
    /** An import reports every error under its field (a request answers a whole-detail error as such). */
    cellErrorsOnly = false,
  ): Promise<ImportedCells> {
    const ctx = this.contexts.fieldContext(context, userId);
    const values: Record<string, unknown> = {};
    const relations = new Map<FieldEntity, unknown>();
    const fieldIds: number[] = [];
    for (const field of context.fields) {
      const type = this.types.of(field);
      const key = userFieldNames ? field.name : fieldColumn(field);
      const given = Object.prototype.hasOwnProperty.call(body, key);
      if (given && type.readOnly) throw new ApiError('ERROR_REQUEST_BODY_VALIDATION', 400, READ_ONLY_DETAIL(field.type));
      if (!given && !create) continue;
      let value: unknown;
      if (given) {
        const sent = body[key];
        if (sent instanceof SettledCell && type.preparesOffLoop) {
          value = sent.value;
          fieldIds.push(field.id);
          if (type.column(field)) values[fieldColumn(field)] = value;
          else relations.set(field, value);
          continue;
        }
        try {
          const prepared = type.prepareValue(field, sent instanceof SettledCell ? sent.sent : sent, ctx);
          // Most types answer at once: no promise per cell (an import prepares millions). Work off
          // the event loop stays a promise until the whole batch is prepared (settleCells).
          value = prepared instanceof Promise && !type.preparesOffLoop ? await prepared : prepared;
        } catch (error) {
          if (!(error instanceof CellError)) throw error;
          if (typeof error.detail === 'string' && !cellErrorsOnly) throw new ApiError('ERROR_REQUEST_BODY_VALIDATION', 400, error.detail);
          errors[key] = typeof error.detail === 'string' ? [{ error: error.detail, code: 'invalid' }] : error.detail;
          continue;
        }
        if (value === KEEP_CELL) continue;
        fieldIds.push(field.id);
      } else {
        if (type.readOnly) continue;
        value = type.defaultValue(field, ctx);
      }
      if (type.column(field)) values[fieldColumn(field)] = value;
      else relations.set(field, value);
    }
    return { values, relations, fieldIds };
  }

  /**
   * The items with the cells of types that prepare off the event loop (password hashes) already
   * prepared, all at once, before the write's transaction: on SQLite a transaction holds the one
   * writer, which must not wait for libuv's hashing meanwhile. A cell the type refuses is left as
   * sent (the transaction's own check reports it). The items themselves when there is no such cell.
   */
  async prepareOffLoop(context: TableContext, items: unknown[], userFieldNames: boolean, userId: number | null): Promise<unknown[]> {
    const offLoop = context.fields.filter((field) => this.types.of(field).preparesOffLoop);
    if (!offLoop.length) return items;
    const ctx = this.contexts.fieldContext(context, userId);
    const pending: Promise<void>[] = [];
    const ready = items.map((item) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
      const body = { ...(item as Record<string, unknown>) };
      for (const field of offLoop) {
        const key = userFieldNames ? field.name : fieldColumn(field);
        if (!Object.prototype.hasOwnProperty.call(body, key)) continue;
        const sent = body[key];
        let prepared: unknown;
        try {
          prepared = this.types.of(field).prepareValue(field, sent, ctx);
        } catch (error) {
          if (error instanceof CellError) continue;
          throw error;
        }
        if (prepared instanceof Promise) pending.push(prepared.then((value: unknown) => void (body[key] = new SettledCell(sent, value))));
      }
      return body;
    });
    if (!pending.length) return items;
    await Promise.all(pending);
    return ready;
  }

  /**
   * Checks and converts the cells of every item (ids too, for updates). Errors are collected
   * for all items: a batch answers them under `items.<index>`, a single row at the top.
   */
  async prepareItems(context: TableContext, items: unknown[], options: { userFieldNames: boolean; create: boolean; single: boolean; userId: number | null }) {
    const errors: ErrorTree = {};
    const prepared: { id: number; cells: ImportedCells }[] = [];
    const fieldIds = new Set<number>();
    for (let i = 0; i < items.length; i++) {
      const itemErrors: ErrorTree = {};
      const body = requireObject(items[i], options.single ? null : i);
      const id = options.create ? 0 : options.single ? (body.id as number) : checkRowId(body.id, itemErrors);
      const cells = await this.prepareCells(context, body, options.userFieldNames, options.create, options.userId, itemErrors);
      cells.fieldIds.forEach((fieldId) => fieldIds.add(fieldId));
      if (Object.keys(itemErrors).length) errors[String(i)] = itemErrors;
      prepared.push({ id, cells });
    }
    await settleCells(prepared.map((item) => item.cells.values));
    if (Object.keys(errors).length) throw validationError(options.single ? (errors['0'] as ErrorTree) : { items: errors });
    return { prepared, fieldIds: [...fieldIds] };
  }

  /**
   * An import's rows, each keyed `field_<id>` (missing cells take their defaults), checked and
   * converted through the field types as a row create is. Rows with errors are left out and
   * reported by index with their messages per field (Baserow's `failing_rows`).
   */
  async prepareImport(
    context: TableContext,
    bodies: Record<string, unknown>[],
    userId: number | null,
  ): Promise<{ valid: ImportedCells[]; failing: Map<number, Record<string, string[]>> }> {
    const valid: ImportedCells[] = [];
    const failing = new Map<number, Record<string, string[]>>();
    for (const [index, body] of bodies.entries()) {
      const errors: ErrorTree = {};
      let cells: ImportedCells | null = null;
      try {
        cells = await this.prepareCells(context, body, false, true, userId, errors, true);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        errors['row'] = [{ error: typeof error.detail === 'string' ? error.detail : error.code, code: 'invalid' }];
      }
      if (Object.keys(errors).length || !cells) failing.set(index, messages(errors));
      else valid.push(cells);
    }
    await settleCells(valid.map((cells) => cells.values));
    return { valid, failing };
  }

  /** `{"items": [...]}` with 1 to BATCH_ROWS_SIZE_LIMIT items. */
  batchItems(body: unknown): unknown[] {
    const source = requireObject(body, null);
    const items = source.items;
    const limit = this.config.batchRowsSizeLimit;
    if (items === undefined) throw validationError({ items: [{ error: 'This field is required.', code: 'required' }] });
    if (!Array.isArray(items)) throw validationError({ items: [{ error: `Expected a list of items but got type "${pythonTypeName(items)}".`, code: 'not_a_list' }] });
    if (items.length < 1) throw validationError({ items: [{ error: 'Ensure this field has at least 1 elements.', code: 'min_length' }] });
    if (items.length > limit) throw validationError({ items: [{ error: `Ensure this field has no more than ${limit} elements.`, code: 'max_length' }] });
    return items;
  }
}

/** A row body must be a JSON object; a batch item's error is keyed by its index. */
export function requireObject(value: unknown, index: number | null): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const leaf = [{ error: `Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, code: 'invalid' }];
  throw validationError(index === null ? { non_field_errors: leaf } : { items: { [String(index)]: { non_field_errors: leaf } } });
}

/** A row id given as a number or a digit string; null when it is neither. */
export function parseRowId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

function checkRowId(value: unknown, errors: ErrorTree): number {
  if (value === undefined) {
    errors.id = [{ error: 'This field is required.', code: 'required' }];
    return 0;
  }
  const id = parseRowId(value);
  if (id === null) errors.id = [{ error: 'A valid integer is required.', code: 'invalid' }];
  return id ?? 0;
}
