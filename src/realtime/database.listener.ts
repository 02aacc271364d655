import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OnEvent } from '@nestjs/event-emitter';
import { hashId } from '../applications/applications.service';
import { ApplicationOperations as A, PermissionService } from '../permissions';
import { DomainEvent } from '../core/events/domain-events';
import { serializeTable } from '../database/tables/table.serializer';
import { FieldRepository } from '../database/fields/field.repository';
import { FieldJson, FieldsService } from '../database/fields/fields.service';
import { RowsService } from '../database/rows/rows.service';
import { TableContextService } from '../database/table-context';
import { ViewSelectionService } from '../views/filters/view-selection.service';
import { Broadcaster } from './broadcaster';
import { Delivery, encode, ServerMessage } from './delivery';
import { RealtimeRepository } from './realtime.repository';
import { tablePageGroup } from './pages/table.page';

const origin = (event: DomainEvent): string | null => event.actor.webSocketId;

/** PAGE(`table-<id>`). */
function toTablePage(tableId: number, message: ServerMessage, exclude: string | null): Delivery {
  return { kind: 'page', group: tablePageGroup(tableId), message: encode(message), exclude };
}


/**
 * Table, field and row messages (§4.6–4.8 and decision 3). Tables go to the workspace's
 * members whose roles let them see the table; fields and rows to the table's page (whose
 * subscription is checked, and discarded when the member's role no longer allows it). Payloads are read right after the commit.
 */
@Injectable()
export class DatabaseRealtimeListener {
  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly repo: RealtimeRepository,
    private readonly contexts: TableContextService,
    private readonly fields: FieldsService,
    private readonly fieldRepo: FieldRepository,
    private readonly rows: RowsService,
    private readonly moduleRef: ModuleRef,
    private readonly permissions: PermissionService,
  ) {}

  // Tables

  @OnEvent('table.created')
  async tableCreated(event: DomainEvent<'table.created'>): Promise<void> {
    const context = await this.contexts.ofTable(event.payload.tableId);
    if (!context) return;
    await this.toReaders(context.table, event.payload.workspaceId, { type: 'table_created', table: serializeTable(context.table) }, origin(event));
  }

  @OnEvent('table.updated')
  async tableUpdated(event: DomainEvent<'table.updated'>): Promise<void> {
    const context = await this.contexts.ofTable(event.payload.tableId);
    if (!context) return;
    const message = { type: 'table_updated', table_id: context.table.id, table: serializeTable(context.table), force_table_refresh: event.payload.forceTableRefresh ?? false };
    await this.toReaders(context.table, event.payload.workspaceId, message, origin(event));
  }

  @OnEvent('table.deleted')
  async tableDeleted(event: DomainEvent<'table.deleted'>): Promise<void> {
    const { tableId, databaseId, workspaceId } = event.payload;
    await this.toReaders({ id: tableId, databaseId }, workspaceId, { type: 'table_deleted', database_id: databaseId, table_id: tableId }, origin(event));
  }

  /** `tables_re_ordered` then `tables_reordered` (decision 3), ids hashed as Baserow does. */
  @OnEvent('tables.reordered')
  async tablesReordered(event: DomainEvent<'tables.reordered'>): Promise<void> {
    const { databaseId, workspaceId, tableIds } = event.payload;
    const audience = await this.repo.memberUserIds([workspaceId]);
    const payload = { database_id: hashId(databaseId), order: tableIds.map(hashId) };
    await this.broadcaster.send(
      { kind: 'users', userIds: audience, message: encode({ type: 'tables_re_ordered', ...payload }), exclude: origin(event) },
      { kind: 'users', userIds: audience, message: encode({ type: 'tables_reordered', ...payload }), exclude: origin(event) },
    );
  }

  // Fields

  @OnEvent('field.created')
  async fieldCreated(event: DomainEvent<'field.created'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_created', field, related_fields: related }));
  }

  @OnEvent('field.updated')
  async fieldUpdated(event: DomainEvent<'field.updated'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_updated', field_id: field.id, field, related_fields: related }));
  }

  /**
   * `field_restored` (always from the system): the field and its related fields with the
   * `filters`, `sortings` and `group_bys` of every view that uses them.
   */
  @OnEvent('field.restored')
  async fieldRestored(event: DomainEvent<'field.restored'>): Promise<void> {
    const ids = [event.payload.fieldId, ...event.payload.relatedFieldIds];
    const fields = (await Promise.all(ids.map((id) => this.fieldRepo.findLive(id)))).filter((f) => !!f);
    const use = await this.moduleRef.get(ViewSelectionService, { strict: false }).fieldUse(fields);
    const withViewUse = (json: FieldJson) => ({ ...json, filters: [], sortings: [], group_bys: [], ...use.get(Number(json.id)) });
    await this.fieldChanged(event, (field, related) => ({ type: 'field_restored', field: withViewUse(field), related_fields: related.map(withViewUse) }));
  }

  @OnEvent('field.deleted')
  async fieldDeleted(event: DomainEvent<'field.deleted'>): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const { own, others } = await this.relatedByTable(tableId, relatedFieldIds);
    await this.broadcaster.send(
      toTablePage(tableId, { type: 'field_deleted', table_id: tableId, field_id: fieldId, related_fields: own }, origin(event)),
      ...others,
    );
  }

  /**
   * The field's message to its table page; related fields of other tables go to their own
   * table's page as one `field_updated` each (the first changed field, the rest related), to all.
   */
  private async fieldChanged(event: DomainEvent<'field.created' | 'field.updated' | 'field.restored'>, build: (field: FieldJson, related: FieldJson[]) => ServerMessage): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const field = await this.fieldRepo.findLive(fieldId);
    if (!field) return;
    const [json] = await this.fields.serializeMany([field]);
    if (!json) return;
    const { own, others } = await this.relatedByTable(tableId, relatedFieldIds);
    await this.broadcaster.send(toTablePage(tableId, build(json, own), origin(event)), ...others);
  }

  private async relatedByTable(tableId: number, fieldIds: number[]): Promise<{ own: FieldJson[]; others: Delivery[] }> {
    const fields = [];
    for (const id of fieldIds) {
      const field = await this.fieldRepo.findLive(id);
      if (field) fields.push(field);
    }
    const own: FieldJson[] = [];
    const byTable = new Map<number, FieldJson[]>();
    for (const json of await this.fields.serializeMany(fields)) {
      const owner = Number(json.table_id);
      if (owner === tableId) own.push(json);
      else byTable.set(owner, [...(byTable.get(owner) ?? []), json]);
    }
    const others = [...byTable].map(([otherTable, [first, ...rest]]) =>
      toTablePage(otherTable, { type: 'field_updated', field_id: first.id, field: first, related_fields: rest }, null),
    );
    return { own, others };
  }

  // Rows

  @OnEvent('rows.created')
  async rowsCreated(event: DomainEvent<'rows.created'>): Promise<void> {
    const { tableId, rowIds, beforeRowId } = event.payload;
    if (!this.broadcaster.listened(tablePageGroup(tableId))) return;
    const rows = event.payload.rows ?? (await this.currentRows(tableId, rowIds));
    if (!rows) return;
    const metadata = await this.rows.rowMetadata(tableId, rowIds, event.actor.userId);
    await this.broadcaster.send(toTablePage(tableId, { type: 'rows_created', table_id: tableId, rows, metadata, before_row_id: beforeRowId }, origin(event)));
  }

  /** `before_rows_update` (the rows as they were) right before `rows_updated`. */
  @OnEvent('rows.updated')
  async rowsUpdated(event: DomainEvent<'rows.updated'>): Promise<void> {
    const { tableId, rowIds, rowsBefore, updatedFieldIds } = event.payload;
    if (!this.broadcaster.listened(tablePageGroup(tableId))) return;
    const rows = event.payload.rows ?? (await this.currentRows(tableId, rowIds));
    if (!rows) return;
    const metadata = await this.rows.rowMetadata(tableId, rowIds, event.actor.userId);
    await this.broadcaster.send(
      toTablePage(tableId, { type: 'before_rows_update', table_id: tableId, row_ids: rowIds, rows: rowsBefore }, origin(event)),
      toTablePage(
        tableId,
        { type: 'rows_updated', table_id: tableId, rows_before_update: rowsBefore, rows, metadata, updated_field_ids: updatedFieldIds },
        origin(event),
      ),
    );
  }

  /** `before_rows_delete` right before `rows_deleted`, both with the rows as they were. */
  @OnEvent('rows.deleted')
  async rowsDeleted(event: DomainEvent<'rows.deleted'>): Promise<void> {
    const { tableId, rowIds, rows } = event.payload;
    if (!this.broadcaster.listened(tablePageGroup(tableId))) return;
    await this.broadcaster.send(
      toTablePage(tableId, { type: 'before_rows_delete', table_id: tableId, row_ids: rowIds, rows }, origin(event)),
      toTablePage(tableId, { type: 'rows_deleted', table_id: tableId, row_ids: rowIds, rows }, origin(event)),
    );
  }

  /** The rows as they are now (for events that do not carry them), or null when the table is gone. */
  private async currentRows(tableId: number, rowIds: number[]) {
    const context = await this.contexts.ofTable(tableId);
    return context ? this.rows.rowsByIds(context, rowIds) : null;
  }

  /** PERMITTED(list the table): the members whose roles let them see it in its database's list. */
  private async toReaders(table: { id: number; databaseId: number }, workspaceId: number, message: ServerMessage, exclude: string | null): Promise<void> {
    const members = await this.repo.memberUserIds([workspaceId]);
    const userIds = await this.permissions.audience(members, A.listTables, { workspaceId, applicationId: table.databaseId, tableId: table.id });
    await this.broadcaster.send({ kind: 'users', userIds, message: encode(message), exclude });
  }
}
