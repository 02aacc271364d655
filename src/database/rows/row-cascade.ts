import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { RowVisibility } from '../../core/events/domain-events';
import type { FieldEntity } from '../fields/field.entity';
import { fieldColumn } from '../fields/field-type';
import type { TableEntity } from '../table.entity';
import { TableContext, TableContextService } from '../table-context';
import { RowJson, RowReader } from './row-reader';
import { RowRepository } from './row.repository';

/**
 * Which rows filtered views show, read right before a write changes them: shared views (the
 * views module, for their pages' messages) and views webhooks watch (`view.rows_entered`).
 */
export interface RowVisibilitySource {
  visibleBefore(context: TableContext, rowIds: number[]): Promise<RowVisibility | undefined>;
}

/** A row write, as computed fields need to know it (see the formula module). */
export interface RowWriteChange {
  tableId: number;
  databaseId: number;
  rowIds: number[];
  /** The fields whose cells were written; `all` for created, trashed and restored rows. */
  fieldIds: number[] | 'all';
  /** Rows linked before the write, by link field id. */
  previousLinks?: Map<number, Set<number>>;
}

/** What a row write makes stale elsewhere: rows whose computed cells `apply` recomputes. */
export interface RowWriteCascade {
  rows: { tableId: number; rowIds: number[]; fieldIds: number[] }[];
  apply(): Promise<void>;
}

/** A row write's view of computed fields, taken before it writes anything (see `RowCascadeSource`). */
export interface RowWriteSession {
  plan(change: RowWriteChange): Promise<RowWriteCascade | null>;
}

/**
 * The formula module: recomputes computed cells a row write makes stale, in the same
 * transaction. `beginRowWrite` runs before the write changes anything (on PostgreSQL it waits
 * for other writers of the database's computed cells); null when nothing can be affected.
 */
export interface RowCascadeSource {
  beginRowWrite(table: Pick<TableEntity, 'id' | 'databaseId' | 'fieldsVersion'>): Promise<RowWriteSession | null>;
}

/**
 * What a row write changes beyond its own cells: computed cells elsewhere, recomputed in its
 * transaction (the formula module plugs in), and which filtered shared views showed the rows
 * before (the public views module plugs in), for the messages of their pages.
 */
@Injectable()
export class RowCascade {
  private readonly visibility: RowVisibilitySource[] = [];
  private source: RowCascadeSource | null = null;

  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    private readonly reader: RowReader,
  ) {}

  /** A module tells which rows its views showed before an update or delete (see RowVisibilitySource). */
  useRowVisibility(source: RowVisibilitySource): void {
    this.visibility.push(source);
  }

  /** The formula module recomputes computed cells after each row write. */
  useCascade(source: RowCascadeSource): void {
    this.source = source;
  }

  /** Which filtered views showed these rows, read right before a write changes them (per view id, from every source). */
  async visibleBefore(context: TableContext, rowIds: number[]): Promise<RowVisibility | undefined> {
    let result: RowVisibility | undefined;
    for (const source of this.visibility) {
      const seen = await source.visibleBefore(context, rowIds);
      if (seen) result = { ...result, ...seen };
    }
    return result;
  }

  /** Starts a row write's cascade (before anything is written); null without computed fields. */
  begin(context: TableContext): Promise<RowWriteSession | null> {
    return this.source?.beginRowWrite(context.table) ?? Promise.resolve(null);
  }

  /**
   * Recomputes the computed cells a write made stale, in its transaction: the written rows'
   * own (read back by the caller) and other rows' (linked rows, other tables), which are
   * announced here as `rows_updated` of their tables with their state before and after.
   */
  async run(session: RowWriteSession | null, context: TableContext, rowIds: number[], fieldIds: number[] | 'all', previousLinks?: Map<number, Set<number>>): Promise<void> {
    if (!session || !rowIds.length) return;
    const plan = await session.plan({ tableId: context.table.id, databaseId: context.table.databaseId, rowIds, fieldIds, previousLinks });
    if (!plan) return;
    const others = [];
    for (const change of plan.rows) {
      const other = change.tableId === context.table.id ? context : await this.contexts.ofTable(change.tableId);
      if (!other) continue;
      // As for the rows a write changes itself: what they were and which filtered shared views
      // showed them. Before, only the recomputed cells are read (the rest is as after).
      const fields = change.fieldIds.map((id) => other.byId.get(id)).filter((f): f is FieldEntity => !!f);
      const before = await this.reader.serialize(other, await this.rows.findByIds(change.tableId, change.rowIds), { userFieldNames: false, fields });
      others.push({ change, context: other, before, visibleBefore: await this.visibleBefore(other, change.rowIds) });
    }
    await plan.apply();
    for (const { change, context: other, before, visibleBefore } of others) {
      if (!before.length) continue;
      this.db.rowsChanged(change.tableId);
      const rows = await this.reader.rowsByIds(other, before.map((row) => row.id));
      const beforeById = new Map(before.map((row) => [row.id, row]));
      const rowsBefore = rows.map((row) => ({ ...row, ...beforeById.get(row.id) }));
      this.db.record('rows.updated', { tableId: change.tableId, rowIds: rows.map((row) => row.id), rowsBefore, updatedFieldIds: change.fieldIds, rows, visibleBefore, cascadeOf: context.table.id });
    }
  }

  /** The rows each link cell of `rows` pointed at (their related cells change with them). */
  linksOf(context: TableContext, rows: RowJson[]): Map<number, Set<number>> {
    const links = new Map<number, Set<number>>();
    for (const field of context.fields) {
      if (field.type !== 'link_row') continue;
      const ids = new Set<number>();
      for (const row of rows) for (const item of (row[fieldColumn(field)] as { id: number }[] | undefined) ?? []) ids.add(item.id);
      links.set(field.id, ids);
    }
    return links;
  }
}
