import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent, RowSnapshot } from '../core/events/domain-events';
import { RowsService } from '../database/rows/rows.service';
import { FieldJson, FieldsService } from '../database/fields/fields.service';
import { TableContextService } from '../database/table-context';
import { hasPublicRows, PublicViewAccess, PublicViewsService } from '../views/public/public-views.service';
import { ViewRepository } from '../views/view.repository';
import { Broadcaster } from './broadcaster';
import { Delivery, encode, ServerMessage } from './delivery';
import { viewPageGroup } from './pages/view.page';

/** PAGE(`view-<slug>`), to every socket (no origin exclusion on shared pages). */
function toViewPage(slug: string, message: ServerMessage): Delivery {
  return { kind: 'page', group: viewPageGroup(slug), message: encode(message), exclude: null };
}

/**
 * The public twins of field, row and view messages for shared views' pages (Baserow's
 * `ws/public` handlers): fields and rows reduced to what each public view shows (ids of the
 * table, database and workspace as 0, hidden fields' values never sent), rows leaving the
 * view's filter sent as deleted, `force_view_refresh` when the view or its field options
 * change, and the pages of a link that stopped opening discarded.
 */
@Injectable()
export class PublicViewsListener implements OnModuleInit {
  private publicViews!: PublicViewsService;
  private views!: ViewRepository;

  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly moduleRef: ModuleRef,
    private readonly contexts: TableContextService,
    private readonly fields: FieldsService,
    private readonly rows: RowsService,
  ) {}

  /** The views module is not imported by the realtime module: looked up once. */
  onModuleInit(): void {
    this.publicViews = this.moduleRef.get(PublicViewsService, { strict: false });
    this.views = this.moduleRef.get(ViewRepository, { strict: false });
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

  @OnEvent('field.restored')
  async fieldRestored(event: DomainEvent<'field.restored'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_restored', field, related_fields: related }));
  }

  /** Sent to the views in which the field was visible (its options survive in the trash). */
  @OnEvent('field.deleted')
  async fieldDeleted(event: DomainEvent<'field.deleted'>): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.publicViews.sharedViews(tableId)) {
      const options = await this.views.fieldOptions(access.view.id);
      if (options.get(fieldId)?.options.hidden !== false) continue;
      const related = await this.relatedIn(access, relatedFieldIds);
      deliveries.push(toViewPage(access.view.slug, { type: 'field_deleted', table_id: 0, field_id: fieldId, related_fields: related }));
    }
    await this.broadcaster.send(...deliveries);
  }

  private async fieldChanged(event: DomainEvent<'field.created' | 'field.updated' | 'field.restored'>, build: (field: FieldJson, related: FieldJson[]) => ServerMessage): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.publicViews.sharedViews(tableId)) {
      const field = access.visible.find((f) => f.id === fieldId);
      if (!field) continue;
      const json = this.publicViews.publicField(await this.fields.serialize(field, access.context));
      deliveries.push(toViewPage(access.view.slug, build(json, await this.relatedIn(access, relatedFieldIds))));
    }
    await this.broadcaster.send(...deliveries);
  }

  /** The related fields the view shows (of its own table: another table's fields are not the view's to show). */
  private async relatedIn(access: PublicViewAccess, fieldIds: number[]): Promise<FieldJson[]> {
    const shown = access.visible.filter((field) => fieldIds.includes(field.id));
    const jsons = await Promise.all(shown.map((field) => this.fields.serialize(field, access.context)));
    return jsons.map((json) => this.publicViews.publicField(json));
  }

  // Rows

  @OnEvent('rows.created')
  async rowsCreated(event: DomainEvent<'rows.created'>): Promise<void> {
    const { tableId, rowIds, beforeRowId } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.publicViews.sharedViews(tableId)) {
      const visible = await this.publicViews.visibleRowIds(access, rowIds);
      if (!visible.size) continue;
      const rows = await this.currentRows(access, [...visible]);
      deliveries.push(toViewPage(access.view.slug, { type: 'rows_created', table_id: 0, rows, metadata: {}, before_row_id: beforeRowId }));
    }
    await this.broadcaster.send(...deliveries);
  }

  /**
   * Per view, by visibility (its saved filters) before and after the write: rows it still
   * shows are `rows_updated`, rows entering it `rows_created`, rows leaving it `rows_deleted`
   * (with the values it showed before), and rows it never showed nothing.
   */
  @OnEvent('rows.updated')
  async rowsUpdated(event: DomainEvent<'rows.updated'>): Promise<void> {
    const { tableId, rowIds, rowsBefore, updatedFieldIds, visibleBefore } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.publicViews.sharedViews(tableId)) {
      const slug = access.view.slug;
      const before = new Set(visibleBefore?.[String(access.view.id)] ?? rowIds);
      const now = await this.publicViews.visibleRowIds(access, rowIds);
      const stay = rowIds.filter((id) => before.has(id) && now.has(id));
      const enter = rowIds.filter((id) => !before.has(id) && now.has(id));
      const leave = rowIds.filter((id) => before.has(id) && !now.has(id));
      if (stay.length) {
        const snapshots = this.publicViews.restrict(only(rowsBefore, stay) as never, access.visible);
        const rows = await this.currentRows(access, stay);
        deliveries.push(toViewPage(slug, { type: 'rows_updated', table_id: 0, rows_before_update: snapshots, rows, metadata: {}, updated_field_ids: updatedFieldIds }));
      }
      if (enter.length) deliveries.push(toViewPage(slug, { type: 'rows_created', table_id: 0, rows: await this.currentRows(access, enter), metadata: {}, before_row_id: null }));
      if (leave.length) deliveries.push(toViewPage(slug, { type: 'rows_deleted', table_id: 0, row_ids: leave, rows: this.publicViews.restrict(only(rowsBefore, leave) as never, access.visible) }));
    }
    await this.broadcaster.send(...deliveries);
  }

  /** The deleted rows the view showed, as they were, reduced to its visible fields. */
  @OnEvent('rows.deleted')
  async rowsDeleted(event: DomainEvent<'rows.deleted'>): Promise<void> {
    const { tableId, rowIds, rows, visibleBefore } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.publicViews.sharedViews(tableId)) {
      const shown = new Set(visibleBefore?.[String(access.view.id)] ?? rowIds);
      const ids = rowIds.filter((id) => shown.has(id));
      if (!ids.length) continue;
      deliveries.push(toViewPage(access.view.slug, { type: 'rows_deleted', table_id: 0, row_ids: ids, rows: this.publicViews.restrict(only(rows, ids) as never, access.visible) }));
    }
    await this.broadcaster.send(...deliveries);
  }

  private async currentRows(access: PublicViewAccess, ids: number[]) {
    return this.publicViews.restrict(await this.rowsOf(access, ids), access.visible);
  }

  private rowsOf(access: PublicViewAccess, ids: number[]) {
    return this.rows.rowsByIds(access.context, ids, { userFieldNames: false, fields: access.visible });
  }

  // Views

  @OnEvent('view.updated')
  async viewUpdated(event: DomainEvent<'view.updated'>): Promise<void> {
    await this.forceRefresh(event.payload.viewId);
  }

  @OnEvent('view.field_options_updated')
  async fieldOptionsUpdated(event: DomainEvent<'view.field_options_updated'>): Promise<void> {
    await this.forceRefresh(event.payload.viewId);
  }

  /** A saved filter changed: the shared page reloads its rows (filter groups, sorts and decorations send nothing, as Baserow). */
  @OnEvent('view_filter.created')
  @OnEvent('view_filter.updated')
  @OnEvent('view_filter.deleted')
  async filterChanged(event: DomainEvent<'view_filter.created' | 'view_filter.updated' | 'view_filter.deleted'>): Promise<void> {
    const view = await this.views.findLive(event.payload.viewId);
    if (!view || !view.public || !hasPublicRows(view.type)) return;
    await this.broadcaster.send(toViewPage(view.slug, { type: 'force_view_rows_refresh', view_id: view.slug }));
  }

  /** The link stopped opening for some (not public, new password, new slug): their pages are checked again. */
  @OnEvent('view.public_access_changed')
  async publicAccessChanged(event: DomainEvent<'view.public_access_changed'>): Promise<void> {
    await this.broadcaster.send({ kind: 'recheck_pages', group: viewPageGroup(event.payload.slug) });
  }

  /** `force_view_refresh` with the public fields and view, to a public view's page. */
  private async forceRefresh(viewId: number): Promise<void> {
    const view = await this.views.findLive(viewId);
    if (!view || !view.public || !hasPublicRows(view.type)) return;
    const context = await this.contexts.ofTable(view.tableId);
    if (!context) return;
    const access: PublicViewAccess = { view, context, visible: await this.publicViews.visibleFields(view, context), member: false };
    const message = { type: 'force_view_refresh', view_id: view.slug, fields: await this.publicViews.publicFields(access), view: await this.publicViews.publicView(access) };
    await this.broadcaster.send(toViewPage(view.slug, message));
  }
}

/** The snapshots of the listed rows, in the listed order. */
function only(rows: RowSnapshot[], ids: number[]): RowSnapshot[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.map((id) => byId.get(id)).filter((row): row is RowSnapshot => !!row);
}
